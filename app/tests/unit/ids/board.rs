//! The unit tests of `app::ids::board`.

use app::ids::{BoardId, Day};

#[test]
fn a_board_reads_back_from_its_key_and_its_address() {
    for raw in [
        "best.all.global",
        "best.day-2026-11-23.room-K7QX2",
        "total.week-2026-W48.global",
        "total.season-2026-q4.global",
        "best.season-monsoon-1.room-K7QX2",
        "best.all.room-K7QX2-01KAYZ3NDEKTSV4RRFFQ69G5FA",
        "best.season-2026-q4.room-K7QX2-01KAYZ3NDEKTSV4RRFFQ69G5FA",
    ] {
        let board = BoardId::parse_key(raw).unwrap();
        assert_eq!(board.key(), raw);
        let href = board.href();
        let parts: Vec<&str> = href.trim_start_matches("/lb/").split('/').collect();
        assert_eq!(BoardId::parse(parts[0], parts[1], parts[2]).unwrap(), board);
    }
}

#[test]
fn malformed_and_impossible_boards_are_refused() {
    for raw in [
        "",
        "best",
        "worst.all.global",
        "best.day-2026-02-30.global",
        "best.day-2026-2-3.global",
        "best.day-+026-02-03.global",
        "best.week-2026-W54.global",
        "best.week-2026-W00.global",
        "best.week-2026-W+1.global",
        "best.season-.global",
        "best.season-Big_Season.global",
        "best.all.room-k7qx",
        "best.all.everyone",
        "total.day-2026-11-23.global",
        "total.all.room-K7QX2",
        "best.all.global.extra",
    ] {
        assert!(BoardId::parse_key(raw).is_err(), "{raw} should be refused");
    }
    assert!(Day::new(2024, 2, 29).is_ok());
    assert!(Day::new(2100, 2, 29).is_err());
}
