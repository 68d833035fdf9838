//! Faults the local engines never raise, injected at the SDK with real DynamoDB's wire answers:
//! transaction conflicts (real DynamoDB cancels a transaction when another one is touching the
//! same items: `TransactionCanceledException` with `TransactionConflict` reasons) and throttling
//! (`ThrottlingException`, `ProvisionedThroughputExceededException`). An interceptor on a second
//! client answers the first N matching calls with that response instead of the engine's, so the
//! retries (the data layer's for conflicts, the SDK's for throttling) are tested against the wire
//! format, and what is left when a fault never clears.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use app::identity::Avatar;
use app::rooms::store::{Joined, RoomConflict};
use app::rooms::RoomSettings;
use app::store::metrics::REFUSED_WRITE;
use app::store::{Conflict, DataError, Db, Recorder};

use super::faults::{with_faults, CONFLICT, OVER_CAPACITY, THROTTLED};
use super::{name, player, room, test_table, TestTable};

/// Real DynamoDB's answer to a single-item write on an item a transaction is writing.
pub const ITEM_CONFLICT: &str = r#"{"__type":"com.amazonaws.dynamodb.v20120810#TransactionConflictException","message":"Transaction is ongoing for the item"}"#;

/// A handle on the test's table whose next `faults` calls of `operation` get `answer`; the
/// counter says how many are still to come.
pub fn faulty_db(
    t: &TestTable,
    operation: Option<&'static str>,
    answer: &'static str,
    faults: u32,
    calls: &Recorder,
) -> (Db, Arc<AtomicU32>) {
    let (client, remaining) = with_faults(&t.engine.client, operation, answer, faults);
    let db = Db::new(client, t.db.table_name()).recording(calls.clone());
    (db, remaining)
}

/// A handle on the test's table whose next `conflicts` transactions are cancelled by conflict.
pub fn conflicting_db(t: &TestTable, conflicts: u32, calls: &Recorder) -> Db {
    faulty_db(t, Some("TransactWriteItems"), CONFLICT, conflicts, calls).0
}

/// Transactions sent: those that applied, and those cancelled (recorded as the billed
/// `RefusedWrite`; here only transactions are refused).
pub fn transactions(calls: &Recorder) -> usize {
    calls
        .ops()
        .iter()
        .filter(|op| **op == "TransactWriteItems" || **op == REFUSED_WRITE)
        .count()
}

#[tokio::test]
async fn a_transaction_cancelled_by_a_conflict_is_retried_until_it_applies() {
    let t = test_table().await;
    let code = room(&t, "CNFQ2", RoomSettings::default()).await.0;
    let asha = player(&t, "Asha").await;
    let calls = Recorder::new();
    let db = conflicting_db(&t, 2, &calls);
    let joined = db
        .rooms()
        .join_room(&code, &asha, &name("Asha"), Avatar::Owl)
        .await;
    assert_eq!(joined.unwrap(), Joined::Joined);
    assert_eq!(transactions(&calls), 3, "two conflicts, then the real one");
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!(lobby.players.len(), 2, "applied exactly once");
}

#[tokio::test]
async fn conflicts_that_never_clear_end_as_a_retryable_error_and_change_nothing() {
    let t = test_table().await;
    let code = room(&t, "CNFQ3", RoomSettings::default()).await.0;
    let before = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    let asha = player(&t, "Asha").await;
    let calls = Recorder::new();
    let db = conflicting_db(&t, u32::MAX, &calls);
    let joined = db
        .rooms()
        .join_room(&code, &asha, &name("Asha"), Avatar::Owl)
        .await;
    match joined {
        Err(RoomConflict::Data(err @ DataError::Conflict(Conflict::TransactionConflict))) => {
            assert!(err.is_retryable(), "the caller may try again later");
        }
        other => panic!("expected a transaction conflict, got {other:?}"),
    }
    assert_eq!(transactions(&calls), 5, "one try and four retries");
    assert_eq!(t.db.rooms().lobby(&code).await.unwrap().unwrap(), before);
}

#[tokio::test]
async fn throttling_is_retried_by_the_sdk_with_backoff_and_applied_once() {
    let t = test_table().await;
    let code = room(&t, "THRQ2", RoomSettings::default()).await.0;
    let asha = player(&t, "Asha").await;
    for (answer, label) in [(THROTTLED, "throttling"), (OVER_CAPACITY, "over capacity")] {
        let calls = Recorder::new();
        let (db, remaining) = faulty_db(&t, Some("TransactWriteItems"), answer, 2, &calls);
        let who = player(&t, label).await;
        let joined = db
            .rooms()
            .join_room(&code, &who, &name(&label.replace(' ', "")), Avatar::Owl)
            .await;
        assert_eq!(joined.unwrap(), Joined::Joined, "{label}");
        assert_eq!(
            remaining.load(Ordering::SeqCst),
            0,
            "{label}: both faults were met"
        );
        assert_eq!(
            transactions(&calls),
            1,
            "{label}: one call, its retries inside the SDK"
        );
    }
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!(lobby.players.len(), 3, "each join applied exactly once");
    assert!(lobby.player(&asha).is_none());
}

#[tokio::test]
async fn throttling_that_never_clears_is_unavailable_and_changes_nothing() {
    let t = test_table().await;
    let code = room(&t, "THRQ3", RoomSettings::default()).await.0;
    let before = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    let asha = player(&t, "Asha").await;
    let calls = Recorder::new();
    let (db, remaining) = faulty_db(&t, None, THROTTLED, u32::MAX, &calls);
    let started = std::time::Instant::now();
    let joined = db
        .rooms()
        .join_room(&code, &asha, &name("Asha"), Avatar::Owl)
        .await;
    match joined {
        Err(RoomConflict::Data(err @ DataError::Unavailable(_))) => {
            assert!(err.is_retryable(), "the caller may try again later");
        }
        other => panic!("expected the database to be unavailable, got {other:?}"),
    }
    let attempts = u32::MAX - remaining.load(Ordering::SeqCst);
    assert!(
        (2..=5).contains(&attempts),
        "the SDK retried a few times, then gave up: {attempts} attempts"
    );
    assert!(
        started.elapsed() >= std::time::Duration::from_millis(20),
        "with backoff between attempts"
    );
    assert_eq!(t.db.rooms().lobby(&code).await.unwrap().unwrap(), before);
}
