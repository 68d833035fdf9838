//! Reports: any player may report another (from the player's page, a board's row or the room's
//! list of players) with a reason from a short list. Reports are kept for
//! [`REPORT_LIFETIME_DAYS`] and counted per reported player, one per reporter; once
//! [`REPORTS_TO_HIDE`] distinct players reported someone, every name of theirs is hidden at
//! once (`identity::hidden`) until an operator reviews them: from `udd-server reports` or the
//! operators' page (`/operator`), which also lists the results fair play flagged.
//!
//! An operator is a claimed account whose username the instance was started with
//! (`UDD_OPERATORS`): no password store of its own, and nothing a player can change.

pub mod api;
pub mod report_page;
pub mod review_page;

#[cfg(feature = "ssr")]
pub mod store;

use serde::{Deserialize, Serialize};

/// Reports from this many distinct players hide a player's names.
pub const REPORTS_TO_HIDE: u32 = 3;

/// How long a report is kept (and counted), in days.
pub const REPORT_LIFETIME_DAYS: i64 = 30;

/// Reports one player may make in an hour.
pub const REPORTS_PER_HOUR: u32 = 10;

/// Why a player is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reason {
    /// Their name is offensive.
    Name,
    /// They were abusive or harassed someone.
    Abuse,
    /// They cheat.
    Cheating,
    /// Something else.
    Other,
}

impl Reason {
    pub const ALL: [Reason; 4] = [Reason::Name, Reason::Abuse, Reason::Cheating, Reason::Other];

    pub fn slug(self) -> &'static str {
        match self {
            Reason::Name => "name",
            Reason::Abuse => "abuse",
            Reason::Cheating => "cheating",
            Reason::Other => "other",
        }
    }

    /// The reason in `l`'s language.
    pub fn label(self, l: crate::lang::Locale) -> String {
        use crate::i18n::td_string;
        match self {
            Reason::Name => td_string!(l, reports.reason_name),
            Reason::Abuse => td_string!(l, reports.reason_abuse),
            Reason::Cheating => td_string!(l, reports.reason_cheating),
            Reason::Other => td_string!(l, reports.reason_other),
        }
        .to_string()
    }
}

/// What became of a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reported {
    /// Counted; `hidden` when it was the one that hid the player.
    Counted { hidden: bool },
    /// This reporter reported this player already: counted once.
    Again,
}

/// The operators: the usernames this instance was started with (`UDD_OPERATORS`).
#[cfg(feature = "ssr")]
#[derive(Debug, Clone, Default)]
pub struct Operators(std::sync::Arc<Vec<crate::identity::Username>>);

#[cfg(feature = "ssr")]
impl Operators {
    pub fn new(usernames: Vec<crate::identity::Username>) -> Self {
        Self(std::sync::Arc::new(usernames))
    }

    /// Whether `player` is an operator: a claimed account with one of the usernames.
    pub fn include(&self, player: &crate::identity::Profile) -> bool {
        player
            .username
            .as_ref()
            .is_some_and(|name| self.0.iter().any(|op| op == name))
    }
}
