//! Converting boards written before the present counting tree: their trees (five base-100
//! levels at `T#…`, the root's counters `c00`… on `META`), their entries' list on GSI1 (an
//! index entry per board entry, a write unit per board per new player) and their closing keys
//! on the root (every root write rewrote its GSI2 entry).
//!
//! For each board (a Scan finds the roots, once): one Query of its partition; the new tree is
//! counted from the entries themselves and written whole (`META` put again with its name,
//! bounds and `r` counters; `N#`/`X#` nodes put), the first tree's nodes deleted, a day's or a
//! week's board given its `ENDS` item (with `archived` if its root had it), and each entry
//! taken off GSI1. Each player's counters get the recent rooms and last match the profile lists
//! their boards from, where they have none yet.
//!
//! It runs once per table: the `BOARDS` / `SHAPE` item records it, and a server takes a lease on
//! that item to convert before its projector starts, while the others wait. That is what makes
//! counting the trees from the entries exact: no entry write the projector would count again
//! from the stream (`tv = 2`) exists before the conversion has run.

use super::Boards;
use std::collections::{BTreeMap, HashMap};

use crate::identity::model::UserId;
use crate::leaderboards::model::{BoardId, Scope};
use crate::leaderboards::period::{board_name, bounds};
use crate::leaderboards::plan::{expiry, RECENT_ROOMS};
use crate::leaderboards::store::apply::tree_pass::closing_item;
use crate::leaderboards::store::RecentRoom;
use crate::leaderboards::store::{decode_entries, node_key};
use crate::leaderboards::tree::{self, Deltas};
use crate::store::expr::{attr, Cond, Expr, Expressions, Update};
use crate::store::keys::{self, Key};
use crate::store::retry::{holds, Written};
use crate::store::tx::{delete_request, n, put_request, s};
use crate::store::{epoch_millis, key_map, sort_key, Conflict, DataError, Item};
use aws_sdk_dynamodb::types::ReturnValue;

/// The boards' layout this code writes.
pub const SHAPE: u64 = 2;
/// How long a converting server holds the `SHAPE` item before another may take over.
const CONVERT_LEASE_MS: i64 = 10 * 60_000;

/// What a conversion did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Converted {
    pub boards: usize,
    pub entries: usize,
    /// Nodes of the first tree deleted.
    pub old_nodes: usize,
}

impl Boards<'_> {
    /// Makes sure the table's boards are in the present layout before a projector counts on
    /// them: converts them if no server has (holding the `SHAPE` item's lease), or waits while
    /// another server does. `None` when there was nothing to do.
    pub async fn ensure_board_shape(self) -> Result<Option<Converted>, DataError> {
        loop {
            let item = self
                .get(
                    self.client
                        .get_item()
                        .set_key(Some(key_map(keys::boards_shape())))
                        .consistent_read(true),
                )
                .await?;
            let number = |name: &str| {
                item.as_ref()
                    .and_then(|i| i.get(name)?.as_n().ok()?.parse::<i64>().ok())
            };
            if number("version").is_some_and(|v| v >= SHAPE as i64) {
                return Ok(None);
            }
            let now = epoch_millis();
            if number("until").is_some_and(|until| until > now) {
                // Another server is converting.
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                continue;
            }
            // The take names itself, so that its own copy (sent again by the SDK after the
            // answer was lost) is recognised rather than waited out as another server's lease.
            let me = ulid::Ulid::new().to_string();
            let until = now + CONVERT_LEASE_MS;
            let take = self
                .client
                .update_item()
                .set_key(Some(key_map(keys::boards_shape())))
                .expressions(
                    Expr::update(
                        Update::new()
                            .set(attr("until"), n(until))
                            .set(attr("holder"), s(me.clone())),
                    )
                    .when(
                        Cond::not_exists(attr("until"))
                            .or(Cond::le(attr("until"), n(now)))
                            .and(
                                Cond::not_exists(attr("version"))
                                    .or(Cond::lt(attr("version"), n(SHAPE))),
                            ),
                    ),
                );
            match self.update_written(take, ReturnValue::None).await? {
                Written::Applied(_) => {}
                Written::Refused(item)
                    if holds(&item, &[("holder", s(me)), ("until", n(until))]) => {}
                Written::Refused(_) => continue,
            }
            let converted = self.convert_boards_now().await?;
            let mut done = Item::new();
            let key = keys::boards_shape();
            done.insert(keys::PK.into(), s(key.pk));
            done.insert(keys::SK.into(), s(key.sk));
            done.insert("version".into(), n(SHAPE));
            self.put(self.client.put_item().set_item(Some(done)))
                .await?;
            if converted.boards > 0 {
                tracing::info!(?converted, "converted the boards to the present tree");
            }
            return Ok(Some(converted));
        }
    }

    /// Converts every board now (the operator's `udd-server boards convert`): what
    /// [`Boards::ensure_board_shape`] does, for a table that has not run the present code yet.
    pub async fn convert_boards(self) -> Result<Converted, DataError> {
        Ok(self.ensure_board_shape().await?.unwrap_or_default())
    }

    async fn convert_boards_now(self) -> Result<Converted, DataError> {
        let seasons = self.seasons().await?;
        let mut converted = Converted::default();
        let mut players: HashMap<UserId, (BTreeMap<crate::rooms::RoomId, i64>, i64)> =
            HashMap::new();
        let mut start: Option<Item> = None;
        loop {
            let request = self
                .client
                .scan()
                .table_name(self.table_name())
                .expressions(
                    Expr::default().filter(
                        Cond::begins_with(attr(keys::PK), s(keys::BOARD_PREFIX))
                            .and(Cond::eq(attr(keys::SK), s(keys::BOARD_META))),
                    ),
                )
                .set_exclusive_start_key(start.take());
            let out = crate::store::send_recorded!(self, "Scan", request)?;
            for root in out.items() {
                let Some(board) = root
                    .get(keys::PK)
                    .and_then(|v| v.as_s().ok())
                    .and_then(|pk| keys::board_of_partition(pk))
                else {
                    continue;
                };
                self.convert_board(&board, root, &seasons, &mut converted, &mut players)
                    .await?;
            }
            match out.last_evaluated_key.filter(|k| !k.is_empty()) {
                Some(key) => start = Some(key),
                None => break,
            }
        }
        for (user, (rooms, last_ms)) in players {
            let mut rooms: Vec<RecentRoom> = rooms
                .into_iter()
                .map(|(room, ms)| RecentRoom { room, ms })
                .collect();
            rooms.sort_by_key(|r| std::cmp::Reverse(r.ms));
            rooms.truncate(RECENT_ROOMS);
            let list = rooms
                .iter()
                .map(|r| {
                    aws_sdk_dynamodb::types::AttributeValue::M(HashMap::from([
                        ("room".to_owned(), s(r.room.as_str())),
                        ("ms".to_owned(), n(r.ms)),
                    ]))
                })
                .collect();
            let request = self
                .client
                .update_item()
                .table_name(self.table_name())
                .set_key(Some(key_map(keys::user_stats(&user))))
                .expressions(
                    Expr::update(
                        Update::new()
                            .set(
                                attr("rooms"),
                                aws_sdk_dynamodb::types::AttributeValue::L(list),
                            )
                            .set(attr("last_ms"), n(last_ms)),
                    )
                    .when(Cond::not_exists(attr("last_ms"))),
                );
            match self.update_item(request).await {
                Ok(()) | Err(DataError::Conflict(Conflict::ConditionFailed)) => {}
                Err(err) => return Err(err),
            }
        }
        Ok(converted)
    }

    async fn convert_board(
        self,
        board: &BoardId,
        root: &Item,
        seasons: &[crate::leaderboards::period::Season],
        converted: &mut Converted,
        players: &mut HashMap<UserId, (BTreeMap<crate::rooms::RoomId, i64>, i64)>,
    ) -> Result<(), DataError> {
        let items = self
            .query_all(self.query_partition(keys::Keyed::Table, keys::board_partition(board)))
            .await?;
        let mut requests = Vec::new();
        let mut entries = Vec::new();
        let mut listed: Vec<Key> = Vec::new();
        for item in items {
            let sk = sort_key(&item).to_owned();
            if sk.starts_with(keys::BOARD_ENTRY_PREFIX) {
                if item.contains_key(keys::GSI1PK) {
                    listed.push(Key {
                        pk: keys::board_partition(board),
                        sk: sk.clone(),
                    });
                }
                entries.push(item);
            } else if sk.starts_with(keys::OLD_TREE_PREFIX)
                || sk.starts_with(keys::TREE_NODE_PREFIX)
                || sk.starts_with(keys::TREE_ESCAPE_PREFIX)
            {
                if sk.starts_with(keys::OLD_TREE_PREFIX) {
                    converted.old_nodes += 1;
                }
                requests.push(delete_request(key_map(Key {
                    pk: keys::board_partition(board),
                    sk,
                }))?);
            }
        }
        let entries = decode_entries(entries)?;
        let mut deltas = Deltas::new();
        for entry in &entries {
            tree::add_transition(&mut deltas, None, Some(entry.value()));
            let player = players.entry(entry.user_id.clone()).or_default();
            player.1 = player.1.max(entry.reached_ms);
            if let Scope::Room(room) = &board.scope {
                let ms = player.0.entry(room.clone()).or_default();
                *ms = (*ms).max(entry.reached_ms);
            }
        }
        // The root, put again: its name and bounds, its new counters, no closing keys.
        let mut meta = Item::new();
        let key = keys::board_meta(board);
        meta.insert(keys::PK.into(), s(key.pk));
        meta.insert(keys::SK.into(), s(key.sk));
        meta.insert("board".into(), s(board.key()));
        meta.insert("name".into(), s(board_name(board, seasons)));
        if let Ok(Some((start, end))) = bounds(&board.period, seasons) {
            meta.insert("start_ms".into(), n(start));
            meta.insert("end_ms".into(), n(end));
        }
        let ttl = expiry(board, seasons);
        if let Some(ttl) = ttl {
            meta.insert(keys::TTL.into(), n(ttl));
        }
        for (node, counts) in &deltas {
            let mut item = if *node == tree::NodeId::Root {
                std::mem::take(&mut meta)
            } else {
                let key = node_key(board, *node);
                let mut item = Item::new();
                item.insert(keys::PK.into(), s(key.pk));
                item.insert(keys::SK.into(), s(key.sk));
                item.insert("board".into(), s(board.key()));
                if let Some(ttl) = ttl {
                    item.insert(keys::TTL.into(), n(ttl));
                }
                item
            };
            for (digit, count) in counts {
                item.insert(node.counter(*digit), n(count));
            }
            requests.push(put_request(item)?);
        }
        if !meta.is_empty() {
            // A board with no entries keeps its root, without counters.
            requests.push(put_request(meta)?);
        }
        if let Some(mut ends) = closing_item(board, seasons) {
            if let Some(archived) = root.get("archived") {
                ends.insert("archived".into(), archived.clone());
            }
            requests.push(put_request(ends)?);
        }
        self.batch_write(requests).await?;
        for key in listed {
            self.update_item(
                self.client
                    .update_item()
                    .set_key(Some(key_map(key)))
                    .expressions(Expr::update(
                        Update::new()
                            .remove(attr(keys::GSI1PK))
                            .remove(attr(keys::GSI1SK)),
                    )),
            )
            .await?;
        }
        converted.boards += 1;
        converted.entries += entries.len();
        Ok(())
    }
}
