//! The gallery, on both engines: only public decks, newest first, in one language or all, a
//! page at a time; by plays of all time and this week as the projector counts them; by the
//! start of a title in either script; and a deck made unlisted leaves every list at once.

use app::decks::model::{
    DeckDraft, DeckLang, DeckThing, GalleryDeck, GalleryOrder, Visibility, DEFAULT_EMOJI,
};
use app::decks::store::GALLERY_PAGE;
use app::game::model::DeckPlay;
use app::ids::DeckCode;
use app::rooms::RoomCode;

use super::boards::{record, write_record};
use super::{cost, player, test_table, TestTable};

pub(crate) fn draft(title: &str, lang: DeckLang, visibility: Visibility) -> DeckDraft {
    DeckDraft {
        title: title.to_owned(),
        description: String::new(),
        lang,
        visibility,
        things: (0..10)
            .map(|i| DeckThing {
                en: (lang != DeckLang::Hi).then(|| format!("Thing {i}")),
                hi: (lang != DeckLang::En).then(|| format!("चीज़ {i}")),
                hi_latin: None,
                emoji: DEFAULT_EMOJI.to_owned(),
                flies: i % 2 == 0,
                note: None,
            })
            .collect(),
    }
}

fn codes(decks: &[GalleryDeck]) -> Vec<DeckCode> {
    decks.iter().map(|d| d.code.clone()).collect()
}

pub(crate) fn week() -> String {
    app::decks::model::week_label(app::store::epoch_millis())
}

/// `matches` finished matches of deck `code`, counted by the projector's path.
pub(crate) async fn play(t: &TestTable, code: &DeckCode, matches: usize) {
    let user = player(t, "Player").await;
    let mut records = Vec::new();
    for i in 0..matches {
        let mut r = record(
            &user,
            &RoomCode::parse("GXBRY").unwrap(),
            100 + i as i32,
            app::store::epoch_millis(),
        );
        r.deck = Some(DeckPlay {
            code: code.clone(),
            counts_play: true,
        });
        write_record(t, &r).await;
        records.push(r);
    }
    t.db.boards().count_results(&records, &[]).await.unwrap();
}

#[tokio::test]
async fn the_gallery_lists_public_decks_newest_first_by_language_a_page_at_a_time() {
    let t = test_table().await;
    let asha = player(&t, "Asha").await;
    let mut public = Vec::new();
    for (i, lang) in [DeckLang::En, DeckLang::Hi, DeckLang::Both]
        .into_iter()
        .cycle()
        .take(GALLERY_PAGE as usize + 2)
        .enumerate()
    {
        let made =
            t.db.decks()
                .create(&asha, draft(&format!("Deck {i}"), lang, Visibility::Public))
                .await
                .unwrap();
        public.push((made.code, lang));
        // Made in separate milliseconds, so "newest" has one order.
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    for visibility in [Visibility::Unlisted, Visibility::Private] {
        t.db.decks()
            .create(&asha, draft("Hidden", DeckLang::En, visibility))
            .await
            .unwrap();
    }
    let newest_first: Vec<DeckCode> = public.iter().rev().map(|(c, _)| c.clone()).collect();

    t.calls.reset();
    let (first, next) =
        t.db.decks()
            .gallery(GalleryOrder::Newest, None, &week(), None)
            .await
            .unwrap();
    println!(
        "a gallery page in every language: (calls, RCU, WCU) {:?}",
        cost(&t.calls)
    );
    assert_eq!(
        t.calls.ops(),
        ["Query", "Query", "Query"],
        "one Query a language, at once"
    );
    assert_eq!(codes(&first), newest_first[..GALLERY_PAGE as usize]);
    let (second, last) =
        t.db.decks()
            .gallery(GalleryOrder::Newest, None, &week(), next.as_deref())
            .await
            .unwrap();
    assert_eq!(codes(&second), newest_first[GALLERY_PAGE as usize..]);
    assert_eq!(last, None, "two decks on the last page, and no more");

    t.calls.reset();
    let (hindi, _) =
        t.db.decks()
            .gallery(GalleryOrder::Newest, Some(DeckLang::Hi), &week(), None)
            .await
            .unwrap();
    assert_eq!(t.calls.ops(), ["Query"]);
    let expected: Vec<DeckCode> = public
        .iter()
        .rev()
        .filter(|(_, l)| *l == DeckLang::Hi)
        .map(|(c, _)| c.clone())
        .collect();
    assert_eq!(codes(&hindi), expected);
    assert!(hindi
        .iter()
        .all(|d| d.lang == DeckLang::Hi && d.count == 10));
}

#[tokio::test]
async fn plays_order_the_gallery_searches_find_titles_and_a_deck_made_unlisted_leaves_it() {
    let t = test_table().await;
    let asha = player(&t, "Asha").await;
    let pets =
        t.db.decks()
            .create(&asha, draft("Our pets", DeckLang::En, Visibility::Public))
            .await
            .unwrap();
    let birds =
        t.db.decks()
            .create(&asha, draft("हमारे पक्षी", DeckLang::Hi, Visibility::Public))
            .await
            .unwrap();
    let quiet =
        t.db.decks()
            .create(
                &asha,
                draft("Our quiet ones", DeckLang::En, Visibility::Public),
            )
            .await
            .unwrap();
    play(&t, &pets.code, 1).await;
    play(&t, &birds.code, 3).await;

    for order in [GalleryOrder::Plays, GalleryOrder::Week] {
        let (listed, _) =
            t.db.decks()
                .gallery(order, None, &week(), None)
                .await
                .unwrap();
        let expected = match order {
            // Every public deck has its place by plays from the start; this week's lists those
            // played this week.
            GalleryOrder::Plays => vec![birds.code.clone(), pets.code.clone(), quiet.code.clone()],
            _ => vec![birds.code.clone(), pets.code.clone()],
        };
        assert_eq!(codes(&listed), expected, "{order:?}");
        assert_eq!((listed[0].plays, listed[0].week_plays), (3, 3));
        assert_eq!(listed[0].title, "हमारे पक्षी");
    }

    // By the start of the title, in any case, in either script.
    for (typed, found) in [
        ("our", vec![pets.code.clone(), quiet.code.clone()]),
        ("OUR Q", vec![quiet.code.clone()]),
        ("हमारे", vec![birds.code.clone()]),
        ("their", vec![]),
    ] {
        assert_eq!(
            codes(&t.db.decks().search(typed).await.unwrap()),
            found,
            "{typed}"
        );
    }

    // Made unlisted: gone from every list at once; its plays are still its own.
    let mut unlisted = draft("Our pets", DeckLang::En, Visibility::Unlisted);
    unlisted.things.truncate(10);
    t.db.decks()
        .save(&pets.code, &asha, pets.version, unlisted, "unlist")
        .await
        .unwrap();
    for order in GalleryOrder::ALL {
        let (listed, _) =
            t.db.decks()
                .gallery(order, None, &week(), None)
                .await
                .unwrap();
        assert!(!codes(&listed).contains(&pets.code), "{order:?}");
    }
    assert_eq!(
        codes(&t.db.decks().search("our").await.unwrap()),
        vec![quiet.code.clone()]
    );
    play(&t, &pets.code, 1).await;
    let (listed, _) =
        t.db.decks()
            .gallery(GalleryOrder::Week, None, &week(), None)
            .await
            .unwrap();
    assert!(
        !codes(&listed).contains(&pets.code),
        "a play does not list it again"
    );
    let read = t.db.decks().deck(&pets.code, false).await.unwrap().unwrap();
    assert_eq!(read.plays, 2);
}
