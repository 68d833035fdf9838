//! Matches' keys: rounds, finished matches, match records, the lifetime counters.

use super::identity::user_partition;
use super::rooms::{room_partition, ROOM_META};
use super::table::Key;
use crate::ids::{RoomCode, RoomId, UserId};

/// Sort-key prefix of a room's rounds.
pub const ROUND_PREFIX: &str = "ROUND#";

/// Round numbers of one match take a block of this many: match `k`'s rounds are numbered from
/// `32(k − 1) + 1`, so a round's place in its match is `(n − 1) mod 32` (at least the most
/// rounds a room may set, 30).
pub const ROUND_SLOTS: u32 = 32;

/// A round of a room's match, its taps in it: `ROOM#<code>` / `ROUND#<slot>`, where the slot is
/// the round's place in its match (two digits). A new match's rounds are put over the last
/// match's, so a room holds one match's rounds however many it plays, and nothing is deleted.
/// The item's `n` and `match_first` say which match it belongs to.
pub fn round(code: &RoomCode, n: u32) -> Key {
    Key {
        pk: room_partition(code),
        sk: format!("{ROUND_PREFIX}{:02}", n.saturating_sub(1) % ROUND_SLOTS),
    }
}

/// The partition of one finished match, kept for good (no `ttl`), apart from the room (whose
/// partition expires) and read by the match's key alone: `MATCH#<room id>#<first round>`. It
/// holds `SUMMARY`, `ROUNDS` and `RECEIPT`, so the match's page is one Query. The room's id, not
/// its code: a code is issued again once its room has expired, an id never (a room made before
/// rooms had ids has its code as its id, so its matches stay where they were written).
pub fn match_partition(room: &RoomId, first: u32) -> String {
    format!("MATCH#{}#{first:05}", room.as_str())
}

/// What a match cost: `MATCH#<room id>#<first round>` / `RECEIPT`.
pub fn match_receipt(room: &RoomId, first: u32) -> Key {
    Key {
        pk: match_partition(room, first),
        sk: MATCH_RECEIPT.to_owned(),
    }
}

pub const MATCH_RECEIPT: &str = "RECEIPT";
pub const MATCH_SUMMARY: &str = "SUMMARY";
pub const MATCH_ROUNDS: &str = "ROUNDS";

/// Who played a match and how it ended: `MATCH#<room id>#<first round>` / `SUMMARY`; also on
/// GSI2 [`RECENT_MATCHES`] and on GSI1 [`room_matches`], both sorted by [`match_sort`].
pub fn match_summary(room: &RoomId, first: u32) -> Key {
    Key {
        pk: match_partition(room, first),
        sk: MATCH_SUMMARY.to_owned(),
    }
}

/// Every round of a match, each player's tap or hold in it: `MATCH#<room id>#<first>` /
/// `ROUNDS`.
pub fn match_rounds(room: &RoomId, first: u32) -> Key {
    Key {
        pk: match_partition(room, first),
        sk: MATCH_ROUNDS.to_owned(),
    }
}

/// GSI2 partition of every finished match's summary (one item per match, 1 write unit), newest
/// first by [`match_sort`].
pub const RECENT_MATCHES: &str = "RECENT";

/// GSI1 partition of one room's finished matches' summaries, newest first by [`match_sort`]:
/// `ROOMMATCHES#<room id>` (a later room with the same code has a list of its own).
pub fn room_matches(room: &RoomId) -> String {
    format!("ROOMMATCHES#{}", room.as_str())
}

/// Sort key of a match summary on GSI1 and GSI2: when it ended (13 digits of epoch ms), then its
/// key, so pages run newest first and two matches ending in one millisecond both appear.
pub fn match_sort(finished_at_ms: i64, room: &RoomId, first: u32) -> String {
    format!("{:013}#{}#{first:05}", finished_at_ms.max(0), room.as_str())
}

/// Where the room's Query starts: everything from `META` on (META, the join queue, players,
/// rounds), which leaves out the audience's seats and the barred (`AUD#`, `BARRED#` sort before
/// `META`). It reads the nickname claims too: `NICK#` sorts after `META` (about 80 B each, one
/// per player; the lobby's reader skips them).
pub const ROOM_READ_FROM: &str = ROOM_META;

/// A player's record of one finished match: `USER#<id>` / `MATCH#<ulid>`, newest last.
pub fn user_match(user: &UserId, match_ulid: &str) -> Key {
    Key {
        pk: user_partition(user),
        sk: format!("{MATCH_PREFIX}{match_ulid}"),
    }
}

/// The results flagged for review, oldest first (GSI1, sparse: only a flagged match record or
/// daily flight carries it; see `game::timing::too_fast_to_believe`): `FLAGGED` / `<finished
/// ms, 13 digits>#<the item's PK>#<its SK>`, so the list names each item it holds.
pub fn flagged(finished_ms: i64, pk: &str, sk: &str) -> Key {
    Key {
        pk: FLAGGED.to_owned(),
        sk: format!("{:013}#{pk}#{sk}", finished_ms.max(0)),
    }
}

/// GSI1's partition of results flagged for review (see [`flagged`]).
pub const FLAGGED: &str = "FLAGGED";

/// Sort-key prefix of a player's match records (and their GSI2 sort key).
pub const MATCH_PREFIX: &str = "MATCH#";

/// Match records are spread over this many GSI2 partitions, `MATCHES#00` … `MATCHES#15`, each
/// player's always in the same one ([`record_shard`]): what rebuilding the boards reads.
pub const RECORD_SHARDS: u32 = 16;

/// The GSI2 partition of a player's match records, newest last by `GSI2SK = MATCH#<ulid>`.
pub fn record_shard(user: &UserId) -> String {
    // FNV-1a: stable across Rust versions and machines, unlike the standard library's hasher.
    let hash = user.as_str().bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    format!("{RECORD_SHARD_PREFIX}{:02}", hash % RECORD_SHARDS)
}

pub const RECORD_SHARD_PREFIX: &str = "MATCHES#";

/// Every GSI2 partition that holds match records: the shards, and the one partition records were
/// written to before them (`MATCHES`).
pub fn record_partitions() -> Vec<String> {
    std::iter::once(LEGACY_RECORDS.to_owned())
        .chain((0..RECORD_SHARDS).map(|k| format!("{RECORD_SHARD_PREFIX}{k:02}")))
        .collect()
}

/// The single GSI2 partition of every match record, as written before the shards.
pub const LEGACY_RECORDS: &str = "MATCHES";

/// Marks one match record as counted on the boards of totals and in the lifetime counters, so
/// the projector counts it once however often it sees it: `USER#<id>` / `COUNTED#<record>`.
pub fn counted_match(user: &UserId, record_id: &str) -> Key {
    Key {
        pk: user_partition(user),
        sk: format!("{COUNTED_PREFIX}{record_id}"),
    }
}

/// The sort-key prefix of the marks of counted match records.
pub const COUNTED_PREFIX: &str = "COUNTED#";

/// A player's lifetime counters: `USER#<id>` / `STATS`, changed only by `ADD` (and an
/// only-if-higher `best_score`).
pub fn user_stats(user: &UserId) -> Key {
    Key {
        pk: user_partition(user),
        sk: "STATS".to_owned(),
    }
}
