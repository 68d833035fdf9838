//! Safety's keys: the hidden set every instance keeps a copy of, and players' reports.
//!
//! The hidden set is one small partition, `HIDDEN`, read whole: its version item, one item per
//! hidden player and one per banned name. Reports are one partition per reported player
//! (`REPORT#<id>`, an item per reporter, so a second report by the same player is refused by
//! its key) and one summary per reported player in the `REPORTS` partition an operator lists.

use super::table::Key;
use crate::ids::UserId;

/// The hidden set's partition, read whole by every instance when its version moves.
pub const HIDDEN: &str = "HIDDEN";

/// The hidden set's version: `HIDDEN` / `V`, one more with every change to the set.
pub fn hidden_version() -> Key {
    Key {
        pk: HIDDEN.to_owned(),
        sk: "V".to_owned(),
    }
}

/// The prefix of a hidden player's sort key in `HIDDEN`.
pub const HIDDEN_PLAYER_PREFIX: &str = "P#";
/// The prefix of a banned name's sort key in `HIDDEN`.
pub const BANNED_NAME_PREFIX: &str = "N#";

/// A hidden player: `HIDDEN` / `P#<id>`.
pub fn hidden_player(user: &UserId) -> Key {
    Key {
        pk: HIDDEN.to_owned(),
        sk: format!("{HIDDEN_PLAYER_PREFIX}{}", user.as_str()),
    }
}

/// A banned name, by its folded form: `HIDDEN` / `N#<folded>`.
pub fn banned_name(folded: &str) -> Key {
    Key {
        pk: HIDDEN.to_owned(),
        sk: format!("{BANNED_NAME_PREFIX}{folded}"),
    }
}

/// The partition of the open reports' summaries, one item per reported player.
pub const REPORTS: &str = "REPORTS";

/// The summary of a player's reports: `REPORTS` / `<id>`.
pub fn report_summary(user: &UserId) -> Key {
    Key {
        pk: REPORTS.to_owned(),
        sk: user.as_str().to_owned(),
    }
}

/// The partition of the reports made about one player.
pub fn reports_of(user: &UserId) -> String {
    format!("REPORT#{}", user.as_str())
}

/// One player's report about another: `REPORT#<reported>` / `BY#<reporter>`.
pub fn report(reported: &UserId, reporter: &UserId) -> Key {
    Key {
        pk: reports_of(reported),
        sk: format!("BY#{}", reporter.as_str()),
    }
}
