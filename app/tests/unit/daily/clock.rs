//! The unit tests of `app::daily::clock`.

use app::daily::clock::*;
use app::ids::Day;
use app::leaderboards::period::day_of;

#[test]
fn a_day_runs_from_midnight_to_midnight_utc() {
    let day = Day {
        year: 2026,
        month: 11,
        day: 28,
    };
    // 2026-11-28T00:00:00Z.
    assert_eq!(day_start_ms(day), 1_795_824_000_000);
    assert_eq!(day_of(day_end_ms(day) - 1), day);
    assert_ne!(day_of(day_end_ms(day)), day);
    assert!(!is_over(day, day_end_ms(day) - 1));
    assert!(is_over(day, day_end_ms(day)));
}

#[test]
fn a_set_clock_keeps_running() {
    let clock = DailyClock::default();
    clock.set_now(1_000_000);
    let now = clock.now_ms();
    assert!((1_000_000..1_000_000 + 1_000).contains(&now));
}
