//! The daily flight's clock, order and score as plain functions, and what its pages are sent.
//!
//! **The clock of a flight.** A flight has no state of its own but its start: round `i` (0–9)
//! is revealed at `started + LEAD_MS + i × SLOT_MS` and open for [`WINDOW_MS`] (plus the taps'
//! grace). Nothing is written to reveal a round, and nothing can pause, replay or restart one:
//! a page that comes back mid-flight is at whatever round the clock has reached, and a round it
//! missed is a round held back.

use serde::{Deserialize, Serialize};

use crate::game::rules::{score_round, Decision, FASTEST_BONUS};
use crate::game::timing::GRACE_MS;
use crate::ids::Day;

/// Things in a day's flight.
pub const FLIGHT_ROUNDS: usize = 10;
/// How long each thing may be tapped (the rooms' default window).
pub const WINDOW_MS: u32 = 3000;
/// The countdown before each thing.
pub const LEAD_MS: i64 = 2000;
/// From one reveal to the next: the countdown after the last window and its grace.
pub const SLOT_MS: i64 = LEAD_MS + WINDOW_MS as i64 + GRACE_MS as i64;
/// The day of daily #1.
pub const FIRST_DAY: Day = Day {
    year: 2026,
    month: 11,
    day: 1,
};

/// When round `i` of a flight started at `started_ms` is revealed.
pub fn reveal_ms(started_ms: i64, i: usize) -> i64 {
    started_ms + LEAD_MS + i as i64 * SLOT_MS
}

/// When no tap of a flight started at `started_ms` can count any more: its result is final.
pub fn over_ms(started_ms: i64) -> i64 {
    reveal_ms(started_ms, FLIGHT_ROUNDS - 1) + i64::from(WINDOW_MS) + i64::from(GRACE_MS)
}

/// The round a page shows at `now_ms`: the last one revealed (`None` before the first).
pub fn round_at(started_ms: i64, now_ms: i64) -> Option<usize> {
    let since = now_ms - started_ms - LEAD_MS;
    (since >= 0).then(|| ((since / SLOT_MS) as usize).min(FLIGHT_ROUNDS - 1))
}

/// Which round a reveal time claims to be, for a flight started at `started_ms`: `None` unless
/// it is exactly one of the flight's.
pub fn round_of(started_ms: i64, claimed_reveal_ms: i64) -> Option<usize> {
    (0..FLIGHT_ROUNDS).find(|&i| reveal_ms(started_ms, i) == claimed_reveal_ms)
}

/// The daily's number: #1 on [`FIRST_DAY`].
pub fn number(day: Day) -> i64 {
    days_between(FIRST_DAY, day) + 1
}

/// Days from `from` to `to` (negative when `to` is earlier).
pub fn days_between(from: Day, to: Day) -> i64 {
    to.index() - from.index()
}

/// One round of a finished flight, as its player's result shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlightRound {
    pub flies: bool,
    /// The reaction that counted, when they tapped.
    pub tap_ms: Option<u32>,
    pub correct: bool,
    pub points: i32,
}

/// A flight's result: its score by the rooms' rules (no fastest bonus: nobody to be faster
/// than), the right calls and the mean reaction of the taps on flyers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlightScore {
    pub score: i32,
    pub correct: u32,
    pub best_streak: u32,
    pub average_ms: Option<u32>,
    pub rounds: Vec<FlightRound>,
}

/// Scores a flight: the things' rulings in the player's order, and their taps.
pub fn score_flight(flies: &[bool], taps: &[Option<u32>]) -> FlightScore {
    let mut streak = 0;
    let mut best_streak = 0;
    let mut rounds = Vec::with_capacity(flies.len());
    for (i, &flies) in flies.iter().enumerate() {
        let tap_ms = taps.get(i).copied().flatten();
        let decision = Decision {
            tap_ms,
            streak_before: streak,
        };
        let outcome = score_round(flies, WINDOW_MS, &[decision])[0];
        streak = outcome.streak_after;
        best_streak = best_streak.max(streak);
        let bonus = if outcome.fastest { FASTEST_BONUS } else { 0 };
        rounds.push(FlightRound {
            flies,
            tap_ms,
            correct: outcome.correct,
            points: outcome.points - bonus,
        });
    }
    let flyer_taps: Vec<u32> = rounds
        .iter()
        .filter(|r| r.flies)
        .filter_map(|r| r.tap_ms)
        .collect();
    FlightScore {
        score: rounds.iter().map(|r| r.points).sum(),
        correct: rounds.iter().filter(|r| r.correct).count() as u32,
        best_streak,
        average_ms: (!flyer_taps.is_empty())
            .then(|| flyer_taps.iter().sum::<u32>() / flyer_taps.len() as u32),
        rounds,
    }
}

/// The spoiler-free grid of a result: ✅ for a right call, ❌ for a wrong one.
pub fn grid(rounds: &[FlightRound]) -> String {
    rounds
        .iter()
        .map(|r| if r.correct { '✅' } else { '❌' })
        .collect()
}

/// The text "Share" copies: the day's number as the page says it in the player's language
/// ("Daily #29", "डेली #29"), the right calls, the mean reaction and the grid (✅/❌ a round);
/// no thing named.
pub fn share_text(
    l: crate::lang::Locale,
    day: Day,
    correct: u32,
    average_ms: Option<u32>,
    grid: &str,
    link: &str,
) -> String {
    let speed = average_ms.map_or_else(String::new, |ms| format!(" ⚡ {ms} ms"));
    let n = number(day);
    format!(
        "Udd {} 🐦 {correct}/{}{speed}\n{grid}\n{link}",
        crate::i18n::td_string!(l, daily.number, n = n),
        grid.chars().count(),
    )
}
