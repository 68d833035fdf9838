//! Transaction conflicts: real DynamoDB cancels a transaction when another one is touching the
//! same items (`TransactionCanceledException` with `TransactionConflict` reasons), which neither
//! DynamoDB Local nor the embedded engine ever does. An interceptor on a second client answers
//! the first N `TransactWriteItems` calls with exactly that response instead of the engine's,
//! so the data layer's retry is tested against the wire format.

use std::sync::atomic::{AtomicU32, Ordering};

use app::identity::Avatar;
use app::rooms::store::{Joined, RoomConflict};
use app::rooms::RoomSettings;
use app::store::{Conflict, DataError, Db, Recorder};
use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::config::interceptors::{
    BeforeDeserializationInterceptorContextMut, BeforeTransmitInterceptorContextMut,
};
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use aws_smithy_types::body::SdkBody;
use aws_smithy_types::config_bag::{Storable, StoreReplace};

use super::{name, player, room, test_table, TestTable};

/// Answers the next `remaining` TransactWriteItems calls with a cancellation by conflict. The
/// engine must not apply them, so before signing each is turned into a harmless ListTables
/// (and marked); the engine's answer to that is then replaced with the cancellation.
#[derive(Debug)]
struct ConflictFirst {
    remaining: AtomicU32,
}

/// Whether this attempt was turned into a ListTables, carried from signing to deserialising.
#[derive(Debug, Clone)]
struct Injected(bool);

impl Storable for Injected {
    type Storer = StoreReplace<Self>;
}

impl Intercept for ConflictFirst {
    fn name(&self) -> &'static str {
        "ConflictFirst"
    }

    fn modify_before_signing(
        &self,
        context: &mut BeforeTransmitInterceptorContextMut<'_>,
        _components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let request = context.request_mut();
        let transaction = request
            .headers()
            .get("x-amz-target")
            .is_some_and(|target| target.ends_with(".TransactWriteItems"));
        let inject = transaction
            && self
                .remaining
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                .is_ok();
        if inject {
            request
                .headers_mut()
                .insert("x-amz-target", "DynamoDB_20120810.ListTables");
            request.headers_mut().insert("content-length", "2");
            *request.body_mut() = SdkBody::from("{}");
        }
        cfg.interceptor_state().store_put(Injected(inject));
        Ok(())
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let injected = cfg.load::<Injected>().is_some_and(|i| i.0);
        if !injected {
            return Ok(());
        }
        let body = r#"{"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","message":"Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict, None, None]","CancellationReasons":[{"Code":"TransactionConflict","Message":"Transaction is ongoing for the item"},{"Code":"None"},{"Code":"None"}]}"#;
        let mut response = HttpResponse::new(400u16.try_into()?, SdkBody::from(body));
        response
            .headers_mut()
            .insert("content-type", "application/x-amz-json-1.0");
        *context.response_mut() = response;
        Ok(())
    }
}

/// A handle on the test's table whose next `conflicts` transactions are cancelled by conflict.
pub fn conflicting_db(t: &TestTable, conflicts: u32, calls: &Recorder) -> Db {
    let interceptor = ConflictFirst {
        remaining: AtomicU32::new(conflicts),
    };
    let config = t
        .engine
        .client
        .config()
        .to_builder()
        .interceptor(interceptor)
        .build();
    Db::new(
        aws_sdk_dynamodb::Client::from_conf(config),
        t.db.table_name(),
    )
    .recording(calls.clone())
}

pub fn transactions(calls: &Recorder) -> usize {
    calls
        .ops()
        .iter()
        .filter(|op| **op == "TransactWriteItems")
        .count()
}

#[tokio::test]
async fn a_transaction_cancelled_by_a_conflict_is_retried_until_it_applies() {
    let t = test_table().await;
    let code = room(&t, "CNFQ2", RoomSettings::default()).await.0;
    let asha = player(&t, "Asha").await;
    let calls = Recorder::new();
    let db = conflicting_db(&t, 2, &calls);
    let joined = db.join_room(&code, &asha, &name("Asha"), Avatar::Owl).await;
    assert_eq!(joined.unwrap(), Joined::Joined);
    assert_eq!(transactions(&calls), 3, "two conflicts, then the real one");
    let lobby = t.db.lobby(&code).await.unwrap().unwrap();
    assert_eq!(lobby.players.len(), 2, "applied exactly once");
}

#[tokio::test]
async fn conflicts_that_never_clear_end_as_a_retryable_error_and_change_nothing() {
    let t = test_table().await;
    let code = room(&t, "CNFQ3", RoomSettings::default()).await.0;
    let before = t.db.lobby(&code).await.unwrap().unwrap();
    let asha = player(&t, "Asha").await;
    let calls = Recorder::new();
    let db = conflicting_db(&t, u32::MAX, &calls);
    let joined = db.join_room(&code, &asha, &name("Asha"), Avatar::Owl).await;
    match joined {
        Err(RoomConflict::Data(err @ DataError::Conflict(Conflict::TransactionConflict))) => {
            assert!(err.is_retryable(), "the caller may try again later");
        }
        other => panic!("expected a transaction conflict, got {other:?}"),
    }
    assert_eq!(transactions(&calls), 5, "one try and four retries");
    assert_eq!(t.db.lobby(&code).await.unwrap().unwrap(), before);
}
