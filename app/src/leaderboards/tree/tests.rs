use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;

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
fn digits_and_paths_spell_the_value() {
    let v = tree_value(1234);
    assert_eq!(v, 1_000_001_234);
    assert_eq!(
        (0..DEPTH).map(|l| digit(v, l)).collect::<Vec<_>>(),
        vec![10, 0, 0, 12, 34]
    );
    let p = path(v);
    assert_eq!(p[0], (NodeId::ROOT, 10));
    assert_eq!(p[4].0.prefix_digits(), "10000012");
    assert_eq!(score_of(v), 1234);
    assert_eq!(
        tree_value(-OFFSET - 5),
        0,
        "below the range clamps to the bottom"
    );
    assert_eq!(tree_value(i64::MAX), SPAN - 1);
    assert_eq!(tree_value(-300), 999_999_700);
}

#[test]
fn an_unchanged_value_writes_nothing_and_a_last_digit_change_one_node() {
    let mut deltas = Deltas::new();
    add_transition(&mut deltas, Some(5), Some(5));
    assert!(deltas.is_empty());
    add_transition(&mut deltas, Some(tree_value(1200)), Some(tree_value(1234)));
    assert_eq!(deltas.len(), 1, "only the leaf node changes: {deltas:?}");
    let mut new = Deltas::new();
    add_transition(&mut new, None, Some(tree_value(7)));
    assert_eq!(new.len(), DEPTH, "a new entry counts itself on every level");
    assert_eq!(new[&NodeId::ROOT], Counts::from([(10, 1)]));
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
            _ => Some(tree_value(rng.random_range(-50..200) * 10)),
        };
        model.set(who, value);
        if step % 97 == 0 {
            for probe in model
                .values
                .values()
                .copied()
                .chain([0, SPAN - 1, tree_value(0)])
            {
                assert_eq!(
                    model.above(probe),
                    model.brute_above(probe),
                    "value {probe}"
                );
            }
            let root = model.nodes.get(&NodeId::ROOT).cloned().unwrap_or_default();
            assert_eq!(total(&root), model.values.len() as u64);
        }
    }
}

#[test]
fn every_position_is_located_at_the_value_shown_there() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut model = Model::default();
    for who in 0..600u32 {
        model.set(who, Some(tree_value(rng.random_range(-20..300) * 7)));
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
