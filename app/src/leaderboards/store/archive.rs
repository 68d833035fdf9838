//! Closed boards: a day's or a week's board keeps its top 100 as one item after its period ends,
//! kept for [`DAY_RETENTION_SECS`] or [`WEEK_RETENTION_SECS`] by TTL, while its live items
//! (entries and tree) expire 7 days after the end (`apply::LIVE_GRACE_SECS`).
//!
//! Which boards closed on a day is a GSI2 collection: every day's and week's board has an `ENDS`
//! item (written when its root is first written) carrying `GSI2PK = BOARDS#ENDS#<end date>`,
//! `GSI2SK = <board>`. Each projector runs the closer
//! now and then; it Queries the collections of the last days, and for each closed board without
//! an archive reads its top 100 (one Query of the LSI) and puts the archive only if absent, so any
//! number of closers archive each board once.
//!
//! | pattern | how | round trips |
//! |---|---|---|
//! | boards that ended on a day | Query GSI2 `BOARDS#ENDS#<date>` | 1 Query per day |
//! | archive a board | Query LSI1 top 100, GetItem root, PutItem `attribute_not_exists`, UpdateItem `ENDS` `archived` | 4 |
//! | a closed board's archive | GetItem `LB#<board>` / `ARCHIVE` | 1 |

use super::Boards;
use serde::{Deserialize, Serialize};

use crate::leaderboards::model::{BoardId, Line, PeriodKind, ARCHIVE_SIZE};
use crate::leaderboards::period::{bounds, day_of, Season};
use crate::leaderboards::store::lines::Start;
use crate::store::expr::{attr, Cond, Expr, Expressions, KeyCond, Update};
use crate::store::keys;
use crate::store::tx::{n, s};
use crate::store::{key_map, Conflict, DataError, Item};

/// How long a closed day's board keeps its top 100.
pub const DAY_RETENTION_SECS: i64 = 90 * 86_400;
/// How long a closed week's board keeps its top 100.
pub const WEEK_RETENTION_SECS: i64 = 2 * 365 * 86_400;
/// How many days back the closer looks: boards whose live items have not expired yet.
const LOOK_BACK_DAYS: i64 = 6;

/// A closed board's archive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Archive {
    pub board: String,
    pub entries: u64,
    pub lines: Vec<Line>,
}

/// The GSI2 keys of a board's `ENDS` item, for day and week boards: which day it ends on.
pub fn closing_keys(board: &BoardId, seasons: &[Season]) -> Option<(String, String)> {
    match board.period.kind() {
        PeriodKind::Day | PeriodKind::Week => {
            let (_, end) = bounds(&board.period, seasons).ok()??;
            Some((keys::boards_ending(&day_of(end)), board.key()))
        }
        PeriodKind::Season | PeriodKind::AllTime => None,
    }
}

/// When a closed board's archive expires (epoch seconds).
fn retention(board: &BoardId, end_ms: i64) -> i64 {
    end_ms / 1000
        + match board.period.kind() {
            PeriodKind::Week => WEEK_RETENTION_SECS,
            _ => DAY_RETENTION_SECS,
        }
}

impl Boards<'_> {
    /// Archives every day's and week's board that has closed by `now_ms` and has no archive yet;
    /// returns how many it archived.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn archive_closed_boards(self, now_ms: i64) -> Result<usize, DataError> {
        let mut archived = 0;
        for back in 0..=LOOK_BACK_DAYS {
            let day = day_of(now_ms - back * 86_400_000);
            let roots =
                self.query_all(self.client.query().index_name(keys::GSI2).expressions(
                    Expr::query(KeyCond::partition(
                        keys::GSI2PK,
                        s(keys::boards_ending(&day)),
                    )),
                ))
                .await?;
            for root in roots {
                if root.contains_key("archived") {
                    continue;
                }
                let number = |name: &str| {
                    root.get(name)
                        .and_then(|v| v.as_n().ok()?.parse::<i64>().ok())
                };
                let Some(end_ms) = number("end_ms").filter(|end| *end <= now_ms) else {
                    continue;
                };
                let Some(board) = root
                    .get("board")
                    .and_then(|v| v.as_s().ok())
                    .and_then(|key| BoardId::parse_key(key).ok())
                else {
                    continue;
                };
                if self.archive_board(&board, end_ms).await? {
                    archived += 1;
                }
            }
        }
        Ok(archived)
    }

    /// Writes one closed board's archive if it has none; `false` when another closer did.
    async fn archive_board(self, board: &BoardId, end_ms: i64) -> Result<bool, DataError> {
        let lines = self
            .board_lines(board, Start::Top, ARCHIVE_SIZE as i32)
            .await?
            .map(|page| page.lines)
            .unwrap_or_default();
        let archive = Archive {
            board: board.key(),
            entries: self.board_entries(board).await?,
            lines,
        };
        let mut item: Item = serde_dynamo::to_item(&archive)?;
        item.insert(keys::TTL.into(), n(retention(board, end_ms)));
        let fresh = self.put_if_absent(keys::board_archive(board), item).await?;
        let mark = self
            .client
            .update_item()
            .table_name(self.table_name())
            .set_key(Some(key_map(keys::board_ends(board))))
            .expressions(
                Expr::update(Update::new().set(
                    attr("archived"),
                    aws_sdk_dynamodb::types::AttributeValue::Bool(true),
                ))
                .when(Cond::exists(attr(keys::PK))),
            );
        match self.update_item(mark).await {
            Ok(_) | Err(DataError::Conflict(Conflict::ConditionFailed)) => Ok(fresh),
            Err(err) => Err(err),
        }
    }

    /// A closed board's archive, if it has one: one GetItem.
    pub async fn board_archive(self, board: &BoardId) -> Result<Option<Archive>, DataError> {
        self.get(
            self.client
                .get_item()
                .set_key(Some(key_map(keys::board_archive(board)))),
        )
        .await?
        .map(serde_dynamo::from_item)
        .transpose()
        .map_err(DataError::from)
    }
}
