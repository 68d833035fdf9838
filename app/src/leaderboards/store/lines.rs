//! A board's lines a page at a time, from the top, from a cursor, or from any position: a Query
//! of the LSI in score order, with each line's exact rank carried along (equal scores share the
//! rank of the first of them).
//!
//! The cursor is the LSI's `LastEvaluatedKey` plus the last line's position and rank, signed, so
//! the next page goes on counting without reading the tree. Opening at a position walks the
//! counting tree from the root (one GetItem per level) to the score at that position and the
//! number of entries above it, then Queries from that score down, skipping the players with the
//! same score shown before it. That skip is the one cost that grows: with the number of players
//! sharing one exact score.

use super::Boards;
use crate::leaderboards::model::{BoardId, Line};
use crate::leaderboards::store::{decode_entries, node_counts, node_key, EntryItem};
use crate::leaderboards::tree;
use crate::store::expr::{Compare, Expr, Expressions, KeyCond};
use crate::store::keys;
use crate::store::tx::s;
use crate::store::{key_map, DataError, Item};

/// Where a page of lines starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    Top,
    /// After the last line of the page that handed out this cursor.
    Cursor(String),
    /// At this 1-based position in board order.
    Position(u64),
}

/// One page of a board's lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lines {
    pub lines: Vec<Line>,
    pub next: Option<String>,
}

/// Where counting stands before the next line: its position and the rank and value of the line
/// before it.
#[derive(Debug, Clone, Copy)]
struct Counting {
    position: u64,
    rank: u64,
    value: Option<u64>,
}

impl Counting {
    fn line(&mut self, entry: &EntryItem) -> Line {
        self.position += 1;
        if self.value != Some(entry.value()) {
            self.rank = self.position;
            self.value = Some(entry.value());
        }
        entry.line(self.rank)
    }
}

const POSITION: &str = "#position";
const RANK: &str = "#rank";

/// The tree value an LSI key starts with (`R#<value>#…`).
fn value_in(key: &Item) -> Option<u64> {
    let rank = key.get(keys::LSI1SK)?.as_s().ok()?;
    rank.strip_prefix(keys::BOARD_RANK_PREFIX)?
        .split('#')
        .next()?
        .parse()
        .ok()
}

fn scope(board: &BoardId) -> String {
    format!("board#{}", board.key())
}

impl Boards<'_> {
    /// Up to `limit` lines of a board from `start`. `Ok(None)` when `start` is a position past
    /// the board's last entry.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn board_lines(
        self,
        board: &BoardId,
        start: Start,
        limit: i32,
    ) -> Result<Option<Lines>, DataError> {
        let limit = limit.clamp(1, 100);
        let query = |ceiling: Option<String>| {
            let key = KeyCond::partition(keys::PK, s(keys::board_partition(board)));
            let key = match ceiling {
                Some(ceiling) => key.compare(keys::LSI1SK, Compare::Le, s(ceiling)),
                None => key,
            };
            self.client
                .query()
                .index_name(keys::LSI1)
                .expressions(Expr::query(key))
                .scan_index_forward(false)
        };
        let (mut counting, request, exclusive, mut skip) = match start {
            Start::Top => (
                Counting {
                    position: 0,
                    rank: 0,
                    value: None,
                },
                query(None),
                None,
                0,
            ),
            Start::Cursor(cursor) => {
                let mut key = self.cursor_key().await?.open(&scope(board), &cursor)?;
                let number = |key: &mut Item, name: &str| {
                    key.remove(name)
                        .and_then(|v| v.as_s().ok()?.parse::<u64>().ok())
                        .ok_or(DataError::BadCursor)
                };
                let position = number(&mut key, POSITION)?;
                let rank = number(&mut key, RANK)?;
                let value = value_in(&key).ok_or(DataError::BadCursor)?;
                (
                    Counting {
                        position,
                        rank,
                        value: Some(value),
                    },
                    query(None),
                    Some(key),
                    0,
                )
            }
            Start::Position(position) => {
                let found = tree::locate(position, |node| async move {
                    let item = self
                        .get(
                            self.client
                                .get_item()
                                .set_key(Some(key_map(node_key(board, node)))),
                        )
                        .await?;
                    Ok::<_, DataError>(item.as_ref().map(|item| node_counts(node, item)))
                })
                .await?;
                let Some(found) = found else {
                    return Ok(None);
                };
                (
                    Counting {
                        position: found.above,
                        rank: found.above + 1,
                        value: Some(found.value),
                    },
                    query(Some(keys::board_rank_ceiling(found.value))),
                    None,
                    position - 1 - found.above,
                )
            }
        };
        // Skipping players who share the score shown first: page through them.
        let mut exclusive = exclusive;
        let mut lines = Vec::new();
        loop {
            let want = (skip + limit as u64 - lines.len() as u64).min(1000) as i32;
            let (items, last) = self
                .query_page(request.clone().limit(want), exclusive.take())
                .await?;
            for entry in decode_entries(items)? {
                if skip > 0 {
                    skip -= 1;
                    counting.position += 1;
                    continue;
                }
                lines.push(counting.line(&entry));
            }
            match last {
                Some(last) if lines.len() < limit as usize => exclusive = Some(last),
                Some(mut last) => {
                    last.insert(POSITION.into(), s(counting.position.to_string()));
                    last.insert(RANK.into(), s(counting.rank.to_string()));
                    let next = self.cursor_key().await?.seal(&scope(board), &last)?;
                    return Ok(Some(Lines {
                        lines,
                        next: Some(next),
                    }));
                }
                None => return Ok(Some(Lines { lines, next: None })),
            }
        }
    }
}
