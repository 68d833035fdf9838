//! Results flagged for review (see [`crate::game::timing::too_fast_to_believe`]): a match record
//! or a daily flight whose reactions were too fast and steady to be a person's. It stays the
//! player's (their match list, the flight's page) and counts on no board, counter or badge
//! until an operator looks. The list is GSI1's sparse `FLAGGED` partition, oldest first.
//!
//! | pattern | how | round trips |
//! |---|---|---|
//! | the flagged results, oldest first | Query GSI1 `FLAGGED` | Query a page |
//! | clear one (it counts now) | UpdateItem `REMOVE flagged, GSI1PK, GSI1SK` if `flagged = true`; the projector reads the change from the stream and counts it, once | UpdateItem |
//! | confirm one (it never counts) | UpdateItem `SET flag_confirmed REMOVE GSI1PK, GSI1SK` if `flagged = true` | UpdateItem |
//!
//! Match records and flights are written by `game::store::resolve` and `daily::store`; this
//! module touches only their flag and their place on the list.

use super::Game;
use aws_sdk_dynamodb::types::AttributeValue;

use crate::store::expr::{attr, Cond, Expr, Expressions, Update};
use crate::store::keys::{self, Key};
use crate::store::{key_map, Conflict, DataError, Item};

/// One flagged result as an operator sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flagged {
    /// The item: a match record (`USER#<id>` / `MATCH#<ulid>`) or a flight.
    pub key: Key,
    pub user_id: String,
    pub nickname: String,
    /// When the match or flight ended.
    pub finished_ms: i64,
    /// The day of a daily flight, else `None` (a match).
    pub day: Option<String>,
    pub average_ms: Option<u32>,
}

impl Game<'_> {
    /// Up to `limit` flagged results, oldest first: one Query of GSI1 (eventually consistent, as
    /// every index read).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn flagged_results(self, limit: i32) -> Result<Vec<Flagged>, DataError> {
        let request = self
            .query_partition(keys::Keyed::Gsi1, keys::FLAGGED)
            .limit(limit.clamp(1, 1000));
        let (items, _) = self.query_page(request, None).await?;
        Ok(items.iter().filter_map(flagged_of).collect())
    }

    /// Clears the flag of the result at `key`: it counts on its boards, counters and badges
    /// now (the projector reads the change from the stream). `false` if it was not flagged.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn clear_flag(self, key: &Key) -> Result<bool, DataError> {
        let clear = Update::new()
            .remove(attr("flagged"))
            .remove(attr("GSI1PK"))
            .remove(attr("GSI1SK"));
        self.unflag(key, clear).await
    }

    /// Confirms the flag of the result at `key`: it stays the player's and never counts, and
    /// leaves the list. `false` if it was not flagged.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn confirm_flag(self, key: &Key) -> Result<bool, DataError> {
        let confirm = Update::new()
            .set(attr("flag_confirmed"), AttributeValue::Bool(true))
            .remove(attr("GSI1PK"))
            .remove(attr("GSI1SK"));
        self.unflag(key, confirm).await
    }

    async fn unflag(self, key: &Key, update: Update) -> Result<bool, DataError> {
        let flagged =
            Cond::eq(attr("flagged"), AttributeValue::Bool(true)).and(Cond::exists(attr("GSI1PK")));
        let request = self
            .client
            .update_item()
            .set_key(Some(key_map(key.clone())))
            .expressions(Expr::update(update).when(flagged));
        match self.update_item(request).await {
            Ok(()) => Ok(true),
            Err(DataError::Conflict(Conflict::ConditionFailed)) => Ok(false),
            Err(err) => Err(err),
        }
    }
}

fn flagged_of(item: &Item) -> Option<Flagged> {
    let text = |name: &str| item.get(name).and_then(|v| v.as_s().ok()).cloned();
    let number = |name: &str| {
        item.get(name)
            .and_then(|v| v.as_n().ok())
            .and_then(|n| n.parse::<i64>().ok())
    };
    let result = item.get("result").and_then(|v| v.as_m().ok());
    let in_result = |name: &str| {
        result
            .and_then(|m| m.get(name))
            .and_then(|v| v.as_n().ok())
            .and_then(|n| n.parse::<i64>().ok())
    };
    Some(Flagged {
        key: Key {
            pk: text(keys::PK)?,
            sk: text(keys::SK)?,
        },
        user_id: text("user_id")?,
        nickname: text("nickname").unwrap_or_default(),
        finished_ms: number("finished_at_ms")
            .or_else(|| in_result("finished_ms"))
            .unwrap_or_default(),
        day: text("day").filter(|_| result.is_some()),
        average_ms: number("average_reaction_ms")
            .or_else(|| in_result("average_ms"))
            .map(|ms| ms as u32),
    })
}
