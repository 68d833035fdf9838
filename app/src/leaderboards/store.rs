//! Access patterns of the boards: a room's leaderboard (GSI1 `LB#all#room#<code>`, highest
//! first), each player's lifetime counters (`USER#<id>` / `STATS`), and the writes a finished
//! match makes to them. The counters are added in the last round's transaction (the game takes
//! [`Db::stats_action`] into it), so they count each match exactly once; the board entries and
//! best scores are only-if-higher writes made after it, safe to repeat.
//!
//! | pattern | how | round trips |
//! |---|---|---|
//! | a room's leaderboard | Query GSI1 `LB#all#room#<code>`, highest first | Query |
//! | a player's stats | GetItem `USER#<id>` / `STATS` | GetItem |
//! | offer a room best | PutItem only if absent or higher | PutItem |
//! | offer a best score | UpdateItem of `STATS` only if higher | UpdateItem |

use aws_sdk_dynamodb::types::TransactWriteItem;

use crate::identity::model::UserId;
use crate::leaderboards::model::{BoardEntry, PlayerStats};
use crate::rooms::model::RoomCode;
use crate::store::keys::{self, Key};
use crate::store::tx::{n, s, update};
use crate::store::{key_map, send_recorded, Conflict, DataError, Db, Item};

/// What one finished match adds to a player's lifetime counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchTally {
    pub won: bool,
    pub score: i32,
    pub correct: u32,
    pub rounds: u32,
}

impl Db {
    /// A transaction action that adds one finished match to `user`'s lifetime counters.
    pub fn stats_action(
        &self,
        user: &UserId,
        tally: MatchTally,
    ) -> Result<TransactWriteItem, DataError> {
        self.update_action(
            update(keys::user_stats(user))
                .update_expression(
                    "ADD matches :one, wins :win, lifetime_score :score, \
                     correct :correct, rounds :rounds",
                )
                .expression_attribute_values(":one", n(1))
                .expression_attribute_values(":win", n(u32::from(tally.won)))
                .expression_attribute_values(":score", n(tally.score))
                .expression_attribute_values(":correct", n(tally.correct))
                .expression_attribute_values(":rounds", n(tally.rounds)),
        )
    }

    /// Puts `entry` on the room's board only if the player has no entry there yet or a lower
    /// one; `false` when the board kept what it had.
    #[tracing::instrument(skip(self, entry), err(level = "debug"))]
    pub async fn offer_room_best(
        &self,
        code: &RoomCode,
        entry: &BoardEntry,
    ) -> Result<bool, DataError> {
        let Key { pk, sk } = keys::room_board_entry(code, &entry.user_id);
        let mut item: Item = serde_dynamo::to_item(entry)?;
        item.insert(keys::GSI1PK.into(), s(pk.clone()));
        item.insert(
            keys::GSI1SK.into(),
            s(keys::board_sort(entry.best_score, entry.achieved_at_ms)),
        );
        item.insert(keys::PK.into(), s(pk));
        item.insert(keys::SK.into(), s(sk));
        let put = self
            .client
            .put_item()
            .set_item(Some(item))
            .condition_expression("attribute_not_exists(#pk) OR best_score < :score")
            .expression_attribute_names("#pk", keys::PK)
            .expression_attribute_values(":score", n(entry.best_score));
        match self.put(put).await {
            Ok(()) => Ok(true),
            Err(DataError::Conflict(Conflict::ConditionFailed)) => Ok(false),
            Err(err) => Err(err),
        }
    }

    /// Sets `user`'s best score to `score` only if it is higher than the best so far.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn offer_best_score(&self, user: &UserId, score: i32) -> Result<bool, DataError> {
        let best = self
            .client
            .update_item()
            .table_name(self.table_name())
            .set_key(Some(key_map(keys::user_stats(user))))
            .update_expression("SET best_score = :score")
            .condition_expression("attribute_not_exists(best_score) OR best_score < :score")
            .expression_attribute_values(":score", n(score));
        match send_recorded!(self, "UpdateItem", best) {
            Ok(_) => Ok(true),
            Err(DataError::Conflict(Conflict::ConditionFailed)) => Ok(false),
            Err(err) => Err(err),
        }
    }

    /// A player's lifetime counters; all zero before their first match.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn stats(&self, user: &UserId) -> Result<PlayerStats, DataError> {
        let key = keys::user_stats(user);
        let item = self
            .get(
                self.client
                    .get_item()
                    .key(keys::PK, s(key.pk))
                    .key(keys::SK, s(key.sk)),
            )
            .await?;
        Ok(match item {
            Some(item) => serde_dynamo::from_item(item)?,
            None => PlayerStats::default(),
        })
    }

    /// A room's leaderboard: the `limit` best scores, highest first (equal scores: the one set
    /// first ranks higher).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn room_board(
        &self,
        code: &RoomCode,
        limit: i32,
    ) -> Result<Vec<BoardEntry>, DataError> {
        let (items, _) = self
            .query_page(
                self.client
                    .query()
                    .index_name(keys::GSI1)
                    .key_condition_expression("#pk = :pk")
                    .expression_attribute_names("#pk", keys::GSI1PK)
                    .expression_attribute_values(":pk", s(keys::room_board(code)))
                    .scan_index_forward(false)
                    .limit(limit.clamp(1, 100)),
                None,
            )
            .await?;
        Ok(items
            .into_iter()
            .map(serde_dynamo::from_item)
            .collect::<Result<_, _>>()?)
    }
}
