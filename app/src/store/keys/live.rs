//! Live rooms' keys: open-stream counts and the instances' registry.

use super::table::Key;

/// A client's open live streams counted in one window: `STREAMS#<client address>` /
/// `W#<window number>`.
pub fn stream_window(client: &str, window: i64) -> Key {
    Key {
        pk: format!("STREAMS#{client}"),
        sk: format!("W#{window}"),
    }
}

/// The server instances sharing the table, each announcing itself: `INSTANCES` /
/// `I#<instance id>` (see `live/peers.rs`). One partition: a few items, written every few
/// seconds each, read by each instance every few seconds.
pub const INSTANCES: &str = "INSTANCES";

/// One instance's announcement: `INSTANCES` / `I#<instance id>`.
pub fn instance(id: &str) -> Key {
    Key {
        pk: INSTANCES.to_owned(),
        sk: format!("{INSTANCE_PREFIX}{id}"),
    }
}

/// The sort-key prefix of an instance's announcement.
pub const INSTANCE_PREFIX: &str = "I#";

/// The instance an announcement's sort key names.
pub fn instance_of(sk: &str) -> Option<&str> {
    sk.strip_prefix(INSTANCE_PREFIX)
}
