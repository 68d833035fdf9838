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

#[test]
fn a_match_line_of_its_top_three_says_when_more_played() {
    use app::game::match_page::podium_line;
    use app::game::sheet::{MatchSummary, SummaryPlayer};
    let player = |i: u32| SummaryPlayer {
        user_id: app::identity::UserId::parse(&format!("01ARZ3NDEKTSV4RRFFQ69G5FA{i}")).unwrap(),
        nickname: app::identity::DisplayName::try_from(
            ["Asha", "Ravi", "Mei", "Bilal"][i as usize].to_owned(),
        )
        .unwrap(),
        avatar: Default::default(),
        score: 3_200 - 300 * i as i32,
        placement: i + 1,
    };
    let of = |n: u32| MatchSummary {
        room: app::rooms::model::RoomCode::parse("K7QX2").unwrap(),
        room_id: None,
        first_round: 1,
        started_at_ms: 0,
        finished_at_ms: 60_000,
        window_ms: 1_500,
        rounds: 10,
        players: (0..n).map(player).collect(),
        deck: None,
    };
    assert_eq!(podium_line(&of(3)), "Asha 3200 · Ravi 2900 · Mei 2600");
    assert_eq!(podium_line(&of(4)), "Asha 3200 · Ravi 2900 · Mei 2600 · …");
    assert_eq!(podium_line(&of(1)), "Asha 3200");
}

#[test]
fn island_props_are_written_on_the_server_as_the_value_they_hold_and_read_back() {
    use app::ui::IslandProps;
    let value = (vec![3_u32, 1, 2], "Kauwa \"udd\"".to_string(), Some(true));
    let written = serde_json::to_string(&IslandProps(value.clone())).unwrap();
    // The page's JSON is the value's own: the wrapper adds nothing on the server.
    assert_eq!(written, r#"[[3,1,2],"Kauwa \"udd\"",true]"#);
    let read: IslandProps<(Vec<u32>, String, Option<bool>)> =
        serde_json::from_str(&written).unwrap();
    assert_eq!(read, IslandProps(value));
}
