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

use std::collections::{BTreeMap, BTreeSet, HashMap};

use aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem};
use futures::stream::{self, StreamExt, TryStreamExt};
use serde::{Deserialize, Serialize};

use crate::identity::model::UserId;
use crate::inventory::changes::Folded;
use crate::inventory::model::{Badge, Outcome, Place, ThingId};
use crate::inventory::rules;
use crate::inventory::store::{card, stack_key};
use crate::leaderboards::model::{BoardId, MatchResult, Metric, PeriodKind};
use crate::leaderboards::period::{boards_for, bounds, Season};
use crate::leaderboards::store::{entries_by_key, EntryItem, TREE_VERSION};
use crate::rooms::RoomId;
use crate::store::keys::{self, Key};
use crate::store::tx::{n, s, update};
use crate::store::{epoch_millis, sort_key, Conflict, DataError, Db, Item};

/// How long a day's or a week's board stays live after its period ends (entries and tree expire
/// by TTL then; its archive stays longer).
pub const LIVE_GRACE_SECS: i64 = 7 * 86_400;
/// Most results read and written together.
pub const SLICE: usize = 40;
/// Most results of one player read and written together.
pub const PER_PLAYER: usize = 8;
/// How many of the records it added an item remembers: at least a slice's worth of one
/// player's, so a slice written again after a crash finds every one it wrote.
pub const REMEMBERED: usize = PER_PLAYER;
/// How many recent rooms a player's counters list (their room boards on the profile).
pub const RECENT_ROOMS: usize = 8;
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
    /// Results counted now for the first time.
    pub counted: usize,
    /// Items written (each one conditional write).
    pub writes: usize,
    /// Slices read and planned again after a refused condition.
    pub retries: usize,
    /// For each result counted now: from the match's end to its marker, in ms.
    pub lags_ms: Vec<i64>,
}

/// A room a player played in lately, kept with their lifetime counters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecentRoom {
    pub room: RoomId,
    /// When their last match there ended.
    pub ms: i64,
}

/// A player's lifetime counters as the projector reads them (`USER#<id>` / `STATS`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatsItem {
    #[serde(default)]
    pub v: Option<u64>,
    #[serde(default)]
    pub rs: Vec<String>,
    #[serde(default)]
    pub rooms: Vec<RecentRoom>,
    #[serde(default)]
    pub last_ms: Option<i64>,
}

/// Lifetime counters to add.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct StatsDelta {
    pub matches: u64,
    pub wins: u64,
    pub score: i64,
    pub correct: u64,
    pub rounds: u64,
}

/// Everything a slice read.
#[derive(Debug, Default)]
pub struct Read {
    pub counted: BTreeSet<Key>,
    pub entries: BTreeMap<Key, EntryItem>,
    pub stats: HashMap<UserId, StatsItem>,
    /// Wallets and stacks, by key, as the projector's fold sees them.
    pub folded: HashMap<Key, Folded>,
    /// Badges held, by key.
    pub badges: BTreeSet<Key>,
}

/// The writes one slice needs, as data.
#[derive(Debug, Default, PartialEq)]
pub struct Plan {
    /// (board, entry as read, entry to write).
    pub entries: Vec<(BoardId, Option<EntryItem>, EntryItem)>,
    /// (player, counters as read, what to add, records and rooms after).
    pub stats: Vec<(UserId, StatsItem, StatsDelta, StatsItem)>,
    /// (player, feathers, wallet as read, records after).
    pub wallets: Vec<(UserId, u64, Folded, Vec<String>)>,
    /// (player, card, count, stack as read, records after).
    pub stacks: Vec<(UserId, ThingId, u32, Folded, Vec<String>)>,
    pub badges: Vec<(UserId, Badge)>,
    /// Results counted now: (player, record, finished).
    pub markers: Vec<(UserId, String, i64)>,
}

impl Plan {
    /// How many items it writes.
    pub fn writes(&self) -> usize {
        self.entries.len()
            + self.stats.len()
            + self.wallets.len()
            + self.stacks.len()
            + self.badges.len()
            + self.markers.len()
    }
}

/// Splits results into slices of at most [`SLICE`], with at most [`PER_PLAYER`] of one player
/// in a slice.
fn slices(results: &[MatchResult]) -> Vec<&[MatchResult]> {
    let mut slices = Vec::new();
    let mut start = 0;
    let mut per_player: HashMap<&UserId, usize> = HashMap::new();
    for (i, result) in results.iter().enumerate() {
        let count = per_player.entry(&result.user_id).or_default();
        if i - start == SLICE || *count == PER_PLAYER {
            slices.push(&results[start..i]);
            start = i;
            per_player.clear();
        }
        *per_player.entry(&result.user_id).or_default() += 1;
    }
    if start < results.len() {
        slices.push(&results[start..]);
    }
    slices
}

/// The boards a result counts on that are still live at `now_ms`.
fn live_boards(result: &MatchResult, seasons: &[Season], now_ms: i64) -> Vec<BoardId> {
    boards_for(result.finished_at_ms, &result.room_id(), seasons)
        .into_iter()
        .filter(|board| match expiry(board, seasons) {
            Some(ttl) => ttl * 1000 > now_ms,
            None => true,
        })
        .collect()
}

/// When a board's live items expire (epoch seconds): a day's or a week's board
/// [`LIVE_GRACE_SECS`] after its end; others never.
pub fn expiry(board: &BoardId, seasons: &[Season]) -> Option<i64> {
    match board.period.kind() {
        PeriodKind::Day | PeriodKind::Week => bounds(&board.period, seasons)
            .ok()
            .flatten()
            .map(|(_, end)| end / 1000 + LIVE_GRACE_SECS),
        PeriodKind::Season | PeriodKind::AllTime => None,
    }
}

/// What a result earns in the inventory.
fn earned(result: &MatchResult) -> crate::inventory::model::Rewards {
    rules::rewards(&Outcome {
        placement: result.placement,
        players: result.players,
        correct: result.correct,
        rounds: result.rounds,
        right: result.right.clone(),
        best_streak: result.best_streak,
    })
}

/// Results in the order they are folded (when they ended), each (player, record) once.
fn ordered(results: &[MatchResult]) -> Vec<&MatchResult> {
    let mut ordered: Vec<&MatchResult> = results.iter().collect();
    ordered.sort_by(|a, b| {
        (a.finished_at_ms, &a.record_id, &a.user_id).cmp(&(
            b.finished_at_ms,
            &b.record_id,
            &b.user_id,
        ))
    });
    ordered.dedup_by(|a, b| a.record_id == b.record_id && a.user_id == b.user_id);
    ordered
}

/// The keys a slice reads.
fn wanted(results: &[MatchResult], seasons: &[Season], now_ms: i64) -> Vec<Key> {
    let mut wanted = Vec::new();
    for result in results {
        wanted.push(keys::counted_match(&result.user_id, &result.record_id));
        wanted.push(keys::user_stats(&result.user_id));
        wanted.push(keys::wallet(&result.user_id));
        let rewards = earned(result);
        for thing in &rewards.cards {
            if let Some(card) = card(thing) {
                wanted.push(stack_key(&result.user_id, Place::Bag, card));
            }
        }
        for badge in &rewards.badges {
            wanted.push(keys::badge(&result.user_id, badge.slug()));
        }
        for board in live_boards(result, seasons, now_ms) {
            wanted.push(keys::board_entry(&board, &result.user_id));
        }
    }
    wanted
}

/// Folds a slice of results into what was read; returns the writes.
pub fn plan(results: &[MatchResult], seasons: &[Season], read: &Read, now_ms: i64) -> Plan {
    let mut plan = Plan::default();
    let mut working: BTreeMap<Key, (BoardId, EntryItem)> = BTreeMap::new();
    // Per player: the records counted now, in order.
    let mut fresh: BTreeMap<UserId, Vec<&MatchResult>> = BTreeMap::new();
    for result in ordered(results) {
        let first_time = !read
            .counted
            .contains(&keys::counted_match(&result.user_id, &result.record_id));
        if first_time {
            fresh
                .entry(result.user_id.clone())
                .or_default()
                .push(result);
        }
        for board in live_boards(result, seasons, now_ms) {
            let key = keys::board_entry(&board, &result.user_id);
            let current = working
                .get(&key)
                .map(|(_, e)| e.clone())
                .or_else(|| read.entries.get(&key).cloned());
            let next = match (board.metric, current) {
                (Metric::Best, Some(cur)) if i64::from(result.score) <= cur.score => continue,
                (Metric::Best, cur) => EntryItem {
                    board: board.key(),
                    user_id: result.user_id.clone(),
                    nickname: result.nickname.clone(),
                    avatar: result.avatar,
                    score: i64::from(result.score),
                    reached_ms: result.finished_at_ms,
                    matches: 0,
                    v: 0,
                    ps: None,
                    tv: Some(TREE_VERSION),
                    rs: cur.map(|c| c.rs).unwrap_or_default(),
                },
                (Metric::Total, cur)
                    if !first_time
                        || cur
                            .as_ref()
                            .is_some_and(|c| c.rs.contains(&result.record_id)) =>
                {
                    continue
                }
                (Metric::Total, cur) => {
                    let (score, matches, mut rs) =
                        cur.map_or((0, 0, Vec::new()), |c| (c.score, c.matches, c.rs));
                    rs.push(result.record_id.clone());
                    let cut = rs.len().saturating_sub(REMEMBERED);
                    rs.drain(..cut);
                    EntryItem {
                        board: board.key(),
                        user_id: result.user_id.clone(),
                        nickname: result.nickname.clone(),
                        avatar: result.avatar,
                        score: score + i64::from(result.score),
                        reached_ms: result.finished_at_ms,
                        matches: matches + 1,
                        v: 0,
                        ps: None,
                        tv: Some(TREE_VERSION),
                        rs,
                    }
                }
            };
            working.insert(key, (board, next));
        }
    }
    for (key, (board, mut next)) in working {
        let old = read.entries.get(&key).cloned();
        next.v = old.as_ref().map_or(1, |o| o.v + 1);
        next.ps = old.as_ref().map(|o| o.score);
        plan.entries.push((board, old, next));
    }

    for (user, results) in fresh {
        let stats_read = read.stats.get(&user).cloned().unwrap_or_default();
        let mut delta = StatsDelta::default();
        let mut added = Vec::new();
        let mut after = stats_read.clone();
        for result in results
            .iter()
            .filter(|r| !stats_read.rs.contains(&r.record_id))
        {
            delta.matches += 1;
            delta.wins += u64::from(result.placement == 1);
            delta.score += i64::from(result.score);
            delta.correct += u64::from(result.correct);
            delta.rounds += u64::from(result.rounds);
            added.push(result.record_id.clone());
            let room = result.room_id();
            after.rooms.retain(|r| r.room != room);
            after.rooms.insert(
                0,
                RecentRoom {
                    room,
                    ms: result.finished_at_ms,
                },
            );
            after.rooms.truncate(RECENT_ROOMS);
            after.last_ms = Some(after.last_ms.unwrap_or(0).max(result.finished_at_ms));
        }
        if !added.is_empty() {
            after.rs.extend(added);
            let cut = after.rs.len().saturating_sub(REMEMBERED);
            after.rs.drain(..cut);
            plan.stats.push((user.clone(), stats_read, delta, after));
        }

        // The inventory: each item adds the records it has not added yet.
        let wallet_read = read
            .folded
            .get(&keys::wallet(&user))
            .cloned()
            .unwrap_or_default();
        let mut feathers = 0;
        let mut wallet_added = Vec::new();
        let mut cards: BTreeMap<ThingId, (u32, Vec<String>)> = BTreeMap::new();
        let mut badges: Vec<Badge> = Vec::new();
        for result in &results {
            let rewards = earned(result);
            if rewards.feathers > 0 && !wallet_read.has(&result.record_id) {
                feathers += rewards.feathers;
                wallet_added.push(result.record_id.clone());
            }
            for thing in rewards.cards {
                let Some(card) = card(&thing) else { continue };
                let key = stack_key(&user, Place::Bag, card);
                if read
                    .folded
                    .get(&key)
                    .is_some_and(|f| f.has(&result.record_id))
                {
                    continue;
                }
                let entry = cards.entry(thing).or_default();
                entry.0 += 1;
                entry.1.push(result.record_id.clone());
            }
            for badge in rewards.badges {
                if !badges.contains(&badge)
                    && !read.badges.contains(&keys::badge(&user, badge.slug()))
                {
                    badges.push(badge);
                }
            }
        }
        if feathers > 0 {
            let after = wallet_read.after(&wallet_added, REMEMBERED);
            plan.wallets
                .push((user.clone(), feathers, wallet_read, after));
        }
        for (thing, (count, added)) in cards {
            let Some(card) = card(&thing) else { continue };
            let folded = read
                .folded
                .get(&stack_key(&user, Place::Bag, card))
                .cloned()
                .unwrap_or_default();
            let after = folded.after(&added, REMEMBERED);
            plan.stacks
                .push((user.clone(), thing, count, folded, after));
        }
        for badge in badges {
            plan.badges.push((user.clone(), badge));
        }
        for result in results {
            plan.markers.push((
                user.clone(),
                result.record_id.clone(),
                result.finished_at_ms,
            ));
        }
    }
    plan
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
        if key.sk.starts_with("COUNTED#") {
            read.counted.insert(key);
        } else if key.sk.starts_with(keys::BOARD_ENTRY_PREFIX) {
            entries.push(item);
        } else if key.sk == keys::user_stats(&UserId::nobody()).sk {
            let user = key
                .pk
                .strip_prefix("USER#")
                .and_then(|id| UserId::parse(id).ok());
            if let Some(user) = user {
                read.stats.insert(user, serde_dynamo::from_item(item)?);
            }
        } else if key.sk.starts_with(keys::BADGE_PREFIX) {
            read.badges.insert(key);
        } else {
            read.folded.insert(key, Folded::read(Some(&item)));
        }
    }
    read.entries = entries_by_key(entries)?;
    Ok(read)
}

impl Db {
    /// Counts a slice of finished matches on every board they belong to, in the lifetime
    /// counters and the inventory, exactly once. Safe to call again with any of the same
    /// results, from anywhere, at any time.
    #[tracing::instrument(skip(self, results, seasons), fields(results = results.len()), err(level = "debug"))]
    pub async fn count_results(
        &self,
        results: &[MatchResult],
        seasons: &[Season],
    ) -> Result<Applied, DataError> {
        let mut applied = Applied::default();
        for slice in slices(results) {
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
        &self,
        slice: &[MatchResult],
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
            let db = if reward { &rewards } else { self };
            db.write_alone(action)
        }))
        .buffer_unordered(IN_FLIGHT)
        .try_collect::<Vec<()>>()
        .await?;
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

    /// The conditional writes of a plan, each marked whether it is an inventory reward
    /// (markers apart: they go last).
    fn plan_actions(
        &self,
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
                self.wallet_reward_action(user, *feathers, folded, records.clone())?,
            ));
        }
        for (user, thing, count, folded, records) in &plan.stacks {
            if let Some(action) =
                self.stack_reward_action(user, thing, *count, folded, records.clone())?
            {
                actions.push((true, action));
            }
        }
        for (user, badge) in &plan.badges {
            actions.push((true, self.badge_action(user, badge)?));
        }
        Ok(actions)
    }

    fn entry_action(
        &self,
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
        let put = aws_sdk_dynamodb::types::Put::builder()
            .table_name(self.table_name())
            .set_item(Some(item))
            .expression_attribute_names("#pk", keys::PK);
        let put = match old {
            None => put
                .condition_expression("attribute_not_exists(#pk) OR #ttl <= :now")
                .expression_attribute_names("#ttl", keys::TTL)
                .expression_attribute_values(":now", n(now_s)),
            Some(old) => put
                .condition_expression("attribute_exists(#pk) AND v = :v")
                .expression_attribute_values(":v", n(old.v)),
        };
        Ok(TransactWriteItem::builder()
            .put(put.build().map_err(|e| DataError::Internal(e.into()))?)
            .build())
    }

    fn stats_action(
        &self,
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
        let request = update(keys::user_stats(user))
            .update_expression(
                "ADD matches :matches, wins :wins, lifetime_score :score, correct :correct, \
                 rounds :rounds SET rs = :rs, rooms = :rooms, last_ms = :last, v = :v1",
            )
            .expression_attribute_values(":matches", n(delta.matches))
            .expression_attribute_values(":wins", n(delta.wins))
            .expression_attribute_values(":score", n(delta.score))
            .expression_attribute_values(":correct", n(delta.correct))
            .expression_attribute_values(":rounds", n(delta.rounds))
            .expression_attribute_values(
                ":rs",
                AttributeValue::L(after.rs.iter().map(|r| s(r.clone())).collect()),
            )
            .expression_attribute_values(":rooms", AttributeValue::L(rooms))
            .expression_attribute_values(":last", n(after.last_ms.unwrap_or(0)))
            .expression_attribute_values(":v1", n(before.v.unwrap_or(0) + 1));
        let request = match before.v {
            None => request.condition_expression("attribute_not_exists(v)"),
            Some(v) => request
                .condition_expression("v = :v0")
                .expression_attribute_values(":v0", n(v)),
        };
        self.update_action(request)
    }
}

/// Turns a stored attribute map into a result, if it is a match record.
pub fn result_from_item(item: &HashMap<String, AttributeValue>) -> Option<MatchResult> {
    let sk = item.get(keys::SK)?.as_s().ok()?;
    if !sk.starts_with(keys::MATCH_PREFIX) {
        return None;
    }
    serde_dynamo::from_item(item.clone()).ok()
}

pub mod tree_pass;

#[cfg(test)]
mod tests;
