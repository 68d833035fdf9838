//! Access patterns of rooms: create, join, the lobby (one Query of the room partition) and the
//! list of open public rooms (a sparse GSI2 partition); leave, kick and settings are in
//! `members`, the items themselves in `items`.
//!
//! Joining is one transaction whose conditions enforce capacity, the lobby state and nickname
//! uniqueness, so concurrent joins can never overfill a room. Changes that depend on who is in
//! the room (leave, kick, host hand-over, settings) read the lobby, then write in a transaction
//! conditioned on the room's `version` being unchanged, and retry if it moved.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::identity::model::{Avatar, DisplayName, UserId};
use crate::ids::Look;
pub use crate::rooms::items::ROOM_IDLE_SECS;
use crate::rooms::items::{lobby_from_items, nickname_item, open_index, player_item, MetaItem};
use crate::rooms::model::{
    Lobby, OpenRoom, RoomCode, RoomDeck, RoomId, RoomPlayer, RoomRules, RoomSettings, RoomState,
};
use crate::store::expr::{attr, Compare, Cond, Expr, Expressions, KeyCond};
use crate::store::keys::{self, Key};
use crate::store::tx::{n, s};
use crate::store::{epoch_millis, epoch_seconds, key_map, Conflict, DataError, Item, Page};

pub mod asks;
pub mod control;
pub mod joining;
pub mod members;
pub mod suggest_box;

crate::store::handle!(
    /// The access patterns of rooms: create, join, the lobby, members, hosting.
    Rooms,
    rooms
);

/// How often a version-guarded change is retried when the room changed under it.
pub(crate) const MAX_ATTEMPTS: u32 = 6;

/// A room's pulse: what its watcher polls (see [`Rooms::room_pulse`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomPulse {
    /// Grows with every change a listener should see.
    pub version: u64,
    pub host_id: UserId,
    /// When the host was last seen (epoch ms); `None` for a room from before it was kept.
    pub host_seen_ms: Option<i64>,
    pub player_count: u32,
}

/// How a join ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Joined {
    Joined,
    /// The player was in the room already: joining twice changes nothing.
    AlreadyIn,
}

/// Who takes a place in a room (or asks for one): the player, the name and avatar they take it
/// with, the look they wear (copied from their profile, so the lobby shows it without another
/// read) and their browser's room mark (`identity::session::room_mark`), kept out with them if
/// the host removes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Joiner {
    pub user: UserId,
    pub nickname: DisplayName,
    pub avatar: Avatar,
    pub look: Option<Look>,
    pub mark: Option<String>,
}

impl Joiner {
    /// A player with a name and an avatar, no look and no mark.
    pub fn new(user: &UserId, nickname: &DisplayName, avatar: Avatar) -> Self {
        Self {
            user: user.clone(),
            nickname: nickname.clone(),
            avatar,
            look: None,
            mark: None,
        }
    }
}

/// Why a room action was refused, in words for the player.
#[derive(Debug, thiserror::Error)]
pub enum RoomConflict {
    #[error("That room code is in use.")]
    CodeTaken,
    #[error("There is no open room with that code. It may have ended.")]
    NotFound,
    #[error("That room is full.")]
    Full,
    #[error("Someone in that room already uses that name. Pick another.")]
    NicknameTaken,
    #[error("That room's match has already started.")]
    Started,
    #[error("Only the host can do that.")]
    NotHost,
    #[error("The host removed you from this room.")]
    Removed,
    #[error("That player is not in the room.")]
    NotInRoom,
    #[error("The room holds more players than that already.")]
    TooManyForSettings,
    #[error("The host has locked this room.")]
    Locked,
    #[error("The host turned you away. You can ask again in a few minutes.")]
    TurnedAway,
    #[error("You have drawn all the names you can in this room.")]
    NoMoreNames,
    #[error("That player is not asking to join.")]
    NotAsking,
    /// More rounds than the room's deck has things (`things`).
    #[error("The room's deck has only {things} things: that many rounds at most.")]
    TooFewThings { things: u32 },
    #[error(transparent)]
    Data(#[from] DataError),
}

impl Rooms<'_> {
    /// Opens a room under `code` with its creator as host and first player. A code in use is
    /// [`RoomConflict::CodeTaken`]: the caller draws another.
    pub async fn create_room(
        self,
        code: &RoomCode,
        host: &UserId,
        nickname: &DisplayName,
        avatar: Avatar,
        settings: RoomSettings,
    ) -> Result<Lobby, RoomConflict> {
        let host = Joiner::new(host, nickname, avatar);
        self.create_room_looking(code, &host, settings, RoomRules::default(), None)
            .await
    }

    /// [`Rooms::create_room`] with the host as a [`Joiner`] (their look and mark), the room's
    /// rules for strangers and what it plays (`None`: the whole catalog; its `things` bound the
    /// rounds).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn create_room_looking(
        self,
        code: &RoomCode,
        joiner: &Joiner,
        settings: RoomSettings,
        rules: RoomRules,
        deck: Option<RoomDeck>,
    ) -> Result<Lobby, RoomConflict> {
        let (host, nickname, avatar, look) =
            (&joiner.user, &joiner.nickname, joiner.avatar, joiner.look);
        let mut settings = settings;
        if let Some(deck) = &deck {
            let most = u8::try_from(deck.things).unwrap_or(u8::MAX).max(1);
            settings.rounds = settings.rounds.min(most);
        }
        let now_ms = epoch_millis();
        let Key { pk, sk } = keys::room_meta(code);
        let (gsi2pk, gsi2sk) = open_index(settings, RoomState::Lobby, now_ms, code);
        // The room itself, apart from its code (which is issued again once it expires).
        let id = RoomId::generate(code);
        let meta = MetaItem {
            pk,
            sk,
            gsi2pk,
            gsi2sk,
            code: code.clone(),
            room_id: Some(id.clone()),
            host_id: host.clone(),
            max_players: settings.max_players,
            rounds: settings.rounds,
            window_ms: settings.window_ms,
            public: settings.public,
            state: RoomState::Lobby,
            player_count: 1,
            version: 1,
            created_at_ms: now_ms,
            ttl: now_ms / 1000 + ROOM_IDLE_SECS,
            locked: false,
            // A new host is seen now: the away-host clock starts with the room.
            host_seen: Some(now_ms),
            away_host: None,
            away_until: None,
            audience: 0,
            friendly: rules.friendly,
            approve: rules.approve,
            deck: deck.clone(),
            suggest: None,
            vote: None,
        };
        let mut player = player_item(code, host, nickname, avatar, look, now_ms, true);
        player.mark = joiner.mark.clone();
        let actions = vec![
            self.put_new(serde_dynamo::to_item(&meta).map_err(DataError::from)?)?,
            self.put_new(serde_dynamo::to_item(player).map_err(DataError::from)?)?,
            self.put_new(
                serde_dynamo::to_item(nickname_item(code, host, nickname, now_ms))
                    .map_err(DataError::from)?,
            )?,
        ];
        match self.transact(actions).await {
            Ok(()) => {}
            // Still contended after the retries: busy, not a taken code.
            Err(err @ DataError::Conflict(Conflict::TransactionConflict)) => return Err(err.into()),
            Err(DataError::Conflict(_)) => return Err(RoomConflict::CodeTaken),
            Err(err) => return Err(err.into()),
        }
        Ok(Lobby {
            code: code.clone(),
            id,
            host_id: host.clone(),
            settings,
            state: RoomState::Lobby,
            players: vec![RoomPlayer {
                user_id: host.clone(),
                nickname: nickname.clone(),
                avatar,
                look,
                joined_at_ms: now_ms,
                away: false,
            }],
            asking: Vec::new(),
            rules,
            version: 1,
            created_at_ms: now_ms,
            locked: false,
            deck,
            audience: 0,
            host_seen_ms: Some(now_ms),
            away_host: None,
            away_until_ms: None,
            suggest: None,
            vote: None,
        })
    }

    /// Every item of the room partition from `META` on (settings, players and the match's
    /// rounds; the taps sort before `META` and are left out): one consistent Query. The lobby
    /// reads its part of them ([`lobby_from_items`]); the game reads the match from the same
    /// items, so the room page costs one Query.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn room_items(self, code: &RoomCode) -> Result<Vec<Item>, DataError> {
        self.query_all(
            self.client
                .query()
                .expressions(Expr::query(
                    KeyCond::partition(keys::PK, s(keys::room_partition(code))).compare(
                        keys::SK,
                        Compare::Ge,
                        s(keys::ROOM_READ_FROM),
                    ),
                ))
                .consistent_read(true),
        )
        .await
    }

    /// The nicknames, by player, of those of `players` who are in the room now: one
    /// BatchGetItem of their PLAYER items. What an offer "to someone in your room" checks.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn room_nicknames(
        self,
        code: &RoomCode,
        players: &[&UserId],
    ) -> Result<std::collections::HashMap<UserId, DisplayName>, DataError> {
        let wanted = players.iter().map(|p| keys::room_player(code, p)).collect();
        let mut found = std::collections::HashMap::new();
        for item in self.batch_get(wanted, true).await? {
            let player: crate::rooms::items::PlayerItem = serde_dynamo::from_item(item)?;
            found.insert(player.user_id, player.nickname);
        }
        Ok(found)
    }

    /// The room's lobby: its settings and players, from one Query of its partition. `None`
    /// for an unknown or expired room.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn lobby(self, code: &RoomCode) -> Result<Option<Lobby>, DataError> {
        lobby_from_items(&self.room_items(code).await?)
    }

    /// The room's version alone: [`Rooms::room_pulse`]'s version. `None` for an unknown or expired
    /// room.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn room_version(self, code: &RoomCode) -> Result<Option<u64>, DataError> {
        Ok(self.room_pulse(code).await?.map(|pulse| pulse.version))
    }

    /// What a live-lobby watcher polls (one consistent GetItem of META, projected to a few small
    /// attributes): the version, to learn that something changed without reading the whole
    /// partition, and who hosts, since when they were seen and how many players there are, so
    /// the away-host check costs no read of its own. `None` for an unknown or expired room.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn room_pulse(self, code: &RoomCode) -> Result<Option<RoomPulse>, DataError> {
        self.pulse(code, true).await
    }

    /// [`Rooms::room_pulse`] read eventually consistently (half the units): what a watcher's slow
    /// safety-net poll reads, where a version a second old only means the next poll sees it.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn room_pulse_eventually(
        self,
        code: &RoomCode,
    ) -> Result<Option<RoomPulse>, DataError> {
        self.pulse(code, false).await
    }

    async fn pulse(
        self,
        code: &RoomCode,
        consistent: bool,
    ) -> Result<Option<RoomPulse>, DataError> {
        let key = keys::room_meta(code);
        let item = self
            .get(
                self.client
                    .get_item()
                    .key(keys::PK, AttributeValue::S(key.pk))
                    .key(keys::SK, AttributeValue::S(key.sk))
                    .expressions(Expr::default().project(
                        ["version", "host_id", "host_seen", "player_count", keys::TTL].map(attr),
                    ))
                    .consistent_read(consistent),
            )
            .await?;
        let Some(item) = item else {
            return Ok(None);
        };
        let number = |name: &str| -> Option<i64> { item.get(name)?.as_n().ok()?.parse().ok() };
        let version = number("version")
            .and_then(|v| u64::try_from(v).ok())
            .ok_or_else(|| DataError::Internal("room META has no version".into()))?;
        let host_id = item
            .get("host_id")
            .and_then(|v| v.as_s().ok())
            .and_then(|id| UserId::parse(id).ok())
            .ok_or_else(|| DataError::Internal("room META has no host".into()))?;
        Ok(Some(RoomPulse {
            version,
            host_id,
            host_seen_ms: number("host_seen"),
            player_count: number("player_count").unwrap_or(0).max(0) as u32,
        }))
    }

    /// What a room code stands for now: the id of the room that has it, or, when no room has it
    /// (or the room is from before rooms had ids), the code as a legacy id: what a link made of
    /// a code alone (`/r/<CODE>/lb`, `/matches?room=<CODE>`) meant when it was made. One
    /// consistent GetItem of META, projected.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn room_id_of(self, code: &RoomCode) -> Result<RoomId, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::room_meta(code))))
                    .expressions(Expr::default().project(["room_id", keys::TTL].map(attr)))
                    .consistent_read(true),
            )
            .await?;
        Ok(item
            .and_then(|item| item.get("room_id")?.as_s().ok().cloned())
            .and_then(|id| RoomId::parse(&id).ok())
            .unwrap_or_else(|| RoomId::legacy(code)))
    }

    /// Whether `user` is one of the room's players: one eventually consistent GetItem of their
    /// PLAYER item, keys only (what a live stream asks before counting it per player, not per
    /// address).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn is_player(self, code: &RoomCode, user: &UserId) -> Result<bool, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::room_player(code, user))))
                    .expressions(Expr::default().project([keys::PK, keys::TTL].map(attr))),
            )
            .await?;
        Ok(item.is_some())
    }

    /// Public rooms still in the lobby with a free seat, newest first: the sparse GSI2
    /// partition of open rooms, with full rooms filtered out.
    #[tracing::instrument(skip(self, cursor), err(level = "debug"))]
    pub async fn open_rooms(
        self,
        limit: i32,
        cursor: Option<&str>,
    ) -> Result<Page<OpenRoom>, DataError> {
        const SCOPE: &str = "open-rooms";
        let start = match cursor {
            Some(cursor) => Some(self.cursor_key().await?.open(SCOPE, cursor)?),
            None => None,
        };
        let limit = limit.clamp(1, 100);
        let request = self
            .client
            .query()
            .index_name(keys::GSI2)
            .expressions(
                Expr::query(KeyCond::partition(keys::GSI2PK, s(keys::OPEN_ROOMS))).filter(
                    Cond::lt(attr("player_count"), attr("max_players"))
                        .and(Cond::gt(attr(keys::TTL), n(epoch_seconds()))),
                ),
            )
            .scan_index_forward(false);
        // `Limit` counts rooms read, before full ones are filtered out: read on (a few pages at
        // most) until the page has `limit` rooms or the list ends.
        let mut items = Vec::new();
        let mut start = start;
        let mut last = None;
        for _ in 0..5 {
            let wanted = limit - items.len() as i32;
            let (page, next) = self
                .query_page(request.clone().limit(wanted), start)
                .await?;
            items.extend(page);
            last = next.clone();
            if items.len() as i32 >= limit || next.is_none() {
                break;
            }
            start = next;
        }
        let next = match last {
            Some(last) => Some(self.cursor_key().await?.seal(SCOPE, &last)?),
            None => None,
        };
        let rooms = items
            .into_iter()
            .map(|item: Item| {
                let meta: MetaItem = serde_dynamo::from_item(item)?;
                Ok(OpenRoom {
                    code: meta.code,
                    player_count: meta.player_count,
                    max_players: meta.max_players,
                    created_at_ms: meta.created_at_ms,
                })
            })
            .collect::<Result<_, DataError>>()?;
        Ok(Page { items: rooms, next })
    }
}
