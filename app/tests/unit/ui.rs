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

#[test]
fn players_of_one_name_in_a_list_are_told_apart_by_their_ids_and_no_one_else_is() {
    let bilal =
        |tail: &str| app::ids::UserId::parse(&format!("01ARZ3NDEKTSV4RRFFQ69G5{tail}")).unwrap();
    let (one, two, three) = (bilal("7KQ"), bilal("M2X"), bilal("ZZZ"));
    let shown = app::ui::told_apart(&[(&one, "Bilal"), (&three, "Asha"), (&two, "Bilal")]);
    assert_eq!(shown, ["Bilal·7KQ", "Asha", "Bilal·M2X"]);
    // Alone in the list, a name stays as it is.
    assert_eq!(app::ui::told_apart(&[(&one, "Bilal")]), ["Bilal"]);
    assert!(app::ui::told_apart(&[]).is_empty());
}
