//! A room's suggestion box, on both engines: open only by its host; suggestions and votes only
//! from its players while it is open, each moving the box's number on the room (what every
//! instance's pages hear); the host accepts (as sent or edited), rejects or puts a ruling to
//! the vote, each once; the accepted go into the host's deck with the deck's own versioned
//! save, exactly once, even when two puts race.

use app::decks::model::{DeckDraft, DeckLang, DeckThing, Visibility, DEFAULT_EMOJI};
use app::identity::{Avatar, UserId};
use app::ids::{DeckCode, RoomId};
use app::rooms::store::RoomConflict;
use app::rooms::{RoomCode, RoomSettings};
use app::store::Recorder;
use app::suggest::model::{Sent, SentProblem, Status};
use app::suggest::store::{Answer, SuggestConflict};

use super::{cost, name, player, test_table, TestTable};

/// A deck of twelve of the host's: `Pet 1` … `Pet 12`, none flying.
async fn hosts_deck(t: &TestTable, host: &UserId) -> DeckCode {
    let draft = DeckDraft {
        title: "Our things".to_owned(),
        description: String::new(),
        lang: DeckLang::En,
        visibility: Visibility::Unlisted,
        things: (1..=12)
            .map(|i| DeckThing {
                en: Some(format!("Pet {i}")),
                hi: None,
                hi_latin: None,
                emoji: DEFAULT_EMOJI.to_owned(),
                flies: false,
                note: None,
            })
            .collect(),
    };
    t.db.decks().create(host, draft).await.unwrap().code
}

/// A room of `host` with `players` joined.
async fn room(t: &TestTable, raw: &str, host: &UserId, players: &[&UserId]) -> (RoomCode, RoomId) {
    let code = RoomCode::parse(raw).unwrap();
    t.db.rooms()
        .create_room(
            &code,
            host,
            &name("Host"),
            Avatar::Crow,
            RoomSettings::default(),
        )
        .await
        .unwrap();
    for (i, who) in players.iter().enumerate() {
        t.db.rooms()
            .join_room(&code, who, &name(&format!("Player{i}")), Avatar::Owl)
            .await
            .unwrap();
    }
    let id = t.db.rooms().room_id_of(&code).await.unwrap();
    (code, id)
}

fn sent(name: &str, flies: bool, note: Option<&str>) -> Sent {
    Sent {
        name: name.to_owned(),
        flies,
        note: note.map(str::to_owned),
    }
}

#[tokio::test]
async fn players_suggest_vote_and_the_host_puts_exactly_what_was_accepted_into_a_deck() {
    let t = test_table().await;
    let host = player(&t, "Host").await;
    let asha = player(&t, "Asha").await;
    let mina = player(&t, "Mina").await;
    let stranger = player(&t, "Stranger").await;
    let deck = hosts_deck(&t, &host).await;
    let (code, room) = room(&t, "SUGGA", &host, &[&asha, &mina]).await;
    let box_ = || t.db.suggestions();

    // Closed: nothing is taken.
    let closed = box_()
        .send(&code, &room, &asha, sent("Bat", true, None))
        .await;
    assert!(matches!(closed, Err(SuggestConflict::Closed)), "{closed:?}");
    let not_host = t.db.rooms().set_suggestions(&code, &asha, true).await;
    assert!(
        matches!(not_host, Err(RoomConflict::NotHost)),
        "{not_host:?}"
    );
    t.db.rooms()
        .set_suggestions(&code, &host, true)
        .await
        .unwrap();
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!((lobby.suggest, lobby.vote), (Some(1), None), "open");

    // Three suggestions from two players; refusals write nothing.
    let calls = Recorder::default();
    let bat =
        t.db.recording(calls.clone())
            .suggestions()
            .send(&code, &room, &asha, sent(" 🦇 Bat ", true, Some("  ")))
            .await
            .unwrap();
    println!("send a suggestion: (calls, RCU, WCU) {:?}", cost(&calls));
    assert_eq!(bat.sent, sent("🦇 Bat", true, None), "kept tidy");
    let kite = box_()
        .send(&code, &room, &asha, sent("Kite", true, None))
        .await
        .unwrap();
    let fish = box_()
        .send(
            &code,
            &room,
            &mina,
            sent("Flying fish", false, Some("It glides")),
        )
        .await
        .unwrap();
    for (bad, by, why) in [
        (sent("Crow", true, None), &stranger, "not a player"),
        (sent("   ", true, None), &asha, "no name"),
        (sent("Crow, Owl", true, None), &asha, "a comma"),
        (sent(&"x".repeat(61), true, None), &asha, "too long"),
        (sent("Fuck", true, None), &asha, "a refused word"),
    ] {
        let refused = box_().send(&code, &room, by, bad).await;
        assert!(refused.is_err(), "{why}: {refused:?}");
    }
    let refused = box_()
        .send(&code, &room, &asha, sent("Fuck", true, None))
        .await;
    assert!(matches!(
        refused,
        Err(SuggestConflict::Problem(SentProblem::Refused))
    ));
    let refused = box_()
        .send(&code, &room, &stranger, sent("Crow", true, None))
        .await;
    assert!(matches!(refused, Err(SuggestConflict::NotPlayer)));
    let listed = box_().list(&room).await.unwrap();
    assert_eq!(
        listed.iter().map(|s| &s.id).collect::<Vec<_>>(),
        [&bat.id, &kite.id, &fish.id],
        "the three, oldest first, nothing of the refusals"
    );
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!(
        lobby.suggest,
        Some(4),
        "each suggestion moved the box's number"
    );

    // The fish's ruling put to the vote: the room says it does not fly, 2 to 1.
    box_()
        .answer(&code, &room, &host, &fish.id, Answer::Vote)
        .await
        .unwrap();
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!(
        (lobby.suggest, lobby.vote),
        (Some(5), Some(5)),
        "a vote opened"
    );
    let early = box_().vote(&code, &room, &asha, &kite.id, true).await;
    assert!(
        matches!(early, Err(SuggestConflict::Answered)),
        "not put to the vote: {early:?}"
    );
    for (who, flies) in [(&asha, true), (&asha, false), (&mina, false), (&host, true)] {
        box_()
            .vote(&code, &room, who, &fish.id, flies)
            .await
            .unwrap();
    }
    let outsider = box_().vote(&code, &room, &stranger, &fish.id, true).await;
    assert!(
        matches!(outsider, Err(SuggestConflict::NotPlayer)),
        "{outsider:?}"
    );
    let voted = box_().list(&room).await.unwrap().remove(2);
    assert_eq!(
        voted.tally(),
        (1, 2),
        "one vote a player, the last standing"
    );
    assert_eq!(voted.room_ruling(), Some(false));

    // Only the host answers; each suggestion once.
    let by_player = box_()
        .answer(&code, &room, &asha, &bat.id, Answer::Reject)
        .await;
    assert!(
        matches!(by_player, Err(SuggestConflict::NotHost)),
        "{by_player:?}"
    );
    box_()
        .answer(
            &code,
            &room,
            &host,
            &bat.id,
            Answer::Accept(bat.sent.clone()),
        )
        .await
        .unwrap();
    box_()
        .answer(&code, &room, &host, &kite.id, Answer::Reject)
        .await
        .unwrap();
    let twice = box_()
        .answer(
            &code,
            &room,
            &host,
            &kite.id,
            Answer::Accept(kite.sent.clone()),
        )
        .await;
    assert!(matches!(twice, Err(SuggestConflict::Answered)), "{twice:?}");
    // The host overrides the room: it flies (a glide counts in this house), note edited.
    let overridden = sent("Flying fish", true, Some("It glides far enough"));
    box_()
        .answer(&code, &room, &host, &fish.id, Answer::Accept(overridden))
        .await
        .unwrap();

    // Into the host's deck: exactly the two accepted, after its twelve, once.
    let before = t.db.decks().deck(&deck, true).await.unwrap().unwrap();
    let not_theirs = box_().put_into(&code, &asha, &deck).await;
    assert!(
        matches!(not_theirs, Err(SuggestConflict::NotHost)),
        "{not_theirs:?}"
    );
    let calls = Recorder::default();
    let put =
        t.db.recording(calls.clone())
            .suggestions()
            .put_into(&code, &host, &deck)
            .await
            .unwrap();
    println!(
        "put 2 into a deck of 12: (calls, RCU, WCU) {:?}",
        cost(&calls)
    );
    assert_eq!(put, 2);
    let after = t.db.decks().deck(&deck, true).await.unwrap().unwrap();
    assert_eq!(after.version, before.version + 1, "one save");
    assert_eq!(after.draft.things[..12], before.draft.things[..]);
    let added: Vec<(Option<&str>, &str, bool, Option<&str>)> = after.draft.things[12..]
        .iter()
        .map(|t| {
            (
                t.en.as_deref(),
                t.emoji.as_str(),
                t.flies,
                t.note.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        added,
        [
            (Some("Bat"), "🦇", true, None),
            (
                Some("Flying fish"),
                DEFAULT_EMOJI,
                true,
                Some("It glides far enough")
            ),
        ]
    );
    let again = box_().put_into(&code, &host, &deck).await;
    assert!(
        matches!(again, Err(SuggestConflict::NothingAccepted)),
        "{again:?}"
    );
    let statuses: Vec<Status> = box_()
        .list(&room)
        .await
        .unwrap()
        .iter()
        .map(|s| s.status)
        .collect();
    assert_eq!(statuses, [Status::Saved, Status::Rejected, Status::Saved]);

    // Closed again: no more suggestions, the box kept.
    t.db.rooms()
        .set_suggestions(&code, &host, false)
        .await
        .unwrap();
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!((lobby.suggest, lobby.vote), (None, None));
    let late = box_()
        .send(&code, &room, &mina, sent("Owl", true, None))
        .await;
    assert!(matches!(late, Err(SuggestConflict::Closed)), "{late:?}");
    assert_eq!(box_().list(&room).await.unwrap().len(), 3);
}

#[tokio::test]
async fn two_puts_racing_add_each_accepted_suggestion_once() {
    let t = test_table().await;
    let host = player(&t, "Host").await;
    let asha = player(&t, "Asha").await;
    let ravi = player(&t, "Ravi").await;
    let deck = hosts_deck(&t, &host).await;
    let (code, room) = room(&t, "SUGGB", &host, &[&asha, &ravi]).await;
    t.db.rooms()
        .set_suggestions(&code, &host, true)
        .await
        .unwrap();
    // Several rounds, as a race is lost only now and then: each puts its three once.
    for round in 0..5 {
        let batch = [
            format!("Bat {round}"),
            format!("Kite {round}"),
            format!("Moth {round}"),
        ];
        for (i, name) in batch.iter().enumerate() {
            // Two senders, each under the ten a minute a player may send.
            let from = if (round + i) % 2 == 0 { &asha } else { &ravi };
            let one =
                t.db.suggestions()
                    .send(&code, &room, from, sent(name, true, None))
                    .await
                    .unwrap();
            t.db.suggestions()
                .answer(
                    &code,
                    &room,
                    &host,
                    &one.id,
                    Answer::Accept(one.sent.clone()),
                )
                .await
                .unwrap();
        }
        let (a, b) = tokio::join!(
            t.db.suggestions().put_into(&code, &host, &deck),
            t.db.suggestions().put_into(&code, &host, &deck)
        );
        let put: usize = [a, b]
            .into_iter()
            .map(|r| match r {
                Ok(n) => n,
                Err(SuggestConflict::NothingAccepted) => 0,
                Err(err) => panic!("round {round}: {err:?}"),
            })
            .sum();
        assert_eq!(put, 3, "round {round}: the three, between the two puts");
        let things =
            t.db.decks()
                .deck(&deck, true)
                .await
                .unwrap()
                .unwrap()
                .draft
                .things;
        let names: Vec<&str> = things.iter().filter_map(|t| t.en.as_deref()).collect();
        let before = 12 + 3 * round;
        assert_eq!(names.len(), before + 3, "none twice: {names:?}");
        assert_eq!(names[before..], batch.each_ref().map(String::as_str));
    }
}

#[tokio::test]
async fn suggestions_votes_answers_and_a_put_whose_answers_were_lost_each_count_once() {
    use std::sync::atomic::Ordering;
    let t = test_table().await;
    let (client, lost) = super::faults::lose_every_first_answer(&t.engine.client);
    let db = app::store::Db::new(client, t.db.table_name());
    let host = player(&t, "Host").await;
    let asha = player(&t, "Asha").await;
    let deck = hosts_deck(&t, &host).await;
    let (code, room) = room(&t, "SUGGC", &host, &[&asha]).await;
    db.rooms()
        .set_suggestions(&code, &host, true)
        .await
        .unwrap();
    let bat = db
        .suggestions()
        .send(&code, &room, &asha, sent("Bat", true, None))
        .await
        .expect("told it was sent");
    db.suggestions()
        .answer(&code, &room, &host, &bat.id, Answer::Vote)
        .await
        .expect("told it was put to the vote");
    db.suggestions()
        .vote(&code, &room, &asha, &bat.id, false)
        .await
        .expect("told the vote is in");
    db.suggestions()
        .answer(
            &code,
            &room,
            &host,
            &bat.id,
            Answer::Accept(bat.sent.clone()),
        )
        .await
        .expect("told it was accepted");
    let put = db.suggestions().put_into(&code, &host, &deck).await;
    assert_eq!(put.expect("told it went in"), 1);
    assert!(
        lost.load(Ordering::SeqCst) >= 5,
        "the writes' answers were lost"
    );
    let listed = t.db.suggestions().list(&room).await.unwrap();
    assert_eq!(listed.len(), 1, "sent once");
    assert_eq!(
        (listed[0].status, listed[0].tally()),
        (Status::Saved, (0, 1))
    );
    let things =
        t.db.decks()
            .deck(&deck, true)
            .await
            .unwrap()
            .unwrap()
            .draft
            .things;
    assert_eq!(things.len(), 13, "in the deck once");
}
