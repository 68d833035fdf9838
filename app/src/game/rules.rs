//! The rules of Kauwa Udd as plain functions: how a round is scored, which taps count, and (on
//! the server) which things a match shows. No I/O here; the stores and the pages call these.
//!
//! A round reveals a thing for the room's window. A player taps only if it can fly.
//!
//! | the thing | tapped | points |
//! |---|---|---|
//! | flies | yes | [`TAP_BASE`] + up to [`SPEED_MAX`] the faster the tap, + [`FASTEST_BONUS`] for the fastest correct tap |
//! | flies | no | 0 |
//! | doesn't fly | yes | [`WRONG_TAP`] (a penalty) |
//! | doesn't fly | no | [`HOLD_REWARD`] |
//!
//! A correct decision extends a streak; from the second in a row each adds [`STREAK_STEP`] per
//! step, capped at [`STREAK_CAP`]. A wrong decision (a missed flyer or a tapped non-flyer)
//! resets it.

/// Points for tapping a thing that flies, before speed.
pub const TAP_BASE: i32 = 500;
/// The most a fast tap adds: all of it at 0 ms, none at the end of the window.
pub const SPEED_MAX: i32 = 500;
/// For the fastest correct tap of the round (every player tied at the fastest time gets it).
pub const FASTEST_BONUS: i32 = 100;
/// For tapping a thing that does not fly.
pub const WRONG_TAP: i32 = -300;
/// For holding back on a thing that does not fly.
pub const HOLD_REWARD: i32 = 150;
/// What each correct decision in a row adds from the second one on.
pub const STREAK_STEP: i32 = 50;
/// The most a streak adds in one round.
pub const STREAK_CAP: i32 = 250;

/// One player's part in a round: whether they tapped, and the reaction time that counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// `Some(ms)` when the player tapped, with the checked reaction time.
    pub tap_ms: Option<u32>,
    /// Correct decisions in a row before this round.
    pub streak_before: u32,
}

/// What a round gave one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub correct: bool,
    pub points: i32,
    /// Correct decisions in a row after this round.
    pub streak_after: u32,
    pub fastest: bool,
}

/// Speed points: a straight line from [`SPEED_MAX`] at 0 ms to 0 at the end of the window.
pub fn speed_points(reaction_ms: u32, window_ms: u32) -> i32 {
    if window_ms == 0 {
        return 0;
    }
    let left = window_ms.saturating_sub(reaction_ms);
    // Integer maths: at most 500 × 10_000, far inside i64.
    (i64::from(SPEED_MAX) * i64::from(left) / i64::from(window_ms)) as i32
}

/// The streak bonus for a correct decision that makes a streak of `streak` (1 = the first).
pub fn streak_bonus(streak: u32) -> i32 {
    let steps = i64::from(streak.saturating_sub(1));
    (steps * i64::from(STREAK_STEP)).min(i64::from(STREAK_CAP)) as i32
}

/// Scores one round for every player, in the order given.
pub fn score_round(flies: bool, window_ms: u32, decisions: &[Decision]) -> Vec<Outcome> {
    let fastest = if flies {
        decisions.iter().filter_map(|d| d.tap_ms).min()
    } else {
        None
    };
    decisions
        .iter()
        .map(|decision| {
            let correct = decision.tap_ms.is_some() == flies;
            let streak_after = if correct {
                decision.streak_before + 1
            } else {
                0
            };
            let is_fastest = fastest.is_some() && decision.tap_ms == fastest;
            let base = match (flies, decision.tap_ms) {
                (true, Some(ms)) => {
                    TAP_BASE
                        + speed_points(ms, window_ms)
                        + if is_fastest { FASTEST_BONUS } else { 0 }
                }
                (true, None) => 0,
                (false, Some(_)) => WRONG_TAP,
                (false, None) => HOLD_REWARD,
            };
            let bonus = if correct {
                streak_bonus(streak_after)
            } else {
                0
            };
            Outcome {
                correct,
                points: base + bonus,
                streak_after,
                fastest: is_fastest,
            }
        })
        .collect()
}
