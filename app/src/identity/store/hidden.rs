//! The hidden set in the table (`HIDDEN`: see `identity::hidden` for what it hides and how each
//! instance keeps a copy).
//!
//! | pattern | how | round trips · units |
//! |---|---|---|
//! | has the set changed? (every 5 s per instance, on a request's way in) | GetItem `HIDDEN` / `V`, eventually consistent | 1 · 0.5 RCU |
//! | the set whole (when its version moved) | Query `HIDDEN`, strongly consistent | 1 a page · 1 RCU per 4 KB (about 40 hidden players) |
//! | hide a player | TransactWriteItems: Put `P#<id>` if absent, `ADD v 1` on `V` | 1 · 4 WCU |
//! | clear a player, ban or unban a name | the same, with a Delete if present or a Put if absent | 1 · 4 WCU |

use aws_sdk_dynamodb::types::AttributeValue;
use serde::{Deserialize, Serialize};

use crate::identity::hidden::{self, HiddenSet};
use crate::identity::model::{DisplayName, UserId};
use crate::store::expr::{attr, Cond, Expr, Expressions, Update};
use crate::store::keys::{self, Key};
use crate::store::tx::{n, update};
use crate::store::{epoch_millis, key_map, Conflict, DataError, Item};

use super::Accounts;

/// Why a player is hidden.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HiddenBy {
    /// Reports from enough distinct players (`reports::REPORTS_TO_HIDE`).
    Reports,
    /// An operator.
    Operator,
}

/// One hidden player, as the operator's review lists them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HiddenPlayer {
    pub user: UserId,
    /// The name they were hidden under, for the operator (never drawn to players).
    pub name: String,
    pub by: HiddenBy,
    pub at_ms: i64,
}

/// One banned name, as the operator's review lists them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BannedName {
    pub name: String,
    pub folded: String,
    pub at_ms: i64,
}

/// The set as an operator reads it: the hidden players and the banned names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HiddenList {
    pub version: i64,
    pub players: Vec<HiddenPlayer>,
    pub names: Vec<BannedName>,
}

impl HiddenList {
    fn set(&self) -> HiddenSet {
        HiddenSet {
            version: self.version,
            players: self.players.iter().map(|p| p.user.clone()).collect(),
            names: self.names.iter().map(|n| n.folded.clone()).collect(),
        }
    }
}

/// The access patterns of the hidden set: players whose every name is hidden and banned names.
impl Accounts<'_> {
    /// The set whole: one strongly consistent Query of `HIDDEN` (its version item included, so
    /// the version and the set agree).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn hidden_list(self) -> Result<HiddenList, DataError> {
        let request = self
            .query_partition(keys::Keyed::Table, keys::HIDDEN)
            .consistent_read(true);
        let mut list = HiddenList {
            version: 0,
            ..HiddenList::default()
        };
        for item in self.query_all(request).await? {
            let sk = crate::store::sort_key(&item).to_owned();
            if sk == keys::hidden_version().sk {
                list.version = number(&item, "v");
            } else if sk.starts_with(keys::HIDDEN_PLAYER_PREFIX) {
                list.players.push(serde_dynamo::from_item(item)?);
            } else if sk.starts_with(keys::BANNED_NAME_PREFIX) {
                list.names.push(serde_dynamo::from_item(item)?);
            }
        }
        list.players.sort_by_key(|p| std::cmp::Reverse(p.at_ms));
        list.names.sort_by(|a, b| a.folded.cmp(&b.folded));
        Ok(list)
    }

    /// Reads the set again if its version moved since this instance's copy, and keeps it:
    /// one GetItem, and one Query when it moved. `true` if the copy changed.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn refresh_hidden(self) -> Result<bool, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::hidden_version()))),
            )
            .await?;
        let version = item.as_ref().map_or(0, |item| number(item, "v"));
        if version == hidden::current().version {
            return Ok(false);
        }
        self.reload_hidden().await?;
        Ok(true)
    }

    /// Reads the set whole and keeps it as this instance's copy (after a change made here).
    pub async fn reload_hidden(self) -> Result<(), DataError> {
        let list = self.hidden_list().await?;
        hidden::install(list.set());
        Ok(())
    }

    /// Checks the set's version if [`hidden::CHECK_EVERY_MS`] passed since the last check on
    /// this instance (one check at a time); a failed check is tried again at the next period.
    pub async fn refresh_hidden_if_due(self) {
        let now = epoch_millis();
        if hidden::check_due(now) {
            self.refresh_hidden_checked(now).await;
        }
    }

    /// The check [`hidden::check_due`] allowed at `now`.
    pub async fn refresh_hidden_checked(self, now: i64) {
        if let Err(err) = self.refresh_hidden().await {
            tracing::warn!(error = ?err, "reading the hidden set failed; the copy held stays");
        }
        hidden::checked(now);
    }

    /// Hides every name of `user` (`name` is what they were hidden under, for the operator).
    /// `false` if they were hidden already: a player is hidden once, however many reports
    /// race past the threshold. One transaction of two writes.
    #[tracing::instrument(skip(self, name), err(level = "debug"))]
    pub async fn hide_player(
        self,
        user: &UserId,
        name: &DisplayName,
        by: HiddenBy,
    ) -> Result<bool, DataError> {
        let hidden = HiddenPlayer {
            user: user.clone(),
            name: name.as_str().to_owned(),
            by,
            at_ms: epoch_millis(),
        };
        let item = with_key(keys::hidden_player(user), serde_dynamo::to_item(hidden)?);
        self.change_hidden(self.put_new(item)?).await
    }

    /// Shows `user`'s names again. `false` if they were not hidden.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn clear_player(self, user: &UserId) -> Result<bool, DataError> {
        let delete = self.delete_if_present(keys::hidden_player(user))?;
        self.change_hidden(delete).await
    }

    /// Bans `name` (and every name that folds the same): it is hidden wherever it was copied
    /// and refused when typed. `false` if it was banned already.
    #[tracing::instrument(skip(self, name), err(level = "debug"))]
    pub async fn ban_name(self, name: &DisplayName) -> Result<bool, DataError> {
        let folded = name.folded();
        let banned = BannedName {
            name: name.as_str().to_owned(),
            folded: folded.clone(),
            at_ms: epoch_millis(),
        };
        let item = with_key(keys::banned_name(&folded), serde_dynamo::to_item(banned)?);
        self.change_hidden(self.put_new(item)?).await
    }

    /// Lifts the ban on `name`. `false` if it was not banned.
    #[tracing::instrument(skip(self, name), err(level = "debug"))]
    pub async fn unban_name(self, name: &DisplayName) -> Result<bool, DataError> {
        let delete = self.delete_if_present(keys::banned_name(&name.folded()))?;
        self.change_hidden(delete).await
    }

    fn delete_if_present(
        self,
        key: Key,
    ) -> Result<aws_sdk_dynamodb::types::TransactWriteItem, DataError> {
        let delete = aws_sdk_dynamodb::types::Delete::builder()
            .table_name(self.table_name())
            .set_key(Some(key_map(key)))
            .expressions(Expr::condition(Cond::exists(attr(keys::PK))))
            .build()
            .map_err(crate::store::tx::internal)?;
        Ok(aws_sdk_dynamodb::types::TransactWriteItem::builder()
            .delete(delete)
            .build())
    }

    /// One change to the set with its version moved, in one transaction; then this instance's
    /// copy read again. `false` if the change's condition refused it (nothing written).
    async fn change_hidden(
        self,
        action: aws_sdk_dynamodb::types::TransactWriteItem,
    ) -> Result<bool, DataError> {
        let version = self.update_action(
            update(keys::hidden_version())
                .expressions(Expr::update(Update::new().add(attr("v"), n(1)))),
        )?;
        match self.transact(vec![action, version]).await {
            Ok(()) => {}
            Err(DataError::Conflict(conflict)) if conflict.failed_condition() == Some(0) => {
                return Ok(false)
            }
            Err(DataError::Conflict(Conflict::ConditionFailed)) => return Ok(false),
            Err(err) => return Err(err),
        }
        self.reload_hidden().await?;
        Ok(true)
    }
}

fn with_key(key: Key, mut item: Item) -> Item {
    item.insert(keys::PK.into(), AttributeValue::S(key.pk));
    item.insert(keys::SK.into(), AttributeValue::S(key.sk));
    item
}

fn number(item: &Item, name: &str) -> i64 {
    item.get(name)
        .and_then(|v| v.as_n().ok())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}
