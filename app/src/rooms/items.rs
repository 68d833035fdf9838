//! A room's items as stored: META (settings, state, version, seats, the removed players, the
//! lock, the rules for strangers, when the host was last seen), one PLAYER item per player (the
//! host's also on GSI1 under `HOSTING#<id>`), one NICK item per nickname and one QUEUE item per
//! visitor waiting to be let in, with their `ttl`; reading the lobby
//! from them; and the values other features build their conditions with (`state_value`,
//! `open_index`), so no other feature spells a room attribute's stored form.

use aws_sdk_dynamodb::types::AttributeValue;
use serde::{Deserialize, Serialize};

use crate::identity::model::{Avatar, DisplayName, UserId};
use crate::ids::Look;
use crate::rooms::model::{
    Lobby, RoomCode, RoomDeck, RoomId, RoomPlayer, RoomRules, RoomSettings, RoomState,
};
use crate::store::keys::{self, Key};
use crate::store::{sort_key, DataError, Item};

/// A room lives this long after its last change of membership.
pub const ROOM_IDLE_SECS: i64 = 24 * 3600;

#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct MetaItem {
    #[serde(rename = "PK")]
    pub(crate) pk: String,
    #[serde(rename = "SK")]
    pub(crate) sk: String,
    #[serde(rename = "GSI2PK", default, skip_serializing_if = "Option::is_none")]
    pub(crate) gsi2pk: Option<String>,
    #[serde(rename = "GSI2SK", default, skip_serializing_if = "Option::is_none")]
    pub(crate) gsi2sk: Option<String>,
    pub(crate) code: RoomCode,
    /// Absent on a room made before rooms had ids (see [`RoomId`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) room_id: Option<RoomId>,
    pub(crate) host_id: UserId,
    pub(crate) max_players: u8,
    pub(crate) rounds: u8,
    pub(crate) window_ms: u16,
    pub(crate) public: bool,
    pub(crate) state: RoomState,
    pub(crate) player_count: u32,
    pub(crate) version: u64,
    pub(crate) created_at_ms: i64,
    pub(crate) ttl: i64,
    /// Set by the host's lock; absent is unlocked.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) locked: bool,
    /// When the host was last seen, epoch ms (see [`Lobby::host_seen_ms`]); absent on rooms
    /// made before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) host_seen: Option<i64>,
    /// See [`Lobby::away_host`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) away_host: Option<UserId>,
    /// See [`Lobby::away_until_ms`]; a match's start removes it ([`AWAY_UNTIL`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) away_until: Option<i64>,
    /// See [`Lobby::audience`]; absent is none.
    #[serde(default)]
    pub(crate) audience: u32,
    /// The host's rules for strangers (see [`crate::rooms::model::RoomRules`]); absent is off.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) friendly: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) approve: bool,
    /// What the room plays (see [`Lobby::deck`]); absent is the whole catalog.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) deck: Option<RoomDeck>,
    /// See [`Lobby::suggest`] and [`Lobby::vote`]; absent while the box is closed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) suggest: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) vote: Option<u32>,
}

/// How long a visitor's ask waits for the host before it lapses.
pub const ASK_SECS: i64 = 30 * 60;

/// A visitor waiting to be let in (see [`keys::room_ask`]): who they will join as.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct AskItem {
    #[serde(rename = "PK")]
    pub(crate) pk: String,
    #[serde(rename = "SK")]
    pub(crate) sk: String,
    pub(crate) user_id: UserId,
    pub(crate) nickname: DisplayName,
    pub(crate) avatar: Avatar,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) look: Option<String>,
    pub(crate) asked_at_ms: i64,
    /// Their browser's room mark, kept out with them if they are turned away.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) mark: Option<String>,
    pub(crate) ttl: i64,
}

/// META's attribute that lets an away host take the room back: a match's start removes it.
pub const AWAY_UNTIL: &str = "away_until";

#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct PlayerItem {
    #[serde(rename = "PK")]
    pub(crate) pk: String,
    #[serde(rename = "SK")]
    pub(crate) sk: String,
    #[serde(rename = "LSI1SK")]
    pub(crate) lsi1sk: String,
    /// On the host's item only: `HOSTING#<id>` / the code (see [`keys::hosting`]).
    #[serde(rename = "GSI1PK", default, skip_serializing_if = "Option::is_none")]
    pub(crate) gsi1pk: Option<String>,
    #[serde(rename = "GSI1SK", default, skip_serializing_if = "Option::is_none")]
    pub(crate) gsi1sk: Option<String>,
    pub(crate) user_id: UserId,
    pub(crate) nickname: DisplayName,
    pub(crate) avatar: Avatar,
    /// The look the player wore when they joined (a shop item's id; unknown ids read as none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) look: Option<String>,
    pub(crate) joined_at_ms: i64,
    pub(crate) ttl: i64,
    /// Their browser's room mark when they joined (see `identity::session::room_mark`): kept
    /// out with them if the host removes them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) mark: Option<String>,
    /// How many friendly names they drew again (at most [`crate::rooms::friendly::REROLLS`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(crate) rerolls: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct NicknameItem {
    #[serde(rename = "PK")]
    pub(crate) pk: String,
    #[serde(rename = "SK")]
    pub(crate) sk: String,
    pub(crate) user_id: UserId,
    pub(crate) ttl: i64,
}

pub(crate) fn open_index(
    settings: RoomSettings,
    state: RoomState,
    created_ms: i64,
    code: &RoomCode,
) -> (Option<String>, Option<String>) {
    if settings.public && state == RoomState::Lobby {
        (
            Some(keys::OPEN_ROOMS.to_owned()),
            Some(keys::open_room_sort(created_ms, code)),
        )
    } else {
        (None, None)
    }
}

/// The stored value of a room state: serde's name for it, the one the META item holds, so a
/// condition on the state can never drift from what is written.
pub fn state_value(state: RoomState) -> AttributeValue {
    match serde_dynamo::to_attribute_value(state) {
        Ok(value) => value,
        // A unit variant always serializes to its name.
        Err(_) => AttributeValue::Null(true),
    }
}

/// The lobby from the room's items (see [`Rooms::room_items`]); `None` without a META item.
/// Players in join order, the queue in ask order (lapsed asks left out).
pub fn lobby_from_items(items: &[Item]) -> Result<Option<Lobby>, DataError> {
    let mut meta = None;
    let mut players = Vec::new();
    let mut asking = Vec::new();
    let now = crate::store::epoch_seconds();
    for item in items {
        let sk = sort_key(item);
        if sk == keys::ROOM_META {
            meta = Some(serde_dynamo::from_item::<_, MetaItem>(item.clone())?);
        } else if sk.starts_with(keys::ROOM_PLAYER_PREFIX) {
            players.push(serde_dynamo::from_item::<_, PlayerItem>(item.clone())?);
        } else if sk.starts_with(keys::ROOM_ASK_PREFIX) {
            let ask = serde_dynamo::from_item::<_, AskItem>(item.clone())?;
            if ask.ttl > now {
                asking.push(RoomPlayer {
                    user_id: ask.user_id,
                    nickname: ask.nickname,
                    avatar: ask.avatar,
                    look: ask.look.as_deref().and_then(Look::parse),
                    joined_at_ms: ask.asked_at_ms,
                    away: false,
                });
            }
        }
    }
    let Some(meta) = meta else {
        return Ok(None);
    };
    players.sort_by(|a, b| (a.joined_at_ms, &a.user_id).cmp(&(b.joined_at_ms, &b.user_id)));
    asking.sort_by(|a, b| (a.joined_at_ms, &a.user_id).cmp(&(b.joined_at_ms, &b.user_id)));
    Ok(Some(Lobby {
        id: meta.room_id.unwrap_or_else(|| RoomId::legacy(&meta.code)),
        code: meta.code,
        host_id: meta.host_id,
        settings: RoomSettings {
            max_players: meta.max_players,
            rounds: meta.rounds,
            window_ms: meta.window_ms,
            public: meta.public,
        },
        state: meta.state,
        players: players
            .into_iter()
            .map(|player| RoomPlayer {
                user_id: player.user_id,
                nickname: player.nickname,
                avatar: player.avatar,
                look: player.look.as_deref().and_then(Look::parse),
                joined_at_ms: player.joined_at_ms,
                away: false,
            })
            .collect(),
        asking,
        rules: RoomRules {
            friendly: meta.friendly,
            approve: meta.approve,
        },
        version: meta.version,
        created_at_ms: meta.created_at_ms,
        locked: meta.locked,
        audience: meta.audience,
        host_seen_ms: meta.host_seen,
        away_host: meta.away_host,
        away_until_ms: meta.away_until,
        deck: meta.deck,
        suggest: meta.suggest,
        vote: meta.vote,
    }))
}

pub(crate) fn player_item(
    code: &RoomCode,
    user: &UserId,
    nickname: &DisplayName,
    avatar: Avatar,
    look: Option<Look>,
    now_ms: i64,
    hosting: bool,
) -> PlayerItem {
    let Key { pk, sk } = keys::room_player(code, user);
    PlayerItem {
        pk,
        sk,
        lsi1sk: keys::room_player_joined(now_ms, user),
        gsi1pk: hosting.then(|| keys::hosting(user)),
        gsi1sk: hosting.then(|| keys::hosting_sort(code)),
        user_id: user.clone(),
        nickname: nickname.clone(),
        avatar,
        look: look.map(|l| l.id().to_owned()),
        joined_at_ms: now_ms,
        ttl: now_ms / 1000 + ROOM_IDLE_SECS,
        mark: None,
        rerolls: 0,
    }
}

pub(crate) fn nickname_item(
    code: &RoomCode,
    user: &UserId,
    nickname: &DisplayName,
    now_ms: i64,
) -> NicknameItem {
    let Key { pk, sk } = keys::room_nickname(code, &nickname.folded());
    NicknameItem {
        pk,
        sk,
        user_id: user.clone(),
        ttl: now_ms / 1000 + ROOM_IDLE_SECS,
    }
}
