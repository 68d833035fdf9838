//! Rooms' keys: the room partition (its META, players, nicknames, rounds) and the open rooms.

use super::table::Key;
use crate::ids::{RoomCode, UserId};

/// A room's partition: `ROOM#<code>`: META, players, nickname claims and rounds (with their
/// taps). One Query of it renders the room.
pub fn room_partition(code: &RoomCode) -> String {
    format!("ROOM#{}", code.as_str())
}

/// A room's settings and state: `ROOM#<code>` / `META`.
/// Sort key of a room's META item.
pub const ROOM_META: &str = "META";

pub fn room_meta(code: &RoomCode) -> Key {
    Key {
        pk: room_partition(code),
        sk: ROOM_META.to_owned(),
    }
}

/// A player in a room: `ROOM#<code>` / `PLAYER#<id>`.
pub fn room_player(code: &RoomCode, user: &UserId) -> Key {
    Key {
        pk: room_partition(code),
        sk: format!("{ROOM_PLAYER_PREFIX}{}", user.as_str()),
    }
}

/// Sort-key prefix of the players in a room partition.
pub const ROOM_PLAYER_PREFIX: &str = "PLAYER#";

/// LSI1 sort key of a player: join order, so the longest-present player is first.
pub fn room_player_joined(joined_ms: i64, user: &UserId) -> String {
    format!("JOINED#{joined_ms:013}#{}", user.as_str())
}

/// GSI1 partition of the rooms a player hosts (`GSI1SK` = [`hosting_sort`]): only the host's
/// own PLAYER item in each room carries it (a sparse entry), moved in every write that changes
/// the host, so signing out finds the rooms to hand on with one Query.
pub fn hosting(user: &UserId) -> String {
    format!("HOSTING#{}", user.as_str())
}

/// GSI1 sort key of a room among those its host hosts: the room's code.
pub fn hosting_sort(code: &RoomCode) -> String {
    code.as_str().to_owned()
}

/// Claims a nickname inside a room: `ROOM#<code>` / `NICK#<folded name>`.
pub fn room_nickname(code: &RoomCode, folded: &str) -> Key {
    Key {
        pk: room_partition(code),
        sk: format!("NICK#{folded}"),
    }
}

/// GSI2 partition of public rooms still in the lobby (a sparse index: only those rooms carry
/// `GSI2PK`), newest first by `GSI2SK = <created ms>#<code>`.
pub const OPEN_ROOMS: &str = "ROOMS#OPEN";

pub fn open_room_sort(created_ms: i64, code: &RoomCode) -> String {
    format!("{created_ms:013}#{}", code.as_str())
}

/// Someone in a room's audience: `ROOM#<code>` / `AUD#<id>`, with their calls (the rounds they
/// tapped along in, by room-wide round number). Before `META` in the partition, so the room's
/// own Query ([`super::ROOM_READ_FROM`] on) never reads the audience.
pub fn audience_seat(code: &RoomCode, user: &UserId) -> Key {
    Key {
        pk: room_partition(code),
        sk: format!("{AUDIENCE_PREFIX}{}", user.as_str()),
    }
}

/// Sort-key prefix of the audience in a room partition.
pub const AUDIENCE_PREFIX: &str = "AUD#";

/// Someone waiting to be let into a room whose host approves each join: `ROOM#<code>` /
/// `QUEUE#<id>`, with the name and avatar they will join with and a `ttl`
/// ([`crate::rooms::asks`]). After `META`, so the room's own Query ([`super::ROOM_READ_FROM`] on)
/// reads the queue with the players: the host's page costs nothing more.
pub fn room_ask(code: &RoomCode, user: &UserId) -> Key {
    Key {
        pk: room_partition(code),
        sk: format!("{ROOM_ASK_PREFIX}{}", user.as_str()),
    }
}

/// Sort-key prefix of the queue in a room partition.
pub const ROOM_ASK_PREFIX: &str = "QUEUE#";

/// Someone the host turned away, who may not ask again until its `ttl`: `ROOM#<code>` /
/// `BARRED#<id>`, one for the player and one for their browser's room mark
/// (`BARRED#M#<mark>`, see `identity::room_mark`). Before `META`: read only by the ask's
/// condition, never by the room's Query.
pub fn room_barred(code: &RoomCode, who: &str) -> Key {
    Key {
        pk: room_partition(code),
        sk: format!("BARRED#{who}"),
    }
}

/// How a browser's room mark is written where a player's id also goes (a room's `removed` set,
/// a `BARRED#` key): `M#<mark>`, never a player's id.
pub fn marked(mark: &str) -> String {
    format!("M#{mark}")
}
