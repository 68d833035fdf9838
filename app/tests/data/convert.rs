//! Boards written before the present counting tree, converted: a table holding the first
//! tree's layout (five base-100 levels at `T#…`, the root's `c00`… counters and closing keys on
//! `META`, every entry on GSI1, lifetime counters without recent rooms) is built here item by
//! item as the old code wrote it, then converted, and every board must read as a brute-force
//! count says: lines, ranks from the tree, entry counts, a player's list of boards, the closer's
//! list. Then a new match counts on the converted boards as on any other.

use std::collections::BTreeMap;

use app::game::model::MatchRecord;
use app::game::store::resolve::match_record_item;
use app::identity::{Avatar, UserId};
use app::leaderboards::period::week_of;
use app::leaderboards::projector::Projector;
use app::leaderboards::store::lines::Start;
use app::leaderboards::{BoardId, Metric, Period, Scope};
use app::rooms::{RoomCode, RoomId};
use app::store::{epoch_millis, Item};
use aws_sdk_dynamodb::types::AttributeValue;

use super::{name, test_table, TestTable};

fn s(v: impl Into<String>) -> AttributeValue {
    AttributeValue::S(v.into())
}

fn n(v: impl ToString) -> AttributeValue {
    AttributeValue::N(v.to_string())
}

/// The first tree's value of a score and the node keys and digits on its path.
fn old_path(score: i64) -> Vec<(String, u8)> {
    let value = (score + 1_000_000_000).clamp(0, 9_999_999_999) as u64;
    let digit = |level: u32| ((value / 100u64.pow(4 - level)) % 100) as u8;
    (0..5u32)
        .map(|level| {
            let prefix = value / 100u64.pow(5 - level);
            let sk = if level == 0 {
                "META".to_owned()
            } else {
                format!("T#{level}#{prefix:0width$}", width = 2 * level as usize)
            };
            (sk, digit(level))
        })
        .collect()
}

/// Writes `players` (id, score, reached) as the old projector left board `board`.
async fn old_board(
    t: &TestTable,
    board: &BoardId,
    players: &[(UserId, i64, i64)],
    ends: Option<(&str, i64)>,
) {
    let pk = format!("LB#{}", board.key());
    let mut nodes: BTreeMap<String, BTreeMap<u8, i64>> = BTreeMap::new();
    let mut items: Vec<Item> = Vec::new();
    for (user, score, reached) in players {
        for (sk, d) in old_path(*score) {
            *nodes.entry(sk).or_default().entry(d).or_default() += 1;
        }
        let value = (score + 1_000_000_000) as u64;
        let inverted = 9_999_999_999_999 - reached;
        items.push(Item::from([
            ("PK".into(), s(&pk)),
            ("SK".into(), s(format!("E#{}", user.as_str()))),
            (
                "LSI1SK".into(),
                s(format!("R#{value:010}#{inverted:013}#{}", user.as_str())),
            ),
            ("GSI1PK".into(), s(format!("USER#{}", user.as_str()))),
            ("GSI1SK".into(), s(format!("LB#{}", board.key()))),
            ("board".into(), s(board.key())),
            ("user_id".into(), s(user.as_str())),
            ("nickname".into(), s("Old")),
            ("avatar".into(), s("owl")),
            ("score".into(), n(score)),
            ("reached_ms".into(), n(reached)),
            (
                "matches".into(),
                n(u64::from(board.metric == Metric::Total)),
            ),
            ("v".into(), n(1)),
        ]));
    }
    for (sk, counts) in nodes {
        let mut item = Item::from([
            ("PK".into(), s(&pk)),
            ("SK".into(), s(&sk)),
            ("board".into(), s(board.key())),
        ]);
        for (d, c) in counts {
            item.insert(format!("c{d:02}"), n(c));
        }
        if sk == "META" {
            item.insert("name".into(), s("old name"));
            if let Some((day, end)) = ends {
                item.insert("GSI2PK".into(), s(format!("BOARDS#ENDS#{day}")));
                item.insert("GSI2SK".into(), s(board.key()));
                item.insert("end_ms".into(), n(end));
            }
        }
        items.push(item);
    }
    for item in items {
        t.engine
            .client
            .put_item()
            .table_name(t.db.table_name())
            .set_item(Some(item))
            .send()
            .await
            .unwrap();
    }
}

/// Every board's lines, ranks and count against the scores it holds.
async fn check_board(t: &TestTable, board: &BoardId, players: &[(UserId, i64, i64)]) {
    let page =
        t.db.boards()
            .board_lines(board, Start::Top, 100)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(page.lines.len(), players.len(), "{board}");
    assert_eq!(
        t.db.boards().board_entries(board).await.unwrap(),
        players.len() as u64,
        "{board}: root"
    );
    for line in &page.lines {
        let above = players.iter().filter(|p| p.1 > line.score).count() as u64;
        assert_eq!(line.rank, above + 1, "{board}: {}", line.user_id);
        let (mine, total) =
            t.db.boards()
                .my_line(board, &line.user_id)
                .await
                .unwrap()
                .unwrap();
        assert_eq!(
            (mine.rank, total),
            (above + 1, players.len() as u64),
            "{board}: tree rank"
        );
    }
}

#[tokio::test]
async fn old_boards_are_converted_and_count_on() {
    let t = test_table().await;
    let now = epoch_millis();
    let code = RoomCode::parse("CNVRT").unwrap();
    let room = RoomId::legacy(&code);
    let players: Vec<(UserId, i64, i64)> = (0..40)
        .map(|i| {
            // Ties, negatives, an outlier far past the main range.
            let score = match i {
                0 => 1_500_000,
                1 => -20_000,
                _ => (i % 9) * 700 - 1_000,
            };
            (UserId::generate(), score, now - 10_000 + i)
        })
        .collect();
    let all_time = BoardId::all_time_best();
    let room_board = BoardId::room_best(&room);
    let week = BoardId {
        metric: Metric::Best,
        period: week_of(now),
        scope: Scope::Global,
    };
    let Period::Week { .. } = &week.period else {
        panic!("a week")
    };
    let (_, week_end) = app::leaderboards::period::bounds(&week.period, &[])
        .unwrap()
        .unwrap();
    let end_day = app::leaderboards::period::day_of(week_end);
    old_board(&t, &all_time, &players, None).await;
    old_board(&t, &room_board, &players[..25], None).await;
    old_board(&t, &week, &players, Some((&end_day.to_string(), week_end))).await;

    let converted = t.db.boards().convert_boards().await.unwrap();
    assert_eq!(converted.boards, 3);
    assert_eq!(converted.entries, 40 + 25 + 40);
    assert!(converted.old_nodes > 3 * 4, "{converted:?}");
    assert_eq!(
        t.db.boards().convert_boards().await.unwrap().boards,
        0,
        "once per table"
    );

    for (board, on) in [
        (&all_time, &players[..]),
        (&room_board, &players[..25]),
        (&week, &players[..]),
    ] {
        check_board(&t, board, on).await;
        let items = t.partition(&format!("LB#{}", board.key())).await;
        for item in &items {
            let sk = item["SK"].as_s().unwrap();
            assert!(
                !sk.starts_with("T#"),
                "{board}: the first tree is gone ({sk})"
            );
            assert!(!item.contains_key("GSI1PK"), "{board}: {sk} is off GSI1");
            if sk == "META" {
                assert!(
                    !item.contains_key("GSI2PK"),
                    "{board}: the root is off GSI2"
                );
                assert!(
                    !item.keys().any(|k| k.starts_with('c')),
                    "{board}: old counters gone"
                );
            }
        }
        let ends = items.iter().any(|i| i["SK"].as_s().unwrap() == "ENDS");
        assert_eq!(
            ends,
            board == &week,
            "{board}: only a board that closes is listed to close"
        );
    }
    // A player's boards come from their counters now: the rooms were filled in.
    let mine = t.db.boards().my_boards(&players[3].0, 20).await.unwrap();
    let listed: Vec<String> = mine.iter().map(|b| b.board.key()).collect();
    for board in [&all_time, &room_board, &week] {
        assert!(listed.contains(&board.key()), "{listed:?} lacks {board}");
    }

    // A new match of a converted player counts on the converted trees.
    let (who, old_score, _) = players[5].clone();
    let record = MatchRecord {
        record_id: ulid::Ulid::new().to_string(),
        user_id: who.clone(),
        nickname: name("Old"),
        avatar: Avatar::Owl,
        room: code.clone(),
        room_id: None,
        score: 9_999,
        placement: 1,
        players: 2,
        correct: 3,
        rounds: 5,
        average_reaction_ms: Some(400),
        finished_at_ms: now,
        right: Vec::new(),
        best_streak: 3,
        first_round: 1,
        daily: None,
        deck: None,
        flagged: false,
    };
    assert!(old_score < 9_999);
    t.engine
        .client
        .put_item()
        .table_name(t.db.table_name())
        .set_item(Some(match_record_item(&record).unwrap()))
        .send()
        .await
        .unwrap();
    let mut projector = Projector::new(t.db.clone(), t.engine.streams.clone());
    projector.catch_up().await.unwrap();
    let mut after = players.clone();
    after[5].1 = 9_999;
    check_board(&t, &all_time, &after).await;
    check_board(&t, &room_board, &after[..25]).await;
    check_board(&t, &week, &after).await;
}
