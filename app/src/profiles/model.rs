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
}

/// One board the player is on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileBoard {
    pub name: String,
    pub href: String,
    pub rank: u64,
    pub entries: u64,
    pub score: i64,
}

impl ProfileBoard {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_top_share_rounds_up_and_never_reads_zero() {
        let board = |rank, entries| ProfileBoard {
            name: String::new(),
            href: String::new(),
            rank,
            entries,
            score: 0,
        };
        assert_eq!(board(1, 1).top_in(Locale::en), "top 100%");
        assert_eq!(board(1, 1000).top_in(Locale::en), "top 1%");
        assert_eq!(board(120, 1000).top_in(Locale::en), "top 12%");
        assert_eq!(board(121, 1000).top_in(Locale::en), "top 13%");
        assert_eq!(board(3, 0).top_in(Locale::en), "top 100%");
        assert_eq!(board(120, 1000).top_in(Locale::en), "top 12%");
        assert_eq!(board(120, 1000).top_in(Locale::hi), "टॉप 12%");
    }
}
