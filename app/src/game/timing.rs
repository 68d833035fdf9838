//! Which taps count, and with what reaction time. The fairness model:
//!
//! - The server's clock decides whether a tap is in the round: not before the reveal, not after
//!   the window plus [`GRACE_MS`] (for the trip from the phone to the server).
//! - The browser measures the reaction from the moment it showed the thing to the tap, which
//!   leaves out network delay in both directions, so a player far from the server is not
//!   punished for it.
//! - The server stands behind the figure only as far as its own measures go. It knows when it
//!   revealed the thing and when the tap arrived (its *measure*), and it measured the session's
//!   round trip itself ([`Received::latency_ms`]: the page's clock pings, timed by the server,
//!   see `game::api::server_time`). A claimed reaction counts down to the measure less that
//!   round trip, capped at [`LATENCY_CAP_MS`], and never above the measure. Below
//!   [`HUMAN_FLOOR_MS`] it is refused: nobody reacts that fast to a picture.
//!
//! Limits: a client can answer the pings slowly, so a cheat gains at most `LATENCY_CAP_MS` over
//! their speed as the server saw it; a player on a link slower than that loses the excess. A
//! session the server never timed is counted at the server's measure. Results too fast and too
//! steady to be human are flagged, off the world boards (see [`too_fast_to_believe`]).

/// A tap may reach the server this long after the window closed and still count (with no speed
/// points).
pub const GRACE_MS: u32 = 400;
/// Reactions faster than this are refused.
pub const HUMAN_FLOOR_MS: u32 = 80;
/// The most network delay the server believes a browser's reaction figure hides, whatever the
/// session's pings took: the push of the reveal to the phone and the tap's trip back together.
/// A phone's round trip is typically 50–150 ms. (It was 300 ms, and believed with no measure
/// of the session at all: a script tapped 380 ms after the reveal and was counted at 80 ms.)
pub const LATENCY_CAP_MS: u32 = 150;
/// The round trip a session's pings may be stored with (the cap applies when a tap is judged):
/// beyond this the figure says only "slow".
pub const LATENCY_KEPT_MAX_MS: u32 = 5_000;

/// A tap as the server received it: when (its clock), and the round trip it measured for the
/// tapper's session (`None`: never measured).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Received {
    pub at_ms: i64,
    pub latency_ms: Option<u32>,
}

impl Received {
    /// A tap received at `at_ms` from a session whose round trip was measured at `latency_ms`.
    pub fn at(at_ms: i64, latency_ms: Option<u32>) -> Self {
        Self { at_ms, latency_ms }
    }

    /// The network delay believed for this tap: the session's round trip, capped (0 when the
    /// server never timed the session).
    pub fn allowance_ms(self) -> u32 {
        self.latency_ms.unwrap_or(0).min(LATENCY_CAP_MS)
    }
}

/// A bare receive time: a tap from a session the server never timed.
impl From<i64> for Received {
    fn from(at_ms: i64) -> Self {
        Self::at(at_ms, None)
    }
}

/// A result whose counted reactions are too fast and too steady to be a person's: at least
/// [`FAST_TAPS_HELD`] taps under [`FAST_TAP_MS`], or at least [`STEADY_TAPS`] taps whose mean is
/// under [`STEADY_MEAN_MS`]. People react to a picture and decide in 250–600 ms; a run of sub-120
/// ms calls is a script or a lucky guesser tapping before looking. The result stands for the
/// player; it is flagged, off the boards and badges, until an operator looks (`udd-server
/// flagged`).
pub fn too_fast_to_believe(counted: &[u32]) -> bool {
    let fast = counted.iter().filter(|ms| **ms < FAST_TAP_MS).count();
    let steady = counted.len() >= STEADY_TAPS
        && counted.iter().map(|ms| u64::from(*ms)).sum::<u64>()
            < STEADY_MEAN_MS * counted.len() as u64;
    fast >= FAST_TAPS_HELD || steady
}

/// See [`too_fast_to_believe`].
pub const FAST_TAP_MS: u32 = 120;
/// See [`too_fast_to_believe`].
pub const FAST_TAPS_HELD: usize = 3;
/// See [`too_fast_to_believe`].
pub const STEADY_TAPS: usize = 5;
/// See [`too_fast_to_believe`].
pub const STEADY_MEAN_MS: u64 = 150;

/// Why a tap did not count, in words for the player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TapRejected {
    #[error("Nothing to tap yet: the thing was not shown.")]
    TooEarly,
    #[error("Too late: the round had closed.")]
    TooLate,
    #[error("Faster than anyone can react: that tap does not count.")]
    TooFast,
}

impl TapRejected {
    /// The refusal in `l`'s language, as a room's tap and a daily's tap both say it (the
    /// `Display` above stays English, for the logs).
    pub fn words(self, l: crate::lang::Locale) -> String {
        match self {
            TapRejected::TooEarly => crate::i18n::td_string!(l, game.errors.too_early),
            TapRejected::TooLate => crate::i18n::td_string!(l, game.errors.too_late),
            TapRejected::TooFast => crate::i18n::td_string!(l, game.errors.too_fast),
        }
        .to_string()
    }
}

/// Checks a tap received as `received` (server clock, and the session's measured round trip)
/// for a thing revealed at `reveal_ms` with a window of `window_ms`, and returns the reaction
/// time that counts.
pub fn check_tap(
    reveal_ms: i64,
    window_ms: u32,
    received: impl Into<Received>,
    client_reaction_ms: u32,
) -> Result<u32, TapRejected> {
    let received = received.into();
    // A forged reveal time far from now must not overflow the subtraction.
    let Some(elapsed) = received.at_ms.checked_sub(reveal_ms) else {
        return Err(TapRejected::TooLate);
    };
    if elapsed < 0 {
        return Err(TapRejected::TooEarly);
    }
    if elapsed > i64::from(window_ms) + i64::from(GRACE_MS) {
        return Err(TapRejected::TooLate);
    }
    let elapsed = elapsed as u32; // at most window + grace, which fit in u32
    let earliest = elapsed.saturating_sub(received.allowance_ms());
    let counted = client_reaction_ms.clamp(earliest, elapsed);
    if client_reaction_ms < HUMAN_FLOOR_MS || counted < HUMAN_FLOOR_MS {
        return Err(TapRejected::TooFast);
    }
    Ok(counted)
}
