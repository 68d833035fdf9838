//! Decks in the table, on both engines: made and read back, listed by their author, two saves
//! racing (one wins, the other is told and nothing of it is written), a retried save whose
//! answer was lost, and another player's deck left alone.

use app::decks::model::{DeckDraft, DeckLang, DeckThing, Visibility, DEFAULT_EMOJI};
use app::decks::store::DeckConflict;
use app::store::Recorder;

use super::{cost, player, test_table};

fn draft(title: &str, things: &[&str]) -> DeckDraft {
    DeckDraft {
        title: title.to_owned(),
        description: "For the family".to_owned(),
        lang: DeckLang::En,
        visibility: Visibility::Unlisted,
        things: things
            .iter()
            .enumerate()
            .map(|(i, name)| DeckThing {
                en: Some((*name).to_owned()),
                hi: None,
                hi_latin: None,
                emoji: DEFAULT_EMOJI.to_owned(),
                flies: i % 3 == 0,
                note: (i == 1).then(|| "Ruled on at Diwali".to_owned()),
            })
            .collect(),
    }
}

const PETS: [&str; 12] = [
    "Moti", "Tommy", "Kalu", "Bholu", "Chintu", "Pinky", "Sheru", "Tiger", "Mithu", "Bunty",
    "Raja", "Rani",
];

#[tokio::test]
async fn a_deck_is_made_read_back_whole_and_listed_by_its_author() {
    let t = test_table().await;
    let asha = player(&t, "Asha").await;
    let calls = Recorder::default();
    let db = t.db.recording(calls.clone());
    let made = db
        .decks()
        .create(&asha, draft("  Our pets ", &PETS))
        .await
        .unwrap();
    println!("make a deck of 12: (calls, RCU, WCU) {:?}", cost(&calls));
    assert_eq!(
        made.draft.title, "Our pets",
        "kept without the spaces at its ends"
    );
    assert_eq!(made.version, 1);

    let calls = Recorder::default();
    let read =
        t.db.recording(calls.clone())
            .decks()
            .deck(&made.code, false)
            .await
            .unwrap()
            .unwrap();
    println!("read a deck of 12: (calls, RCU, WCU) {:?}", cost(&calls));
    assert_eq!(cost(&calls).0, 1, "one Query");
    assert_eq!(read, made);
    let names: Vec<_> = read
        .draft
        .things
        .iter()
        .map(|t| t.en.clone().unwrap())
        .collect();
    assert_eq!(names, PETS);
    assert_eq!(
        read.draft.things[1].note.as_deref(),
        Some("Ruled on at Diwali")
    );

    let second =
        t.db.decks()
            .create(&asha, draft("Birds", &PETS))
            .await
            .unwrap();
    let bilal = player(&t, "Bilal").await;
    t.db.decks()
        .create(&bilal, draft("Bilal's", &PETS))
        .await
        .unwrap();
    let listed: Vec<_> = t.db.decks().by_author(&asha).await.unwrap();
    let titles: Vec<_> = listed.iter().map(|d| d.title.as_str()).collect();
    assert_eq!(titles, ["Birds", "Our pets"], "hers alone, newest first");
    assert_eq!(listed[0].code, second.code);
    assert_eq!(listed[1].count, 12);
}

#[tokio::test]
async fn two_saves_of_one_deck_race_one_is_written_and_the_other_told() {
    let t = test_table().await;
    let asha = player(&t, "Asha").await;
    let deck =
        t.db.decks()
            .create(&asha, draft("Our pets", &PETS))
            .await
            .unwrap();
    let mut first = PETS.to_vec();
    first[0] = "Moti the parrot";
    let mut second = PETS.to_vec();
    second[11] = "Rani the cat";
    let (a, b) = tokio::join!(
        t.db.decks()
            .save(&deck.code, &asha, 1, draft("Pets A", &first), "save-a"),
        t.db.decks()
            .save(&deck.code, &asha, 1, draft("Pets B", &second), "save-b"),
    );
    let (won, lost) = match (a, b) {
        (Ok(2), Err(lost)) => ("Pets A", lost),
        (Err(lost), Ok(2)) => ("Pets B", lost),
        other => panic!("one save must win: {other:?}"),
    };
    assert!(
        matches!(lost, DeckConflict::Stale { current: 2 }),
        "{lost:?}"
    );
    let now = t.db.decks().deck(&deck.code, true).await.unwrap().unwrap();
    assert_eq!(now.version, 2);
    assert_eq!(now.draft.title, won);
    let winner = if won == "Pets A" { &first } else { &second };
    let names: Vec<_> = now
        .draft
        .things
        .iter()
        .map(|t| t.en.clone().unwrap())
        .collect();
    assert_eq!(
        &names, winner,
        "the winner's things with the winner's title"
    );
    // The one told saves again from the version it is told of, and loses nothing.
    let retried =
        t.db.decks()
            .save(&deck.code, &asha, 2, draft("Pets C", &PETS), "save-c")
            .await;
    assert_eq!(retried.unwrap(), 3);
}

#[tokio::test]
async fn a_save_retried_after_its_answer_was_lost_is_told_it_was_written() {
    let t = test_table().await;
    let asha = player(&t, "Asha").await;
    let deck =
        t.db.decks()
            .create(&asha, draft("Our pets", &PETS))
            .await
            .unwrap();
    let edited = draft("Our pets, 2", &PETS);
    assert_eq!(
        t.db.decks()
            .save(&deck.code, &asha, 1, edited.clone(), "tok-1")
            .await
            .unwrap(),
        2
    );
    // The same save again (its first answer lost on the way back): written once, and said so.
    assert_eq!(
        t.db.decks()
            .save(&deck.code, &asha, 1, edited, "tok-1")
            .await
            .unwrap(),
        2
    );
    // Another save from the old version is stale.
    let stale =
        t.db.decks()
            .save(&deck.code, &asha, 1, draft("Old", &PETS), "tok-2")
            .await;
    assert!(
        matches!(stale, Err(DeckConflict::Stale { current: 2 })),
        "{stale:?}"
    );
    assert_eq!(
        t.db.decks()
            .head(&deck.code)
            .await
            .unwrap()
            .unwrap()
            .version,
        2
    );
}

#[tokio::test]
async fn another_players_deck_is_neither_saved_nor_deleted_and_a_bad_draft_writes_nothing() {
    let t = test_table().await;
    let asha = player(&t, "Asha").await;
    let bilal = player(&t, "Bilal").await;
    let deck =
        t.db.decks()
            .create(&asha, draft("Our pets", &PETS))
            .await
            .unwrap();
    let saved =
        t.db.decks()
            .save(&deck.code, &bilal, 1, draft("Mine now", &PETS), "b")
            .await;
    assert!(matches!(saved, Err(DeckConflict::NotYours)), "{saved:?}");
    let deleted = t.db.decks().delete(&deck.code, &bilal).await;
    assert!(
        matches!(deleted, Err(DeckConflict::NotYours)),
        "{deleted:?}"
    );
    let nine =
        t.db.decks()
            .save(&deck.code, &asha, 1, draft("Nine", &PETS[..9]), "a")
            .await;
    assert!(matches!(nine, Err(DeckConflict::Problem(_))), "{nine:?}");
    let twice =
        t.db.decks()
            .create(&asha, draft("Twice", &["Moti"; 12]))
            .await;
    assert!(matches!(twice, Err(DeckConflict::Problem(_))), "{twice:?}");
    assert_eq!(t.db.decks().by_author(&asha).await.unwrap().len(), 1);
    assert_eq!(
        t.db.decks().deck(&deck.code, true).await.unwrap().unwrap(),
        deck
    );

    t.db.decks().delete(&deck.code, &asha).await.unwrap();
    assert!(t.db.decks().deck(&deck.code, true).await.unwrap().is_none());
    assert!(t.db.decks().by_author(&asha).await.unwrap().is_empty());
    let gone =
        t.db.decks()
            .save(&deck.code, &asha, 1, draft("Back", &PETS), "a")
            .await;
    assert!(matches!(gone, Err(DeckConflict::NotFound)), "{gone:?}");
}
