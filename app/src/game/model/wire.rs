//! A room on the wire: one object, the lobby's fields and `game` side by side (see [`Room`]).

use serde::{Deserialize, Serialize};

use super::{Match, Room};
use crate::identity::UserId;
use crate::rooms::model::{Lobby, RoomCode, RoomDeck, RoomId, RoomPlayer, RoomSettings, RoomState};

#[derive(Serialize, Deserialize)]
pub(super) struct RoomWire {
    code: RoomCode,
    id: RoomId,
    host_id: UserId,
    settings: RoomSettings,
    state: RoomState,
    players: Vec<RoomPlayer>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    asking: Vec<RoomPlayer>,
    version: u64,
    created_at_ms: i64,
    #[serde(default)]
    locked: bool,
    /// What the room plays, whole, between instances; the browser reads `deck_label` alone
    /// (no code in the bundle to read the rest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(feature = "ssr"), serde(skip))]
    deck: Option<RoomDeck>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    deck_label: Option<String>,
    /// The suggestion box's number and its last vote's (see [`Lobby::suggest`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    suggest: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    vote: Option<u32>,
    #[serde(default)]
    game: Option<Match>,
}

impl From<RoomWire> for Room {
    fn from(wire: RoomWire) -> Self {
        Room {
            lobby: Lobby {
                code: wire.code,
                id: wire.id,
                host_id: wire.host_id,
                settings: wire.settings,
                state: wire.state,
                players: wire.players,
                asking: wire.asking,
                version: wire.version,
                created_at_ms: wire.created_at_ms,
                locked: wire.locked,
                deck: wire.deck.or_else(|| {
                    wire.deck_label.map(|label| RoomDeck {
                        label,
                        pick: String::new(),
                        things: 0,
                    })
                }),
                suggest: wire.suggest,
                vote: wire.vote,
                audience: 0,
                host_seen_ms: None,
                #[cfg(feature = "ssr")]
                rules: Default::default(),
                #[cfg(feature = "ssr")]
                away_host: None,
                #[cfg(feature = "ssr")]
                away_until_ms: None,
            },
            game: wire.game,
        }
    }
}

impl From<Room> for RoomWire {
    fn from(room: Room) -> Self {
        let Lobby {
            code,
            id,
            host_id,
            settings,
            state,
            players,
            asking,
            version,
            created_at_ms,
            locked,
            deck,
            suggest,
            vote,
            audience: _,
            host_seen_ms: _,
            #[cfg(feature = "ssr")]
                rules: _,
            #[cfg(feature = "ssr")]
                away_host: _,
            #[cfg(feature = "ssr")]
                away_until_ms: _,
        } = room.lobby;
        RoomWire {
            code,
            id,
            host_id,
            settings,
            state,
            players,
            asking,
            version,
            created_at_ms,
            locked,
            deck_label: deck.as_ref().map(|d| d.label.clone()),
            deck,
            suggest,
            vote,
            game: room.game,
        }
    }
}
