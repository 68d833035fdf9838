//! Playing a deck, on both engines: a room chooses it (its host alone, never for more rounds
//! than it has things), a match draws only its things with its rulings, and the projector counts
//! its matches on the room's boards and the deck's, never on everyone's, with feathers and no
//! catalog cards, and each match once as a play of the deck, through replays and two holders
//! counting at once. An edited deck
//! leaves an old match's page as it was.

use app::decks::model::{DeckDraft, DeckLang, DeckThing, Visibility, DEFAULT_EMOJI};
use app::game::Received;
use app::game::LATENCY_CAP_MS;
use app::identity::{Avatar, UserId};
use app::ids::{BoardId, DeckCode, Metric, Period, Scope};
use app::inventory::model::Place;
use app::leaderboards::projector::Projector;
use app::leaderboards::store::lines::Start;
use app::rooms::model::RoomDeck;
use app::rooms::store::RoomConflict;
use app::rooms::{RoomCode, RoomSettings};

use super::game::game;
use super::{cost, name, player, seeded_table, TestTable};

/// Twelve pets; every third one flies (by this family's rulings), the second has a note.
const PETS: [&str; 12] = [
    "Moti", "Tommy", "Kalu", "Bholu", "Chintu", "Pinky", "Sheru", "Tiger", "Mithu", "Bunty",
    "Raja", "Rani",
];

fn pets(names: &[&str]) -> DeckDraft {
    DeckDraft {
        title: "Our pets".to_owned(),
        description: String::new(),
        lang: DeckLang::En,
        visibility: Visibility::Public,
        things: names
            .iter()
            .enumerate()
            .map(|(i, name)| DeckThing {
                en: Some((*name).to_owned()),
                hi: None,
                hi_latin: None,
                emoji: DEFAULT_EMOJI.to_owned(),
                flies: i % 3 == 0,
                note: (i == 1).then(|| "He jumps, he does not fly".to_owned()),
            })
            .collect(),
    }
}

/// Whether the pet named `name` flies, by the draft's rulings (this test's oracle).
fn ruled_to_fly(name: &str) -> bool {
    PETS.iter().position(|p| *p == name).expect("a pet") % 3 == 0
}

fn chosen(code: &DeckCode, things: u32) -> RoomDeck {
    RoomDeck {
        pick: code.to_string(),
        label: "Our pets".to_owned(),
        things,
    }
}

/// A room of `host` and Asha playing `deck`, a 5-round match started.
async fn deck_room(
    t: &TestTable,
    raw: &str,
    host: &UserId,
    asha: &UserId,
    deck: &DeckCode,
) -> RoomCode {
    let code = RoomCode::parse(raw).unwrap();
    let settings = RoomSettings {
        rounds: 5,
        window_ms: 2000,
        ..RoomSettings::default()
    };
    t.db.rooms()
        .create_room(&code, host, &name("Host"), Avatar::Crow, settings)
        .await
        .unwrap();
    t.db.rooms()
        .choose_deck(&code, host, Some(chosen(deck, 12)))
        .await
        .unwrap();
    t.db.rooms()
        .join_room(&code, asha, &name("Asha"), Avatar::Owl)
        .await
        .unwrap();
    t.db.game().start_match(&code, host, Some(7)).await.unwrap();
    code
}

/// Plays the room's match to its end: the host taps every flyer (right each time), Asha
/// taps every round (wrong on the others).
async fn play_out(t: &TestTable, code: &RoomCode, host: &UserId, asha: &UserId) {
    let room = t.db.game().room(code).await.unwrap().unwrap();
    let g = game(&room).clone();
    for round in &g.rounds {
        let thing = round.thing.as_ref().unwrap();
        let tap = |who: UserId| async move {
            t.db.game()
                .tap(
                    code,
                    &who,
                    round.n,
                    round.reveal_ms,
                    g.window_ms,
                    400,
                    Received::at(round.reveal_ms + 420, Some(LATENCY_CAP_MS)),
                )
                .await
        };
        if ruled_to_fly(&thing.en) {
            tap(host.clone()).await.unwrap();
        }
        tap(asha.clone()).await.unwrap();
    }
    // Each round closed as the watchers would once it is due.
    loop {
        let room = t.db.game().room(code).await.unwrap().unwrap();
        let g = game(&room);
        if g.is_finished() {
            return;
        }
        let close = g.closes_at(g.resolved as usize).unwrap();
        t.db.game().resolve_due(&room, close).await.unwrap();
    }
}

#[tokio::test]
async fn a_deck_match_shows_the_deck_and_counts_on_the_room_and_the_deck_never_everyone() {
    let t = seeded_table().await;
    let host = player(&t, "Host").await;
    let asha = player(&t, "Asha").await;
    let deck = t.db.decks().create(&host, pets(&PETS)).await.unwrap();
    let code = RoomCode::parse("DKPMA").unwrap();
    t.db.rooms()
        .create_room(
            &code,
            &host,
            &name("Host"),
            Avatar::Crow,
            RoomSettings::default(),
        )
        .await
        .unwrap();

    // Only the host chooses; never more rounds than the deck has things.
    t.db.rooms()
        .join_room(&code, &asha, &name("Asha"), Avatar::Owl)
        .await
        .unwrap();
    assert!(matches!(
        t.db.rooms()
            .choose_deck(&code, &asha, Some(chosen(&deck.code, 12)))
            .await,
        Err(RoomConflict::NotHost)
    ));
    let lobby =
        t.db.rooms()
            .choose_deck(&code, &host, Some(chosen(&deck.code, 12)))
            .await
            .unwrap();
    assert_eq!(lobby.deck, Some(chosen(&deck.code, 12)));
    let too_many = RoomSettings {
        rounds: 13,
        ..lobby.settings
    };
    assert!(matches!(
        t.db.rooms().update_settings(&code, &host, too_many).await,
        Err(RoomConflict::TooFewThings { things: 12 })
    ));
    let kept = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!(
        kept.settings.rounds, 10,
        "nothing of the refused settings written"
    );
    assert_eq!(kept.deck, Some(chosen(&deck.code, 12)));
    let five = RoomSettings {
        rounds: 5,
        window_ms: 2000,
        ..kept.settings
    };
    t.db.rooms()
        .update_settings(&code, &host, five)
        .await
        .unwrap();

    // The start reads the deck's things (one GetItem), not the catalog.
    t.calls.reset();
    let started =
        t.db.game()
            .start_match(&code, &host, Some(7))
            .await
            .unwrap();
    let reads: Vec<_> = t
        .calls
        .calls()
        .iter()
        .filter(|c| !app::store::metrics::is_write(c.op))
        .map(|c| c.op)
        .collect();
    println!(
        "start a 5-round match of a 12-thing deck: {:?}, reads {reads:?}",
        cost(&t.calls)
    );
    assert!(
        !reads.contains(&"Query") || reads.iter().filter(|op| **op == "Query").count() == 1,
        "the room's own Query, no catalog Query: {reads:?}"
    );
    assert!(reads.contains(&"GetItem"), "the deck's things: {reads:?}");
    assert_eq!(started.rounds.len(), 5);
    for round in &started.rounds {
        let thing = round.thing.as_ref().unwrap();
        assert!(
            PETS.contains(&thing.en.as_str()),
            "{} is the deck's",
            thing.en
        );
        assert!(thing.id.is_deck_thing());
    }
    play_out(&t, &code, &host, &asha).await;
    let room = t.db.game().room(&code).await.unwrap().unwrap();
    let done = game(&room);
    for round in &done.rounds {
        let thing = round.thing.as_ref().unwrap();
        assert_eq!(
            round.flies,
            Some(ruled_to_fly(&thing.en)),
            "the deck's ruling on {}",
            thing.en
        );
    }
    let room_id = room.id.clone();
    let detail =
        t.db.game()
            .match_detail(&room_id, done.first_round)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(detail.summary.deck, Some(chosen(&deck.code, 12)));

    let counted = Projector::new(t.db.clone(), t.engine.streams.clone())
        .catch_up()
        .await
        .unwrap()
        .counted;
    assert_eq!(counted, 2, "both players' records");
    let lines = |board: BoardId| {
        let db = t.db.clone();
        async move {
            db.boards()
                .board_lines(&board, Start::Top, 10)
                .await
                .unwrap()
                .map(|l| l.lines)
                .unwrap_or_default()
        }
    };
    assert!(
        lines(BoardId::all_time_best()).await.is_empty(),
        "never on everyone's best"
    );
    let total = BoardId::new(Metric::Total, Period::AllTime, Scope::Global).unwrap();
    assert!(lines(total).await.is_empty(), "nor on everyone's totals");
    let on_room = lines(BoardId::room_best(&room_id)).await;
    let on_deck = lines(BoardId::deck_best(&deck.code)).await;
    assert_eq!(on_room.len(), 2);
    assert_eq!(on_deck.len(), 2);
    assert_eq!(on_deck[0].user_id, host, "the host ruled right every time");
    assert_eq!(on_deck, on_room, "the same best scores");
    // Feathers by the usual rules; no cards (a deck's things are no catalog cards).
    assert!(t.db.inventory().feathers(&host).await.unwrap() > 0);
    let bag =
        t.db.inventory()
            .cards(&host, Place::Bag, None, None, 50)
            .await
            .unwrap();
    assert!(bag.items.is_empty(), "no cards: {:?}", bag.items);
    let read = t.db.decks().deck(&deck.code, false).await.unwrap().unwrap();
    assert_eq!(read.plays, 1, "one match, one play");

    // The deck edited: the old match's page is as it was.
    let renamed: Vec<String> = PETS.iter().map(|p| format!("{p} the Great")).collect();
    let renamed: Vec<&str> = renamed.iter().map(String::as_str).collect();
    t.db.decks()
        .save(&deck.code, &host, deck.version, pets(&renamed), "edit-1")
        .await
        .unwrap();
    let again =
        t.db.game()
            .match_detail(&room_id, done.first_round)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(again, detail, "a deck's edit leaves its old matches alone");
    let noted = detail
        .rounds
        .iter()
        .find(|r| r.thing.en == "Tommy")
        .map(|r| r.thing.note.clone());
    if let Some(note) = noted {
        assert_eq!(
            note.as_deref(),
            Some("He jumps, he does not fly"),
            "the note kept with the round"
        );
    }
}

#[tokio::test]
async fn two_matches_of_one_deck_ending_at_once_are_two_plays_through_replays() {
    let t = seeded_table().await;
    let host = player(&t, "Host").await;
    let asha = player(&t, "Asha").await;
    let mina = player(&t, "Mina").await;
    let ravi = player(&t, "Ravi").await;
    let deck = t.db.decks().create(&host, pets(&PETS)).await.unwrap();
    let (one, two) = tokio::join!(
        deck_room(&t, "DKXYZ", &host, &asha, &deck.code),
        deck_room(&t, "DKQRS", &mina, &ravi, &deck.code)
    );
    tokio::join!(
        play_out(&t, &one, &host, &asha),
        play_out(&t, &two, &mina, &ravi)
    );
    let mut projector = Projector::new(t.db.clone(), t.engine.streams.clone());
    assert_eq!(projector.catch_up().await.unwrap().counted, 4);
    let plays = || async {
        t.db.decks()
            .deck(&deck.code, false)
            .await
            .unwrap()
            .unwrap()
            .plays
    };
    assert_eq!(plays().await, 2);

    // Delivered again: the records' markers retire them.
    let mut records = Vec::new();
    for who in [&host, &asha, &mina, &ravi] {
        records.extend(t.db.game().my_matches(who, 10, None).await.unwrap().items);
    }
    assert_eq!(records.len(), 4);
    assert_eq!(
        records
            .iter()
            .filter(|r| r.deck.as_ref().is_some_and(|d| d.counts_play))
            .count(),
        2,
        "one record of each match counts its play"
    );
    let again = t.db.boards().count_results(&records, &[]).await.unwrap();
    assert_eq!(again.counted, 0);
    assert_eq!(plays().await, 2);

    // A third match, its records counted by two holders at once (as after a lease changed
    // hands mid-slice): its play once, with its records' markers, in one transaction.
    t.db.game().start_match(&one, &host, Some(8)).await.unwrap();
    play_out(&t, &one, &host, &asha).await;
    let mut third = Vec::new();
    for who in [&host, &asha] {
        third.push(t.db.game().my_matches(who, 1, None).await.unwrap().items[0].clone());
    }
    assert!(
        third.iter().all(|r| !records.contains(r)),
        "the third match's records"
    );
    let (a, b) = tokio::join!(
        t.db.boards().count_results(&third, &[]),
        t.db.boards().count_results(&third, &[])
    );
    // The tallies are not the oracle: a call that re-reads after the other's writes, before the
    // other's markers, retires the same record too and tallies it. What each record changed is.
    let tallied = a.unwrap().counted + b.unwrap().counted;
    assert!(
        (2..=4).contains(&tallied),
        "each record in a tally: {tallied}"
    );
    for (who, matches) in [(&host, 2), (&asha, 2), (&mina, 1), (&ravi, 1)] {
        assert_eq!(
            t.db.boards().stats(who).await.unwrap().matches,
            matches,
            "each record counted once in its player's matches"
        );
    }
    assert_eq!(plays().await, 3);
    assert_eq!(
        projector.catch_up().await.unwrap().counted,
        0,
        "the stream finds them counted"
    );
    assert_eq!(plays().await, 3);
    let on_deck =
        t.db.boards()
            .board_lines(&BoardId::deck_best(&deck.code), Start::Top, 10)
            .await
            .unwrap()
            .unwrap()
            .lines;
    assert_eq!(on_deck.len(), 4, "the four players, each once");
    let week = app::decks::model::week_label(app::store::epoch_millis());
    let (by_week, _) =
        t.db.decks()
            .gallery(app::decks::model::GalleryOrder::Week, None, &week, None)
            .await
            .unwrap();
    assert_eq!(
        by_week
            .iter()
            .map(|d| (&d.code, d.week_plays))
            .collect::<Vec<_>>(),
        [(&deck.code, 3)],
        "three plays this week, in the gallery"
    );
}
