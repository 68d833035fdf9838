//! Which taps count, and with what reaction time. The fairness model:
//!
//! - The server's clock decides whether a tap is in the round: not before the reveal, not after
//!   the window plus [`GRACE_MS`] (for the trip from the phone to the server).
//! - The browser measures the reaction from the moment it showed the thing to the tap, which
//!   leaves out network delay in both directions, so a player far from the server is not
//!   punished for it.
//! - The browser's figure is trusted only within what the server saw: it can be no longer than
//!   the time the server measured from reveal to receipt, and no shorter than that less
//!   [`MAX_LATENCY_MS`] (a claimed lag beyond that is not believed). Below [`HUMAN_FLOOR_MS`] it
//!   is refused: nobody reacts that fast to a picture.
//!
//! Limits: a player who fakes a reaction can gain at most `MAX_LATENCY_MS` over their true
//! speed as the server saw it; a player on a link slower than that loses the excess.

/// A tap may reach the server this long after the window closed and still count (with no speed
/// points).
pub const GRACE_MS: u32 = 400;
/// Reactions faster than this are refused.
pub const HUMAN_FLOOR_MS: u32 = 80;
/// The most network delay the server believes a browser's reaction figure hides: the push of
/// the reveal to the phone and the tap's trip back, together. A phone round trip is typically
/// 50–150 ms; a player on a slower link loses what is over this. (It was 1 s: a cheater could
/// wait most of a second, decide, and still claim an 80 ms reaction.)
pub const MAX_LATENCY_MS: u32 = 300;

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

/// Checks a tap received at `received_ms` (server clock) for a thing revealed at `reveal_ms`
/// with a window of `window_ms`, and returns the reaction time that counts.
pub fn check_tap(
    reveal_ms: i64,
    window_ms: u32,
    received_ms: i64,
    client_reaction_ms: u32,
) -> Result<u32, TapRejected> {
    // A forged reveal time far from now must not overflow the subtraction.
    let Some(elapsed) = received_ms.checked_sub(reveal_ms) else {
        return Err(TapRejected::TooLate);
    };
    if elapsed < 0 {
        return Err(TapRejected::TooEarly);
    }
    if elapsed > i64::from(window_ms) + i64::from(GRACE_MS) {
        return Err(TapRejected::TooLate);
    }
    let elapsed = elapsed as u32; // at most window + grace, which fit in u32
    let earliest = elapsed.saturating_sub(MAX_LATENCY_MS);
    let counted = client_reaction_ms.clamp(earliest, elapsed);
    if client_reaction_ms < HUMAN_FLOOR_MS || counted < HUMAN_FLOOR_MS {
        return Err(TapRejected::TooFast);
    }
    Ok(counted)
}
