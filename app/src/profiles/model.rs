//! What a profile page shows.

use serde::{Deserialize, Serialize};

use crate::game::model::MatchRecord;
use crate::i18n::td_string;
use crate::identity::{Avatar, DisplayName, UserId, Username};
use crate::inventory::model::SetProgress;
use crate::lang::Locale;
use crate::leaderboards::model::PlayerStats;

/// A player's public page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileView {
    pub user_id: UserId,
    pub nickname: DisplayName,
    pub avatar: Avatar,
    /// Set once the player has claimed an account; a guest has none.
    pub username: Option<Username>,
    pub joined_ms: i64,
    pub stats: PlayerStats,
    pub boards: Vec<ProfileBoard>,
    pub sets: Vec<SetProgress>,
    /// A page of their matches, newest first, and the cursor of the next.
    pub matches: Vec<MatchRecord>,
    pub next: Option<String>,
    /// Whether the reader is this player.
    pub mine: bool,
    /// Others see a tag for this player's name (`identity::hidden`): they are asked to rename.
    #[serde(default)]
    pub name_hidden: bool,
    /// Their days in a row of the daily flight.
    pub days: DaysInARow,
}

/// Days in a row of the daily flight, as the projector counted them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DaysInARow {
    /// The run that ended on `last`: still going only if `last` is today or yesterday.
    pub run: u32,
    pub best: u32,
    pub last: Option<crate::ids::Day>,
}

impl DaysInARow {
    /// The run as it stands on `today`: 0 once a day has been missed.
    pub fn on(&self, today: crate::ids::Day) -> u32 {
        match self.last {
            Some(last) if (0..=1).contains(&(today.index() - last.index())) => self.run,
            _ => 0,
        }
    }
}

/// One board the player is on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileBoard {
    pub name: String,
    /// The board's metric and scope ("Best match · everyone"): the profile groups by it.
    pub group: String,
    /// The board's period ("all time", "2026-W48"): its name within its group.
    pub period: String,
    pub href: String,
    pub rank: u64,
    pub entries: u64,
    pub score: i64,
}

impl ProfileBoard {
    /// `board`'s line for a player at `rank` of `entries` with `score`, named in `l`'s language.
    #[cfg(feature = "ssr")]
    pub fn new(
        l: Locale,
        board: &crate::leaderboards::model::BoardId,
        seasons: &[crate::leaderboards::period::Season],
        (rank, entries, score): (u64, u64, i64),
    ) -> Self {
        let (metric, period, scope) =
            crate::leaderboards::period::board_parts_in(l, board, seasons);
        ProfileBoard {
            name: crate::leaderboards::period::board_name_in(l, board, seasons),
            group: format!("{metric} · {scope}"),
            period,
            href: board.href(),
            rank,
            entries,
            score,
        }
    }

    /// "top 12%" in `l`'s language (at least 1, whole percents: `rank / entries`, rounded up).
    pub fn top_in(&self, l: Locale) -> String {
        td_string!(l, profiles.top, percent = self.top_percent()).to_string()
    }

    fn top_percent(&self) -> u64 {
        let entries = self.entries.max(1);
        (self.rank.saturating_mul(100))
            .div_ceil(entries)
            .clamp(1, 100)
    }
}
