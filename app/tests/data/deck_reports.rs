//! Reports of decks, on both engines: each reporter counts once, the third hides the deck from
//! every gallery list at once (and the projector's counts do not list it again), its author may
//! not publish it while hidden, an operator restores it or keeps it out, an author with two
//! decks hidden publishes no more until an operator lifts it, and reports racing each other
//! hide a deck exactly once.

use app::decks::model::{DeckLang, GalleryOrder, Visibility};
use app::decks::moderation::{DeckReason, DeckReported, HIDES_TO_BAR, REPORTS_TO_HIDE};
use app::decks::store::DeckConflict;
use app::ids::{DeckCode, UserId};

use super::gallery::{draft, play, week};
use super::{cost, player, test_table, TestTable};

/// Every gallery list deck `code` is on (each order in every language, and a search of its
/// title's first word).
async fn listed_in(t: &TestTable, code: &DeckCode, title: &str) -> Vec<String> {
    let mut found = Vec::new();
    for order in GalleryOrder::ALL {
        let (decks, _) =
            t.db.decks()
                .gallery(order, None, &week(), None)
                .await
                .unwrap();
        if decks.iter().any(|d| &d.code == code) {
            found.push(format!("{order:?}"));
        }
    }
    let word = title.split(' ').next().unwrap();
    if t.db
        .decks()
        .search(word)
        .await
        .unwrap()
        .iter()
        .any(|d| &d.code == code)
    {
        found.push("search".to_owned());
    }
    found
}

async fn reporters(t: &TestTable, n: usize) -> Vec<UserId> {
    let mut all = Vec::new();
    for i in 0..n {
        all.push(player(t, &format!("Reporter {i}")).await);
    }
    all
}

/// Deck `code` reported by each of `by`, one after another.
async fn report_all(t: &TestTable, code: &DeckCode, by: &[UserId]) -> Vec<DeckReported> {
    let mut outcomes = Vec::new();
    for who in by {
        outcomes.push(
            t.db.decks()
                .report(code, who, DeckReason::Words)
                .await
                .unwrap(),
        );
    }
    outcomes
}

#[tokio::test]
async fn the_third_report_hides_a_deck_from_every_list_until_an_operator_restores_it() {
    let t = test_table().await;
    let asha = player(&t, "Asha").await;
    let pets =
        t.db.decks()
            .create(
                &asha,
                draft("Ourpets deck", DeckLang::En, Visibility::Public),
            )
            .await
            .unwrap();
    play(&t, &pets.code, 1).await;
    // In `GalleryOrder::ALL`'s order, then the search.
    let every = ["Week", "Plays", "Newest", "search"];
    assert_eq!(listed_in(&t, &pets.code, "Ourpets").await, every);

    let by = reporters(&t, REPORTS_TO_HIDE as usize + 1).await;
    t.calls.reset();
    let first =
        t.db.decks()
            .report(&pets.code, &by[0], DeckReason::Spam)
            .await
            .unwrap();
    println!("a report of a deck: (calls, RCU, WCU) {:?}", cost(&t.calls));
    assert_eq!(first, DeckReported::Counted { hidden: false });
    assert_eq!(t.calls.ops(), ["TransactWriteItems", "GetItem"]);
    assert_eq!(
        t.db.decks()
            .report(&pets.code, &by[0], DeckReason::Words)
            .await
            .unwrap(),
        DeckReported::Again,
        "one reporter counts once"
    );
    let rest = report_all(&t, &pets.code, &by[1..REPORTS_TO_HIDE as usize]).await;
    assert_eq!(
        rest.last(),
        Some(&DeckReported::Counted { hidden: true }),
        "the third distinct reporter hides it: {rest:?}"
    );
    assert_eq!(
        listed_in(&t, &pets.code, "Ourpets").await,
        Vec::<String>::new()
    );
    let hidden = t.db.decks().hidden_decks().await.unwrap();
    assert_eq!(hidden.len(), 1);
    assert_eq!(
        (&hidden[0].code, hidden[0].reports),
        (&pets.code, REPORTS_TO_HIDE)
    );
    assert_eq!(t.db.decks().hides_of(&asha).await.unwrap(), 1);
    // A fourth report counts and hides nothing again; a play counted meanwhile lists nothing.
    let fourth = report_all(&t, &pets.code, &by[REPORTS_TO_HIDE as usize..]).await;
    assert_eq!(fourth, [DeckReported::Counted { hidden: false }]);
    assert_eq!(t.db.decks().hides_of(&asha).await.unwrap(), 1);
    play(&t, &pets.code, 1).await;
    assert_eq!(
        listed_in(&t, &pets.code, "Ourpets").await,
        Vec::<String>::new()
    );
    // Its link still opens it: the deck is whole, and says it is hidden.
    let deck = t.db.decks().deck(&pets.code, true).await.unwrap().unwrap();
    assert_eq!((deck.plays, deck.version, deck.hidden), (2, 1, true));

    // Its author may not publish it while hidden; unlisted is fine.
    let again =
        t.db.decks()
            .save(
                &pets.code,
                &asha,
                1,
                draft("Ourpets deck", DeckLang::En, Visibility::Public),
                "p",
            )
            .await;
    assert!(matches!(again, Err(DeckConflict::UnderReview)), "{again:?}");
    assert_eq!(
        t.db.decks()
            .deck(&pets.code, true)
            .await
            .unwrap()
            .unwrap()
            .version,
        1
    );

    // An operator restores it: listed again at once (this week's list at its next play, as
    // after a save), its plays its own, the author's count back.
    assert!(t.db.decks().restore(&pets.code).await.unwrap());
    assert_eq!(
        listed_in(&t, &pets.code, "Ourpets").await,
        ["Plays", "Newest", "search"]
    );
    let (plays, _) =
        t.db.decks()
            .gallery(GalleryOrder::Plays, Some(DeckLang::En), &week(), None)
            .await
            .unwrap();
    assert_eq!(plays[0].plays, 2);
    play(&t, &pets.code, 1).await;
    assert_eq!(listed_in(&t, &pets.code, "Ourpets").await, every);
    assert_eq!(t.db.decks().hides_of(&asha).await.unwrap(), 0);
    assert!(t.db.decks().hidden_decks().await.unwrap().is_empty());
    assert!(
        !t.db
            .decks()
            .deck(&pets.code, true)
            .await
            .unwrap()
            .unwrap()
            .hidden
    );
    assert!(!t.db.decks().restore(&pets.code).await.unwrap(), "once");
    let saved =
        t.db.decks()
            .save(
                &pets.code,
                &asha,
                1,
                draft("Ourpets deck", DeckLang::En, Visibility::Public),
                "q",
            )
            .await;
    assert_eq!(saved.unwrap(), 2);
}

#[tokio::test]
async fn an_author_with_two_decks_hidden_publishes_no_more_until_an_operator_lifts_it() {
    let t = test_table().await;
    let asha = player(&t, "Asha").await;
    let by = reporters(&t, REPORTS_TO_HIDE as usize).await;
    let mut hidden = Vec::new();
    for i in 0..HIDES_TO_BAR {
        let deck =
            t.db.decks()
                .create(
                    &asha,
                    draft(&format!("Deck {i}"), DeckLang::En, Visibility::Public),
                )
                .await
                .unwrap();
        report_all(&t, &deck.code, &by).await;
        hidden.push(deck.code);
    }
    assert_eq!(t.db.decks().hides_of(&asha).await.unwrap(), HIDES_TO_BAR);
    let before = t.db.decks().by_author(&asha).await.unwrap().len();
    let public =
        t.db.decks()
            .create(&asha, draft("Third", DeckLang::En, Visibility::Public))
            .await;
    assert!(matches!(public, Err(DeckConflict::Barred)), "{public:?}");
    assert_eq!(
        t.db.decks().by_author(&asha).await.unwrap().len(),
        before,
        "nothing written"
    );
    let unlisted =
        t.db.decks()
            .create(&asha, draft("Third", DeckLang::En, Visibility::Unlisted))
            .await
            .unwrap();
    let made_public =
        t.db.decks()
            .save(
                &unlisted.code,
                &asha,
                1,
                draft("Third", DeckLang::En, Visibility::Public),
                "p",
            )
            .await;
    assert!(
        matches!(made_public, Err(DeckConflict::Barred)),
        "{made_public:?}"
    );
    assert_eq!(
        t.db.decks()
            .deck(&unlisted.code, true)
            .await
            .unwrap()
            .unwrap()
            .version,
        1
    );

    // Kept hidden: off the operator's list, still out of the gallery.
    t.db.decks().keep_hidden(&hidden[0]).await.unwrap();
    let listed: Vec<DeckCode> =
        t.db.decks()
            .hidden_decks()
            .await
            .unwrap()
            .into_iter()
            .map(|d| d.code)
            .collect();
    assert_eq!(listed, [hidden[1].clone()]);
    assert!(listed_in(&t, &hidden[0], "Deck").await.is_empty());

    // Lifted: the author publishes again.
    t.db.decks().lift_author(&asha).await.unwrap();
    let saved =
        t.db.decks()
            .save(
                &unlisted.code,
                &asha,
                1,
                draft("Third", DeckLang::En, Visibility::Public),
                "q",
            )
            .await;
    assert_eq!(saved.unwrap(), 2);
    assert_eq!(
        listed_in(&t, &unlisted.code, "Third").await,
        ["Plays", "Newest", "search"]
    );
}

#[tokio::test]
async fn reports_racing_each_other_hide_a_deck_exactly_once() {
    let t = test_table().await;
    let asha = player(&t, "Asha").await;
    let deck =
        t.db.decks()
            .create(&asha, draft("Racing", DeckLang::En, Visibility::Public))
            .await
            .unwrap();
    let by = reporters(&t, REPORTS_TO_HIDE as usize + 2).await;
    // Every reporter at once, the first of them twice.
    let all: Vec<&UserId> = by.iter().chain(std::iter::once(&by[0])).collect();
    let outcomes = futures::future::join_all(
        all.iter()
            .map(|who| t.db.decks().report(&deck.code, who, DeckReason::Other)),
    )
    .await;
    let outcomes: Vec<DeckReported> = outcomes.into_iter().map(Result::unwrap).collect();
    let hid = outcomes
        .iter()
        .filter(|o| **o == DeckReported::Counted { hidden: true })
        .count();
    let again = outcomes
        .iter()
        .filter(|o| **o == DeckReported::Again)
        .count();
    assert_eq!((hid, again), (1, 1), "{outcomes:?}");
    assert_eq!(t.db.decks().hides_of(&asha).await.unwrap(), 1);
    let listed = t.db.decks().hidden_decks().await.unwrap();
    assert_eq!(listed.len(), 1);
    assert!(listed_in(&t, &deck.code, "Racing").await.is_empty());
}
