use super::*;
use crate::identity::model::{Avatar, DisplayName};
use crate::rooms::model::RoomCode;

const NOON: i64 = 1_795_435_200_000;

fn user(n: u8) -> UserId {
    UserId::parse(&format!("01ARZ3NDEKTSV4RRFFQ69G5F{:02}", n)).unwrap()
}

fn result(who: u8, record: &str, score: i32, at: i64) -> MatchResult {
    MatchResult {
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
        right: Vec::new(),
        best_streak: 3,
    }
}

fn entries(units: &[Unit], metric: Metric) -> Vec<(String, i64, u64)> {
    let mut all: Vec<_> = units
        .iter()
        .flat_map(|u| &u.entries)
        .filter(|(board, _, _)| board.metric == metric)
        .map(|(board, _, new)| (board.key(), new.score, new.matches))
        .collect();
    all.sort();
    all
}

#[test]
fn a_first_result_puts_the_player_on_eleven_boards_and_counts_them_once() {
    let units = plan(
        &[result(1, "A", 900, NOON)],
        &[],
        &BTreeSet::new(),
        &BTreeMap::new(),
        NOON,
    );
    assert_eq!(entries(&units, Metric::Best).len(), 8);
    assert_eq!(
        entries(&units, Metric::Total),
        vec![
            ("total.all.global".into(), 900, 1),
            ("total.season-2026-q4.global".into(), 900, 1),
            ("total.week-2026-W48.global".into(), 900, 1),
        ]
    );
    let totals: Vec<&Unit> = units.iter().filter(|u| !u.markers.is_empty()).collect();
    assert_eq!(
        totals.len(),
        1,
        "the markers, totals and stats are one unit"
    );
    assert_eq!(totals[0].entries.len(), 3);
    assert_eq!(totals[0].stats.as_ref().unwrap().1.matches, 1);
}

#[test]
fn a_counted_result_changes_no_total_and_a_lower_score_no_best() {
    let first = result(1, "A", 900, NOON);
    let counted = BTreeSet::from([keys::counted_match(&first.user_id, "A")]);
    let mut read = BTreeMap::new();
    for board in boards_for(NOON, &first.room_id(), &[]) {
        let key = keys::board_entry(&board, &first.user_id);
        read.insert(
            key,
            EntryItem {
                board: board.key(),
                user_id: first.user_id.clone(),
                nickname: first.nickname.clone(),
                avatar: first.avatar,
                score: 900,
                reached_ms: NOON,
                matches: 1,
                v: 1,
            },
        );
    }
    // The same result again: nothing.
    assert!(plan(std::slice::from_ref(&first), &[], &counted, &read, NOON).is_empty());
    // A new, lower result: totals grow, bests stay.
    let lower = result(1, "B", 100, NOON + 1);
    let units = plan(&[first, lower], &[], &counted, &read, NOON);
    assert!(entries(&units, Metric::Best).is_empty());
    assert_eq!(
        entries(&units, Metric::Total)[0],
        ("total.all.global".into(), 1000, 2)
    );
    let versions: Vec<u64> = units
        .iter()
        .flat_map(|u| &u.entries)
        .map(|e| e.2.v)
        .collect();
    assert!(
        versions.iter().all(|v| *v == 2),
        "each write bumps the version read"
    );
}

#[test]
fn results_fold_in_time_order_whatever_order_they_come_in() {
    let a = result(1, "A", 500, NOON);
    let b = result(1, "B", 500, NOON + 5_000);
    let units = plan(&[b, a], &[], &BTreeSet::new(), &BTreeMap::new(), NOON);
    let best: Vec<_> = units
        .iter()
        .flat_map(|u| &u.entries)
        .filter(|e| e.0.key() == "best.all.global")
        .collect();
    assert_eq!(best.len(), 1);
    assert_eq!(
        best[0].2.reached_ms, NOON,
        "an equal score later keeps the earlier time"
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
fn transactions_stay_within_one_hundred_actions() {
    let results: Vec<MatchResult> = (0..SLICE as u8)
        .map(|i| result(i, &format!("R{i}"), 100 + i32::from(i) * 1_000_003, NOON))
        .collect();
    let units = plan(&results, &[], &BTreeSet::new(), &BTreeMap::new(), NOON);
    let batches = pack(units);
    assert!(
        batches.len() > 1,
        "forty new players do not fit one transaction"
    );
    for batch in &batches {
        let nodes: BTreeSet<_> = batch.iter().flat_map(Unit::nodes).collect();
        let actions: usize = 1 + batch.iter().map(Unit::actions).sum::<usize>() + nodes.len();
        assert!(actions <= MAX_ACTIONS, "{actions} actions");
    }
    let written: usize = batches.iter().flatten().map(|u| u.entries.len()).sum();
    assert_eq!(written, SLICE * 11);
}
