//! The unit tests of `app::leaderboards::period`.

use app::ids::RoomCode;
use app::ids::{BoardId, Metric, Period, RoomId, Scope, SeasonId};
use app::lang::Locale;
use app::leaderboards::period::*;

const NOV_23_2026_NOON: i64 = 1_795_435_200_000;

fn id(s: &str) -> SeasonId {
    SeasonId::parse(s).unwrap()
}

#[test]
fn a_time_falls_in_its_day_its_iso_week_and_its_quarter() {
    assert_eq!(day_of(NOV_23_2026_NOON).to_string(), "2026-11-23");
    assert_eq!(week_of(NOV_23_2026_NOON).to_string(), "week-2026-W48");
    // 1 January 2027 is a Friday: ISO week 53 of 2026.
    let new_year = 1_798_761_600_000;
    assert_eq!(day_of(new_year).to_string(), "2027-01-01");
    assert_eq!(week_of(new_year).to_string(), "week-2026-W53");
    let q = quarter_of(NOV_23_2026_NOON);
    assert_eq!((q.id.as_str(), q.end_ms), ("2026-q4", new_year));
}

#[test]
fn bounds_cover_the_period_and_impossible_periods_are_refused() {
    let (start, end) = bounds(&week_of(NOV_23_2026_NOON), &[]).unwrap().unwrap();
    assert!(start <= NOV_23_2026_NOON && NOV_23_2026_NOON < end);
    assert_eq!(end - start, 7 * DAY_MS);
    assert_eq!(
        day_of(start).to_string(),
        "2026-11-23",
        "week 48 starts on Monday the 23rd"
    );
    assert!(bounds(
        &Period::Week {
            year: 2026,
            week: 53
        },
        &[]
    )
    .is_ok());
    assert!(bounds(
        &Period::Week {
            year: 2025,
            week: 53
        },
        &[]
    )
    .is_err());
    assert!(bounds(&Period::Season(id("monsoon")), &[]).is_err());
    assert_eq!(bounds(&Period::AllTime, &[]), Ok(None));
}

#[test]
fn an_operator_season_covers_its_time_and_quarters_cover_the_rest() {
    let monsoon = Season {
        id: id("monsoon"),
        name: "Monsoon".into(),
        start_ms: NOV_23_2026_NOON,
        end_ms: NOV_23_2026_NOON + 10 * DAY_MS,
    };
    let seasons = [monsoon.clone()];
    assert_eq!(season_at(&seasons, NOV_23_2026_NOON), monsoon);
    assert_eq!(season_at(&seasons, NOV_23_2026_NOON - 1).id, id("2026-q4"));
    assert_eq!(season_at(&seasons, monsoon.end_ms).id, id("2026-q4"));
    assert!(is_quarter_id(&id("2026-q4")) && !is_quarter_id(&id("monsoon")));
    assert!(!is_quarter_id(&id("2026-q5")));
}

#[test]
fn a_match_counts_on_eleven_boards() {
    let room = RoomId::legacy(&RoomCode::parse("K7QX2").unwrap());
    let boards = boards_for(NOV_23_2026_NOON, &room, &[]);
    let keys: Vec<String> = boards.iter().map(BoardId::key).collect();
    assert_eq!(
        keys,
        [
            "best.day-2026-11-23.global",
            "best.week-2026-W48.global",
            "best.season-2026-q4.global",
            "best.all.global",
            "best.day-2026-11-23.room-K7QX2",
            "best.week-2026-W48.room-K7QX2",
            "best.season-2026-q4.room-K7QX2",
            "best.all.room-K7QX2",
            "total.week-2026-W48.global",
            "total.season-2026-q4.global",
            "total.all.global",
        ]
    );
    for board in &boards {
        assert_eq!(BoardId::parse_key(&board.key()).as_ref(), Ok(board));
    }
}

#[test]
fn boards_are_named_in_english_for_the_projector_and_in_hindi_for_pages() {
    let room = RoomId::legacy(&RoomCode::parse("K7QX2").unwrap());
    let monsoon = Season {
        id: id("monsoon"),
        name: "Monsoon".into(),
        start_ms: NOV_23_2026_NOON,
        end_ms: NOV_23_2026_NOON + 10 * DAY_MS,
    };
    let names: Vec<String> = boards_for(NOV_23_2026_NOON, &room, &[])
        .iter()
        .map(|b| board_name(b, &[]))
        .collect();
    assert_eq!(names[0], "Best match · 2026-11-23 · everyone");
    assert_eq!(names[1], "Best match · week 48, 2026 · everyone");
    assert_eq!(names[2], "Best match · 2026 Q4 · everyone");
    assert_eq!(names[7], "Best match · all time · room K7QX2");
    assert_eq!(names[10], "Total points · all time · everyone");
    let board = BoardId {
        metric: Metric::Total,
        period: Period::Season(id("monsoon")),
        scope: Scope::Global,
    };
    assert_eq!(
        board_name(&board, std::slice::from_ref(&monsoon)),
        "Total points · Monsoon · everyone"
    );
    assert_eq!(
        board_name_in(Locale::hi, &board, &[monsoon]),
        "कुल पॉइंट्स · Monsoon · सभी"
    );
    let week = BoardId {
        metric: Metric::Best,
        period: week_of(NOV_23_2026_NOON),
        scope: Scope::Room(room),
    };
    assert_eq!(
        board_name_in(Locale::hi, &week, &[]),
        "बेस्ट मैच · हफ़्ता 48, 2026 · रूम K7QX2"
    );
}
