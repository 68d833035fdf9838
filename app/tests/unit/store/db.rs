//! The unit tests of `app::store::db`.

use aws_sdk_dynamodb::types::AttributeValue;

use app::store::db::*;
use app::store::keys;

fn item_with_ttl(ttl: Option<&str>) -> Item {
    let mut item = Item::new();
    item.insert(keys::PK.into(), AttributeValue::S("X".into()));
    if let Some(ttl) = ttl {
        item.insert(keys::TTL.into(), AttributeValue::N(ttl.into()));
    }
    item
}

#[test]
fn items_without_ttl_live_forever() {
    assert!(is_live(&item_with_ttl(None), i64::MAX));
}

#[test]
fn items_are_dead_from_their_ttl_on() {
    let item = item_with_ttl(Some("1000"));
    assert!(is_live(&item, 999));
    assert!(!is_live(&item, 1000));
    assert!(!is_live(&item, 5000));
}

#[test]
fn failures_are_sorted_by_the_codes_and_reasons_aws_documents() {
    let cancelled = Some("TransactionCanceledException");
    let conflict = "Transaction cancelled, please refer cancellation reasons for specific \
                    reasons [None, TransactionConflict]";
    let refused = "Transaction cancelled, please refer cancellation reasons for specific \
                   reasons [ConditionalCheckFailed, None]";
    assert_eq!(failure_kind(cancelled, conflict), "conflict");
    assert_eq!(failure_kind(cancelled, refused), "condition");
    assert_eq!(
        failure_kind(Some("TransactionConflictException"), ""),
        "conflict"
    );
    assert_eq!(failure_kind(Some("ThrottlingException"), ""), "throttled");
    assert_eq!(
        failure_kind(Some("ProvisionedThroughputExceededException"), ""),
        "throttled"
    );
    assert_eq!(failure_kind(Some("ValidationException"), ""), "other");
    assert_eq!(failure_kind(None, ""), "unavailable");
}
