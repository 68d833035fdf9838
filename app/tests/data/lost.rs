//! "Applied, then the answer lost": a write DynamoDB applied whose answer never came back (a
//! cut connection, a timeout), so the SDK sent it again. Each test loses one applied answer of
//! one write path (`lose_answers`, with the product's own retry settings) and checks that the
//! write counted once and that the caller got the answer the first attempt earned. On both
//! local engines (`UDD_TEST_DYNAMODB_ENDPOINT` for DynamoDB Local).

use std::sync::atomic::Ordering;

use app::game::store::Tapped;
use app::identity::Avatar;
use app::rooms::store::Joined;
use app::rooms::{RoomSettings, RoomState};
use app::store::{epoch_millis, Db, Recorder};

use super::boards::{record, write_record};
use super::faults::lose_answers;
use super::game::{game, playing, settings, tap_at, SEED};
use super::{name, player, room, seeded_table, test_table, TestTable};

/// A handle on the test's table whose next `count` applied calls of `operation` lose their
/// answers, and the counter of those still to come.
fn losing(
    t: &TestTable,
    operation: &'static str,
    count: u32,
) -> (Db, std::sync::Arc<std::sync::atomic::AtomicU32>) {
    let (client, remaining) = lose_answers(&t.engine.client, operation, count);
    (Db::new(client, t.db.table_name()), remaining)
}

#[tokio::test]
async fn a_tap_whose_answer_was_lost_is_counted_once_with_its_reaction_time() {
    let t = seeded_table().await;
    let (_code, host, ids, room) = playing(&t, "GNAA2", 3, &["Asha"]).await;
    // The reaction time an answered tap gets, from a tap that loses nothing.
    let answered = tap_at(&t.db, &room, &host, 0, 400, 380).await.unwrap();
    let (db, remaining) = losing(&t, "UpdateItem", 1);
    let tapped = tap_at(&db, &room, &ids[0], 0, 400, 380).await.unwrap();
    assert_eq!(remaining.load(Ordering::SeqCst), 0, "the answer was lost");
    assert!(matches!(answered, Tapped::Counted { .. }));
    assert_eq!(
        tapped, answered,
        "the player is told what the first attempt earned"
    );
    let round = &t.db.game().room(&room.code).await.unwrap().unwrap();
    let taps = game(round).rounds[0].tap_count;
    assert_eq!(taps, 2, "two players, two taps");
}

#[tokio::test]
async fn a_match_start_whose_answer_was_lost_starts_the_match_once_and_the_host_is_told_so() {
    let t = seeded_table().await;
    let (code, host) = room(&t, "GNBB2", settings(3)).await;
    let asha = player(&t, "Asha").await;
    t.db.rooms()
        .join_room(&code, &asha, &name("Asha"), Avatar::Owl)
        .await
        .unwrap();
    let before = t.db.game().room(&code).await.unwrap().unwrap();
    let (db, remaining) = losing(&t, "UpdateItem", 1);
    let started = db.game().start_match(&code, &host, Some(SEED)).await;
    assert_eq!(remaining.load(Ordering::SeqCst), 0, "the answer was lost");
    let started = started.expect("the host's start is answered as started");
    let room = t.db.game().room(&code).await.unwrap().unwrap();
    assert_eq!(room.state, RoomState::Playing);
    let g = game(&room);
    assert_eq!(g.first_round, started.first_round);
    assert_eq!(g.rounds.len(), 3, "every round written");
    assert_eq!(room.version, before.version + 1, "started once");
}

#[tokio::test]
async fn a_receipt_add_whose_answer_was_lost_counts_the_tally_once() {
    let t = seeded_table().await;
    let (code, host, _, room) = playing(&t, "GNCC2", 2, &["Asha"]).await;
    let first = game(&room).first_round;
    let calls = Recorder::new();
    let (db, remaining) = losing(&t, "UpdateItem", 0);
    let db = db.recording(calls.clone());
    // The tap's UpdateItem answers as usual; then the receipt's add loses its answer.
    tap_at(
        &db.game().billed_to_match(&code, first),
        &room,
        &host,
        0,
        400,
        380,
    )
    .await
    .unwrap();
    let tallied = calls.count();
    remaining.store(1, Ordering::SeqCst);
    let answered = db
        .game()
        .add_to_receipt(&room.id, first)
        .await
        .unwrap()
        .expect("a receipt");
    assert_eq!(remaining.load(Ordering::SeqCst), 0, "the answer was lost");
    let stored =
        t.db.game()
            .match_receipt(&room.id, first)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(stored.calls as usize, tallied, "the tally counted once");
    assert_eq!(answered, stored);
}

#[tokio::test]
async fn a_lease_take_whose_answer_was_lost_holds_the_lease_and_projects_at_once() {
    let t = test_table().await;
    let user = app::identity::UserId::generate();
    write_record(
        &t,
        &record(
            &user,
            &app::rooms::RoomCode::parse("GNDD2").unwrap(),
            900,
            epoch_millis(),
        ),
    )
    .await;
    let (db, remaining) = losing(&t, "UpdateItem", 1);
    let mut projector = app::leaderboards::projector::Projector::new(db, t.engine.streams.clone());
    let pass = projector.pass().await.unwrap();
    assert_eq!(remaining.load(Ordering::SeqCst), 0, "the answer was lost");
    assert_eq!(
        pass.held, 1,
        "the lease is held by the instance that took it"
    );
    assert_eq!(
        pass.counted, 1,
        "and the shard is read at once, not after a lease"
    );
}

#[tokio::test]
async fn a_transaction_whose_answer_was_lost_applies_once_by_its_request_token() {
    let t = test_table().await;
    let (code, _host) = room(&t, "GNFF2", RoomSettings::default()).await;
    let asha = player(&t, "Asha").await;
    let (db, remaining) = losing(&t, "TransactWriteItems", 1);
    let joined = db
        .rooms()
        .join_room(&code, &asha, &name("Asha"), Avatar::Owl)
        .await;
    assert_eq!(remaining.load(Ordering::SeqCst), 0, "the answer was lost");
    assert_eq!(joined.unwrap(), Joined::Joined);
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!(lobby.players.len(), 2, "joined once");
}

#[tokio::test]
async fn a_new_days_board_whose_root_write_lost_its_answer_is_still_listed_for_closing() {
    use app::leaderboards::store::apply::tree_pass::{padded, EntryMove};
    use app::leaderboards::BoardId;
    let t = test_table().await;
    // Today's board: a day's board past its keeping is expired, and its writes are refused.
    let today = app::leaderboards::period::day_of(app::store::epoch_millis());
    let board = BoardId::parse_key(&format!("best.day-{today}.global")).unwrap();
    // Every node write loses its answer once: the SDK's copy is refused by its own write.
    let (db, remaining) = losing(&t, "UpdateItem", u32::MAX);
    let moved = [EntryMove {
        board: board.clone(),
        seq: padded("100"),
        from: None,
        to: 1200,
    }];
    db.boards().move_in_trees(&moved, &[]).await.unwrap();
    assert!(
        remaining.load(Ordering::SeqCst) < u32::MAX,
        "answers were lost"
    );
    let ends = app::store::keys::board_ends(&board);
    let closing = t
        .engine
        .client
        .get_item()
        .table_name(t.db.table_name())
        .key("PK", aws_sdk_dynamodb::types::AttributeValue::S(ends.pk))
        .key("SK", aws_sdk_dynamodb::types::AttributeValue::S(ends.sk))
        .consistent_read(true)
        .send()
        .await
        .unwrap();
    assert!(
        closing.item.is_some(),
        "the day's board is listed for the closer (else it is never archived)"
    );
}

#[tokio::test]
async fn a_transaction_that_meets_its_own_first_attempt_still_running_is_sent_again_and_applies() {
    // The SDK counts `TransactionInProgressException` among throttling errors and sends the
    // call again under the same token (aws-runtime's `THROTTLING_ERRORS`): nothing of ours.
    use super::faults::{with_faults, IN_PROGRESS};
    let t = test_table().await;
    let (code, _host) = room(&t, "GNHH2", RoomSettings::default()).await;
    let asha = player(&t, "Asha").await;
    let (client, remaining) =
        with_faults(&t.engine.client, Some("TransactWriteItems"), IN_PROGRESS, 1);
    let db = Db::new(client, t.db.table_name());
    let joined = db
        .rooms()
        .join_room(&code, &asha, &name("Asha"), Avatar::Owl)
        .await;
    assert_eq!(
        remaining.load(Ordering::SeqCst),
        0,
        "one answer was 'in progress'"
    );
    assert_eq!(
        joined.unwrap(),
        Joined::Joined,
        "not 'something went wrong'"
    );
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!(lobby.players.len(), 2, "joined once");
}

#[tokio::test]
async fn a_decline_whose_answer_was_lost_is_answered_as_declined() {
    use app::inventory::model::{OfferStatus, Side};
    let t = test_table().await;
    let asha = player(&t, "Asha").await;
    let ravi = player(&t, "Ravi").await;
    let offer =
        t.db.inventory()
            .make_offer(
                (&asha, "Asha"),
                (&ravi, "Ravi"),
                Side {
                    cards: Vec::new(),
                    feathers: 0,
                },
                Side {
                    cards: Vec::new(),
                    feathers: 10,
                },
                3_600,
            )
            .await
            .unwrap();
    // An offer from before offers were counted: its decline is one UpdateItem of its own.
    let key = app::store::keys::offer(&offer.id);
    t.engine
        .client
        .update_item()
        .table_name(t.db.table_name())
        .key("PK", aws_sdk_dynamodb::types::AttributeValue::S(key.pk))
        .key("SK", aws_sdk_dynamodb::types::AttributeValue::S(key.sk))
        .update_expression("SET from_stranger = :no, counted = :no")
        .expression_attribute_values(":no", aws_sdk_dynamodb::types::AttributeValue::Bool(false))
        .send()
        .await
        .unwrap();
    let offer = t.db.inventory().offer(&offer.id).await.unwrap().unwrap();
    assert!(!offer.from_stranger && !offer.counted);
    let (db, remaining) = losing(&t, "UpdateItem", 1);
    let closed = db.inventory().close_read_offer(&offer, &ravi).await;
    assert_eq!(remaining.load(Ordering::SeqCst), 0, "the answer was lost");
    assert_eq!(
        closed.unwrap(),
        OfferStatus::Declined,
        "not 'no longer open'"
    );
}

#[tokio::test]
async fn a_season_start_whose_answer_was_lost_is_answered_as_started() {
    let t = test_table().await;
    let id = app::ids::SeasonId::parse("lost-answer-1").unwrap();
    let start = epoch_millis() + 86_400_000;
    let (db, remaining) = losing(&t, "PutItem", 1);
    let started = db
        .boards()
        .start_season(&id, "Monsoon", start, start + 30 * 86_400_000)
        .await;
    assert_eq!(remaining.load(Ordering::SeqCst), 0, "the answer was lost");
    assert_eq!(started.expect("started, not 'already a season'").id, id);
    assert_eq!(t.db.boards().seasons().await.unwrap().len(), 1);
}
