//! The unit tests of `app::leaderboards::boards_page`.

use app::identity::{DisplayName, UserId};
use app::lang::Locale;
use app::leaderboards::boards_page::*;
use app::leaderboards::model::Line;

#[test]
fn the_preview_names_the_top_three_in_order() {
    assert_eq!(
        top_three(Locale::en, "Best match", &[]),
        "Nobody is on Best match yet."
    );
    let line = |name: &str, rank, score| Line {
        rank,
        user_id: UserId::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap(),
        nickname: DisplayName::parse(name).unwrap(),
        avatar: Default::default(),
        score,
        reached_ms: 0,
        matches: 0,
    };
    let lines = [
        line("Asha", 1, 3200),
        line("Ravi", 2, 2900),
        line("Mei", 2, 2900),
        line("Om", 4, 10),
    ];
    assert_eq!(
        top_three(Locale::en, "x", &lines),
        "1. Asha 3200 · 2. Ravi 2900 · 2. Mei 2900"
    );
}

#[test]
fn spans_read_in_their_two_largest_units() {
    let span = |ms| span(Locale::en, ms);
    assert_eq!(span(40_000), "40 s");
    assert_eq!(span(-5), "0 s");
    assert_eq!(span(5 * 60_000 + 10_000), "5 min");
    assert_eq!(span(2 * 3_600_000 + 5 * 60_000), "2 h 5 min");
    assert_eq!(span(3 * 86_400_000 + 4 * 3_600_000 + 1), "3 d 4 h");
    assert_eq!(
        app::leaderboards::boards_page::span(Locale::hi, 2 * 3_600_000 + 5 * 60_000),
        "2 घंटे 5 मिनट"
    );
}
