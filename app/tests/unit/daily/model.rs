//! The unit tests of `app::daily::model`.

use app::daily::model::*;
use app::ids::Day;
use app::lang::Locale;

fn day(year: i32, month: u8, day: u8) -> Day {
    Day { year, month, day }
}

#[test]
fn numbers_count_calendar_days_across_months_years_and_leap_days() {
    assert_eq!(number(FIRST_DAY), 1);
    assert_eq!(number(day(2026, 11, 30)), 30);
    assert_eq!(number(day(2026, 12, 1)), 31);
    assert_eq!(number(day(2027, 1, 1)), 62);
    // 2028 is a leap year: 29 February is a day, and 1 March the day after it.
    assert_eq!(days_between(day(2028, 2, 28), day(2028, 3, 1)), 2);
    assert_eq!(days_between(day(2027, 2, 28), day(2027, 3, 1)), 1);
    assert_eq!(days_between(day(2026, 1, 1), day(2027, 1, 1)), 365);
}

#[test]
fn the_clock_reveals_each_round_once_its_countdown_ends() {
    let start = 1_000_000;
    assert_eq!(round_at(start, start), None);
    assert_eq!(round_at(start, start + LEAD_MS - 1), None);
    assert_eq!(round_at(start, start + LEAD_MS), Some(0));
    assert_eq!(round_at(start, start + LEAD_MS + SLOT_MS), Some(1));
    assert_eq!(
        round_at(start, over_ms(start) + 60_000),
        Some(FLIGHT_ROUNDS - 1)
    );
    assert_eq!(round_of(start, start + LEAD_MS + 3 * SLOT_MS), Some(3));
    assert_eq!(round_of(start, start + LEAD_MS + 3 * SLOT_MS + 1), None);
    assert_eq!(
        over_ms(start),
        start + 2000 + 9 * 5400 + 3000 + 400,
        "ten slots of countdown, window and grace"
    );
}

#[test]
fn a_flight_scores_as_a_room_round_without_the_fastest_bonus() {
    // Flyer tapped at 0 ms: 500 + 500. Non-flyer held: 150 + streak 50. Flyer missed: 0.
    let score = score_flight(&[true, false, true], &[Some(0), None, None]);
    assert_eq!(
        score.rounds.iter().map(|r| r.points).collect::<Vec<_>>(),
        vec![1000, 200, 0]
    );
    assert_eq!(score.score, 1200);
    assert_eq!(score.correct, 2);
    assert_eq!(score.best_streak, 2);
    assert_eq!(score.average_ms, Some(0));
    assert_eq!(grid(&score.rounds), "✅✅❌");
}

#[test]
fn the_share_names_no_thing() {
    let score = score_flight(&[true, false], &[Some(300), Some(400)]);
    let text = share_text(
        Locale::en,
        day(2026, 11, 12),
        score.correct,
        score.average_ms,
        &grid(&score.rounds),
        "https://udd.example/daily/2026-11-12",
    );
    assert_eq!(
        text,
        "Udd Daily #12 🐦 1/2 ⚡ 300 ms\n✅❌\nhttps://udd.example/daily/2026-11-12"
    );
    // In Hindi, the day's number as the page and the card say it.
    let text = share_text(
        Locale::hi,
        day(2026, 11, 12),
        2,
        None,
        "✅✅",
        "https://u.example/d",
    );
    assert_eq!(text, "Udd डेली #12 🐦 2/2\n✅✅\nhttps://u.example/d");
}
