//! Suggestions' keys: a room's suggestion box is a partition of its own, keyed by the room's id
//! (a code is issued again once its room expires), never the room's partition, which every
//! room load reads whole.

use super::table::Key;
use crate::ids::RoomId;

/// A room's suggestion box: `SUGGEST#<room id>`.
pub fn suggestions(room: &RoomId) -> String {
    format!("SUGGEST#{}", room.as_str())
}

/// One suggestion in room `room`'s box, `SUGGEST#<room id>` / `S#<id>` (a ULID: oldest first).
pub fn suggestion(room: &RoomId, id: &str) -> Key {
    Key {
        pk: suggestions(room),
        sk: format!("{SUGGESTION_PREFIX}{id}"),
    }
}

/// The sort-key prefix of a box's suggestions.
pub const SUGGESTION_PREFIX: &str = "S#";
