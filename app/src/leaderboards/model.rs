//! What the boards show: a room's all-time board of best scores, and each player's lifetime
//! counters. Shared by the server (which writes them when a match ends) and the pages.

use serde::{Deserialize, Serialize};

use crate::identity::{Avatar, DisplayName, UserId};
use crate::rooms::RoomCode;

/// How many entries a room's leaderboard page shows.
pub const BOARD_SIZE: i32 = 20;

/// A player's lifetime counters (`USER#<id>` / `STATS`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerStats {
    #[serde(default)]
    pub matches: u64,
    #[serde(default)]
    pub wins: u64,
    #[serde(default)]
    pub lifetime_score: i64,
    #[serde(default)]
    pub best_score: Option<i32>,
    #[serde(default)]
    pub correct: u64,
    #[serde(default)]
    pub rounds: u64,
}

/// One line of a room's leaderboard: a player's best score in that room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardEntry {
    pub user_id: UserId,
    pub nickname: DisplayName,
    pub avatar: Avatar,
    pub best_score: i32,
    pub achieved_at_ms: i64,
}

/// A room's leaderboard, public: no session needed, and it outlives the room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomBoard {
    pub code: RoomCode,
    pub entries: Vec<BoardEntry>,
}
