//! The unit tests of `app::game::timing`.

use app::game::timing::*;

const REVEAL: i64 = 1_000_000;
const WINDOW: u32 = 3000;

/// A tap received `after` ms after the reveal from a session whose round trip the server
/// measured at `latency` ms.
fn from(after: i64, latency: u32) -> Received {
    Received::at(REVEAL + after, Some(latency))
}

#[test]
fn an_honest_tap_counts_with_the_browsers_figure() {
    // Shown 60 ms after the reveal (network), tapped 400 ms later, 60 ms back: the server timed
    // the session's round trip at 120 ms.
    assert_eq!(check_tap(REVEAL, WINDOW, from(520, 120), 400), Ok(400));
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
        check_tap(REVEAL, WINDOW, from(200, 150), HUMAN_FLOOR_MS - 1),
        Err(TapRejected::TooFast)
    );
    assert_eq!(
        check_tap(REVEAL, WINDOW, from(200, 150), HUMAN_FLOOR_MS),
        Ok(HUMAN_FLOOR_MS)
    );
    // Received 50 ms after the reveal: no browser could have shown it and seen a tap.
    assert_eq!(
        check_tap(REVEAL, WINDOW, from(50, 150), 120),
        Err(TapRejected::TooFast)
    );
}

#[test]
fn the_browsers_figure_is_believed_only_as_far_as_the_servers_measure_of_the_session() {
    // Claims 100 ms, but the tap arrived 2.5 s after the reveal from a session timed at 40 ms.
    assert_eq!(check_tap(REVEAL, WINDOW, from(2500, 40), 100), Ok(2460));
    // Claims more than the server saw (a clock hiccup): the server's figure caps it.
    assert_eq!(check_tap(REVEAL, WINDOW, from(700, 40), 900), Ok(700));
    // A session the server never timed is counted at the server's own measure.
    assert_eq!(check_tap(REVEAL, WINDOW, REVEAL + 700, 300), Ok(700));
}

#[test]
fn a_script_claiming_80_ms_at_380_gets_the_servers_measure_less_the_capped_latency() {
    // The probe's script: the thing read from the page, the tap sent 380 ms after the reveal
    // claiming 80 ms. Its pings answered slowly (a second's round trip): only the cap is
    // believed, so 380 - 150 counts, not 80.
    assert_eq!(LATENCY_CAP_MS, 150);
    assert_eq!(check_tap(REVEAL, WINDOW, from(380, 1000), 80), Ok(230));
    // Pinged honestly from next to the server (5 ms): 375 counts.
    assert_eq!(check_tap(REVEAL, WINDOW, from(380, 5), 80), Ok(375));
    // Never pinged: the server's 380.
    assert_eq!(check_tap(REVEAL, WINDOW, REVEAL + 380, 80), Ok(380));
}

#[test]
fn a_late_tap_cannot_claim_a_fast_reaction() {
    // Arrived 1,080 ms after the reveal and claims 80 ms: at best 930 ms counts.
    assert_eq!(check_tap(REVEAL, WINDOW, from(1080, 5000), 80), Ok(930));
}

#[test]
fn results_too_fast_and_steady_to_be_human_are_flagged() {
    // Ten taps of 90 ms: a script.
    assert!(too_fast_to_believe(&[90; 10]));
    // Three lucky taps under 120 ms among slow ones: flagged all the same.
    assert!(too_fast_to_believe(&[110, 115, 119, 600, 700]));
    // Five taps averaging under 150 ms, none under 120.
    assert!(too_fast_to_believe(&[140, 145, 149, 130, 140]));
    // People: quick and slow, two fast guesses.
    assert!(!too_fast_to_believe(&[100, 110, 320, 410, 290, 505, 380]));
    assert!(!too_fast_to_believe(&[
        230, 240, 250, 260, 270, 280, 290, 300, 310, 320
    ]));
    // Four quick taps averaging 140 are too few to say.
    assert!(!too_fast_to_believe(&[140, 140, 140, 140]));
    assert!(!too_fast_to_believe(&[]));
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
