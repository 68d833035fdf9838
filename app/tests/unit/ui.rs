//! The unit tests of `app::ui`.

use app::ui::when;

#[test]
fn moments_read_as_utc_calendar_dates() {
    assert_eq!(when(0), "1970-01-01 00:00 UTC");
    assert_eq!(when(951_782_400_000), "2000-02-29 00:00 UTC");
    assert_eq!(when(1_795_483_938_410), "2026-11-24 01:32 UTC");
    assert_eq!(when(-60_000), "1969-12-31 23:59 UTC");
    assert_eq!(app::ui::when_iso(1_795_483_938_410), "2026-11-24T01:32Z");
}
