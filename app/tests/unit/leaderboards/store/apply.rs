//! The unit tests of `app::leaderboards::store::apply`.

use app::game::model::MatchRecord;
use app::identity::model::{Avatar, DisplayName, UserId};
use app::inventory::store::changes::Folded;
use app::leaderboards::model::{BoardId, Metric};
use app::leaderboards::plan::*;
use app::leaderboards::store::StatsItem;
use app::rooms::model::RoomCode;
use app::store::keys;

const NOON: i64 = 1_795_435_200_000;

fn user(n: u8) -> UserId {
    UserId::parse(&format!("01ARZ3NDEKTSV4RRFFQ69G5F{:02}", n)).unwrap()
}

fn result(who: u8, record: &str, score: i32, at: i64) -> MatchRecord {
    MatchRecord {
        record_id: record.into(),
        user_id: user(who),
        nickname: DisplayName::parse("Asha").unwrap(),
        avatar: Avatar::Crow,
        room: RoomCode::parse("K7QX2").unwrap(),
        room_id: None,
        score,
        placement: 1,
        correct: 3,
        rounds: 5,
        finished_at_ms: at,
        players: 2,
        right: vec![
            app::ids::ThingId::parse("crow").unwrap(),
            app::ids::ThingId::parse("sparrow").unwrap(),
        ],
        best_streak: 3,
        average_reaction_ms: None,
        first_round: 0,
        daily: None,
        deck: None,
        flagged: false,
    }
}

fn entries(plan: &Plan, metric: Metric) -> Vec<(String, i64, u64)> {
    let mut all: Vec<_> = plan
        .entries
        .iter()
        .filter(|(board, _, _)| board.metric == metric)
        .map(|(board, _, new)| (board.key(), new.score, new.matches))
        .collect();
    all.sort();
    all
}

/// What a store would hold after `plan` was written (entries only, with their versions).
fn written(plan: &Plan) -> Read {
    let mut read = Read::default();
    for (board, _, new) in &plan.entries {
        read.entries
            .insert(keys::board_entry(board, &new.user_id), new.clone());
    }
    read
}

#[test]
fn a_first_result_puts_the_player_on_eleven_boards_and_counts_them_once() {
    let plan = plan(&[result(1, "A", 900, NOON)], &[], &Read::default(), NOON);
    assert_eq!(entries(&plan, Metric::Best).len(), 8);
    assert_eq!(
        entries(&plan, Metric::Total),
        vec![
            ("total.all.global".into(), 900, 1),
            ("total.season-2026-q4.global".into(), 900, 1),
            ("total.week-2026-W48.global".into(), 900, 1),
        ]
    );
    assert!(
        plan.entries
            .iter()
            .all(|(_, old, new)| old.is_none() && new.ps.is_none() && new.tv == Some(2)),
        "new entries: the tree counted none of them"
    );
    assert_eq!(plan.stats.len(), 1);
    assert_eq!(plan.stats[0].2.matches, 1);
    assert_eq!(plan.markers.len(), 1);
    assert_eq!(plan.wallets.len(), 1);
    assert_eq!(plan.stacks.len(), 2, "two cards, one write each");
    // 11 entries, counters, wallet, two stacks, the first-win badge, the marker.
    assert_eq!(plan.writes(), 11 + 1 + 1 + 2 + 1 + 1);
}

#[test]
fn a_counted_result_changes_nothing_and_a_lower_score_no_best() {
    let first = result(1, "A", 900, NOON);
    let mut read = written(&plan(
        std::slice::from_ref(&first),
        &[],
        &Read::default(),
        NOON,
    ));
    read.counted
        .insert(keys::counted_match(&first.user_id, "A"));
    // The same result again: nothing at all.
    assert_eq!(
        plan(std::slice::from_ref(&first), &[], &read, NOON),
        Plan::default()
    );
    // A new, lower result: totals grow, bests stay.
    let lower = result(1, "B", 100, NOON + 1);
    let next = plan(&[first, lower], &[], &read, NOON);
    assert!(entries(&next, Metric::Best).is_empty());
    assert_eq!(
        entries(&next, Metric::Total)[0],
        ("total.all.global".into(), 1000, 2)
    );
    for (_, old, new) in &next.entries {
        assert_eq!(new.v, 2, "each write bumps the version read");
        assert_eq!(
            new.ps,
            old.as_ref().map(|o| o.score),
            "ps: what the tree counted"
        );
    }
}

#[test]
fn a_result_an_item_remembers_is_not_added_again_when_its_marker_is_missing() {
    // A crash after the writes and before the marker: the slice comes again.
    let first = result(1, "A", 900, NOON);
    let done = plan(std::slice::from_ref(&first), &[], &Read::default(), NOON);
    let mut read = written(&done);
    let (user, _, _, stats_after) = &done.stats[0];
    read.stats.insert(
        user.clone(),
        StatsItem {
            v: Some(1),
            ..stats_after.clone()
        },
    );
    let (_, _, wallet_before, records) = &done.wallets[0];
    read.folded.insert(
        keys::wallet(user),
        Folded {
            n: Some(wallet_before.n.unwrap_or(0) + 1),
            records: records.clone(),
        },
    );
    let again = plan(std::slice::from_ref(&first), &[], &read, NOON);
    assert!(again.entries.is_empty(), "{:?}", again.entries);
    assert!(again.stats.is_empty() && again.wallets.is_empty());
    assert_eq!(
        again.stacks.len(),
        2,
        "the stacks were never written: they still are"
    );
    assert_eq!(again.markers.len(), 1, "and the marker retires the record");
}

#[test]
fn results_fold_in_time_order_whatever_order_they_come_in() {
    let a = result(1, "A", 500, NOON);
    let b = result(1, "B", 500, NOON + 5_000);
    let plan = plan(&[b, a], &[], &Read::default(), NOON);
    let best: Vec<_> = plan
        .entries
        .iter()
        .filter(|e| e.0.key() == "best.all.global")
        .collect();
    assert_eq!(best.len(), 1);
    assert_eq!(
        best[0].2.reached_ms, NOON,
        "an equal score later keeps the earlier time"
    );
    let total = plan
        .entries
        .iter()
        .find(|e| e.0.key() == "total.all.global")
        .unwrap();
    assert_eq!(
        total.2.rs,
        ["A", "B"],
        "a total remembers what it added, in order"
    );
}

#[test]
fn an_item_remembers_only_the_last_few_records() {
    let results: Vec<MatchRecord> = (0..PER_PLAYER as u8 + 3)
        .map(|i| result(1, &format!("R{i:02}"), 10, NOON + i64::from(i)))
        .collect();
    let plan = plan(&results, &[], &Read::default(), NOON);
    let total = plan
        .entries
        .iter()
        .find(|e| e.0.key() == "total.all.global")
        .unwrap();
    assert_eq!(total.2.matches, PER_PLAYER as u64 + 3);
    assert_eq!(total.2.rs.len(), REMEMBERED);
    assert_eq!(
        total.2.rs.last().unwrap(),
        &format!("R{:02}", PER_PLAYER + 2)
    );
}

#[test]
fn closed_boards_past_their_grace_are_left_alone() {
    let old = result(1, "A", 500, NOON);
    let much_later = NOON + 30 * 86_400_000;
    let keys: Vec<String> = live_boards(&old, &[], much_later)
        .iter()
        .map(BoardId::key)
        .collect();
    assert!(
        keys.iter()
            .all(|k| !k.contains("day-") && !k.contains("week-")),
        "{keys:?}"
    );
    assert!(keys.contains(&"total.all.global".to_owned()));
}

#[test]
fn a_slice_keeps_a_player_within_what_their_items_remember() {
    let results: Vec<MatchRecord> = (0..30u8)
        .map(|i| result(i % 2, &format!("R{i:02}"), 10, NOON))
        .collect();
    for slice in slices(&results) {
        assert!(slice.len() <= SLICE);
        for who in [user(0), user(1)] {
            assert!(slice.iter().filter(|r| r.user_id == who).count() <= REMEMBERED);
        }
    }
}
