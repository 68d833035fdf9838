//! The writes of one transaction of counted results: the fence check, each unit's entries,
//! markers and lifetime counters, and the tree nodes' added-up counter changes.

use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::TransactWriteItem;

use super::{expiry, Fence, Unit};
use crate::leaderboards::model::BoardId;
use crate::leaderboards::period::{board_name, bounds, Season};
use crate::leaderboards::store::{counter_name, node_key, EntryItem};
use crate::leaderboards::tree::{Deltas, NodeId};
use crate::store::keys;
use crate::store::tx::{n, s, update};
use crate::store::{epoch_millis, DataError, Db, Item};

impl Db {
    /// The actions of one transaction: the fence check first (so a failure at index 0 means the
    /// lease is gone), then each unit's writes, then the added-up tree nodes.
    pub(super) fn unit_actions(
        &self,
        fence: &Fence,
        batch: &[Unit],
        seasons: &[Season],
    ) -> Result<Vec<TransactWriteItem>, DataError> {
        let now_s = epoch_millis() / 1000;
        let mut actions = vec![fence.action(self)?];
        let mut deltas: BTreeMap<BoardId, Deltas> = BTreeMap::new();
        for unit in batch {
            for (user, record) in &unit.markers {
                let key = keys::counted_match(user, record);
                let mut item = Item::new();
                item.insert(keys::PK.into(), s(key.pk));
                item.insert(keys::SK.into(), s(key.sk));
                actions.push(self.put_new(item)?);
            }
            if let Some((user, stats)) = &unit.stats {
                actions.push(
                    self.update_action(
                        update(keys::user_stats(user))
                            .update_expression(
                                "ADD matches :matches, wins :wins, lifetime_score :score, \
                             correct :correct, rounds :rounds",
                            )
                            .expression_attribute_values(":matches", n(stats.matches))
                            .expression_attribute_values(":wins", n(stats.wins))
                            .expression_attribute_values(":score", n(stats.score))
                            .expression_attribute_values(":correct", n(stats.correct))
                            .expression_attribute_values(":rounds", n(stats.rounds)),
                    )?,
                );
            }
            if let Some((user, rewards)) = &unit.rewards {
                actions.extend(self.reward_actions(user, rewards)?);
            }
            for (board, old, new) in &unit.entries {
                actions.push(self.entry_action(board, old.as_ref(), new, seasons, now_s)?);
            }
            for (board, board_deltas) in unit.deltas() {
                let merged = deltas.entry(board).or_default();
                for (node, counts) in board_deltas {
                    let into = merged.entry(node).or_default();
                    for (digit, c) in counts {
                        *into.entry(digit).or_default() += c;
                    }
                }
            }
        }
        for (board, board_deltas) in deltas {
            for (node, counts) in board_deltas {
                let counts: Vec<(u8, i64)> = counts.into_iter().filter(|(_, c)| *c != 0).collect();
                if counts.is_empty() {
                    continue;
                }
                actions.push(self.node_action(&board, node, &counts, seasons)?);
            }
        }
        Ok(actions)
    }

    fn entry_action(
        &self,
        board: &BoardId,
        old: Option<&EntryItem>,
        new: &EntryItem,
        seasons: &[Season],
        now_s: i64,
    ) -> Result<TransactWriteItem, DataError> {
        let mut item = new.to_item(board, true)?;
        if let Some(ttl) = expiry(board, seasons) {
            item.insert(keys::TTL.into(), n(ttl));
        }
        let put = aws_sdk_dynamodb::types::Put::builder()
            .table_name(self.table_name())
            .set_item(Some(item))
            .expression_attribute_names("#pk", keys::PK);
        let put = match old {
            None => put
                .condition_expression("attribute_not_exists(#pk) OR #ttl <= :now")
                .expression_attribute_names("#ttl", keys::TTL)
                .expression_attribute_values(":now", n(now_s)),
            Some(old) => put
                .condition_expression("attribute_exists(#pk) AND v = :v")
                .expression_attribute_values(":v", n(old.v)),
        };
        Ok(TransactWriteItem::builder()
            .put(put.build().map_err(|e| DataError::Internal(e.into()))?)
            .build())
    }

    /// `ADD` to a tree node's counters; the root also carries the board's name and bounds.
    fn node_action(
        &self,
        board: &BoardId,
        node: NodeId,
        counts: &[(u8, i64)],
        seasons: &[Season],
    ) -> Result<TransactWriteItem, DataError> {
        let mut adds = Vec::new();
        let mut request = update(node_key(board, node));
        for (digit, c) in counts {
            let name = counter_name(*digit);
            adds.push(format!("#{name} :{name}"));
            request = request
                .expression_attribute_names(format!("#{name}"), name.clone())
                .expression_attribute_values(format!(":{name}"), n(c));
        }
        let mut sets = vec!["#board = :board".to_owned()];
        request = request
            .expression_attribute_names("#board", "board")
            .expression_attribute_values(":board", s(board.key()));
        if let Some(ttl) = expiry(board, seasons) {
            sets.push("#ttl = :ttl".into());
            request = request
                .expression_attribute_names("#ttl", keys::TTL)
                .expression_attribute_values(":ttl", n(ttl));
        }
        if node == NodeId::ROOT {
            sets.push("#name = :name".into());
            request = request
                .expression_attribute_names("#name", "name")
                .expression_attribute_values(":name", s(board_name(board, seasons)));
            if let Ok(Some((start, end))) = bounds(&board.period, seasons) {
                sets.push("start_ms = :start, end_ms = :end".into());
                request = request
                    .expression_attribute_values(":start", n(start))
                    .expression_attribute_values(":end", n(end));
            }
            if let Some((pk, sk)) = crate::leaderboards::archive::closing_keys(board, seasons) {
                sets.push("#g2pk = :g2pk, #g2sk = :g2sk".into());
                request = request
                    .expression_attribute_names("#g2pk", keys::GSI2PK)
                    .expression_attribute_names("#g2sk", keys::GSI2SK)
                    .expression_attribute_values(":g2pk", s(pk))
                    .expression_attribute_values(":g2sk", s(sk));
            }
        }
        self.update_action(request.update_expression(format!(
            "ADD {} SET {}",
            adds.join(", "),
            sets.join(", ")
        )))
    }
}
