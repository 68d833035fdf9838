//! The unit tests of `app::leaderboards::plan` (days in a row; the counting itself is tested
//! against the engines in `data::boards` and `data::daily`).

use app::ids::Day;
use app::leaderboards::plan::run_after;

fn day(year: i32, month: u8, day: u8) -> Day {
    Day { year, month, day }
}

#[test]
fn a_run_grows_by_consecutive_days_only() {
    let d = day(2026, 11, 28);
    assert_eq!(run_after(None, d), Some(1));
    assert_eq!(run_after(Some((day(2026, 11, 27), 6)), d), Some(7));
    assert_eq!(run_after(Some((d, 7)), d), Some(7));
    assert_eq!(run_after(Some((day(2026, 11, 26), 6)), d), Some(1));
    assert_eq!(run_after(Some((day(2026, 11, 29), 2)), d), None);
    // Across a month's end.
    assert_eq!(
        run_after(Some((day(2026, 11, 30), 3)), day(2026, 12, 1)),
        Some(4)
    );
}
