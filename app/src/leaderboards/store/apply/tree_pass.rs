//! Moving entries in their boards' trees, from the entry writes the projector reads back from
//! the table's stream.
//!
//! Every entry the projector writes carries the score the tree counted it at (`ps`, none for a
//! new entry) and `tv = 2`; its stream record is a move from `ps` to `score`. A board's entries
//! all live in the board's partition, so their records are in one shard, in order, read by one
//! holder at a time: each node is written by one writer, once per batch, with the counter
//! changes of every entry that moved under it in the batch (all players, all matches).
//!
//! **Exactly once.** A node keeps `sq`, the stream sequence number of the last record it
//! counted. A batch's write of a node adds the changes of its records and sets `sq` to the
//! last, on condition that the node counted none of them (`sq` below the first). Refused, the
//! node counted some already (a crashed holder's partial batch, a lost answer): it is read, and
//! only the records after its `sq` are added, on condition that `sq` is still what was read.

use crate::leaderboards::store::Boards;
use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::ReturnValue;
use futures::stream::{self, StreamExt, TryStreamExt};

use crate::leaderboards::model::BoardId;
use crate::leaderboards::period::{board_name, bounds, Season};
use crate::leaderboards::plan::expiry;
use crate::leaderboards::store::archive::closing_keys;
use crate::leaderboards::store::node_key;
use crate::leaderboards::tree::{self, Counts, Deltas, NodeId};
use crate::store::expr::{attr, Cond, Expr, Expressions, Update};
use crate::store::keys;
use crate::store::retry::{holds, Written};
use crate::store::tx::{n, s};
use crate::store::{key_map, Conflict, DataError, Item};

/// Node writes sent at once.
const IN_FLIGHT: usize = 16;

/// One entry's move, as its stream record tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryMove {
    pub board: BoardId,
    /// The record's sequence number, zero-padded to [`SEQ_WIDTH`] digits so that it sorts.
    pub seq: String,
    pub from: Option<i64>,
    pub to: i64,
}

/// Digits a sequence number is padded to (DynamoDB Streams' are up to 40).
pub const SEQ_WIDTH: usize = 40;

/// A stream sequence number as nodes keep it.
pub fn padded(seq: &str) -> String {
    format!("{seq:0>SEQ_WIDTH$}")
}

/// What moving a batch did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Moved {
    /// Node writes that went through.
    pub writes: usize,
    /// Node writes refused because the node had counted some of the batch already.
    pub refused: usize,
}

/// One node's share of a batch: each record's change to it, in order.
type NodeRecords = Vec<(String, Counts)>;

impl Boards<'_> {
    /// Moves a batch of entry writes in their boards' trees, each node written once.
    #[tracing::instrument(skip(self, moves, seasons), fields(moves = moves.len()), err(level = "debug"))]
    pub async fn move_in_trees(
        self,
        moves: &[EntryMove],
        seasons: &[Season],
    ) -> Result<Moved, DataError> {
        let mut nodes: BTreeMap<(BoardId, NodeId), NodeRecords> = BTreeMap::new();
        let mut ordered: Vec<&EntryMove> = moves.iter().collect();
        ordered.sort_by(|a, b| a.seq.cmp(&b.seq));
        for change in ordered {
            let mut deltas = Deltas::new();
            tree::add_transition(
                &mut deltas,
                change.from.map(tree::tree_value),
                Some(tree::tree_value(change.to)),
            );
            for (node, counts) in deltas {
                nodes
                    .entry((change.board.clone(), node))
                    .or_default()
                    .push((change.seq.clone(), counts));
            }
        }
        // The trees' writes are billed apart (`trees` in the usage).
        let db = self.counted_as("trees");
        let results: Vec<(usize, usize)> =
            stream::iter(nodes.into_iter().map(|((board, node), records)| {
                db.boards().write_node(board, node, records, seasons)
            }))
            .buffer_unordered(IN_FLIGHT)
            .try_collect()
            .await?;
        Ok(Moved {
            writes: results.iter().map(|r| r.0).sum(),
            refused: results.iter().map(|r| r.1).sum(),
        })
    }

    /// Writes one node's share of a batch; returns (writes, refusals).
    async fn write_node(
        self,
        board: BoardId,
        node: NodeId,
        records: NodeRecords,
        seasons: &[Season],
    ) -> Result<(usize, usize), DataError> {
        let mut refused = 0;
        // First try: the node counted none of these records.
        let mut since: Option<Option<String>> = None;
        let mut pending = records;
        loop {
            let first = pending
                .first()
                .map(|(seq, _)| seq.clone())
                .unwrap_or_default();
            let last = pending
                .last()
                .map(|(seq, _)| seq.clone())
                .unwrap_or_default();
            let mut sum = Counts::new();
            for (_, counts) in &pending {
                for (d, c) in counts {
                    *sum.entry(*d).or_default() += c;
                }
            }
            let condition = match &since {
                None => Condition::Before(first),
                Some(None) => Condition::Never,
                Some(Some(sq)) => Condition::At(sq.clone()),
            };
            match self
                .add_to_node(&board, node, &sum, &last, condition, seasons)
                .await
            {
                Ok(()) => return Ok((1, refused)),
                Err(DataError::Conflict(Conflict::ConditionFailed)) if refused < 8 => {
                    refused += 1;
                    let item = self
                        .get(
                            self.client
                                .get_item()
                                .set_key(Some(key_map(node_key(&board, node))))
                                .consistent_read(true),
                        )
                        .await?;
                    let sq = item
                        .as_ref()
                        .and_then(|i| i.get("sq"))
                        .and_then(|v| v.as_s().ok())
                        .cloned();
                    if let Some(counted) = &sq {
                        pending.retain(|(seq, _)| seq > counted);
                    }
                    if pending.is_empty() {
                        return Ok((0, refused));
                    }
                    since = Some(sq);
                }
                Err(err) => return Err(err),
            }
        }
    }

    async fn add_to_node(
        self,
        board: &BoardId,
        node: NodeId,
        counts: &Counts,
        last: &str,
        condition: Condition,
        seasons: &[Season],
    ) -> Result<(), DataError> {
        let mut change = Update::new();
        for (digit, c) in counts.iter().filter(|(_, c)| **c != 0) {
            change = change.add(attr(node.counter(*digit)), n(c));
        }
        change = change
            .set(attr("board"), s(board.key()))
            .set(attr("sq"), s(last));
        if let Some(ttl) = expiry(board, seasons) {
            change = change.set(attr(keys::TTL), n(ttl));
        }
        if node == NodeId::Root {
            change = change.set(attr("name"), s(board_name(board, seasons)));
            if let Ok(Some((start, end))) = bounds(&board.period, seasons) {
                change = change
                    .set(attr("start_ms"), n(start))
                    .set(attr("end_ms"), n(end));
            }
        }
        let sq = || attr("sq");
        let unseen = match condition {
            Condition::Before(first) => Cond::not_exists(sq()).or(Cond::lt(sq(), s(first))),
            Condition::At(at) => Cond::eq(sq(), s(at)),
            Condition::Never => Cond::not_exists(sq()),
        };
        let request = self
            .client
            .update_item()
            .set_key(Some(key_map(node_key(board, node))))
            .expressions(Expr::update(change).when(unseen));
        // The root answers with what it held: written for the first time, a board that closes
        // is listed for the closer.
        let values = match node {
            NodeId::Root => ReturnValue::UpdatedOld,
            _ => ReturnValue::None,
        };
        let old = match self.update_written(request, values).await? {
            Written::Applied(old) => old,
            // A root write's own copy, sent again after its answer was lost: it applied, and
            // whether the root was fresh is lost with the answer. The closing item is put again
            // (the same item: putting it twice changes nothing), never left out.
            Written::Refused(root) if node == NodeId::Root && holds(&root, &[("sq", s(last))]) => {
                None
            }
            Written::Refused(_) => return Err(DataError::Conflict(Conflict::ConditionFailed)),
        };
        let fresh_root = node == NodeId::Root && old.is_none_or(|old| !old.contains_key("sq"));
        if fresh_root {
            if let Some(item) = closing_item(board, seasons) {
                self.put(self.client.put_item().set_item(Some(item)))
                    .await?;
            }
        }
        Ok(())
    }
}

/// What a node write is conditioned on.
enum Condition {
    /// The node counted no record from this one on.
    Before(String),
    /// The node's `sq` is still the one read.
    At(String),
    /// The node was read with no `sq` at all.
    Never,
}

/// The item that lists a day's or a week's board among those ending on its last day (GSI2),
/// for the closer: `LB#<board>` / `ENDS`. Written once, when the board's root is first
/// written (keeping the keys on the root itself had every root write rewrite its GSI2 entry).
pub(crate) fn closing_item(board: &BoardId, seasons: &[Season]) -> Option<Item> {
    let (pk, sk) = closing_keys(board, seasons)?;
    let (_, end) = bounds(&board.period, seasons).ok()??;
    let key = keys::board_ends(board);
    let mut item = Item::new();
    item.insert(keys::PK.into(), s(key.pk));
    item.insert(keys::SK.into(), s(key.sk));
    item.insert(keys::GSI2PK.into(), s(pk));
    item.insert(keys::GSI2SK.into(), s(sk));
    item.insert("board".into(), s(board.key()));
    item.insert("end_ms".into(), n(end));
    if let Some(ttl) = expiry(board, seasons) {
        item.insert(keys::TTL.into(), n(ttl));
    }
    Some(item)
}
