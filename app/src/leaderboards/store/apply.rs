//! Counting finished matches on the boards, in the lifetime counters and in the inventory,
//! exactly once, however often they are delivered, with single conditional writes.
//!
//! The projector (and the rebuild) hands over a slice of match results. For each slice:
//!
//! 1. One consistent read of everything the slice can change: each result's `COUNTED` marker,
//!    each player's entry on each of the result's boards, their lifetime counters, wallet,
//!    the bag stacks of the cards they earn and the badges (BatchGetItem).
//! 2. The results are folded into those items in memory: a best score only if higher; into a
//!    total, the counters, the wallet or a stack only a result that has no marker and that the
//!    item does not remember having added (each keeps the last [`REMEMBERED`] records it added).
//! 3. Each changed item is one write conditioned on what was read (an entry's or the counters'
//!    version, a stack's or the wallet's `pn`); then the markers of the results counted now.
//!
//! No transaction: what makes a result count once is that every item remembers the records it
//! added, so a write repeated after a crash, a lost answer or a stale holder's late write adds
//! nothing twice, and the marker written last retires the record for good (a record delivered
//! again later is skipped whole). A write refused by its condition means someone wrote since the
//! read: the slice is read and planned again. The boards' trees are not written here: every
//! entry write carries the score the tree counted (`ps`), and the projector moves it in the tree
//! when it reads the write back from the stream (see `tree_pass`).

use super::Boards;
use std::collections::HashMap;

use aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem};
use futures::stream::{self, StreamExt, TryStreamExt};

use crate::game::model::MatchRecord;
use crate::identity::model::UserId;
use crate::inventory::store::changes::Folded;
use crate::leaderboards::model::BoardId;
use crate::leaderboards::period::Season;
use crate::leaderboards::plan::{expiry, plan, slices, wanted, Plan, PlaysPlan, Read, StatsDelta};
pub use crate::leaderboards::plan::{LIVE_GRACE_SECS, PER_PLAYER, RECENT_ROOMS, REMEMBERED, SLICE};
use crate::leaderboards::store::{entries_by_key, DaysItem, EntryItem, StatsItem};
use crate::store::expr::{attr, Cond, Expr, Expressions, Update};
use crate::store::keys::{self, Key};
use crate::store::tx::{n, s, update};
use crate::store::{epoch_millis, sort_key, Conflict, DataError, Item};

/// Writes sent at once.
const IN_FLIGHT: usize = 16;

/// What lets a projector write its checkpoint: the item holding its lease, and the token it was
/// given (the checkpoint is written on condition that the token is still the lease's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fence {
    pub lease: Key,
    pub token: u64,
}

/// Why a slice could not be counted.
#[derive(Debug, thiserror::Error)]
pub enum ApplyError {
    /// The lease changed hands: nothing more may be written under this fence.
    #[error("the lease was lost")]
    LeaseLost,
    #[error(transparent)]
    Data(#[from] DataError),
}

/// What counting a slice did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Applied {
    /// Results this call retired (wrote the markers of). A tally, not the oracle: two callers
    /// counting one record at once may both retire it (the markers are blind puts), and each
    /// tallies it; what the record changed, it changed once.
    pub counted: usize,
    /// Items written (each one conditional write).
    pub writes: usize,
    /// Slices read and planned again after a refused condition.
    pub retries: usize,
    /// For each result counted now: from the match's end to its marker, in ms.
    pub lags_ms: Vec<i64>,
}

/// Sorts what a slice read into a [`Read`].
fn sort_read(items: Vec<Item>) -> Result<Read, DataError> {
    let mut read = Read::default();
    let mut entries = Vec::new();
    for item in items {
        let Some(pk) = item.get(keys::PK).and_then(|v| v.as_s().ok()).cloned() else {
            continue;
        };
        let sk = sort_key(&item).to_owned();
        let key = Key { pk, sk };
        if key.sk.starts_with(keys::COUNTED_PREFIX) {
            read.counted.insert(key);
        } else if key.sk.starts_with(keys::BOARD_ENTRY_PREFIX) {
            entries.push(item);
        } else if key.sk == keys::user_stats(&UserId::nobody()).sk {
            if let Some(user) = keys::user_of_partition(&key.pk) {
                read.stats.insert(user, serde_dynamo::from_item(item)?);
            }
        } else if key.sk == keys::DAYS {
            if let Some(user) = keys::user_of_partition(&key.pk) {
                read.days.insert(user, serde_dynamo::from_item(item)?);
            }
        } else if key.sk.starts_with(keys::BADGE_PREFIX) {
            read.badges.insert(key);
        } else if let Some(deck) = keys::deck_of_partition(&key.pk) {
            if key.sk == keys::DECK_PLAYS {
                read.plays.insert(deck, serde_dynamo::from_item(item)?);
            } else if key.sk == keys::DECK_HEAD {
                let head: crate::decks::model::ListedHead = serde_dynamo::from_item(item)?;
                read.decks.insert(deck, head.listed());
            }
        } else {
            read.folded.insert(key, Folded::read(Some(&item)));
        }
    }
    read.entries = entries_by_key(entries)?;
    Ok(read)
}

impl Boards<'_> {
    /// Counts a slice of finished matches on every board they belong to, in the lifetime
    /// counters and the inventory, exactly once. Safe to call again with any of the same
    /// results, from anywhere, at any time. A flagged result counts nowhere and leaves no
    /// marker: cleared, it comes back from the stream and counts then.
    #[tracing::instrument(skip(self, results, seasons), fields(results = results.len()), err(level = "debug"))]
    pub async fn count_results(
        self,
        results: &[MatchRecord],
        seasons: &[Season],
    ) -> Result<Applied, DataError> {
        let mut applied = Applied::default();
        let results: Vec<MatchRecord> = results.iter().filter(|r| !r.flagged).cloned().collect();
        for slice in slices(&results) {
            // Refusals in a row without progress; an attempt that planned fewer writes than the
            // one before made progress (its writes landed), so it starts the count again.
            let mut attempt = 0;
            let mut planned_before = usize::MAX;
            loop {
                let writes_before = applied.writes;
                let outcome = self.count_slice(slice, seasons, &mut applied).await;
                let planned = applied.writes - writes_before;
                if planned < planned_before {
                    attempt = 0;
                }
                planned_before = planned;
                match outcome {
                    Err(DataError::Conflict(Conflict::ConditionFailed)) if attempt < 8 => {
                        // Someone wrote what this slice read: read again and re-plan.
                        attempt += 1;
                        applied.retries += 1;
                        crate::store::db::back_off(10, attempt).await;
                    }
                    other => {
                        other?;
                        break;
                    }
                }
            }
        }
        Ok(applied)
    }

    async fn count_slice(
        self,
        slice: &[MatchRecord],
        seasons: &[Season],
        applied: &mut Applied,
    ) -> Result<(), DataError> {
        let now_ms = epoch_millis();
        let items = self.batch_get(wanted(slice, seasons, now_ms), true).await?;
        let read = sort_read(items)?;
        let plan = plan(slice, seasons, &read, now_ms);
        let actions = self.plan_actions(&plan, seasons, now_ms / 1000)?;
        applied.writes += actions.len();
        // The inventory's writes are billed apart (`rewards` in the usage).
        let rewards = self.counted_as("rewards");
        stream::iter(actions.into_iter().map(|(reward, action)| {
            let db = if reward { &rewards } else { self.db() };
            db.write_alone(action)
        }))
        .buffer_unordered(IN_FLIGHT)
        .try_collect::<Vec<()>>()
        .await?;
        // Everything else is added: each deck's plays with the markers of the records that
        // count them, at once (a crash after it leaves those records retired, as they should
        // be: everything of theirs is written).
        for plays in &plan.plays {
            applied.writes += 1 + plays.records.len();
            self.count_plays(plays).await?;
        }
        // Everything is added: retire the records.
        if !plan.markers.is_empty() {
            let mut requests = Vec::with_capacity(plan.markers.len());
            for (user, record, _) in &plan.markers {
                let key = keys::counted_match(user, record);
                let mut item = Item::new();
                item.insert(keys::PK.into(), s(key.pk));
                item.insert(keys::SK.into(), s(key.sk));
                requests.push(crate::store::tx::put_request(item)?);
            }
            applied.writes += requests.len();
            self.batch_write(requests).await?;
        }
        let done = epoch_millis();
        applied.counted += plan.markers.len();
        applied
            .lags_ms
            .extend(plan.markers.iter().map(|(_, _, finished)| done - finished));
        Ok(())
    }

    /// One deck's plays and the markers of the records counted with them, in one transaction;
    /// refused (someone counted or saved meanwhile) as a refused condition, so the slice is
    /// read and planned again.
    async fn count_plays(self, plays: &PlaysPlan) -> Result<(), DataError> {
        let mut actions = vec![self.decks().plays_action(
            &plays.deck,
            &plays.before,
            &plays.after,
            plays.listed,
        )?];
        for (user, record) in &plays.records {
            let key = keys::counted_match(user, record);
            let mut item = Item::new();
            item.insert(keys::PK.into(), s(key.pk));
            item.insert(keys::SK.into(), s(key.sk));
            actions.push(self.put_new(item)?);
        }
        match self.transact(actions).await {
            Err(DataError::Conflict(Conflict::TransactionCanceled { .. })) => {
                Err(DataError::Conflict(Conflict::ConditionFailed))
            }
            other => other,
        }
    }

    /// The conditional writes of a plan, each marked whether it is an inventory reward
    /// (markers apart: they go last).
    fn plan_actions(
        self,
        plan: &Plan,
        seasons: &[Season],
        now_s: i64,
    ) -> Result<Vec<(bool, TransactWriteItem)>, DataError> {
        let mut actions = Vec::with_capacity(plan.writes());
        for (board, old, new) in &plan.entries {
            actions.push((
                false,
                self.entry_action(board, old.as_ref(), new, seasons, now_s)?,
            ));
        }
        for (user, before, delta, after) in &plan.stats {
            actions.push((false, self.stats_action(user, before, delta, after)?));
        }
        for (user, feathers, folded, records) in &plan.wallets {
            actions.push((
                true,
                self.inventory()
                    .wallet_reward_action(user, *feathers, folded, records.clone())?,
            ));
        }
        for (user, thing, count, folded, records) in &plan.stacks {
            if let Some(action) = self.inventory().stack_reward_action(
                user,
                thing,
                *count,
                folded,
                records.clone(),
            )? {
                actions.push((true, action));
            }
        }
        for (user, badge) in &plan.badges {
            actions.push((true, self.inventory().badge_action(user, badge)?));
        }
        for (user, before, after) in &plan.days {
            actions.push((false, days_action(self.db(), user, before.as_ref(), after)?));
        }
        Ok(actions)
    }

    fn entry_action(
        self,
        board: &BoardId,
        old: Option<&EntryItem>,
        new: &EntryItem,
        seasons: &[Season],
        now_s: i64,
    ) -> Result<TransactWriteItem, DataError> {
        let mut item = new.to_item(board)?;
        if let Some(ttl) = expiry(board, seasons) {
            item.insert(keys::TTL.into(), n(ttl));
        }
        let as_read = match old {
            None => Cond::not_exists(attr(keys::PK)).or(Cond::le(attr(keys::TTL), n(now_s))),
            Some(old) => Cond::exists(attr(keys::PK)).and(Cond::eq(attr("v"), n(old.v))),
        };
        let put = aws_sdk_dynamodb::types::Put::builder()
            .table_name(self.table_name())
            .set_item(Some(item))
            .expressions(Expr::condition(as_read));
        Ok(TransactWriteItem::builder()
            .put(put.build().map_err(|e| DataError::Internal(e.into()))?)
            .build())
    }

    fn stats_action(
        self,
        user: &UserId,
        before: &StatsItem,
        delta: &StatsDelta,
        after: &StatsItem,
    ) -> Result<TransactWriteItem, DataError> {
        let rooms: Vec<AttributeValue> = after
            .rooms
            .iter()
            .map(|r| {
                AttributeValue::M(HashMap::from([
                    ("room".to_owned(), s(r.room.as_str())),
                    ("ms".to_owned(), n(r.ms)),
                ]))
            })
            .collect();
        let counted = Update::new()
            .add(attr("matches"), n(delta.matches))
            .add(attr("wins"), n(delta.wins))
            .add(attr("lifetime_score"), n(delta.score))
            .add(attr("correct"), n(delta.correct))
            .add(attr("rounds"), n(delta.rounds))
            .set(
                attr("rs"),
                AttributeValue::L(after.rs.iter().map(|r| s(r.clone())).collect()),
            )
            .set(attr("rooms"), AttributeValue::L(rooms))
            .set(attr("last_ms"), n(after.last_ms.unwrap_or(0)))
            .set(attr("v"), n(before.v.unwrap_or(0) + 1));
        let as_read = match before.v {
            None => Cond::not_exists(attr("v")),
            Some(v) => Cond::eq(attr("v"), n(v)),
        };
        self.update_action(
            update(keys::user_stats(user)).expressions(Expr::update(counted).when(as_read)),
        )
    }
}

/// Turns a stored attribute map into a result, if it is a match record.
pub fn result_from_item(item: &HashMap<String, AttributeValue>) -> Option<MatchRecord> {
    let sk = item.get(keys::SK)?.as_s().ok()?;
    if !sk.starts_with(keys::MATCH_PREFIX) {
        return None;
    }
    serde_dynamo::from_item(item.clone()).ok()
}

pub mod tree_pass;

/// The write of a player's days in a row, conditioned on the version read.
fn days_action(
    db: &crate::store::Db,
    user: &UserId,
    before: Option<&DaysItem>,
    after: &DaysItem,
) -> Result<TransactWriteItem, DataError> {
    let key = keys::days_in_a_row(user);
    let mut item: Item = serde_dynamo::to_item(DaysItem {
        v: before.map_or(1, |b| b.v + 1),
        ..after.clone()
    })?;
    item.insert(keys::PK.into(), s(key.pk));
    item.insert(keys::SK.into(), s(key.sk));
    let as_read = match before {
        None => Cond::not_exists(attr(keys::PK)),
        Some(before) => Cond::eq(attr("v"), n(before.v)),
    };
    let put = aws_sdk_dynamodb::types::Put::builder()
        .table_name(db.table_name())
        .set_item(Some(item))
        .expressions(Expr::condition(as_read));
    Ok(TransactWriteItem::builder()
        .put(put.build().map_err(|e| DataError::Internal(e.into()))?)
        .build())
}
