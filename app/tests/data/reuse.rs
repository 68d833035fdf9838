//! A room is itself, not its code: a code is issued again once its room has expired, and
//! everything kept of the first room (its match, receipt, match list, boards, the players'
//! records) stays the first room's when a second room with the same code plays.

use std::collections::BTreeSet;

use app::game::{match_path, Match};
use app::identity::{Avatar, UserId};
use app::leaderboards::projector::Projector;
use app::leaderboards::store::lines::Start;
use app::leaderboards::BoardId;
use app::rooms::{RoomCode, RoomId, RoomSettings, RoomState};
use app::store::{epoch_seconds, Db, Recorder};

use super::game::{game, tap_at};
use super::{name, player, seeded_table, set_ttl, TestTable};

const CODE: &str = "RE5SE";

/// Plays one match of one round in the room with that code: the host taps at `host_ms`, the
/// guest at `guest_ms`; the instance `on` (its own handle and tally) serves the taps and closes
/// the round. Returns the room as it was while playing, the match as it ended, and the room's id.
async fn play_one(
    t: &TestTable,
    on: &Db,
    host: &UserId,
    guest: &UserId,
    seed: u64,
    (host_ms, guest_ms): (i64, i64),
) -> (app::game::Room, Match, RoomId) {
    let code = RoomCode::parse(CODE).unwrap();
    t.db.rooms()
        .join_room(&code, guest, &name("Guest"), Avatar::Owl)
        .await
        .unwrap();
    t.db.game()
        .start_match(&code, host, Some(seed))
        .await
        .unwrap();
    let playing = t.db.game().room(&code).await.unwrap().unwrap();
    let first = game(&playing).first_round;
    let tallied = on.game().billed_to_match(&code, first);
    tap_at(&tallied, &playing, host, 0, host_ms, host_ms as u32 - 20)
        .await
        .unwrap();
    tap_at(&tallied, &playing, guest, 0, guest_ms, guest_ms as u32 - 20)
        .await
        .unwrap();
    let close = game(&playing).closes_at(0).unwrap();
    tallied.game().resolve_due(&playing, close).await.unwrap();
    let done = t.db.game().room(&code).await.unwrap().unwrap();
    assert_eq!(done.state, RoomState::Lobby, "the match is over");
    let id = playing.id.clone();
    on.game().add_to_receipt(&id, first).await.unwrap();
    (playing, game(&done).clone(), id)
}

/// Time passes: every item of the room partition is past its `ttl`, as for a room nobody used
/// for a day, but not yet swept by TTL (DynamoDB takes up to days to delete).
async fn expire_room(t: &TestTable) {
    let pk = format!("ROOM#{CODE}");
    for item in t.partition(&pk).await {
        let sk = item["SK"].as_s().unwrap().clone();
        set_ttl(t, &pk, &sk, epoch_seconds() - 1).await;
    }
}

fn players_of(detail: &app::game::MatchDetail) -> BTreeSet<UserId> {
    detail
        .summary
        .players
        .iter()
        .map(|p| p.user_id.clone())
        .collect()
}

#[tokio::test]
async fn a_reused_code_keeps_each_rooms_match_receipt_list_and_boards_apart() {
    let t = seeded_table().await;
    let code = RoomCode::parse(CODE).unwrap();
    let settings = RoomSettings {
        rounds: 1,
        window_ms: 2000,
        ..RoomSettings::default()
    };
    // Two instances, each with its own handle (and tally).
    let one = Db::new(t.engine.client.clone(), t.db.table_name()).recording(Recorder::new());
    let two = Db::new(
        aws_sdk_dynamodb::Client::from_conf(t.engine.client.config().clone()),
        t.db.table_name(),
    )
    .recording(Recorder::new());

    // The first room plays a match, then expires.
    let (old_host, old_guest) = (player(&t, "Asha").await, player(&t, "Ravi").await);
    t.db.rooms()
        .create_room(&code, &old_host, &name("Asha"), Avatar::Crow, settings)
        .await
        .unwrap();
    let (_, old_match, old_id) = play_one(&t, &one, &old_host, &old_guest, 11, (300, 900)).await;
    let mut projector = Projector::new(t.db.clone(), t.engine.streams.clone());
    projector.catch_up().await.unwrap();
    let old_detail = t.db.game().match_detail(&old_id, 1).await.unwrap().unwrap();
    let old_receipt =
        t.db.game()
            .match_receipt(&old_id, 1)
            .await
            .unwrap()
            .unwrap();
    let old_board = BoardId::room_best(&old_id);
    let old_lines =
        t.db.boards()
            .board_lines(&old_board, Start::Top, 10)
            .await
            .unwrap();
    expire_room(&t).await;
    assert!(
        t.db.game().room(&code).await.unwrap().is_none(),
        "the room is gone"
    );

    // The same code is issued to a new room, whose first match also starts at round 1.
    let (new_host, new_guest) = (player(&t, "Mei").await, player(&t, "Noor").await);
    let lobby =
        t.db.rooms()
            .create_room(&code, &new_host, &name("Mei"), Avatar::Bee, settings)
            .await
            .unwrap();
    assert_ne!(lobby.id, old_id, "a room id is never issued again");
    assert_eq!(
        (lobby.id.code(), old_id.code()),
        (code.clone(), code.clone())
    );
    let (new_playing, new_match, new_id) =
        play_one(&t, &two, &new_host, &new_guest, 12, (500, 700)).await;
    assert_eq!(new_id, lobby.id);
    assert_eq!(
        (old_match.first_round, new_match.first_round),
        (1, 1),
        "both rooms' first matches start at round 1"
    );
    assert_eq!(
        new_match.rounds[0].tap_count, 2,
        "the new match's round is its own, not the expired room's left in the partition"
    );
    projector.catch_up().await.unwrap();

    // Both match pages: each its own players.
    let new_detail = t.db.game().match_detail(&new_id, 1).await.unwrap().unwrap();
    assert_eq!(
        t.db.game().match_detail(&old_id, 1).await.unwrap().unwrap(),
        old_detail,
        "the first room's match is as it was"
    );
    assert_eq!(
        players_of(&old_detail),
        BTreeSet::from([old_host.clone(), old_guest.clone()])
    );
    assert_eq!(
        players_of(&new_detail),
        BTreeSet::from([new_host.clone(), new_guest.clone()])
    );
    assert_ne!(
        old_detail.summary.started_at_ms,
        new_detail.summary.started_at_ms
    );

    // Both receipts: the first unchanged by the second room's spending.
    assert_eq!(
        t.db.game().match_receipt(&old_id, 1).await.unwrap(),
        Some(old_receipt)
    );
    let new_receipt =
        t.db.game()
            .match_receipt(&new_id, 1)
            .await
            .unwrap()
            .unwrap();
    assert!(new_receipt.calls > 0 && old_receipt.calls > 0);

    // Both rooms' match lists: one match each, its own.
    for (id, detail) in [(&old_id, &old_detail), (&new_id, &new_detail)] {
        let listed = t.db.game().room_matches(id, 10, None).await.unwrap().items;
        assert_eq!(listed, vec![detail.summary.clone()], "{id}");
    }
    // The code now stands for the new room.
    assert_eq!(t.db.rooms().room_id_of(&code).await.unwrap(), new_id);

    // Both rooms' boards: each its own two players.
    assert_eq!(
        t.db.boards()
            .board_lines(&old_board, Start::Top, 10)
            .await
            .unwrap(),
        old_lines,
        "the first room's board is as it was"
    );
    for (id, who) in [
        (&old_id, [&old_host, &old_guest]),
        (&new_id, [&new_host, &new_guest]),
    ] {
        let lines =
            t.db.boards()
                .board_lines(&BoardId::room_best(id), Start::Top, 10)
                .await
                .unwrap()
                .unwrap()
                .lines;
        let on_board: BTreeSet<_> = lines.iter().map(|l| l.user_id.clone()).collect();
        assert_eq!(
            on_board,
            BTreeSet::from([who[0].clone(), who[1].clone()]),
            "{id}"
        );
    }

    // Each player's profile links to their own match, which has them in it.
    for (who, id) in [
        (&old_host, &old_id),
        (&old_guest, &old_id),
        (&new_host, &new_id),
        (&new_guest, &new_id),
    ] {
        let records = t.db.game().my_matches(who, 10, None).await.unwrap().items;
        assert_eq!(records.len(), 1);
        let record = &records[0];
        assert_eq!(&record.room_id(), id);
        assert_eq!(
            match_path(&record.room_id(), record.first_round),
            format!("/m/{id}/1")
        );
        let linked =
            t.db.game()
                .match_detail(&record.room_id(), record.first_round)
                .await
                .unwrap()
                .unwrap();
        assert!(players_of(&linked).contains(who));
    }

    // A second instance repeating the new match's end succeeds and changes nothing.
    let partition = format!("MATCH#{new_id}#00001");
    let before = t.partition(&partition).await;
    let records_before =
        t.db.game()
            .my_matches(&new_host, 10, None)
            .await
            .unwrap()
            .items;
    one.game()
        .finish_match(&code, &new_match, &new_playing)
        .await
        .unwrap();
    assert_eq!(t.partition(&partition).await, before);
    assert_eq!(
        t.db.game()
            .my_matches(&new_host, 10, None)
            .await
            .unwrap()
            .items,
        records_before
    );
    assert_eq!(
        t.partition(&format!("MATCH#{old_id}#00001")).await.len(),
        3,
        "the first room's summary, rounds and receipt"
    );
}

#[tokio::test]
async fn a_match_kept_under_a_room_code_is_never_overwritten_by_another_match() {
    // Should another match ever be ended under a kept match's key (a room from before rooms had
    // ids keeps its matches under its code, which a later room may have), the kept items stay
    // the first match's: they are put only over nothing or over the same match.
    let t = seeded_table().await;
    let code = RoomCode::parse(CODE).unwrap();
    let settings = RoomSettings {
        rounds: 1,
        window_ms: 2000,
        ..RoomSettings::default()
    };
    let (host, guest) = (player(&t, "Asha").await, player(&t, "Ravi").await);
    t.db.rooms()
        .create_room(&code, &host, &name("Asha"), Avatar::Crow, settings)
        .await
        .unwrap();
    let (playing, done, id) = play_one(&t, &t.db, &host, &guest, 11, (300, 900)).await;
    let kept = t.partition(&format!("MATCH#{id}#00001")).await;
    // Another match under the same key: started at another time.
    let mut other = done.clone();
    other.started_at_ms += 1;
    let mut playing_again = playing.clone();
    playing_again.lobby.state = RoomState::Playing;
    t.db.game()
        .finish_match(&code, &other, &playing_again)
        .await
        .unwrap();
    assert_eq!(
        t.partition(&format!("MATCH#{id}#00001")).await,
        kept,
        "neither the summary nor the rounds were replaced"
    );
}
