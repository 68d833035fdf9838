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

#[cfg(test)]
mod tests {
    use super::*;

    const REVEAL: i64 = 1_000_000;
    const WINDOW: u32 = 3000;

    #[test]
    fn an_honest_tap_counts_with_the_browsers_figure() {
        // Shown 120 ms after the reveal (network), tapped 400 ms later, 120 ms back.
        assert_eq!(check_tap(REVEAL, WINDOW, REVEAL + 640, 400), Ok(400));
    }

    #[test]
    fn taps_outside_the_round_are_refused() {
        assert_eq!(
            check_tap(REVEAL, WINDOW, REVEAL - 1, 300),
            Err(TapRejected::TooEarly)
        );
        let last = REVEAL + i64::from(WINDOW + GRACE_MS);
        assert!(
            check_tap(REVEAL, WINDOW, last, 2900).is_ok(),
            "grace counts"
        );
        assert_eq!(
            check_tap(REVEAL, WINDOW, last + 1, 2900),
            Err(TapRejected::TooLate)
        );
    }

    #[test]
    fn inhuman_reactions_are_refused() {
        assert_eq!(
            check_tap(REVEAL, WINDOW, REVEAL + 200, HUMAN_FLOOR_MS - 1),
            Err(TapRejected::TooFast)
        );
        assert_eq!(
            check_tap(REVEAL, WINDOW, REVEAL + 200, HUMAN_FLOOR_MS),
            Ok(HUMAN_FLOOR_MS)
        );
        // Received 50 ms after the reveal: no browser could have shown it and seen a tap.
        assert_eq!(
            check_tap(REVEAL, WINDOW, REVEAL + 50, 120),
            Err(TapRejected::TooFast)
        );
    }

    #[test]
    fn the_browsers_figure_is_believed_only_within_the_latency_budget() {
        // Claims 100 ms, but the tap arrived 2.5 s after the reveal: only so much lag is believed.
        assert_eq!(
            check_tap(REVEAL, WINDOW, REVEAL + 2500, 100),
            Ok(2500 - MAX_LATENCY_MS)
        );
        // Claims more than the server saw (a clock hiccup): the server's figure caps it.
        assert_eq!(check_tap(REVEAL, WINDOW, REVEAL + 700, 900), Ok(700));
    }

    #[test]
    fn a_late_tap_cannot_claim_a_fast_reaction() {
        // Arrived 1,080 ms after the reveal and claims 80 ms: at best 780 ms counts.
        assert_eq!(
            check_tap(REVEAL, WINDOW, REVEAL + 1080, 80),
            Ok(1080 - MAX_LATENCY_MS)
        );
        const { assert!(MAX_LATENCY_MS <= 300) };
    }

    #[test]
    fn extreme_reveal_times_are_refused_without_overflow() {
        let now = 1_800_000_000_000;
        assert_eq!(
            check_tap(i64::MIN, WINDOW, now, 300),
            Err(TapRejected::TooLate)
        );
        assert_eq!(
            check_tap(i64::MAX, WINDOW, now, 300),
            Err(TapRejected::TooEarly)
        );
        assert_eq!(
            check_tap(i64::MIN, WINDOW, i64::MAX, 300),
            Err(TapRejected::TooLate)
        );
    }
}
