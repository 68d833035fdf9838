//! Counting finished matches on the boards, exactly once, however often they are delivered.
//!
//! The projector (and the rebuild) hands over a slice of match results. For each slice:
//!
//! 1. One consistent read of everything the slice can change: each result's `COUNTED` marker,
//!    and each player's entry on each of the result's boards (BatchGetItem).
//! 2. The results are folded into those entries in memory: a best score only if higher; a total
//!    only for a result not yet counted. The changes fall into units that must be written
//!    together: each changed best-score entry alone (with its tree nodes), and for each player
//!    everything counted once (the markers of their uncounted results, their total entries with
//!    their tree nodes, and their lifetime counters).
//! 3. Units are packed into TransactWriteItems of at most 100 actions; the tree-node changes of
//!    the units in one transaction are added up, so a node is written once per transaction.
//!    Every transaction also checks the caller's fence (its lease's token), so a projector that
//!    lost its lease cannot write. Every entry write is conditioned on the version read in step
//!    1, every marker on being new.
//!
//! A crash between transactions, a duplicate delivery or a replay of the whole stream changes
//! nothing twice: a best score already there is not higher, a counted result has its marker, and
//! a failed condition (someone else wrote since step 1) re-runs the slice from step 1.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem};

use crate::identity::model::UserId;
use crate::inventory::model::{Outcome, Rewards};
use crate::inventory::rules;
use crate::leaderboards::model::{BoardId, MatchResult, Metric, PeriodKind};
use crate::leaderboards::period::{boards_for, bounds, Season};
use crate::leaderboards::store::{entries_by_key, EntryItem};
use crate::leaderboards::tree::{self, Deltas, NodeId};
use crate::store::keys::{self, Key};
use crate::store::tx::n;
use crate::store::{epoch_millis, sort_key, Conflict, DataError, Db, Item};

/// How long a day's or a week's board stays live after its period ends (entries and tree expire
/// by TTL then; its archive stays longer).
pub const LIVE_GRACE_SECS: i64 = 7 * 86_400;
/// Most results read and written together.
pub const SLICE: usize = 40;
/// Most results of one player read and written together: each brings up to
/// [`rules::CARDS_PER_MATCH`] cards, a marker and totals.
pub const PER_PLAYER: usize = 8;
/// TransactWriteItems takes at most this many actions.
const MAX_ACTIONS: usize = 100;

/// What lets a writer write: the item holding its lease, and the token it was given. Every
/// transaction checks the token is still the lease's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fence {
    pub lease: Key,
    pub token: u64,
}

impl Fence {
    fn action(&self, db: &Db) -> Result<TransactWriteItem, DataError> {
        db.check_action(
            self.lease.clone(),
            "lease_token = :token",
            &[(":token", n(self.token))],
        )
    }
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
    pub transactions: usize,
    /// For each result counted now: from the match's end to its transaction, in ms.
    pub lags_ms: Vec<i64>,
}

/// One player's lifetime counters to add.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct StatsDelta {
    matches: u64,
    wins: u64,
    score: i64,
    correct: u64,
    rounds: u64,
}

/// Changes that must be written in one transaction.
#[derive(Debug, Default)]
struct Unit {
    /// (board, entry as read, entry to write).
    entries: Vec<(BoardId, Option<EntryItem>, EntryItem)>,
    markers: Vec<(UserId, String)>,
    stats: Option<(UserId, StatsDelta)>,
    /// The inventory rewards of the results counted now (folded: one write per item).
    rewards: Option<(UserId, Rewards)>,
    /// Result finish times, for the lag.
    finished_ms: Vec<i64>,
}

impl Unit {
    fn deltas(&self) -> BTreeMap<BoardId, Deltas> {
        let mut all: BTreeMap<BoardId, Deltas> = BTreeMap::new();
        for (board, old, new) in &self.entries {
            tree::add_transition(
                all.entry(board.clone()).or_default(),
                old.as_ref().map(EntryItem::value),
                Some(new.value()),
            );
        }
        all
    }

    fn nodes(&self) -> BTreeSet<(BoardId, NodeId)> {
        self.deltas()
            .into_iter()
            .flat_map(|(board, deltas)| deltas.into_keys().map(move |node| (board.clone(), node)))
            .collect()
    }

    fn actions(&self) -> usize {
        self.entries.len()
            + self.markers.len()
            + usize::from(self.stats.is_some())
            + self.rewards.as_ref().map_or(0, |(_, r)| reward_writes(r))
    }
}

/// Items a player's folded rewards write: each distinct card, the wallet, each badge.
fn reward_writes(rewards: &Rewards) -> usize {
    let cards: BTreeSet<_> = rewards.cards.iter().collect();
    cards.len() + usize::from(rewards.feathers > 0) + rewards.badges.len()
}

/// Splits results into slices of at most [`SLICE`], with at most [`PER_PLAYER`] of one player
/// in a slice, so a player's unit (markers, totals, rewards, their tree nodes) stays well inside
/// one transaction's 100 actions.
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

/// Folds a slice of results into the entries as read; returns the units to write.
fn plan(
    results: &[MatchResult],
    seasons: &[Season],
    counted: &BTreeSet<Key>,
    read: &BTreeMap<Key, EntryItem>,
    now_ms: i64,
) -> Vec<Unit> {
    let mut ordered: Vec<&MatchResult> = results.iter().collect();
    ordered.sort_by(|a, b| (a.finished_at_ms, &a.record_id).cmp(&(b.finished_at_ms, &b.record_id)));
    ordered.dedup_by(|a, b| a.record_id == b.record_id && a.user_id == b.user_id);

    let mut working: BTreeMap<Key, (BoardId, EntryItem)> = BTreeMap::new();
    let mut totals: BTreeMap<UserId, Unit> = BTreeMap::new();
    for result in ordered {
        let first_time =
            !counted.contains(&keys::counted_match(&result.user_id, &result.record_id));
        for board in live_boards(result, seasons, now_ms) {
            if board.metric == Metric::Total && !first_time {
                continue;
            }
            let key = keys::board_entry(&board, &result.user_id);
            let current = working
                .get(&key)
                .map(|(_, e)| e.clone())
                .or_else(|| read.get(&key).cloned());
            let next = match (board.metric, current) {
                (Metric::Best, Some(cur)) if i64::from(result.score) <= cur.score => continue,
                (Metric::Best, _) => EntryItem {
                    board: board.key(),
                    user_id: result.user_id.clone(),
                    nickname: result.nickname.clone(),
                    avatar: result.avatar,
                    score: i64::from(result.score),
                    reached_ms: result.finished_at_ms,
                    matches: 0,
                    v: 0,
                },
                (Metric::Total, cur) => {
                    let (score, matches) = cur.map_or((0, 0), |c| (c.score, c.matches));
                    EntryItem {
                        board: board.key(),
                        user_id: result.user_id.clone(),
                        nickname: result.nickname.clone(),
                        avatar: result.avatar,
                        score: score + i64::from(result.score),
                        reached_ms: result.finished_at_ms,
                        matches: matches + 1,
                        v: 0,
                    }
                }
            };
            working.insert(key, (board, next));
        }
        if first_time {
            let unit = totals.entry(result.user_id.clone()).or_default();
            unit.markers
                .push((result.user_id.clone(), result.record_id.clone()));
            unit.finished_ms.push(result.finished_at_ms);
            let stats = &mut unit
                .stats
                .get_or_insert_with(|| (result.user_id.clone(), StatsDelta::default()))
                .1;
            stats.matches += 1;
            stats.wins += u64::from(result.placement == 1);
            stats.score += i64::from(result.score);
            stats.correct += u64::from(result.correct);
            stats.rounds += u64::from(result.rounds);
            let earned = rules::rewards(&Outcome {
                placement: result.placement,
                players: result.players,
                correct: result.correct,
                rounds: result.rounds,
                right: result.right.clone(),
                best_streak: result.best_streak,
            });
            let rewards = &mut unit
                .rewards
                .get_or_insert_with(|| (result.user_id.clone(), Rewards::default()))
                .1;
            rewards.cards.extend(earned.cards);
            rewards.feathers += earned.feathers;
            for badge in earned.badges {
                if !rewards.badges.contains(&badge) {
                    rewards.badges.push(badge);
                }
            }
        }
    }

    let mut units: Vec<Unit> = Vec::new();
    for (key, (board, mut next)) in working {
        let old = read.get(&key).cloned();
        next.v = old.as_ref().map_or(1, |o| o.v + 1);
        let user = next.user_id.clone();
        let transition = (board.clone(), old, next);
        if board.metric == Metric::Total {
            totals.entry(user).or_default().entries.push(transition);
        } else {
            units.push(Unit {
                entries: vec![transition],
                ..Unit::default()
            });
        }
    }
    units.extend(totals.into_values());
    units
}

/// Groups units into transactions of at most [`MAX_ACTIONS`] actions, counting the fence check
/// and the distinct tree nodes each transaction writes.
fn pack(units: Vec<Unit>) -> Vec<Vec<Unit>> {
    let mut batches: Vec<Vec<Unit>> = Vec::new();
    let mut current: Vec<Unit> = Vec::new();
    let mut nodes: BTreeSet<(BoardId, NodeId)> = BTreeSet::new();
    let mut actions = 1;
    for unit in units {
        let unit_nodes = unit.nodes();
        let added = unit.actions() + unit_nodes.difference(&nodes).count();
        if !current.is_empty() && actions + added > MAX_ACTIONS {
            batches.push(std::mem::take(&mut current));
            nodes.clear();
            actions = 1;
        }
        actions += unit.actions() + unit_nodes.difference(&nodes).count();
        nodes.extend(unit_nodes);
        current.push(unit);
    }
    if !current.is_empty() {
        batches.push(current);
    }
    batches
}

impl Db {
    /// Counts a slice of finished matches on every board they belong to, exactly once, under
    /// `fence`. Safe to call again with any of the same results, from anywhere.
    #[tracing::instrument(skip(self, fence, results, seasons), fields(results = results.len()), err(level = "debug"))]
    pub async fn count_results(
        &self,
        fence: &Fence,
        results: &[MatchResult],
        seasons: &[Season],
    ) -> Result<Applied, ApplyError> {
        let mut applied = Applied::default();
        for slice in slices(results) {
            let mut attempt = 0;
            loop {
                match self.count_slice(fence, slice, seasons, &mut applied).await {
                    Err(ApplyError::Data(DataError::Conflict(
                        Conflict::TransactionCanceled { .. } | Conflict::TransactionConflict,
                    ))) if attempt < 8 => {
                        // Someone wrote what this slice read: read again and re-plan.
                        attempt += 1;
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
        fence: &Fence,
        slice: &[MatchResult],
        seasons: &[Season],
        applied: &mut Applied,
    ) -> Result<(), ApplyError> {
        let now_ms = epoch_millis();
        let mut wanted: Vec<Key> = Vec::new();
        for result in slice {
            wanted.push(keys::counted_match(&result.user_id, &result.record_id));
            for board in live_boards(result, seasons, now_ms) {
                wanted.push(keys::board_entry(&board, &result.user_id));
            }
        }
        let items = self.batch_get(wanted, true).await?;
        let (markers, entries): (Vec<Item>, Vec<Item>) = items
            .into_iter()
            .partition(|item| sort_key(item).starts_with("COUNTED#"));
        let counted: BTreeSet<Key> = markers
            .iter()
            .filter_map(|item| {
                Some(Key {
                    pk: item.get(keys::PK)?.as_s().ok()?.clone(),
                    sk: sort_key(item).to_owned(),
                })
            })
            .collect();
        let read = entries_by_key(entries)?;
        let units = plan(slice, seasons, &counted, &read, now_ms);
        for batch in pack(units) {
            let actions = self.unit_actions(fence, &batch, seasons)?;
            match self.transact(actions).await {
                Ok(()) => {}
                Err(DataError::Conflict(conflict @ Conflict::TransactionCanceled { .. })) => {
                    if conflict.failed_condition() == Some(0) {
                        return Err(ApplyError::LeaseLost);
                    }
                    return Err(DataError::Conflict(conflict).into());
                }
                Err(err) => return Err(err.into()),
            }
            applied.transactions += 1;
            let done = epoch_millis();
            for unit in &batch {
                applied.counted += unit.markers.len();
                applied
                    .lags_ms
                    .extend(unit.finished_ms.iter().map(|ms| done - ms));
            }
        }
        Ok(())
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

mod write;

#[cfg(test)]
mod tests;
