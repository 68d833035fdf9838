//! What the boards show: which board (`BoardId`, from `ids`), its lines with their exact ranks,
//! a player's standing with the players around them, and each player's lifetime counters. Shared
//! by the server and the pages.

use serde::{Deserialize, Serialize};

use crate::identity::{Avatar, DisplayName, UserId};

pub use crate::ids::{BoardId, Day, Metric, Period, PeriodKind, Scope, SeasonId};

use crate::i18n::td_string;
use crate::lang::Locale;

/// How many lines a board page shows.
pub const BOARD_SIZE: i32 = 20;
/// How many players above and below you the page shows.
pub const AROUND: i32 = 3;
/// How many lines a closed board keeps in its archive.
pub const ARCHIVE_SIZE: usize = 100;

/// What a board ranks, for people in `l`'s language: "Best match", "Total points".
pub fn metric_label(l: Locale, metric: Metric) -> String {
    match metric {
        Metric::Best => td_string!(l, leaderboards.metric.best).to_string(),
        Metric::Total => td_string!(l, leaderboards.metric.total).to_string(),
    }
}

/// A kind of period as the picker's links name it, in `l`'s language ("This week"): what
/// `PeriodKind::label` says in English.
pub fn period_label(l: Locale, kind: PeriodKind) -> String {
    match kind {
        PeriodKind::Day => td_string!(l, leaderboards.period.day).to_string(),
        PeriodKind::Week => td_string!(l, leaderboards.period.week).to_string(),
        PeriodKind::Season => td_string!(l, leaderboards.period.season).to_string(),
        PeriodKind::AllTime => td_string!(l, leaderboards.period.all_time).to_string(),
    }
}

/// A player's lifetime counters (`USER#<id>` / `STATS`), kept by the projector.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerStats {
    #[serde(default)]
    pub matches: u64,
    #[serde(default)]
    pub wins: u64,
    #[serde(default)]
    pub lifetime_score: i64,
    #[serde(default)]
    pub best_score: Option<i64>,
    #[serde(default)]
    pub correct: u64,
    #[serde(default)]
    pub rounds: u64,
}

/// A line on a board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// 1 + how many players have a strictly higher score: equal scores share a rank.
    pub rank: u64,
    pub user_id: UserId,
    pub nickname: DisplayName,
    pub avatar: Avatar,
    pub score: i64,
    /// When the player reached this score (between equal scores, the earlier is shown first).
    pub reached_ms: i64,
    /// Matches counted on a board of totals (0 on a board of best scores).
    pub matches: u64,
}

/// What a board is, without its lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardSummary {
    pub board: BoardId,
    pub name: String,
    /// What the period covers (`None`: all time): start inclusive, end exclusive, in ms.
    pub bounds: Option<(i64, i64)>,
    pub entries: u64,
}

impl BoardSummary {
    /// Whether the period is over at `now_ms`.
    pub fn closed_at(&self, now_ms: i64) -> bool {
        self.bounds.is_some_and(|(_, end)| end <= now_ms)
    }
}

/// The share of players ranked at or below `rank` among `entries`, as the "top N%" a page
/// shows: rank 1 of 200 is the top 0.5%.
pub fn top_percent(rank: u64, entries: u64) -> f64 {
    if entries == 0 {
        return 100.0;
    }
    (rank as f64 / entries as f64 * 100.0).clamp(0.0, 100.0)
}

/// A player's standing on one board: their line and the players just above and below.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub me: Line,
    /// Nearest first is last: the lines just above, in board order.
    pub above: Vec<Line>,
    /// The lines just below, in board order.
    pub below: Vec<Line>,
}

/// One of a player's boards with their line on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MyBoard {
    pub board: BoardId,
    pub line: Line,
    pub entries: u64,
}

/// A page of a board: its summary, lines from some position on, and the viewer's standing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardView {
    pub summary: BoardSummary,
    pub lines: Vec<Line>,
    /// The cursor of the next page, if there is one.
    pub next: Option<String>,
    pub mine: Option<Standing>,
    /// When the projector last brought the boards up to date (`None`: never).
    pub updated_ms: Option<i64>,
    pub now_ms: i64,
    /// Whether the lines come from the archive of a closed board.
    pub archived: bool,
    /// With `?at=<n>`: the position shown (the last, when the board ends before the one asked)
    /// and its row among the lines, which start a few positions before it.
    #[serde(default)]
    pub at: Option<(u64, usize)>,
    /// The position asked for when the board ends before it: the lines are its end.
    #[serde(default)]
    pub past_end: Option<u64>,
}
