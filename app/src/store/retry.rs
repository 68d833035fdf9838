//! Writes that recognise their own retries. The SDK sends a call again when an attempt's
//! answer is lost (a 500, a timeout) even though DynamoDB may have applied it; a conditional
//! write's copy is then refused by its own condition. These writes ask DynamoDB for the item
//! as it stood when a condition refused them (`ReturnValuesOnConditionCheckFailure::AllOld`:
//! no extra read, no extra unit), so the caller can tell its own earlier attempt (the item
//! holds exactly what it wrote) from a real refusal.
//!
//! Transactions need none of this: the SDK gives each call one `ClientRequestToken`, and
//! DynamoDB applies a token once (see `Db::transact`).

use std::time::Instant;

use aws_sdk_dynamodb::operation::update_item::builders::UpdateItemFluentBuilder;
use aws_sdk_dynamodb::operation::update_item::UpdateItemError;
use aws_sdk_dynamodb::types::{
    ReturnConsumedCapacity, ReturnValue, ReturnValuesOnConditionCheckFailure,
};

use super::db::{Db, Item};
use super::error::{classify, DataError};

/// How a conditional write ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Written {
    /// It applied; the item's attributes as the request asked for them (none unless asked).
    Applied(Option<Item>),
    /// Its condition refused it; the item as it stood (empty when there was none).
    Refused(Item),
}

impl Db {
    /// UpdateItem answering with what `values` asks for when it applies, and with the item as
    /// it stood when its condition refuses it.
    pub(crate) async fn update_written(
        &self,
        request: UpdateItemFluentBuilder,
        values: ReturnValue,
    ) -> Result<Written, DataError> {
        let started = Instant::now();
        let result = request
            .table_name(self.table_name())
            .return_values(values)
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await;
        match &result {
            Ok(out) => self.record("UpdateItem", out.consumed_capacity(), started),
            Err(err) => self.record_failure("UpdateItem", err, started),
        }
        match result {
            Ok(out) => Ok(Written::Applied(out.attributes)),
            Err(err) => match err.as_service_error() {
                Some(UpdateItemError::ConditionalCheckFailedException(refused)) => {
                    Ok(Written::Refused(refused.item.clone().unwrap_or_default()))
                }
                _ => Err(classify(err)),
            },
        }
    }
}

/// Whether `item` holds each of `values` (name, value): a refused write's item compared with
/// what the write itself set.
pub fn holds(item: &Item, values: &[(&str, aws_sdk_dynamodb::types::AttributeValue)]) -> bool {
    values
        .iter()
        .all(|(name, value)| item.get(*name) == Some(value))
}
