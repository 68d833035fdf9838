//! The boards' items and their reads. A board is one partition `LB#<board>`: its root node
//! (`META`, with the board's name and bounds), the other nodes of its counting tree (`T#…`, see
//! `tree`), and one entry per player (`E#<id>`), which the LSI orders by score and GSI1 lists by
//! player. Lifetime counters are `USER#<id>` / `STATS`.
//!
//! | pattern | how | round trips |
//! |---|---|---|
//! | board metadata and entry count (AP9) | GetItem `META` | 1 |
//! | a player's line on a board (AP4), with rank | GetItem `E#<id>`, BatchGetItem of the value's 3 tree nodes | 2 |
//! | top N, a page at a time | Query LSI1 descending; the cursor carries the last line's rank | 1 Query |
//! | around me | Query LSI1 above and below my key (2 Queries), one BatchGetItem for their ranks | 2 Queries + 1 |
//! | open at any position | GetItem of 3 tree nodes root down, then 1 Query | 4 |
//! | all my boards (AP5), with ranks | GetItem `STATS` (recent rooms) and Query `SEASONS`, BatchGetItem of the entries, BatchGetItem of their paths | 4 (3 round trips) |
//! | a player's stats | GetItem `USER#<id>` / `STATS` | 1 |
//! | rank by counting (COUNT-above, for the benchmark) | Query LSI1 `SK > mine`, `Select COUNT`, every page | N/1MB |

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use crate::identity::model::{Avatar, DisplayName, UserId};
use crate::leaderboards::model::{BoardId, Line, MyBoard, PlayerStats, Scope, Standing};
use crate::leaderboards::period::{boards_for, global_boards_for, Season};
use crate::leaderboards::tree::{self, Counts, NodeId};
use crate::rooms::RoomId;
use crate::store::expr::{Compare, Expr, Expressions, KeyCond};
use crate::store::keys::{self, Key};
use crate::store::tx::s;
use crate::store::{key_map, sort_key, DataError, Item};

pub mod apply;
pub mod archive;
pub mod convert;
pub mod lease;
pub mod lines;
pub mod rebuild;
pub mod seasons;
pub mod seed;

crate::store::handle!(
    /// The access patterns of the boards: ranks, entries, the projector's writes, seasons, archives.
    Boards,
    boards
);

/// A room a player played in lately, kept with their lifetime counters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecentRoom {
    pub room: RoomId,
    /// When their last match there ended.
    pub ms: i64,
}

/// A player's lifetime counters as the projector reads them (`USER#<id>` / `STATS`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatsItem {
    #[serde(default)]
    pub v: Option<u64>,
    #[serde(default)]
    pub rs: Vec<String>,
    #[serde(default)]
    pub rooms: Vec<RecentRoom>,
    #[serde(default)]
    pub last_ms: Option<i64>,
}

/// A player's days in a row of the daily flight (`USER#<id>` / `DAYS`), kept by the projector:
/// the last day counted, the run then, the best run, and the item's version.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DaysItem {
    #[serde(default)]
    pub last: Option<crate::ids::Day>,
    #[serde(default)]
    pub run: u32,
    #[serde(default)]
    pub best: u32,
    #[serde(default)]
    pub v: u64,
}

/// Entries counted per page by [`Boards::rank_by_counting`]: above what a 1 MB page holds.
const COUNT_PAGE: i32 = 10_000;

/// A player's entry on a board, as stored (`LB#<board>` / `E#<id>`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryItem {
    /// The board's key (`<metric>.<period>.<scope>`).
    pub board: String,
    pub user_id: UserId,
    pub nickname: DisplayName,
    pub avatar: Avatar,
    pub score: i64,
    pub reached_ms: i64,
    #[serde(default)]
    pub matches: u64,
    /// Bumped by every write, which is conditioned on the version it read.
    pub v: u64,
    /// The score the board's tree counted this entry at before this write (`None`: it did not
    /// count it yet). The projector reads the write back from the stream and moves the entry in
    /// the tree from `ps` to `score`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ps: Option<i64>,
    /// `Some(2)` on a write the tree must count from the stream; absent on seeded and older
    /// entries, whose trees were built from the entries themselves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tv: Option<u8>,
    /// The last match records added into a total (so a record is never added twice).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rs: Vec<String>,
}

/// The `tv` of an entry write the tree counts from the stream.
pub const TREE_VERSION: u8 = 2;

impl EntryItem {
    pub fn value(&self) -> u64 {
        tree::tree_value(self.score)
    }

    /// The entry as a table item on `board`: its keys and its place in rank order on the LSI.
    /// (The player's list of boards is kept with their lifetime counters, not on an index: an
    /// index entry per board entry was a write unit per board per new player.)
    pub(crate) fn to_item(&self, board: &BoardId) -> Result<Item, DataError> {
        let key = keys::board_entry(board, &self.user_id);
        let mut item: Item = serde_dynamo::to_item(self)?;
        item.insert(keys::PK.into(), s(key.pk));
        item.insert(keys::SK.into(), s(key.sk));
        item.insert(
            keys::LSI1SK.into(),
            s(keys::board_rank_sort(
                self.value(),
                self.reached_ms,
                &self.user_id,
            )),
        );
        Ok(item)
    }

    pub fn line(&self, rank: u64) -> Line {
        Line {
            rank,
            user_id: self.user_id.clone(),
            nickname: crate::identity::hidden::shown(&self.user_id, &self.nickname),
            avatar: self.avatar,
            score: self.score,
            reached_ms: self.reached_ms,
            matches: self.matches,
        }
    }
}

/// A tree node's counters, from its `c00`…`c99` attributes (`r00`… on the root).
pub(crate) fn node_counts(node: NodeId, item: &Item) -> Counts {
    let prefix = node.counter_prefix();
    item.iter()
        .filter_map(|(name, value)| {
            let digit = name.strip_prefix(prefix)?;
            if digit.len() != 2 {
                return None;
            }
            Some((digit.parse().ok()?, value.as_n().ok()?.parse().ok()?))
        })
        .collect()
}

/// The key of a tree node of `board`.
pub(crate) fn node_key(board: &BoardId, node: NodeId) -> Key {
    Key {
        pk: keys::board_partition(board),
        sk: node.sort_key(),
    }
}

/// Which node of a board an item is, from its sort key.
fn node_of(sk: &str) -> Option<NodeId> {
    if sk == keys::BOARD_META {
        return Some(NodeId::Root);
    }
    let mut parts = sk.split('#');
    let kind = parts.next()?;
    let level: u8 = parts.next()?.parse().ok()?;
    let digits = parts.next()?;
    match (kind, level) {
        ("N", 1) => Some(NodeId::Band(digits.parse().ok()?)),
        ("N", 2) if digits.len() == 4 => Some(NodeId::Leaf(
            digits[..2].parse().ok()?,
            digits[2..].parse().ok()?,
        )),
        ("X", level) => Some(NodeId::Escape {
            level,
            prefix: if digits.is_empty() {
                0
            } else {
                digits.parse().ok()?
            },
        }),
        _ => None,
    }
}

/// The nodes read for some boards, by board and node.
#[derive(Debug, Default)]
pub(crate) struct Nodes(HashMap<Key, Counts>);

impl Nodes {
    pub(crate) fn from_items(items: Vec<Item>) -> Self {
        Self(
            items
                .into_iter()
                .filter_map(|item| {
                    let pk = item.get(keys::PK)?.as_s().ok()?.clone();
                    let sk = sort_key(&item).to_owned();
                    let node = node_of(&sk)?;
                    Some((Key { pk, sk }, node_counts(node, &item)))
                })
                .collect(),
        )
    }

    /// The rank of `value` on `board`: 1 + the entries strictly above it.
    pub(crate) fn rank(&self, board: &BoardId, value: u64) -> u64 {
        1 + tree::count_above(value, &|node| self.0.get(&node_key(board, node)).cloned())
    }

    /// The board's entry count, from its root.
    pub(crate) fn total(&self, board: &BoardId) -> u64 {
        self.0
            .get(&node_key(board, NodeId::Root))
            .map_or(0, tree::total)
    }
}

/// The keys of the nodes on `value`'s path on `board`.
pub(crate) fn path_keys(board: &BoardId, value: u64) -> impl Iterator<Item = Key> + '_ {
    tree::path(value)
        .into_iter()
        .map(move |(node, _)| node_key(board, node))
}

pub(crate) fn decode_entries(items: Vec<Item>) -> Result<Vec<EntryItem>, DataError> {
    Ok(items
        .into_iter()
        .map(serde_dynamo::from_item)
        .collect::<Result<_, _>>()?)
}

impl Boards<'_> {
    /// A player's lifetime counters (all zero before their first counted match) and their best
    /// score, which is their entry on the all-time board of best scores: one BatchGetItem.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn stats(self, user: &UserId) -> Result<PlayerStats, DataError> {
        Ok(self.read_stats(user, false).await?.0)
    }

    /// [`Boards::stats`] and the player's days in a row of the daily flight, in the same
    /// BatchGetItem (a profile shows both).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn stats_and_days(
        self,
        user: &UserId,
    ) -> Result<(PlayerStats, Option<DaysItem>), DataError> {
        self.read_stats(user, true).await
    }

    async fn read_stats(
        self,
        user: &UserId,
        with_days: bool,
    ) -> Result<(PlayerStats, Option<DaysItem>), DataError> {
        let best = BoardId::all_time_best();
        let mut wanted = vec![keys::user_stats(user), keys::board_entry(&best, user)];
        if with_days {
            wanted.push(keys::days_in_a_row(user));
        }
        let items = self.batch_get(wanted, false).await?;
        let mut stats = PlayerStats::default();
        let mut best_score = None;
        let mut days = None;
        for item in items {
            let sk = sort_key(&item);
            if sk.starts_with(keys::BOARD_ENTRY_PREFIX) {
                best_score = Some(serde_dynamo::from_item::<_, EntryItem>(item)?.score);
            } else if sk == keys::DAYS {
                days = Some(serde_dynamo::from_item(item)?);
            } else {
                stats = serde_dynamo::from_item(item)?;
            }
        }
        stats.best_score = best_score;
        Ok((stats, days))
    }

    /// A player's days in a row of the daily flight as the projector last counted them (one
    /// GetItem, eventually consistent); `None` before their first counted flight.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn days_in_a_row(self, user: &UserId) -> Result<Option<DaysItem>, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::days_in_a_row(user)))),
            )
            .await?;
        Ok(item.map(serde_dynamo::from_item).transpose()?)
    }

    /// A board's entry count (AP9: one GetItem of its root); 0 for a board nobody is on.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn board_entries(self, board: &BoardId) -> Result<u64, DataError> {
        let root = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::board_meta(board)))),
            )
            .await?;
        Ok(root
            .as_ref()
            .map_or(0, |item| tree::total(&node_counts(NodeId::Root, item))))
    }

    /// A player's entry on a board, as stored, if they have one.
    pub async fn board_entry(
        self,
        board: &BoardId,
        user: &UserId,
    ) -> Result<Option<EntryItem>, DataError> {
        self.get(
            self.client
                .get_item()
                .set_key(Some(key_map(keys::board_entry(board, user)))),
        )
        .await?
        .map(serde_dynamo::from_item)
        .transpose()
        .map_err(DataError::from)
    }

    /// A player's line on a board with its exact rank (AP4), and the board's entry count: one
    /// GetItem, then one BatchGetItem of the 3 tree nodes on the score's path.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn my_line(
        self,
        board: &BoardId,
        user: &UserId,
    ) -> Result<Option<(Line, u64)>, DataError> {
        let Some(entry) = self.board_entry(board, user).await? else {
            return Ok(None);
        };
        let nodes = Nodes::from_items(
            self.batch_get(path_keys(board, entry.value()).collect(), false)
                .await?,
        );
        Ok(Some((
            entry.line(nodes.rank(board, entry.value())),
            nodes.total(board),
        )))
    }

    /// The rank a score would have on a board, and the board's entry count: one BatchGetItem of
    /// the 3 nodes on its path, whatever the board's size.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn rank_of(self, board: &BoardId, score: i64) -> Result<(u64, u64), DataError> {
        let value = tree::tree_value(score);
        let nodes = Nodes::from_items(
            self.batch_get(path_keys(board, value).collect(), false)
                .await?,
        );
        Ok((nodes.rank(board, value), nodes.total(board)))
    }

    /// Ranks for some entries of one board, and the board's entry count: one BatchGetItem of
    /// the union of their paths (shared nodes read once).
    pub(crate) async fn rank_lines(
        self,
        board: &BoardId,
        entries: &[EntryItem],
    ) -> Result<(Vec<Line>, u64), DataError> {
        let mut wanted: Vec<Key> = entries
            .iter()
            .flat_map(|e| path_keys(board, e.value()).collect::<Vec<_>>())
            .collect();
        wanted.extend(path_keys(board, 0).take(1));
        let nodes = Nodes::from_items(self.batch_get(wanted, false).await?);
        let lines = entries
            .iter()
            .map(|e| e.line(nodes.rank(board, e.value())))
            .collect();
        Ok((lines, nodes.total(board)))
    }

    /// A player and the `k` players just above and below them on a board, each with rank: the
    /// player's entry (GetItem), two Queries of the LSI from the player's key up and down, and
    /// one BatchGetItem for the ranks.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn around_me(
        self,
        board: &BoardId,
        user: &UserId,
        k: i32,
    ) -> Result<Option<(Standing, u64)>, DataError> {
        let Some(me) = self.board_entry(board, user).await? else {
            return Ok(None);
        };
        let mine = keys::board_rank_sort(me.value(), me.reached_ms, user);
        let side = |upward: bool| {
            let beyond = if upward { Compare::Gt } else { Compare::Lt };
            self.client
                .query()
                .index_name(keys::LSI1)
                .expressions(Expr::query(
                    KeyCond::partition(keys::PK, s(keys::board_partition(board))).compare(
                        keys::LSI1SK,
                        beyond,
                        s(mine.clone()),
                    ),
                ))
                .scan_index_forward(upward)
                .limit(k.clamp(1, 50))
        };
        let (up, down) = futures::try_join!(
            self.query_page(side(true), None),
            self.query_page(side(false), None)
        )?;
        let mut above = decode_entries(up.0)?;
        above.reverse();
        let below = decode_entries(down.0)?;
        let all: Vec<EntryItem> = above
            .iter()
            .chain(std::iter::once(&me))
            .chain(&below)
            .cloned()
            .collect();
        let (mut lines, total) = self.rank_lines(board, &all).await?;
        let below_lines = lines.split_off(above.len() + 1);
        let me_line = lines.pop().expect("my own line is in the list");
        Ok(Some((
            Standing {
                me: me_line,
                above: lines,
                below: below_lines,
            },
            total,
        )))
    }

    /// The entries of the boards a player is on, from their lifetime counters: every global
    /// board of their last match's periods and the boards of their recent rooms, those they
    /// still have an entry on (a closed day's or week's expires), global boards first, then by
    /// room, most recent first. The counters and the seasons, then one BatchGetItem.
    /// The seasons come back too, for naming the boards.
    pub async fn my_entries(
        self,
        user: &UserId,
        limit: usize,
    ) -> Result<(Vec<(BoardId, EntryItem)>, Vec<Season>), DataError> {
        let (stats, seasons) = tokio::try_join!(
            self.get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::user_stats(user))))
            ),
            self.seasons()
        )?;
        let Some(stats) = stats else {
            return Ok((Vec::new(), seasons));
        };
        let stats: StatsItem = serde_dynamo::from_item(stats)?;
        let Some(last_ms) = stats.last_ms else {
            return Ok((Vec::new(), seasons));
        };
        let mut boards: Vec<BoardId> = global_boards_for(last_ms, &seasons);
        for room in &stats.rooms {
            boards.extend(
                boards_for(room.ms, &room.room, &seasons)
                    .into_iter()
                    .filter(|b| b.scope != Scope::Global),
            );
        }
        boards.dedup();
        let wanted: Vec<Key> = boards.iter().map(|b| keys::board_entry(b, user)).collect();
        let found = entries_by_key(self.batch_get(wanted, false).await?)?;
        let mine = boards
            .into_iter()
            .filter_map(|board| {
                let entry = found.get(&keys::board_entry(&board, user))?.clone();
                Some((board, entry))
            })
            .take(limit)
            .collect();
        Ok((mine, seasons))
    }

    /// Every board a player is on (AP5), each with their line and rank: [`Boards::my_entries`],
    /// then one BatchGetItem of the tree nodes on every path.
    pub async fn my_boards(self, user: &UserId, limit: i32) -> Result<Vec<MyBoard>, DataError> {
        Ok(self.my_boards_named(user, limit).await?.0)
    }

    /// [`Boards::my_boards`], with the seasons that name them.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn my_boards_named(
        self,
        user: &UserId,
        limit: i32,
    ) -> Result<(Vec<MyBoard>, Vec<Season>), DataError> {
        let (found, seasons) = self.my_entries(user, limit.clamp(1, 20) as usize).await?;
        let wanted = found
            .iter()
            .flat_map(|(b, e)| path_keys(b, e.value()).collect::<Vec<_>>())
            .collect();
        let nodes = Nodes::from_items(self.batch_get(wanted, false).await?);
        let boards = found
            .into_iter()
            .map(|(board, e)| MyBoard {
                line: e.line(nodes.rank(&board, e.value())),
                entries: nodes.total(&board),
                board,
            })
            .collect();
        Ok((boards, seasons))
    }

    /// Rank the way the design note does it (AP10): 1 + a count of the entries above, by a
    /// `Select COUNT` Query of the LSI that reads every entry above, page by page. For the
    /// benchmark's comparison; the pages use the tree.
    ///
    /// Each page asks for at most [`COUNT_PAGE`] entries. DynamoDB ends a page at 1 MB read
    /// first (about 8,500 entries), so this changes nothing there; the embedded engine reads
    /// every remaining row of the partition for a page that has no limit, which made counting
    /// a million entries quadratic (about a hundred pages, each reading what was left).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn rank_by_counting(self, board: &BoardId, score: i64) -> Result<u64, DataError> {
        let above = keys::board_rank_ceiling(tree::tree_value(score));
        let mut count = 0u64;
        let mut start: Option<Item> = None;
        loop {
            let request = self
                .client
                .query()
                .table_name(self.table_name())
                .index_name(keys::LSI1)
                .expressions(Expr::query(
                    KeyCond::partition(keys::PK, s(keys::board_partition(board))).compare(
                        keys::LSI1SK,
                        Compare::Gt,
                        s(above.clone()),
                    ),
                ))
                .select(aws_sdk_dynamodb::types::Select::Count)
                .limit(COUNT_PAGE)
                .set_exclusive_start_key(start.take());
            let out = crate::store::send_recorded!(self, "Query", request)?;
            count += out.count.max(0) as u64;
            match out.last_evaluated_key.filter(|k| !k.is_empty()) {
                Some(key) => start = Some(key),
                None => return Ok(count + 1),
            }
        }
    }
}

/// Entries of a board read by key, by player.
pub(crate) fn entries_by_key(items: Vec<Item>) -> Result<BTreeMap<Key, EntryItem>, DataError> {
    items
        .into_iter()
        .map(|item| {
            let pk = item
                .get(keys::PK)
                .and_then(|v| v.as_s().ok())
                .cloned()
                .unwrap_or_default();
            let sk = sort_key(&item).to_owned();
            Ok((Key { pk, sk }, serde_dynamo::from_item(item)?))
        })
        .collect()
}
