//! Fixed-window counters in the table, shared by every instance: what the rate limits of the
//! features count with (`rate#<key>` / `W#<window start>`, expiring by TTL after the window).

use aws_sdk_dynamodb::types::{AttributeValue, ReturnValue};

use super::db::{epoch_seconds, key_map, send_recorded, Db};
use super::error::{Conflict, DataError};
use super::keys::{self, Limited};

impl Db {
    /// Counts one attempt against `limited` in the current fixed window of `window_secs`; `false`
    /// once `max` attempts were made in it. One conditional UpdateItem, shared by every instance.
    /// (Limits can hold a login or an address, so they stay out of the logs.)
    #[tracing::instrument(skip(self, limited), err(level = "debug"))]
    pub async fn hit_rate_limit(
        &self,
        limited: Limited<'_>,
        window_secs: i64,
        max: u32,
    ) -> Result<bool, DataError> {
        let now = epoch_seconds();
        let window_start = now - now.rem_euclid(window_secs);
        let result = send_recorded!(
            self,
            "UpdateItem",
            self.client
                .update_item()
                .table_name(self.table_name())
                .set_key(Some(key_map(keys::rate_window(limited, window_start))))
                .update_expression("ADD hits :one SET #ttl = if_not_exists(#ttl, :expires)")
                .condition_expression("attribute_not_exists(hits) OR hits < :max")
                .expression_attribute_names("#ttl", keys::TTL)
                .expression_attribute_values(":one", AttributeValue::N("1".into()))
                .expression_attribute_values(":max", AttributeValue::N(max.to_string()))
                .expression_attribute_values(
                    ":expires",
                    AttributeValue::N((window_start + window_secs + 60).to_string()),
                )
                .return_values(ReturnValue::None)
        );
        match result {
            Ok(_) => Ok(true),
            Err(DataError::Conflict(Conflict::ConditionFailed)) => Ok(false),
            Err(err) => Err(err),
        }
    }
}
