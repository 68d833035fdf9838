//! A match as the room holds it: its schedule, its rounds, and each player's running score.
//! Shared by the server (which stores and resolves it) and the browser (which draws it).
//!
//! The schedule is fixed when the host starts: round `i` (from 1) is revealed at
//! `started_at_ms + COUNTDOWN_MS + (i − 1) × period`, where a period is the countdown, the
//! window, the grace for late taps and a pause for the results. Every instance can tell from the
//! clock alone which round is on, so none has to hold the match in memory.

use serde::{Deserialize, Serialize};

use crate::catalog::ThingId;
use crate::game::timing::GRACE_MS;
use crate::identity::{Avatar, DisplayName, UserId};
use crate::inventory::model::Outcome;
use crate::rooms::model::{Lobby, RoomCode, RoomId, RoomState};

mod wire;

/// The 3-2-1 before each reveal.
pub const COUNTDOWN_MS: i64 = 3000;
/// After a round closes, before the next countdown: time to resolve it and show the results.
pub const RESULTS_MS: i64 = 1500;
/// Each match's rounds are numbered in a block of this many (the table keys rounds by their
/// place in the block: see `keys::round`).
pub const ROUND_BLOCK: u32 = 32;
/// How long after a match's last round closed any reader ends the match, if the instance that
/// closed it has not (see [`Room::finish_due`]).
pub const FINISH_GRACE_MS: i64 = 2000;
/// How long after a match's last round closed its audience is counted once more: a call taken
/// at the very end of its window may be written just after the close.
pub const AUDIENCE_SETTLE_MS: i64 = 1000;

/// A thing as a round shows it. Whether it flies is told only with the round's results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThingCard {
    pub id: ThingId,
    pub en: String,
    pub hi: String,
    pub hi_latin: String,
    pub emoji: String,
    /// Why it was ruled so (a catalog's edge case, a deck's ruling), shown with the match's
    /// rounds; in Hindi as `note_hi` where the catalog has it. Server-drawn pages show them:
    /// the browser skips them (no code in the bundle to read them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(feature = "ssr"), serde(skip))]
    pub note: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(feature = "ssr"), serde(skip))]
    pub note_hi: Option<String>,
}

impl ThingCard {
    /// The thing's name for a page in `l`: its Devanagari name in Hindi (when it has one), else
    /// the English.
    pub fn name(&self, l: crate::lang::Locale) -> &str {
        match l {
            crate::lang::Locale::hi if !self.hi.is_empty() => &self.hi,
            _ => &self.en,
        }
    }
}

/// What one round gave one player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundResult {
    pub user_id: UserId,
    /// The reaction time that counted, when the player tapped.
    pub reaction_ms: Option<u32>,
    pub points: i32,
    pub correct: bool,
    pub fastest: bool,
}

/// One round of a match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The room-wide round number (keys use it: `ROUND#<n>`).
    pub n: u32,
    pub reveal_ms: i64,
    /// `None` until the reveal: the thing never reaches a browser early.
    pub thing: Option<ThingCard>,
    /// Told with the results.
    pub flies: Option<bool>,
    /// `None` until the round is resolved.
    pub results: Option<Vec<RoundResult>>,
    /// Once resolved, how many of the room's audience it counted (those who had joined by its
    /// close), and how many of them said it flies (tapped along): 0 and 0 without an audience.
    #[serde(default)]
    pub crowd: u32,
    #[serde(default)]
    pub crowd_flies: u32,
    /// How many taps the read saw (the server's: a round's close is conditioned on it).
    #[serde(skip)]
    pub tap_count: u32,
    /// When the round was closed (the server's: the match's end is its last round's close).
    #[serde(skip)]
    pub closed_at_ms: Option<i64>,
    /// While the round is open, each tapping player's counted reaction (the server's: the wire
    /// carries no one's taps; the room page tells a player their own after a reload).
    #[cfg(feature = "ssr")]
    #[serde(skip)]
    pub taps: Vec<(UserId, u32)>,
}

/// A player of the match and their running totals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchPlayer {
    pub user_id: UserId,
    pub nickname: DisplayName,
    pub avatar: Avatar,
    /// The look they wore when the match started (see `RoomPlayer::look`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub look: Option<crate::ids::Look>,
    pub score: i32,
    pub streak: u32,
    pub correct: u32,
    pub taps: u32,
    pub reaction_total_ms: u64,
}

impl MatchPlayer {
    /// Mean reaction of the player's taps, if any.
    pub fn average_reaction_ms(&self) -> Option<u32> {
        (self.taps > 0).then(|| (self.reaction_total_ms / u64::from(self.taps)) as u32)
    }
}

/// The room's current (or last) match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    /// The room-wide number of its first round: identifies the match within the room.
    pub first_round: u32,
    pub window_ms: u32,
    pub started_at_ms: i64,
    /// Rounds resolved so far; they are resolved in order.
    pub resolved: u32,
    /// Rounds the match has. A reader may see fewer `rounds` for a moment just after the start
    /// (the server's: it writes them).
    #[serde(skip)]
    pub planned: u32,
    pub rounds: Vec<Round>,
    /// Who plays, in join order. Players who join during the match watch until the next one.
    pub players: Vec<MatchPlayer>,
    /// The draw's seed: `draw_things(catalog, rounds, seed)` gives these rounds' things. Kept
    /// secret until the match is over (see [`Match::visible_at`]).
    #[serde(default)]
    pub seed: Option<u64>,
    /// What the match cost on DynamoDB, once it is over (added up as instances report in).
    #[serde(default)]
    pub receipt: Option<Box<MatchReceipt>>,
}

/// What a match cost: capacity units (in thousandths, to stay exact on the wire) and their
/// on-demand price (in billionths of a US dollar).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchReceipt {
    pub read_milli: u64,
    pub write_milli: u64,
    pub calls: u64,
    pub price_nano_usd: u64,
}

impl MatchReceipt {
    pub fn new(read_units: f64, write_units: f64, calls: u64, price_usd: f64) -> Self {
        let whole = |x: f64| (x.max(0.0) * 1e3).round() as u64;
        Self {
            read_milli: whole(read_units),
            write_milli: whole(write_units),
            calls,
            price_nano_usd: (price_usd.max(0.0) * 1e9).round() as u64,
        }
    }

    pub fn read_units(&self) -> f64 {
        self.read_milli as f64 / 1e3
    }

    pub fn write_units(&self) -> f64 {
        self.write_milli as f64 / 1e3
    }

    pub fn price_usd(&self) -> f64 {
        self.price_nano_usd as f64 / 1e9
    }
}

/// A room as it is played: its lobby and its current (or last) match. Derefs to the lobby, so
/// `room.players` and `room.state` read as they do on a [`Lobby`]. On the wire it is one object,
/// the lobby's fields and `game` side by side (as the room's JSON has always been), through a
/// plain struct rather than `#[serde(flatten)]`, which would make every decoder in the browser
/// bundle buffer its input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "wire::RoomWire", into = "wire::RoomWire")]
pub struct Room {
    pub lobby: Lobby,
    /// The match being played, or the last one played (its results stay until the next).
    pub game: Option<Match>,
}

impl std::ops::Deref for Room {
    type Target = Lobby;

    fn deref(&self) -> &Lobby {
        &self.lobby
    }
}

impl Room {
    /// Whether the room's match is over but the room is not back in the lobby yet: the match's
    /// end is still to be written (by whoever sees this first).
    pub fn needs_finish(&self) -> bool {
        self.state == RoomState::Playing && self.game.as_ref().is_some_and(Match::is_finished)
    }

    /// Whether a reader should end the match now: it is over, and the instance that closed its
    /// last round (which ends it at once) has had [`FINISH_GRACE_MS`] to do so. Any reader ends
    /// it after that (the closer may have stopped); before it, they leave it to the closer, so
    /// the end is not written twice over.
    pub fn finish_due(&self, now_ms: i64) -> bool {
        self.needs_finish()
            && self
                .game
                .as_ref()
                .and_then(|g| g.rounds.last())
                .and_then(|r| r.closed_at_ms)
                .is_none_or(|closed| closed + FINISH_GRACE_MS <= now_ms)
    }

    /// Whether the table has work for this room at `now_ms`: a round to close or a match to end.
    pub fn has_work(&self, now_ms: i64) -> bool {
        self.finish_due(now_ms) || self.game.as_ref().is_some_and(|g| g.due(now_ms).is_some())
    }

    /// `user`'s counted tap in the match's open round (the first without results), as
    /// `(round, reaction ms)`.
    #[cfg(feature = "ssr")]
    pub fn my_open_tap(&self, user: &UserId) -> Option<(u32, u32)> {
        let game = self.game.as_ref()?;
        let round = game.rounds.get(game.resolved as usize)?;
        let (_, ms) = round.taps.iter().find(|(id, _)| id == user)?;
        Some((round.n, *ms))
    }

    /// The room as a browser may see it at `now_ms` (see [`Match::visible_at`]), with every
    /// hidden name drawn as its tag (`identity::hidden`).
    pub fn visible_at(&self, now_ms: i64) -> Room {
        #[allow(unused_mut)]
        let mut room = Room {
            lobby: self.lobby.clone(),
            game: self.game.as_ref().map(|game| game.visible_at(now_ms)),
        };
        #[cfg(feature = "ssr")]
        crate::identity::hidden::HideNames::hide_names(&mut room);
        room
    }
}

/// A player's durable record of one finished match (`USER#<id>` / `MATCH#<ulid>`), also what
/// the boards count: the projector reads it from the table's stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchRecord {
    /// A ULID: sorts by the time the match ended.
    pub record_id: String,
    pub user_id: UserId,
    pub nickname: DisplayName,
    pub avatar: Avatar,
    pub room: RoomCode,
    /// The room itself (see [`RoomId`]); absent on records from before rooms had ids, whose
    /// matches are keyed by the code: read it with [`MatchRecord::room_id`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room_id: Option<RoomId>,
    pub score: i32,
    pub placement: u32,
    #[serde(default)]
    pub players: u32,
    pub correct: u32,
    pub rounds: u32,
    pub average_reaction_ms: Option<u32>,
    pub finished_at_ms: i64,
    /// The things the player judged right, in round order (the cards the match may give).
    #[serde(default)]
    pub right: Vec<ThingId>,
    /// The player's longest run of right judgements in the match.
    #[serde(default)]
    pub best_streak: u32,
    /// The match's first room round: with the room's id, the match's key (its receipt is
    /// `MATCH#<room id>#<first_round>` / `RECEIPT`). 0 on records from before receipts.
    #[serde(default)]
    pub first_round: u32,
    /// A daily flight's result (its day), counted on the daily's boards only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub daily: Option<crate::ids::Day>,
    /// A match of a deck: counted on its room's boards and the deck's own, never on everyone's,
    /// and earning no catalog cards (`docs/decks.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<DeckPlay>,
    /// Flagged for review: its reactions were too fast and steady to be a person's (see
    /// [`crate::game::timing::too_fast_to_believe`]). It stays the player's, and counts nowhere
    /// (boards, counters, badges) until an operator clears it (`udd-server flagged`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub flagged: bool,
}

/// The deck a match record's match played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckPlay {
    pub code: crate::ids::DeckCode,
    /// Set on one record of the match (its first player's): the one that counts the match as
    /// one play of the deck.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub counts_play: bool,
}

impl MatchRecord {
    /// The room the match was played in, for good: its id, or its code on a record from before
    /// rooms had ids (the key its match was kept under then).
    pub fn room_id(&self) -> RoomId {
        self.room_id
            .clone()
            .unwrap_or_else(|| RoomId::legacy(&self.room))
    }
}

/// Where a match stands at a moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Counting down to round `index` (0-based); `left_ms` until the reveal.
    Countdown { index: usize, left_ms: i64 },
    /// Round `index` is open for taps; `left_ms` of the window remain (not counting grace).
    Open { index: usize, left_ms: i64 },
    /// Round `index` has closed and waits for its results or the next countdown.
    Closed { index: usize },
    /// Every round is resolved.
    Finished,
}

impl Match {
    /// Rounds in the match.
    pub fn len(&self) -> u32 {
        self.rounds.len() as u32
    }

    pub fn is_empty(&self) -> bool {
        self.rounds.is_empty()
    }

    pub fn is_finished(&self) -> bool {
        self.resolved >= self.len()
    }

    /// The first round of the match that round `n` belongs to: each match's rounds are numbered
    /// in a block of [`ROUND_BLOCK`] (`1`, `33`, `65`, …).
    pub fn first_of_round(n: u32) -> u32 {
        n.saturating_sub(1) / ROUND_BLOCK * ROUND_BLOCK + 1
    }

    /// Milliseconds from one reveal to the next.
    pub fn period_ms(window_ms: u32) -> i64 {
        COUNTDOWN_MS + i64::from(window_ms) + i64::from(GRACE_MS) + RESULTS_MS
    }

    /// When round `index` (0-based) of a match started at `started_at_ms` is revealed.
    pub fn reveal_at(started_at_ms: i64, window_ms: u32, index: usize) -> i64 {
        started_at_ms + COUNTDOWN_MS + index as i64 * Self::period_ms(window_ms)
    }

    /// When round `index` stops taking taps (window plus grace): from then it may be resolved.
    pub fn closes_at(&self, index: usize) -> Option<i64> {
        self.rounds
            .get(index)
            .map(|r| r.reveal_ms + i64::from(self.window_ms) + i64::from(GRACE_MS))
    }

    /// The round to resolve next, once its window and grace are over at `now_ms`.
    pub fn due(&self, now_ms: i64) -> Option<usize> {
        let index = self.resolved as usize;
        (self.closes_at(index)? <= now_ms).then_some(index)
    }

    pub fn phase(&self, now_ms: i64) -> Phase {
        if self.is_finished() {
            return Phase::Finished;
        }
        // The latest round whose countdown has begun.
        let started = self
            .rounds
            .iter()
            .rposition(|r| r.reveal_ms - COUNTDOWN_MS <= now_ms);
        let Some(index) = started else {
            let first = self.rounds.first().map_or(now_ms, |r| r.reveal_ms);
            return Phase::Countdown {
                index: 0,
                left_ms: first - now_ms,
            };
        };
        let round = &self.rounds[index];
        if now_ms < round.reveal_ms {
            return Phase::Countdown {
                index,
                left_ms: round.reveal_ms - now_ms,
            };
        }
        let end = round.reveal_ms + i64::from(self.window_ms);
        if now_ms < end {
            Phase::Open {
                index,
                left_ms: end - now_ms,
            }
        } else {
            Phase::Closed { index }
        }
    }

    /// The next moment the match looks different without anything being written: a reveal.
    pub fn next_reveal_after(&self, now_ms: i64) -> Option<i64> {
        self.rounds
            .iter()
            .map(|r| r.reveal_ms)
            .find(|&at| at > now_ms)
    }

    /// The first moment from `now_ms` at which a listener may be away for `gap_ms` without
    /// missing a reveal: `now_ms` when no reveal falls within the gap (or the match is over),
    /// else the close of the round revealed in it (the results and the next countdown follow,
    /// at least [`RESULTS_MS`] + [`COUNTDOWN_MS`] before the next reveal), and so on.
    pub fn quiet_from(&self, now_ms: i64, gap_ms: i64) -> i64 {
        let mut at = now_ms;
        for (index, round) in self.rounds.iter().enumerate() {
            if index < self.resolved as usize || round.reveal_ms < at {
                continue;
            }
            if round.reveal_ms >= at + gap_ms {
                break;
            }
            at = self.closes_at(index).unwrap_or(at);
        }
        at
    }

    /// The match as a browser may see it at `now_ms`: things of rounds not yet revealed and
    /// whether unresolved things fly are removed.
    pub fn visible_at(&self, now_ms: i64) -> Match {
        let mut shown = self.clone();
        if !self.is_finished() {
            shown.seed = None;
        }
        shown.planned = 0;
        for round in &mut shown.rounds {
            round.tap_count = 0;
            round.closed_at_ms = None;
            if round.reveal_ms > now_ms {
                round.thing = None;
            }
            if round.results.is_none() {
                round.flies = None;
            }
        }
        shown
    }

    /// What the match says about each player, as the reward rules read it, in standings order.
    /// The match record is written from this, and the projector grants from the record, so the
    /// results screen shows exactly what is granted.
    pub fn outcomes(&self) -> Vec<(&MatchPlayer, Outcome)> {
        let players = self.players.len() as u32;
        self.standings()
            .into_iter()
            .map(|(placement, player)| {
                let (mut right, mut best_streak, mut run) = (Vec::new(), 0, 0);
                for round in &self.rounds {
                    let judged_right = round
                        .results
                        .as_ref()
                        .and_then(|results| results.iter().find(|r| r.user_id == player.user_id))
                        .is_some_and(|r| r.correct);
                    if judged_right {
                        run += 1;
                        best_streak = best_streak.max(run);
                        right.extend(round.thing.as_ref().map(|t| t.id.clone()));
                    } else {
                        run = 0;
                    }
                }
                let outcome = Outcome {
                    placement,
                    players,
                    correct: player.correct,
                    rounds: self.len(),
                    right,
                    best_streak,
                };
                (player, outcome)
            })
            .collect()
    }

    /// Players best first: by score, then correct decisions, then faster average reaction.
    /// Each comes with a placement; players equal on all three share it.
    pub fn standings(&self) -> Vec<(u32, &MatchPlayer)> {
        let rank_key = |p: &MatchPlayer| {
            (
                std::cmp::Reverse(p.score),
                std::cmp::Reverse(p.correct),
                p.average_reaction_ms().unwrap_or(u32::MAX),
            )
        };
        let mut players: Vec<&MatchPlayer> = self.players.iter().collect();
        players.sort_by_key(|p| rank_key(p));
        let mut placed = Vec::with_capacity(players.len());
        for (i, player) in players.iter().enumerate() {
            let placement = match placed.last() {
                Some(&(place, prev)) if rank_key(prev) == rank_key(player) => place,
                _ => i as u32 + 1,
            };
            placed.push((placement, *player));
        }
        placed
    }

    pub fn player(&self, user: &UserId) -> Option<&MatchPlayer> {
        self.players.iter().find(|p| &p.user_id == user)
    }

    /// The last resolved round and what it gave `user`, if they played it.
    pub fn last_result(&self, user: &UserId) -> Option<(&Round, &RoundResult)> {
        let round = self.rounds.get(self.resolved.checked_sub(1)? as usize)?;
        let result = round
            .results
            .as_ref()?
            .iter()
            .find(|r| &r.user_id == user)?;
        Some((round, result))
    }

    /// `user`'s place by score alone after the first `rounds` resolved rounds: one more than the
    /// players strictly ahead (the between-rounds view; the final standings break ties).
    pub fn place_after(&self, user: &UserId, rounds: usize) -> Option<u32> {
        let totals: Vec<(&UserId, i32)> = self
            .players
            .iter()
            .map(|p| {
                let score = self.rounds[..rounds.min(self.rounds.len())]
                    .iter()
                    .filter_map(|r| r.results.as_ref())
                    .flatten()
                    .filter(|r| r.user_id == p.user_id)
                    .map(|r| r.points)
                    .sum();
                (&p.user_id, score)
            })
            .collect();
        let mine = totals.iter().find(|(id, _)| *id == user)?.1;
        Some(1 + totals.iter().filter(|(_, score)| *score > mine).count() as u32)
    }

    /// The place `user` climbed to in the last resolved round, when they climbed.
    pub fn moved_up_to(&self, user: &UserId) -> Option<u32> {
        let done = self.resolved as usize;
        let now = self.place_after(user, done)?;
        let before = self.place_after(user, done.checked_sub(1)?)?;
        (done >= 2 && now < before).then_some(now)
    }
}
