//! The unit tests of `app::game::timing`.

use app::game::timing::*;

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
