//! The unit tests of `app::game::rules`.

use app::game::rules::*;

const WINDOW: u32 = 3000;

fn tap(ms: u32, streak: u32) -> Decision {
    Decision {
        tap_ms: Some(ms),
        streak_before: streak,
    }
}

fn hold(streak: u32) -> Decision {
    Decision {
        tap_ms: None,
        streak_before: streak,
    }
}

#[test]
fn every_case_of_a_round_scores_as_the_table_says() {
    // A flyer: a fast tap, a slow tap, no tap.
    let flyer = score_round(true, WINDOW, &[tap(300, 0), tap(2700, 0), hold(0)]);
    assert_eq!(flyer[0].points, 500 + 450 + FASTEST_BONUS);
    assert!(flyer[0].fastest && flyer[0].correct);
    assert_eq!(flyer[1].points, 500 + 50);
    assert!(!flyer[1].fastest);
    assert_eq!(flyer[2].points, 0);
    assert!(!flyer[2].correct);
    // A non-flyer: a tap is penalised, holding back rewarded; nobody is "fastest".
    let grounded = score_round(false, WINDOW, &[tap(200, 0), hold(0)]);
    assert_eq!(grounded[0].points, WRONG_TAP);
    assert!(!grounded[0].correct && !grounded[0].fastest);
    assert_eq!(grounded[1].points, HOLD_REWARD);
    assert!(grounded[1].correct);
}

#[test]
fn speed_points_fall_from_the_maximum_to_nothing_over_the_window() {
    assert_eq!(speed_points(0, WINDOW), SPEED_MAX);
    assert_eq!(speed_points(1500, WINDOW), SPEED_MAX / 2);
    assert_eq!(speed_points(WINDOW, WINDOW), 0);
    assert_eq!(
        speed_points(WINDOW + 400, WINDOW),
        0,
        "grace time earns nothing"
    );
    assert_eq!(speed_points(100, 0), 0);
}

#[test]
fn players_tied_at_the_fastest_time_all_get_the_bonus() {
    let out = score_round(true, WINDOW, &[tap(250, 0), tap(250, 0), tap(251, 0)]);
    assert!(out[0].fastest && out[1].fastest && !out[2].fastest);
    assert_eq!(out[0].points, out[1].points);
    assert_eq!(out[0].points - out[2].points, FASTEST_BONUS);
}

#[test]
fn a_wrong_tap_is_never_the_fastest() {
    let out = score_round(false, WINDOW, &[tap(100, 0)]);
    assert!(!out[0].fastest);
}

#[test]
fn streaks_grow_by_a_step_stop_at_the_cap_and_reset_on_a_mistake() {
    assert_eq!(streak_bonus(1), 0);
    assert_eq!(streak_bonus(2), STREAK_STEP);
    assert_eq!(streak_bonus(6), STREAK_CAP);
    assert_eq!(streak_bonus(50), STREAK_CAP);
    let held = score_round(false, WINDOW, &[hold(9)]);
    assert_eq!(held[0].streak_after, 10);
    assert_eq!(held[0].points, HOLD_REWARD + STREAK_CAP);
    let missed = score_round(true, WINDOW, &[hold(9)]);
    assert_eq!(missed[0].streak_after, 0);
    assert_eq!(missed[0].points, 0);
    let wrong = score_round(false, WINDOW, &[tap(400, 9)]);
    assert_eq!(wrong[0].streak_after, 0);
    assert_eq!(wrong[0].points, WRONG_TAP);
}

/// Plays a match of `flies` with three strategies and returns their totals.
fn play(flies: &[bool], good_ms: u32, spam_ms: u32) -> (i32, i32, i32) {
    let (mut good, mut always, mut never) = (0, 0, 0);
    let mut streaks = [0u32; 3];
    for &thing_flies in flies {
        let decisions = [
            if thing_flies {
                tap(good_ms, streaks[0])
            } else {
                hold(streaks[0])
            },
            tap(spam_ms, streaks[1]),
            hold(streaks[2]),
        ];
        let out = score_round(thing_flies, WINDOW, &decisions);
        good += out[0].points;
        always += out[1].points;
        never += out[2].points;
        for (streak, outcome) in streaks.iter_mut().zip(&out) {
            *streak = outcome.streak_after;
        }
    }
    (good, always, never)
}

#[test]
fn a_good_player_beats_one_who_never_taps_and_one_who_always_taps() {
    // Ten rounds, six flyers, in a few orders; the tapper taps everything at once (even
    // faster than the good player, who takes an honest 600 ms).
    let orders: [[bool; 10]; 3] = [
        [
            true, false, true, true, false, true, false, true, true, false,
        ],
        [
            false, false, false, false, true, true, true, true, true, true,
        ],
        [
            true, true, true, true, true, true, false, false, false, false,
        ],
    ];
    for flies in orders {
        let (good, always, never) = play(&flies, 600, 150);
        assert!(
            good > always,
            "{flies:?}: good {good} vs always-taps {always}"
        );
        assert!(good > never, "{flies:?}: good {good} vs never-taps {never}");
    }
    // A slow but correct player still beats both.
    let (slow, always, never) = play(&orders[0], 2500, 100);
    assert!(slow > always && slow > never, "{slow} {always} {never}");
}
