//! What counting a slice of match results changes, planned in memory from what the slice read
//! (step 2 of `store::apply`): plain Rust, no table calls.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::decks::model::{week_label, DeckLang, DeckPlays};
use crate::game::model::MatchRecord;
use crate::identity::model::UserId;
use crate::ids::{Day, DeckCode};
use crate::inventory::model::{Badge, Outcome, Place, ThingId};
use crate::inventory::rules;
use crate::inventory::store::changes::Folded;
use crate::inventory::store::{card, stack_key};
use crate::leaderboards::model::{BoardId, Metric, PeriodKind};
use crate::leaderboards::period::{boards_for, bounds, daily_boards_for, deck_boards_for, Season};
use crate::leaderboards::store::{DaysItem, EntryItem, RecentRoom, StatsItem, TREE_VERSION};
use crate::store::keys::{self, Key};

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
    /// Days in a row, by player (of those with a daily flight in the slice).
    pub days: HashMap<UserId, DaysItem>,
    /// Plays of the decks the slice's matches played.
    pub plays: BTreeMap<DeckCode, DeckPlays>,
    /// Those decks' heads: listed in the gallery (public) in a language, or not; absent: the
    /// deck is gone (its plays are then not counted).
    pub decks: BTreeMap<DeckCode, Option<DeckLang>>,
}

/// One deck's plays counted now.
#[derive(Debug, PartialEq)]
pub struct PlaysPlan {
    pub deck: DeckCode,
    pub before: DeckPlays,
    pub after: DeckPlays,
    /// The gallery's language while the deck is public (as its head was read).
    pub listed: Option<DeckLang>,
    /// The records that count the plays: (player, record).
    pub records: Vec<(UserId, String)>,
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
    /// (player, days in a row as read, after).
    pub days: Vec<(UserId, Option<DaysItem>, DaysItem)>,
    /// Decks' plays: written each in one transaction with the markers of the records counted.
    pub plays: Vec<PlaysPlan>,
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
            + self.days.len()
            + self.plays.len()
            + self.markers.len()
    }
}

/// Splits results into slices of at most [`SLICE`], with at most [`PER_PLAYER`] of one player
/// in a slice.
pub fn slices(results: &[MatchRecord]) -> Vec<&[MatchRecord]> {
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
pub fn live_boards(result: &MatchRecord, seasons: &[Season], now_ms: i64) -> Vec<BoardId> {
    let boards = match (result.daily, &result.deck) {
        (Some(day), _) => daily_boards_for(day),
        (None, Some(deck)) => deck_boards_for(
            result.finished_at_ms,
            &result.room_id(),
            &deck.code,
            seasons,
        ),
        (None, None) => boards_for(result.finished_at_ms, &result.room_id(), seasons),
    };
    boards
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
pub(crate) fn earned(result: &MatchRecord) -> crate::inventory::model::Rewards {
    if result.daily.is_some() {
        // A daily flight earns days in a row (and their badges), not a match's rewards.
        return Default::default();
    }
    // A deck's match: feathers and badges by the same rules; its things are no catalog cards
    // (`rules::rewards` leaves them out).
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
pub(crate) fn ordered(results: &[MatchRecord]) -> Vec<&MatchRecord> {
    let mut ordered: Vec<&MatchRecord> = results.iter().collect();
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
pub(crate) fn wanted(results: &[MatchRecord], seasons: &[Season], now_ms: i64) -> Vec<Key> {
    let mut wanted = Vec::new();
    for result in results {
        wanted.push(keys::counted_match(&result.user_id, &result.record_id));
        if result.daily.is_some() {
            wanted.push(keys::days_in_a_row(&result.user_id));
            for badge in [Badge::Days7, Badge::Days30] {
                wanted.push(keys::badge(&result.user_id, badge.slug()));
            }
            wanted.extend(
                live_boards(result, seasons, now_ms)
                    .iter()
                    .map(|board| keys::board_entry(board, &result.user_id)),
            );
            continue;
        }
        wanted.push(keys::user_stats(&result.user_id));
        wanted.push(keys::wallet(&result.user_id));
        if let Some(deck) = result.deck.as_ref().filter(|d| d.counts_play) {
            wanted.push(keys::deck_plays(&deck.code));
            wanted.push(keys::deck_head(&deck.code));
        }
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
pub fn plan(results: &[MatchRecord], seasons: &[Season], read: &Read, now_ms: i64) -> Plan {
    let mut plan = Plan::default();
    let mut working: BTreeMap<Key, (BoardId, EntryItem)> = BTreeMap::new();
    // Per player: the records counted now, in order.
    let mut fresh: BTreeMap<UserId, Vec<&MatchRecord>> = BTreeMap::new();
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

    plan_plays(&mut plan, read, fresh.values().flatten().copied());
    for (user, results) in fresh {
        let (dailies, results): (Vec<&MatchRecord>, Vec<&MatchRecord>) =
            results.into_iter().partition(|r| r.daily.is_some());
        plan_days(&mut plan, read, &user, &dailies);
        for result in dailies {
            plan.markers.push((
                user.clone(),
                result.record_id.clone(),
                result.finished_at_ms,
            ));
        }
        if results.is_empty() {
            continue;
        }
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

/// The decks' plays after the matches counted now: each match once, by its one record that
/// counts the play (a record counted now has no marker: its marker goes with the plays, in one
/// transaction), none of a deck that is gone; this week's count starts again with a play in a
/// later week (a late play of an earlier week adds to all time alone).
fn plan_plays<'a>(plan: &mut Plan, read: &Read, fresh: impl Iterator<Item = &'a MatchRecord>) {
    let mut added: BTreeMap<DeckCode, Vec<&MatchRecord>> = BTreeMap::new();
    for result in fresh {
        let Some(deck) = result.deck.as_ref().filter(|d| d.counts_play) else {
            continue;
        };
        if read.decks.contains_key(&deck.code) {
            added.entry(deck.code.clone()).or_default().push(result);
        }
    }
    for (deck, mut records) in added {
        records.sort_by_key(|r| r.finished_at_ms);
        let before = read.plays.get(&deck).cloned().unwrap_or_default();
        let mut after = before.clone();
        for record in &records {
            let week = week_label(record.finished_at_ms);
            after.plays += 1;
            match after.week.as_deref() {
                Some(now) if now == week => after.week_plays += 1,
                Some(now) if now > week.as_str() => {}
                _ => {
                    after.week = Some(week);
                    after.week_plays = 1;
                }
            }
        }
        plan.plays.push(PlaysPlan {
            listed: read.decks.get(&deck).copied().flatten(),
            deck,
            before,
            after,
            records: records
                .iter()
                .map(|r| (r.user_id.clone(), r.record_id.clone()))
                .collect(),
        });
    }
}

/// Days in a row that earn a badge ([`Badge::Days7`], [`Badge::Days30`]).
pub const RUN_BADGES: [u32; 2] = [7, 30];

/// Days in a row after playing on `day`, from the run as it stood (`last` day played and its
/// run): the same day again changes nothing, the next day adds one, a later day starts again.
/// `None` when `day` is before the last one counted (a record counted late changes nothing).
pub fn run_after(last: Option<(Day, u32)>, day: Day) -> Option<u32> {
    match last {
        None => Some(1),
        Some((last, run)) => match day.index() - last.index() {
            0 => Some(run),
            1 => Some(run + 1),
            d if d > 1 => Some(1),
            _ => None,
        },
    }
}

/// Days in a row after a player's daily flights counted now, and the badges the run earns that
/// they do not hold. A day counted again, or earlier than the last one counted, changes nothing.
fn plan_days(plan: &mut Plan, read: &Read, user: &UserId, dailies: &[&MatchRecord]) {
    let before = read.days.get(user).cloned();
    let mut after = before.clone().unwrap_or_default();
    let mut moved = false;
    for day in dailies.iter().filter_map(|r| r.daily) {
        let last = after.last.map(|last| (last, after.run));
        if let Some(run) = run_after(last, day) {
            moved |= Some(day) != after.last;
            after.last = Some(day);
            after.run = run;
            after.best = after.best.max(run);
        }
    }
    if !moved {
        return;
    }
    for (days, badge) in RUN_BADGES.into_iter().zip([Badge::Days7, Badge::Days30]) {
        let held = read.badges.contains(&keys::badge(user, badge.slug()))
            || plan.badges.contains(&(user.clone(), badge));
        if after.run >= days && !held {
            plan.badges.push((user.clone(), badge));
        }
    }
    plan.days.push((user.clone(), before, after));
}
