//! The unit tests of `app::store::error`.

use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;

use app::error::AppError;
use app::store::error::*;

#[test]
fn failed_condition_finds_the_first_failing_action() {
    let conflict = Conflict::TransactionCanceled {
        reasons: vec![None, Some("ConditionalCheckFailed".into()), None],
    };
    assert_eq!(conflict.failed_condition(), Some(1));
    assert_eq!(Conflict::ConditionFailed.failed_condition(), None);
}

fn cancelled(codes: &[&str]) -> SdkError<TransactWriteItemsError, HttpResponse> {
    use aws_sdk_dynamodb::types::{error::TransactionCanceledException, CancellationReason};
    let reasons = codes
        .iter()
        .map(|code| CancellationReason::builder().code(*code).build())
        .collect();
    let err = TransactionCanceledException::builder()
        .set_cancellation_reasons(Some(reasons))
        .build();
    let raw = HttpResponse::new(
        400u16.try_into().unwrap(),
        aws_smithy_types::body::SdkBody::empty(),
    );
    SdkError::service_error(
        TransactWriteItemsError::TransactionCanceledException(err),
        raw,
    )
}

#[test]
fn a_cancelled_transaction_keeps_its_reasons() {
    let err = classify_transaction(cancelled(&["None", "ConditionalCheckFailed"]));
    match err {
        DataError::Conflict(conflict) => assert_eq!(conflict.failed_condition(), Some(1)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_transaction_cancelled_only_by_conflicts_is_retryable() {
    let err = classify_transaction(cancelled(&["None", "TransactionConflict"]));
    assert!(matches!(
        err,
        DataError::Conflict(Conflict::TransactionConflict)
    ));
    assert!(err.is_retryable());
}

#[test]
fn a_throttled_transaction_is_unavailable() {
    let err = classify_transaction(cancelled(&["ThrottlingError", "None"]));
    assert!(matches!(err, DataError::Unavailable(_)));
}

#[test]
fn only_unavailable_and_transaction_conflicts_are_retryable() {
    assert!(DataError::Conflict(Conflict::TransactionConflict).is_retryable());
    assert!(DataError::Unavailable("down".into()).is_retryable());
    assert!(!DataError::Conflict(Conflict::ConditionFailed).is_retryable());
    assert!(!DataError::BadCursor.is_retryable());
}

#[test]
fn internal_causes_do_not_reach_the_player() {
    let err = DataError::Internal("secret table detail".into());
    let shown = AppError::from(err).to_string();
    assert!(!shown.contains("secret"), "{shown}");
}
