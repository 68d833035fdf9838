//! Filling an empty board with synthetic players, for the benchmark and for trying the pages at
//! size. Written directly, not through the projector: a million results through the projector
//! is a million match records and some tens of millions of conditional writes, while the board
//! it would build is fully determined by the scores. The tree's nodes are computed in memory
//! with the same `tree::add_transition` the projector uses (a test checks a seeded board ranks
//! exactly as one fed match by match), then entries and nodes go in with BatchWriteItem. The
//! entries carry no `tv`: the projector does not count them again from the stream.

use super::Boards;
use crate::identity::model::{Avatar, DisplayName, UserId};
use crate::leaderboards::model::BoardId;
use crate::leaderboards::store::{node_key, EntryItem};
use crate::leaderboards::tree::{self, Deltas};
use crate::store::keys;
use crate::store::tx::{n, s};
use crate::store::{DataError, Item};

/// One synthetic player's line.
#[derive(Debug, Clone)]
pub struct Synthetic {
    pub user_id: UserId,
    pub nickname: DisplayName,
    pub score: i64,
    pub reached_ms: i64,
}

use crate::store::tx::put_request as put;

impl Boards<'_> {
    /// Writes `players` as the whole of `board`, which must be empty (its root absent).
    pub async fn seed_board(self, board: &BoardId, players: &[Synthetic]) -> Result<(), DataError> {
        if self.board_entries(board).await? > 0 {
            return Err(DataError::Internal(
                "only an empty board can be seeded".into(),
            ));
        }
        let mut deltas = Deltas::new();
        let mut requests = Vec::with_capacity(players.len() + 1);
        for player in players {
            let entry = EntryItem {
                board: board.key(),
                user_id: player.user_id.clone(),
                nickname: player.nickname.clone(),
                avatar: Avatar::default(),
                score: player.score,
                reached_ms: player.reached_ms,
                matches: 0,
                v: 1,
                ps: None,
                tv: None,
                rs: Vec::new(),
            };
            tree::add_transition(&mut deltas, None, Some(entry.value()));
            requests.push(put(entry.to_item(board)?)?);
        }
        // Entries first and the root last: a reader never counts players it cannot list.
        for (node, counts) in deltas.into_iter().rev() {
            let key = node_key(board, node);
            let mut item = Item::new();
            item.insert(keys::PK.into(), s(key.pk));
            item.insert(keys::SK.into(), s(key.sk));
            item.insert("board".into(), s(board.key()));
            for (digit, count) in counts {
                item.insert(node.counter(digit), n(count));
            }
            requests.push(put(item)?);
        }
        self.batch_write(requests).await
    }
}
