//! The boards' keys: each board's partition (counting tree, entries, archive), seasons, the projector.

use super::table::Key;
use crate::ids::{BoardId, Day, SeasonId, UserId};

/// A board's partition: `LB#<metric>.<period>.<scope>`. It holds the board's counting tree (its
/// root is the `META` item, which also carries the board's name and bounds; the other nodes are
/// `N#<level>#<digits>`, and `X#<level>#<digits>` for the scores that escape the main range: see
/// `leaderboards::tree`), one entry per player, the `ENDS` item of a board that closes, and once
/// the board is closed its archive. One partition per board keeps a rank read to one
/// BatchGetItem, lets the LSI order the entries, and puts every entry write of a board in one
/// stream shard, in order, for the projector to count in the tree.
pub fn board_partition(board: &BoardId) -> String {
    format!("{BOARD_PREFIX}{}", board.key())
}

/// The prefix of every board's partition.
pub const BOARD_PREFIX: &str = "LB#";

/// The board whose partition `pk` is, if it is a board's.
pub fn board_of_partition(pk: &str) -> Option<BoardId> {
    BoardId::parse_key(pk.strip_prefix(BOARD_PREFIX)?).ok()
}

/// Sort-key prefixes of the counting tree's nodes below the root: the main tree's
/// (`N#<level>#<digits>`) and the escape tree's (`X#<level>#<digits>`).
pub const TREE_NODE_PREFIX: &str = "N#";
pub const TREE_ESCAPE_PREFIX: &str = "X#";

/// A band node of the main tree (level 1): `N#1#<band, 2 digits>`.
pub fn tree_band(band: u8) -> String {
    format!("{TREE_NODE_PREFIX}1#{band:02}")
}

/// A leaf node of the main tree (level 2): `N#2#<band><hundred>`.
pub fn tree_leaf(band: u8, hundred: u8) -> String {
    format!("{TREE_NODE_PREFIX}2#{band:02}{hundred:02}")
}

/// A node of the escape tree: `X#<level>#<the value's first level base-100 digits>` (the root,
/// level 0, has none).
pub fn tree_escape(level: u8, prefix: u64) -> String {
    if level == 0 {
        format!("{TREE_ESCAPE_PREFIX}0#")
    } else {
        format!(
            "{TREE_ESCAPE_PREFIX}{level}#{prefix:0width$}",
            width = 2 * usize::from(level)
        )
    }
}

/// Sort key of a board's root node and metadata.
pub const BOARD_META: &str = "META";

/// A board's metadata and the root of its counting tree: `LB#<board>` / `META`.
pub fn board_meta(board: &BoardId) -> Key {
    Key {
        pk: board_partition(board),
        sk: BOARD_META.to_owned(),
    }
}

/// Sort-key prefix of the first tree's nodes (`T#<level>#<prefix>`), which the conversion to
/// the present tree deletes.
pub const OLD_TREE_PREFIX: &str = "T#";

/// A day's or a week's board among the boards ending on its last day (on GSI2, for the
/// closer): `LB#<board>` / `ENDS`.
pub fn board_ends(board: &BoardId) -> Key {
    Key {
        pk: board_partition(board),
        sk: "ENDS".to_owned(),
    }
}

/// Which version of the boards' layout the table holds: `BOARDS` / `SHAPE`.
pub fn boards_shape() -> Key {
    Key {
        pk: "BOARDS".to_owned(),
        sk: "SHAPE".to_owned(),
    }
}

/// Sort-key prefix of a board's entries.
pub const BOARD_ENTRY_PREFIX: &str = "E#";

/// A player's entry on a board: `LB#<board>` / `E#<id>`.
pub fn board_entry(board: &BoardId, user: &UserId) -> Key {
    Key {
        pk: board_partition(board),
        sk: format!("{BOARD_ENTRY_PREFIX}{}", user.as_str()),
    }
}

/// LSI1 sort key of a board entry: `R#<tree value, 10 digits>#<time it was reached, inverted,
/// 13 digits>#<player>`, so in descending order a higher value comes first and, between equal
/// values, the one reached earlier; the player's id makes every key unique, so "the entries just
/// above mine" is a strict key condition. Only entries carry it, so the LSI holds nothing else.
pub fn board_rank_sort(value: u64, reached_ms: i64, user: &UserId) -> String {
    let inverted = 9_999_999_999_999 - reached_ms.clamp(0, 9_999_999_999_999);
    format!(
        "{BOARD_RANK_PREFIX}{value:010}#{inverted:013}#{}",
        user.as_str()
    )
}

/// The highest LSI1 sort key an entry with tree value `value` can have: where a walk down the
/// board from that value starts.
pub fn board_rank_ceiling(value: u64) -> String {
    format!("{BOARD_RANK_PREFIX}{value:010}#~")
}

/// The LSI1 prefix every board entry's sort key starts with.
pub const BOARD_RANK_PREFIX: &str = "R#";

/// A closed board's top entries, kept after its live items expire: `LB#<board>` / `ARCHIVE`.
pub fn board_archive(board: &BoardId) -> Key {
    Key {
        pk: board_partition(board),
        sk: "ARCHIVE".to_owned(),
    }
}

/// GSI2 partition of the day's and week's boards whose period ends on `day`: what the closer
/// archives (`GSI2SK = <board>`, set on each such board's `ENDS` item).
pub fn boards_ending(day: &Day) -> String {
    format!("BOARDS#ENDS#{day}")
}

/// The operator's seasons, in start order: `SEASONS` / `S#<start ms, 13 digits>#<id>`.
pub const SEASONS: &str = "SEASONS";

pub fn season(start_ms: i64, id: &SeasonId) -> Key {
    Key {
        pk: SEASONS.to_owned(),
        sk: format!("S#{start_ms:013}#{}", id.as_str()),
    }
}

/// The projector's lease and checkpoint for one shard of the table's stream:
/// `PROJECTOR` / `SHARD#<shard id>`.
pub fn projector_shard(shard_id: &str) -> Key {
    Key {
        pk: PROJECTOR.to_owned(),
        sk: format!("SHARD#{shard_id}"),
    }
}

pub const PROJECTOR: &str = "PROJECTOR";

/// When the projector last applied a batch to the boards: `PROJECTOR` / `STATUS`.
pub fn projector_status() -> Key {
    Key {
        pk: PROJECTOR.to_owned(),
        sk: "STATUS".to_owned(),
    }
}
