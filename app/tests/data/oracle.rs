//! What the boards, the lifetime counters and the inventory should hold after a set of match
//! records, computed by brute force and without the code under test: the eleven boards of a
//! record are worked out here from its time (UTC date, ISO week, calendar quarter as the default
//! season) with calendar arithmetic of our own, and the check reads every board back, line by
//! line and rank by rank from the tree, for every player.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use app::game::model::MatchRecord;
use app::identity::UserId;
use app::inventory::rules::{
    CARDS_PER_MATCH, FEATHERS_FOR_PLAYING, FEATHERS_PER_RIGHT, PLACE_FEATHERS,
};
use app::leaderboards::store::lines::Start;
use app::leaderboards::{BoardId, Line, Metric};
use app::store::Db;
use futures::stream::{self, StreamExt};

use super::TestTable;

const DAY_MS: i64 = 86_400_000;

/// (year, month, day) of a count of days since 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// Days since 1970-01-01 of 1 January of `year`.
fn new_year(year: i64) -> i64 {
    let y = year - 1;
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    // 1 January is day 306 of the March-based year before it.
    era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + 306 - 719_468
}

/// The ISO week (year, week) holding a day: the week of its Thursday.
fn iso_week(days: i64) -> (i64, i64) {
    let monday_based = (days + 3).rem_euclid(7); // 1970-01-01 was a Thursday
    let thursday = days - monday_based + 3;
    let (year, _, _) = civil(thursday);
    (year, (thursday - new_year(year)) / 7 + 1)
}

/// The eleven boards a match that ended at `ms` in room `room` counts on, when the operator
/// started no seasons (the season is then the calendar quarter).
pub fn boards_of(ms: i64, room: &str) -> Vec<BoardId> {
    let days = ms.div_euclid(DAY_MS);
    let (y, m, d) = civil(days);
    let (wy, w) = iso_week(days);
    let periods = [
        format!("day-{y:04}-{m:02}-{d:02}"),
        format!("week-{wy:04}-W{w:02}"),
        format!("season-{y:04}-q{}", (m - 1) / 3 + 1),
        "all".to_owned(),
    ];
    let mut keys = Vec::new();
    for scope in ["global".to_owned(), format!("room-{room}")] {
        for period in &periods {
            keys.push(format!("best.{period}.{scope}"));
        }
    }
    for period in &periods[1..] {
        keys.push(format!("total.{period}.global"));
    }
    keys.iter()
        .map(|k| BoardId::parse_key(k).unwrap_or_else(|e| panic!("{k}: {e:?}")))
        .collect()
}

/// The boards a deck's match (deck `deck`, ended at `ms` in room `room`) counts on: the room's
/// best of every period and the deck's own best of all time; never everyone's.
pub fn deck_boards_of(ms: i64, room: &str, deck: &str) -> Vec<BoardId> {
    let mut boards: Vec<BoardId> = boards_of(ms, room)
        .into_iter()
        .filter(|b| b.key().ends_with(&format!("room-{room}")))
        .collect();
    boards.push(BoardId::parse_key(&format!("best.all.deck-{deck}")).unwrap());
    boards
}

/// One player's expected entry on a board.
#[derive(Debug, Clone, Default)]
pub struct Expected {
    pub score: i64,
    /// When they reached it, if the records were counted in the order they ended: a best
    /// score's earliest match, a total's latest.
    pub reached: i64,
    /// What `reached_ms` may be when records were counted out of order: the ends of the
    /// matches that made a best score, or of any match in a total.
    pub possible: BTreeSet<i64>,
    pub matches: u64,
}

/// What every board should hold, per board and player; each player's lifetime counters,
/// feathers and cards.
#[derive(Default)]
pub struct Brute {
    pub boards: BTreeMap<BoardId, HashMap<UserId, Expected>>,
    /// (matches, wins, lifetime score).
    pub matches: HashMap<UserId, (u64, u64, i64)>,
    pub feathers: HashMap<UserId, u64>,
    pub cards: HashMap<UserId, BTreeMap<String, u32>>,
    /// Plays of each deck: its matches' records that count a play.
    pub plays: BTreeMap<String, u64>,
}

impl Brute {
    pub fn add(&mut self, r: &MatchRecord) {
        let score = i64::from(r.score);
        let at = r.finished_at_ms;
        let boards = match &r.deck {
            Some(deck) => {
                if deck.counts_play {
                    *self.plays.entry(deck.code.to_string()).or_default() += 1;
                }
                deck_boards_of(at, r.room.as_str(), deck.code.as_str())
            }
            None => boards_of(at, r.room.as_str()),
        };
        for board in boards {
            let entries = self.boards.entry(board.clone()).or_default();
            match board.metric {
                Metric::Best => match entries.get_mut(&r.user_id) {
                    Some(e) if score < e.score => {}
                    Some(e) if score == e.score => {
                        e.reached = e.reached.min(at);
                        e.possible.insert(at);
                    }
                    _ => {
                        entries.insert(
                            r.user_id.clone(),
                            Expected {
                                score,
                                reached: at,
                                possible: BTreeSet::from([at]),
                                matches: 0,
                            },
                        );
                    }
                },
                Metric::Total => {
                    let e = entries.entry(r.user_id.clone()).or_insert(Expected {
                        reached: i64::MIN,
                        ..Expected::default()
                    });
                    e.score += score;
                    e.reached = e.reached.max(at);
                    e.possible.insert(at);
                    e.matches += 1;
                }
            }
        }
        let m = self.matches.entry(r.user_id.clone()).or_default();
        m.0 += 1;
        m.1 += u64::from(r.placement == 1);
        m.2 += score;
        // The rewards: a feather for playing, two per right answer, more for a placing in a
        // match of two or more; the first three different things judged right as cards.
        let place = match r.placement {
            p @ 1..=3 if r.players >= 2 => PLACE_FEATHERS[p as usize - 1],
            _ => 0,
        };
        *self.feathers.entry(r.user_id.clone()).or_default() +=
            FEATHERS_FOR_PLAYING + FEATHERS_PER_RIGHT * u64::from(r.correct) + place;
        let mut cards: Vec<&str> = Vec::new();
        // A deck's things are no catalog cards.
        for thing in r.right.iter().filter(|_| r.deck.is_none()) {
            if cards.len() < CARDS_PER_MATCH && !cards.contains(&thing.as_str()) {
                cards.push(thing.as_str());
            }
        }
        let bag = self.cards.entry(r.user_id.clone()).or_default();
        for card in cards {
            *bag.entry(card.to_owned()).or_default() += 1;
        }
    }

    /// 1 + how many on the board have a strictly higher score.
    pub fn rank(&self, board: &BoardId, score: i64) -> u64 {
        1 + self.boards[board]
            .values()
            .filter(|e| e.score > score)
            .count() as u64
    }
}

/// Every line of a board, page by page through the cursors.
pub async fn all_lines(db: &Db, board: &BoardId) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut start = Start::Top;
    loop {
        let page = db
            .boards()
            .board_lines(board, start, 37)
            .await
            .unwrap()
            .unwrap();
        lines.extend(page.lines);
        match page.next {
            Some(cursor) => start = Start::Cursor(cursor),
            None => return lines,
        }
    }
}

/// Checks every board (its lines, their ranks and order, its count, and each player's rank
/// from the tree), every player's lifetime counters, feathers and cards against the brute
/// force. `in_order`: each player's records were counted in the order their matches ended, so
/// each line's `reached_ms` is known exactly.
pub async fn check(t: &TestTable, brute: &Brute, players: &[UserId], in_order: bool) {
    for (board, expected) in &brute.boards {
        let lines = all_lines(&t.db, board).await;
        let on_board: BTreeSet<&UserId> = lines.iter().map(|l| &l.user_id).collect();
        assert_eq!(lines.len(), expected.len(), "{board}: entry count");
        assert_eq!(on_board.len(), lines.len(), "{board}: a player on it twice");
        assert_eq!(
            t.db.boards().board_entries(board).await.unwrap(),
            expected.len() as u64,
            "{board}: root count"
        );
        let mut previous: Option<&Line> = None;
        for line in &lines {
            let Some(e) = expected.get(&line.user_id) else {
                panic!("{board}: {} should not be on it", line.user_id);
            };
            assert_eq!(line.score, e.score, "{board}: {}'s value", line.user_id);
            assert_eq!(
                line.rank,
                brute.rank(board, e.score),
                "{board}: rank by position"
            );
            if in_order {
                assert_eq!(
                    line.reached_ms, e.reached,
                    "{board}: when {} reached it",
                    line.user_id
                );
            } else {
                assert!(
                    e.possible.contains(&line.reached_ms),
                    "{board}: {} reached {} at {}, when no match of theirs ended",
                    line.user_id,
                    e.score,
                    line.reached_ms
                );
            }
            if board.metric == Metric::Total {
                assert_eq!(
                    line.matches, e.matches,
                    "{board}: {}'s matches",
                    line.user_id
                );
            }
            if let Some(p) = previous {
                assert!(
                    p.score > line.score
                        || (p.score == line.score && p.reached_ms <= line.reached_ms),
                    "{board}: order (earlier first among equals): {} ({}, reached {}) before {} ({}, reached {})",
                    p.user_id,
                    p.score,
                    p.reached_ms,
                    line.user_id,
                    line.score,
                    line.reached_ms
                );
            }
            previous = Some(line);
        }
    }
    // Ranks from the tree, for every player on every board.
    let wanted: Vec<(&BoardId, &UserId, &Expected)> = brute
        .boards
        .iter()
        .flat_map(|(board, entries)| entries.iter().map(move |(user, e)| (board, user, e)))
        .collect();
    let found: Vec<_> = stream::iter(
        wanted
            .iter()
            .map(|(board, user, _)| t.db.boards().my_line(board, user)),
    )
    .buffered(16)
    .collect()
    .await;
    for ((board, user, e), found) in wanted.iter().zip(found) {
        let (line, total) = found
            .unwrap()
            .unwrap_or_else(|| panic!("{board}: {user} missing"));
        assert_eq!(
            (line.score, line.rank),
            (e.score, brute.rank(board, e.score)),
            "{board}: tree rank of {user}"
        );
        assert_eq!(total, brute.boards[*board].len() as u64, "{board}: total");
    }
    for user in players {
        let stats = t.db.boards().stats(user).await.unwrap();
        let (matches, wins, score) = brute.matches.get(user).copied().unwrap_or_default();
        assert_eq!(
            (stats.matches, stats.wins, stats.lifetime_score),
            (matches, wins, score),
            "{user}: lifetime counters"
        );
        assert_eq!(
            t.db.inventory().feathers(user).await.unwrap(),
            brute.feathers.get(user).copied().unwrap_or_default(),
            "{user}: feathers"
        );
        let bag: BTreeMap<String, u32> =
            t.db.inventory()
                .bag_cards(user)
                .await
                .unwrap()
                .into_iter()
                .map(|s| (s.thing.as_str().to_owned(), s.qty))
                .collect();
        assert_eq!(
            bag,
            brute.cards.get(user).cloned().unwrap_or_default(),
            "{user}: cards"
        );
    }
}

#[test]
fn the_oracle_knows_its_calendar() {
    // Monday 23 November 2026, noon UTC.
    let keys = |ms| -> Vec<String> { boards_of(ms, "K7QX2").iter().map(BoardId::key).collect() };
    assert_eq!(
        keys(1_795_435_200_000),
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
    // Sunday 22 November 2026, one ms before midnight: still week 47.
    assert_eq!(keys(1_795_391_999_999)[1], "best.week-2026-W47.global");
    // Friday 1 January 2027: week 53 of 2026, the first quarter of 2027.
    let new_year = keys(1_798_761_600_000);
    assert_eq!(new_year[0], "best.day-2027-01-01.global");
    assert_eq!(new_year[1], "best.week-2026-W53.global");
    assert_eq!(new_year[2], "best.season-2027-q1.global");
    // Monday 29 December 2025: week 1 of 2026; Monday 30 December 2024: week 1 of 2025.
    assert_eq!(keys(1_766_966_400_000)[1], "best.week-2026-W01.global");
    assert_eq!(keys(1_735_516_800_000)[0], "best.day-2024-12-30.global");
    assert_eq!(keys(1_735_516_800_000)[1], "best.week-2025-W01.global");
    assert_eq!(keys(1_735_516_800_000)[2], "best.season-2024-q4.global");
}
