//! The counting tree that gives a board its exact rank, stored as items in the board's own
//! partition. Pure arithmetic here; the store reads the nodes and the projector writes them.
//!
//! **Shape.** Every level carries information at the scores that occur. A score in the main
//! range ([`LOW`] ≤ score < [`HIGH`], about a thousand full matches) is three digits: its band of
//! [`BAND`] points (the root's digit, 1–98), its hundred within the band (a band node's digit)
//! and its point within the hundred (a leaf's digit):
//!
//! ```text
//! root  META       r01 … r98  one counter per band of 10,000 points, r00 below LOW, r99 at or above HIGH
//! band  N#1#<b>    c00 … c99  one counter per 100 points of band b
//! leaf  N#2#<b><h> c00 … c99  one counter per point
//! ```
//!
//! Entries above a score = the root's counters above its band + the band node's above its
//! hundred + the leaf's above its point: **three items**, one BatchGetItem, at any board size;
//! the root's counters add up to the board's entry count, so the same read gives the percentile.
//! A score outside the main range (a week of negative matches, a lifetime total past 970,000)
//! escapes: the root counts it under `r00` or `r99` and an escape tree (`X#<level>#<prefix>`,
//! five base-100 digits of `score + 10⁹`, as the first tree had) orders the escaped scores among
//! themselves, so an outlier's rank reads six items and everyone else's three.
//!
//! **Writes.** A move from score `a` to `b` writes the nodes whose counters change: the leaf
//! alone when both are in the same hundred, the band node and two leaves within a band, the root
//! too across bands. The projector adds up every change of a batch (all players, all matches)
//! before it writes, so a node is written once per batch however many entries moved under it.

use std::collections::BTreeMap;

/// Counters per node: up to 100 (`c00`…`c99`), under 1 KB, so writing one costs one write unit.
pub const BASE: u64 = 100;
/// Points per band (per root digit).
pub const BAND: i64 = 10_000;
/// The lowest score in the main range: scores below escape (root digit 0).
pub const LOW: i64 = -BAND;
/// The first score past the main range: scores from here escape (root digit 99).
pub const HIGH: i64 = LOW + 98 * BAND;
/// Levels of the escape tree.
pub const ESCAPE_DEPTH: usize = 5;
/// How many distinct values the escape tree (and the rank order on the LSI) tells apart.
pub const SPAN: u64 = 10_000_000_000;
/// Added to a score for its rank value: scores from `-OFFSET` to `SPAN - OFFSET - 1` are exact;
/// anything outside is clamped to the nearest end.
pub const OFFSET: i64 = 1_000_000_000;

/// The rank value of a score: what the LSI orders entries by and the escape tree counts.
pub fn tree_value(score: i64) -> u64 {
    score.saturating_add(OFFSET).clamp(0, SPAN as i64 - 1) as u64
}

/// The score a rank value stands for.
pub fn score_of(value: u64) -> i64 {
    value as i64 - OFFSET
}

/// A node of a board's tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NodeId {
    /// The root (`META`): one counter per band, and the escapes.
    Root,
    /// A band of [`BAND`] points: one counter per hundred.
    Band(u8),
    /// A hundred points of a band: one counter per point.
    Leaf(u8, u8),
    /// A node of the escape tree: its level (0 is its root) and the value's first `level`
    /// base-100 digits.
    Escape { level: u8, prefix: u64 },
}

impl NodeId {
    /// The node's sort key in the board's partition.
    pub fn sort_key(self) -> String {
        match self {
            NodeId::Root => crate::store::keys::BOARD_META.to_owned(),
            NodeId::Band(b) => crate::store::keys::tree_band(b),
            NodeId::Leaf(b, h) => crate::store::keys::tree_leaf(b, h),
            NodeId::Escape { level, prefix } => crate::store::keys::tree_escape(level, prefix),
        }
    }

    /// The attribute name of the counter for `digit` (the root's are `r00`…, the others'
    /// `c00`…: a root from the first tree, whose counters were `c00`…, is told apart).
    pub fn counter(self, digit: u8) -> String {
        match self {
            NodeId::Root => format!("r{digit:02}"),
            _ => format!("c{digit:02}"),
        }
    }

    /// The prefix of this node's counter names.
    pub fn counter_prefix(self) -> char {
        match self {
            NodeId::Root => 'r',
            _ => 'c',
        }
    }
}

/// The root's digit for escapes below [`LOW`].
pub const ESCAPE_LOW: u8 = 0;
/// The root's digit for escapes at or above [`HIGH`].
pub const ESCAPE_HIGH: u8 = 99;

/// Where a value sits in the tree: each node on its path and the digit it takes there.
pub fn path(value: u64) -> Vec<(NodeId, u8)> {
    let score = score_of(value);
    if (LOW..HIGH).contains(&score) {
        let v = (score - LOW) as u64;
        let band = 1 + (v / BAND as u64) as u8;
        let hundred = ((v / BASE) % BASE) as u8;
        let point = (v % BASE) as u8;
        return vec![
            (NodeId::Root, band),
            (NodeId::Band(band), hundred),
            (NodeId::Leaf(band, hundred), point),
        ];
    }
    let escape = if score < LOW { ESCAPE_LOW } else { ESCAPE_HIGH };
    let mut nodes = vec![(NodeId::Root, escape)];
    let mut prefix = 0u64;
    for level in 0..ESCAPE_DEPTH {
        let d = escape_digit(value, level);
        nodes.push((
            NodeId::Escape {
                level: level as u8,
                prefix,
            },
            d,
        ));
        prefix = prefix * BASE + u64::from(d);
    }
    nodes
}

/// The value's base-100 digit at escape level `level` (0 is the most significant).
fn escape_digit(value: u64, level: usize) -> u8 {
    ((value / BASE.pow((ESCAPE_DEPTH - 1 - level) as u32)) % BASE) as u8
}

/// One node's counters, by digit (absent digits count zero).
pub type Counts = BTreeMap<u8, i64>;

fn above(counts: &Counts, digit: u8) -> i64 {
    counts.range(digit + 1..).map(|(_, c)| *c).sum()
}

/// How many entries are strictly above `value`, given the nodes on its path (a missing node
/// counts zero everywhere).
pub fn count_above(value: u64, nodes: &impl Fn(NodeId) -> Option<Counts>) -> u64 {
    let path = path(value);
    let get = |node: NodeId| nodes(node).unwrap_or_default();
    let count: i64 = match path[0].1 {
        ESCAPE_LOW => {
            // Every score in the main range is above, and the escape tree orders the rest
            // (the high escapes are at its top).
            let root = get(NodeId::Root);
            let main: i64 = root.range(1..ESCAPE_HIGH).map(|(_, c)| *c).sum();
            main + path[1..]
                .iter()
                .map(|(node, d)| above(&get(*node), *d))
                .sum::<i64>()
        }
        ESCAPE_HIGH => path[1..]
            .iter()
            .map(|(node, d)| above(&get(*node), *d))
            .sum(),
        _ => path.iter().map(|(node, d)| above(&get(*node), *d)).sum(),
    };
    count.max(0) as u64
}

/// The board's entry count: the root's counters added up.
pub fn total(root: &Counts) -> u64 {
    root.values().sum::<i64>().max(0) as u64
}

/// Counter changes, node by node: what writing a batch of value changes adds to each node.
pub type Deltas = BTreeMap<NodeId, Counts>;

/// Adds to `deltas` what moving one entry from `old` to `new` changes (`None`: no entry). Changes
/// that cancel out are dropped, so an unchanged path writes nothing.
pub fn add_transition(deltas: &mut Deltas, old: Option<u64>, new: Option<u64>) {
    if old == new {
        return;
    }
    for (value, sign) in [(old, -1), (new, 1)] {
        let Some(value) = value else { continue };
        for (node, d) in path(value) {
            let counts = deltas.entry(node).or_default();
            let counter = counts.entry(d).or_default();
            *counter += sign;
            if *counter == 0 {
                counts.remove(&d);
            }
            if counts.is_empty() {
                deltas.remove(&node);
            }
        }
    }
}

/// At one node on the way down to a position: the digit to follow and how many entries the
/// node's higher digits hold. `skip` is how many of this node's entries come before the wanted
/// one (0: the node's first). `None` when the node holds `skip` entries or fewer.
pub fn pick(counts: &Counts, skip: u64) -> Option<(u8, u64)> {
    let mut above = 0u64;
    for (d, c) in counts.iter().rev() {
        let c = (*c).max(0) as u64;
        if skip < above + c {
            return Some((*d, above));
        }
        above += c;
    }
    None
}

/// Where the entry at a 1-based display position sits: its value, and how many entries have a
/// higher value (so it is the `position - above`-th of the entries with that value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Located {
    pub value: u64,
    pub above: u64,
}

/// Walks from the root to the value at `position` (1-based), reading one node per level through
/// `read` (which may fetch it): three reads in the main range. `None` when the board has fewer
/// entries.
pub async fn locate<F, Fut, E>(position: u64, mut read: F) -> Result<Option<Located>, E>
where
    F: FnMut(NodeId) -> Fut,
    Fut: std::future::Future<Output = Result<Option<Counts>, E>>,
{
    if position == 0 {
        return Ok(None);
    }
    let root = read(NodeId::Root).await?.unwrap_or_default();
    let Some((band, mut above)) = pick(&root, position - 1) else {
        return Ok(None);
    };
    if band != ESCAPE_LOW && band != ESCAPE_HIGH {
        let mut node = NodeId::Band(band);
        let mut digits = [band, 0, 0];
        for digit in digits.iter_mut().skip(1) {
            let counts = read(node).await?.unwrap_or_default();
            let Some((d, higher)) = pick(&counts, position - 1 - above) else {
                return Ok(None);
            };
            above += higher;
            *digit = d;
            node = NodeId::Leaf(band, d);
        }
        let v = (u64::from(digits[0]) - 1) * BAND as u64
            + u64::from(digits[1]) * BASE
            + u64::from(digits[2]);
        return Ok(Some(Located {
            value: tree_value(v as i64 + LOW),
            above,
        }));
    }
    // In the escape tree the high escapes come first; a low one is found past them all, and
    // past the whole main range, which the root's counters above it already count.
    let highs = root.get(&ESCAPE_HIGH).copied().unwrap_or(0).max(0) as u64;
    let escaped_above = if band == ESCAPE_HIGH { 0 } else { highs };
    let mut skip_in = position - 1 - above + escaped_above;
    let mut prefix = 0u64;
    for level in 0..ESCAPE_DEPTH {
        let node = NodeId::Escape {
            level: level as u8,
            prefix,
        };
        let counts = read(node).await?.unwrap_or_default();
        let Some((d, higher)) = pick(&counts, skip_in) else {
            return Ok(None);
        };
        skip_in -= higher;
        above += higher;
        prefix = prefix * BASE + u64::from(d);
    }
    Ok(Some(Located {
        value: prefix,
        above: above - escaped_above,
    }))
}
