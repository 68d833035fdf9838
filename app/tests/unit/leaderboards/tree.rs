//! The unit tests of `app::leaderboards::tree`.

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use app::leaderboards::tree::*;

/// A board kept the slow way: every entry's value, and the tree's nodes as the deltas add up.
#[derive(Default)]
struct Model {
    values: BTreeMap<u32, u64>,
    nodes: Deltas,
}

impl Model {
    fn set(&mut self, who: u32, value: Option<u64>) {
        let old = self.values.get(&who).copied();
        let mut deltas = Deltas::new();
        add_transition(&mut deltas, old, value);
        for (node, counts) in deltas {
            let stored = self.nodes.entry(node).or_default();
            for (d, c) in counts {
                *stored.entry(d).or_default() += c;
            }
        }
        match value {
            Some(v) => self.values.insert(who, v),
            None => self.values.remove(&who),
        };
    }

    fn above(&self, value: u64) -> u64 {
        count_above(value, &|node| self.nodes.get(&node).cloned())
    }

    fn brute_above(&self, value: u64) -> u64 {
        self.values.values().filter(|v| **v > value).count() as u64
    }

    /// Values in display order: highest first.
    fn sorted(&self) -> Vec<u64> {
        let mut all: Vec<u64> = self.values.values().copied().collect();
        all.sort_unstable_by(|a, b| b.cmp(a));
        all
    }
}

#[test]
fn a_main_range_score_is_three_digits_and_an_outlier_escapes() {
    // 1234 points: 11,234 above LOW, so band 2, hundred 12, point 34.
    let p = path(tree_value(1234));
    assert_eq!(
        p,
        vec![
            (NodeId::Root, 2),
            (NodeId::Band(2), 12),
            (NodeId::Leaf(2, 12), 34)
        ]
    );
    assert_eq!(p[2].0.sort_key(), "N#2#0212");
    assert_eq!(NodeId::Root.sort_key(), "META");
    assert_eq!(NodeId::Root.counter(7), "r07");
    assert_eq!(NodeId::Band(3).counter(7), "c07");
    assert_eq!(path(tree_value(LOW))[0], (NodeId::Root, 1));
    assert_eq!(path(tree_value(HIGH - 1))[0], (NodeId::Root, 98));
    let high = path(tree_value(HIGH));
    assert_eq!(high.len(), 1 + ESCAPE_DEPTH);
    assert_eq!(high[0], (NodeId::Root, ESCAPE_HIGH));
    assert_eq!(high[1].0.sort_key(), "X#0#");
    let low = path(tree_value(LOW - 1));
    assert_eq!(low[0], (NodeId::Root, ESCAPE_LOW));
    assert_eq!(score_of(tree_value(1234)), 1234);
    assert_eq!(
        tree_value(-OFFSET - 5),
        0,
        "below the range clamps to the bottom"
    );
    assert_eq!(tree_value(i64::MAX), SPAN - 1);
}

#[test]
fn an_unchanged_value_writes_nothing_and_a_move_within_a_hundred_one_node() {
    let mut deltas = Deltas::new();
    add_transition(&mut deltas, Some(5), Some(5));
    assert!(deltas.is_empty());
    add_transition(&mut deltas, Some(tree_value(1201)), Some(tree_value(1234)));
    assert_eq!(deltas.len(), 1, "only the leaf changes: {deltas:?}");
    let mut within_band = Deltas::new();
    add_transition(
        &mut within_band,
        Some(tree_value(1200)),
        Some(tree_value(1534)),
    );
    assert_eq!(
        within_band.len(),
        3,
        "the band node and two leaves: {within_band:?}"
    );
    let mut new = Deltas::new();
    add_transition(&mut new, None, Some(tree_value(7)));
    assert_eq!(
        new.len(),
        3,
        "a new entry counts itself on each of the three levels"
    );
    assert_eq!(new[&NodeId::Root], Counts::from([(2, 1)]));
}

#[test]
fn ranks_from_the_tree_equal_a_count_of_every_entry_above() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut model = Model::default();
    for step in 0..20_000 {
        let who = rng.random_range(0..400u32);
        // Mostly small scores with many ties, some far apart, some removals.
        let value = match rng.random_range(0..10) {
            0 => None,
            1 => Some(rng.random_range(0..SPAN)),
            2 => Some(tree_value(HIGH + rng.random_range(-3..3) * 1000)),
            3 => Some(tree_value(LOW + rng.random_range(-3..3) * 1000)),
            _ => Some(tree_value(rng.random_range(-50..200) * 10)),
        };
        model.set(who, value);
        if step % 97 == 0 {
            for probe in model.values.values().copied().chain([
                0,
                SPAN - 1,
                tree_value(0),
                tree_value(LOW),
                tree_value(HIGH),
            ]) {
                assert_eq!(
                    model.above(probe),
                    model.brute_above(probe),
                    "value {probe}"
                );
            }
            let root = model.nodes.get(&NodeId::Root).cloned().unwrap_or_default();
            assert_eq!(total(&root), model.values.len() as u64);
        }
    }
}

#[test]
fn every_position_is_located_at_the_value_shown_there() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut model = Model::default();
    for who in 0..600u32 {
        let score = match rng.random_range(0..6) {
            0 => HIGH + rng.random_range(0..50) * 300,
            1 => LOW - rng.random_range(1..50) * 300,
            _ => rng.random_range(-20..300) * 7,
        };
        model.set(who, Some(tree_value(score)));
    }
    let sorted = model.sorted();
    for position in 1..=sorted.len() as u64 + 1 {
        let found = futures::executor::block_on(locate(position, |node| {
            let counts = model.nodes.get(&node).cloned();
            async move { Ok::<_, ()>(counts) }
        }))
        .unwrap();
        match sorted.get(position as usize - 1) {
            Some(value) => {
                let found = found.expect("a position on the board is found");
                assert_eq!(found.value, *value, "position {position}");
                assert_eq!(found.above, model.brute_above(*value));
            }
            None => assert_eq!(found, None, "past the last entry"),
        }
    }
    assert_eq!(
        futures::executor::block_on(locate(0, |_| async { Ok::<_, ()>(None) })).unwrap(),
        None
    );
}

#[test]
fn pick_skips_whole_digits_from_the_top() {
    let counts = Counts::from([(3, 2), (7, 1), (9, 4)]);
    assert_eq!(pick(&counts, 0), Some((9, 0)));
    assert_eq!(pick(&counts, 3), Some((9, 0)));
    assert_eq!(pick(&counts, 4), Some((7, 4)));
    assert_eq!(pick(&counts, 5), Some((3, 5)));
    assert_eq!(pick(&counts, 6), Some((3, 5)));
    assert_eq!(pick(&counts, 7), None);
}
