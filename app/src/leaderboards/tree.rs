//! The counting tree that gives a board its exact rank: a trie over a value's base-100 digits,
//! stored as items in the board's own partition. Pure arithmetic here; the store reads and writes
//! the nodes.
//!
//! A board's values are mapped to `0..SPAN` ([`tree_value`]) and written as [`DEPTH`] base-100
//! digits, most significant first. The node at level `l` with prefix `p` (the value's first `l`
//! digits) holds, for each next digit `d`, how many entries have a value starting `p d`. So
//!
//! ```text
//! entries above v = Σ over levels l of Σ over digits d > digit_l(v) of node_l(prefix_l(v))[d]
//! ```
//!
//! and the rank of `v` (1 + entries strictly above) needs exactly the [`DEPTH`] nodes on `v`'s
//! path: one BatchGetItem, whatever the board's size. The root's counters add up to the board's
//! entry count. Walking down from the root, picking at each level the digit whose counters cover
//! the wanted position, finds the value at any rank in [`DEPTH`] reads.
//!
//! A value change from `a` to `b` writes only the nodes from the level where their digits first
//! differ: one node (two counters) when only the last digit changes, up to `2·DEPTH − 1` when
//! they differ at the top. Only a new entry (or a removed one) touches the root, so a board's
//! busiest node is written once per new player, not once per match.

use std::collections::BTreeMap;

/// Digits per node: a node holds up to 100 counters (`c00`…`c99`), under 1 KB, so writing one
/// costs one write unit.
pub const BASE: u64 = 100;
/// Levels of the tree: values are [`DEPTH`] base-100 digits.
pub const DEPTH: usize = 5;
/// How many distinct tree values there are: `BASE^DEPTH`.
pub const SPAN: u64 = 10_000_000_000;
/// Added to a score so that negative scores have a place: scores from `-OFFSET` to
/// `SPAN - OFFSET - 1` are exact; anything outside is clamped to the nearest end.
pub const OFFSET: i64 = 1_000_000_000;

/// The tree value of a score.
pub fn tree_value(score: i64) -> u64 {
    score.saturating_add(OFFSET).clamp(0, SPAN as i64 - 1) as u64
}

/// The score a tree value stands for.
pub fn score_of(value: u64) -> i64 {
    value as i64 - OFFSET
}

/// A node of the tree: its level (0 is the root) and the value's first `level` digits as a
/// number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId {
    pub level: u8,
    pub prefix: u64,
}

impl NodeId {
    pub const ROOT: NodeId = NodeId {
        level: 0,
        prefix: 0,
    };

    /// The child of this node reached by `digit`.
    pub fn child(self, digit: u8) -> NodeId {
        NodeId {
            level: self.level + 1,
            prefix: self.prefix * BASE + u64::from(digit),
        }
    }

    /// The prefix written as `2·level` decimal digits ("" for the root), as the sort key carries
    /// it.
    pub fn prefix_digits(self) -> String {
        if self.level == 0 {
            String::new()
        } else {
            format!(
                "{:0width$}",
                self.prefix,
                width = 2 * usize::from(self.level)
            )
        }
    }
}

/// The value's digit at `level` (0 is the most significant).
pub fn digit(value: u64, level: usize) -> u8 {
    ((value / BASE.pow((DEPTH - 1 - level) as u32)) % BASE) as u8
}

/// The nodes on a value's path, root first, with the digit the value takes at each.
pub fn path(value: u64) -> [(NodeId, u8); DEPTH] {
    let mut node = NodeId::ROOT;
    std::array::from_fn(|level| {
        let d = digit(value, level);
        let here = node;
        node = node.child(d);
        (here, d)
    })
}

/// One node's counters, by digit (absent digits count zero).
pub type Counts = BTreeMap<u8, i64>;

/// How many entries are strictly above `value`, given the nodes on its path (a missing node
/// counts zero everywhere).
pub fn count_above(value: u64, nodes: &impl Fn(NodeId) -> Option<Counts>) -> u64 {
    path(value)
        .into_iter()
        .map(|(node, d)| {
            nodes(node).map_or(0, |counts| {
                counts.range(d + 1..).map(|(_, c)| *c).sum::<i64>()
            })
        })
        .sum::<i64>()
        .max(0) as u64
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
/// `read` (which may fetch it). `None` when the board has fewer entries.
pub async fn locate<F, Fut, E>(position: u64, mut read: F) -> Result<Option<Located>, E>
where
    F: FnMut(NodeId) -> Fut,
    Fut: std::future::Future<Output = Result<Option<Counts>, E>>,
{
    if position == 0 {
        return Ok(None);
    }
    let mut node = NodeId::ROOT;
    let mut above = 0u64;
    for _ in 0..DEPTH {
        let counts = read(node).await?.unwrap_or_default();
        let Some((d, higher)) = pick(&counts, position - 1 - above) else {
            return Ok(None);
        };
        above += higher;
        node = node.child(d);
    }
    Ok(Some(Located {
        value: node.prefix,
        above,
    }))
}

#[cfg(test)]
mod tests;
