//! Fixed-window counters in the table, shared by every instance: what the rate limits of the
//! features count with (`rate#<key>` / `W#<window start>`, expiring by TTL after the window).

use aws_sdk_dynamodb::types::ReturnValue;

use super::db::{epoch_seconds, key_map, Db};
use super::error::{Conflict, DataError};
use super::expr::{attr, Cond, Expr, Expressions, Operand, Update};
use super::keys::{self, Limited};
use super::tx::n;

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
        let result = self
            .update_item(
                self.client
                    .update_item()
                    .table_name(self.table_name())
                    .set_key(Some(key_map(keys::rate_window(limited, window_start))))
                    .expressions(
                        Expr::update(Update::new().add(attr("hits"), n(1)).set(
                            attr(keys::TTL),
                            Operand::IfNotExists(
                                attr(keys::TTL),
                                n(window_start + window_secs + 60),
                            ),
                        ))
                        .when(Cond::not_exists(attr("hits")).or(Cond::lt(attr("hits"), n(max)))),
                    )
                    .return_values(ReturnValue::None),
            )
            .await;
        match result {
            Ok(_) => Ok(true),
            Err(DataError::Conflict(Conflict::ConditionFailed)) => Ok(false),
            Err(err) => Err(err),
        }
    }
}
