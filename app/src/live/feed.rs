//! The live room channel. Every page that shows a room listens to `GET /r/<CODE>/events`, a
//! stream of Server-Sent Events whose each message is the room as it is now ([`RoomFeed`]).
//!
//! The table is the only source of truth. On the server, one `RoomHub` per instance keeps one
//! watcher per room that has listeners on that instance. A write made through an instance pokes
//! its watcher, which reads the room once and passes it to the other instances as news
//! (`peers`), so listeners everywhere hear within milliseconds; a slow poll of the room's
//! version is the safety net. A lost instance loses nothing: its browsers reconnect (to any
//! instance) and are sent the room as it is.

use serde::{Deserialize, Serialize};

use crate::game::model::Room;
use crate::rooms::model::RoomCode;

/// One message of the room's stream: a snapshot, never a diff, so a listener that missed
/// messages (or reconnected) is up to date with the next one. On the wire `{"lobby":{…}}` or
/// `"ended"`: externally tagged, because an internally tagged enum makes serde buffer the
/// message and carry a second copy of every nested decoder in the browser bundle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
// One message per change, decoded once and dropped: the size of `Ended` costs nothing here.
#[allow(clippy::large_enum_variant)]
pub enum RoomFeed {
    /// The room: lobby, and the match as far as it may be seen now (named on the wire as it
    /// always was).
    #[serde(rename = "lobby")]
    Room(Room),
    /// The room is gone (its last player left, or it expired). The stream ends after this.
    Ended,
    /// This page's player opened the room on another device (another session), on any
    /// instance: their seat follows them there. This stream ends after this.
    Moved,
}

/// Where a room's stream is served.
pub fn events_path(code: &RoomCode) -> String {
    format!("/r/{code}/events")
}

/// The query of a stream opened for nobody in particular (the big screen): the server does not
/// read the session cookie it carries, so it never moves that player's seat or stands in for
/// them (see `http::router::live_events`).
pub const FOR_NOBODY: &str = "nobody";
