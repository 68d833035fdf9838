//! The room changes that depend on who is in it: leave, kick (with host hand-over: the new
//! host's PLAYER item joins GSI1's `HOSTING#` entries in the same transaction) and settings.
//! Each reads the lobby, then writes in a transaction conditioned on the room's `version` being
//! unchanged, and reads again if it moved.

use super::Rooms;
use aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem, Update};

use crate::identity::model::UserId;
use crate::rooms::items::open_index;
use crate::rooms::model::{Lobby, RoomCode, RoomPlayer, RoomSettings, RoomState, AUDIENCE_LIMIT};
use crate::rooms::store::{RoomConflict, MAX_ATTEMPTS};
use crate::store::keys;
use crate::store::tx::internal;
use crate::store::{epoch_millis, key_map, send_recorded, Conflict, DataError};

impl Rooms<'_> {
    /// A player leaves. When the host leaves, hosting passes to the longest-present player; when
    /// the last player leaves, the room ends (its items expire, and reads ignore it at once).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn leave_room(self, code: &RoomCode, user: &UserId) -> Result<(), RoomConflict> {
        self.remove_player(code, None, user).await
    }

    /// The host removes a player.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn kick(
        self,
        code: &RoomCode,
        host: &UserId,
        target: &UserId,
    ) -> Result<(), RoomConflict> {
        self.remove_player(code, Some(host), target).await
    }

    async fn remove_player(
        self,
        code: &RoomCode,
        acting_host: Option<&UserId>,
        target: &UserId,
    ) -> Result<(), RoomConflict> {
        for _ in 0..MAX_ATTEMPTS {
            let lobby = self.lobby(code).await?.ok_or(RoomConflict::NotFound)?;
            if let Some(host) = acting_host {
                if &lobby.host_id != host {
                    return Err(RoomConflict::NotHost);
                }
            }
            let player = lobby.player(target).ok_or(RoomConflict::NotInRoom)?.clone();
            let remaining: Vec<&RoomPlayer> = lobby
                .players
                .iter()
                .filter(|p| &p.user_id != target)
                .collect();
            let now_ms = epoch_millis();
            let now = now_ms / 1000;
            let mut meta = Update::builder()
                .table_name(self.table_name())
                .set_key(Some(key_map(keys::room_meta(code))))
                .condition_expression("version = :version")
                .expression_attribute_values(
                    ":version",
                    AttributeValue::N(lobby.version.to_string()),
                )
                .expression_attribute_values(":one", AttributeValue::N("1".into()));
            meta = match remaining.first() {
                None => meta
                    .update_expression(
                        "SET player_count = :zero, version = version + :one, #ttl = :now \
                         REMOVE GSI2PK, GSI2SK",
                    )
                    .expression_attribute_names("#ttl", keys::TTL)
                    .expression_attribute_values(":zero", AttributeValue::N("0".into()))
                    .expression_attribute_values(":now", AttributeValue::N(now.to_string())),
                // The new host is seen now (a grace period before the away-host check).
                Some(next) if &lobby.host_id == target => meta
                    .update_expression(
                        "SET player_count = player_count - :one, version = version + :one, \
                         host_id = :next, host_seen = :seen",
                    )
                    .expression_attribute_values(
                        ":next",
                        AttributeValue::S(next.user_id.to_string()),
                    )
                    .expression_attribute_values(":seen", AttributeValue::N(now_ms.to_string())),
                Some(_) => meta.update_expression(
                    "SET player_count = player_count - :one, version = version + :one",
                ),
            };
            if acting_host.is_some() && !remaining.is_empty() {
                // Removed by the host: kept out of this room from now on (the join's condition).
                let expression = meta.get_update_expression().clone().unwrap_or_default();
                meta = meta
                    .update_expression(format!("{expression} ADD removed :target"))
                    .expression_attribute_values(
                        ":target",
                        AttributeValue::Ss(vec![target.to_string()]),
                    );
            }
            let mut actions = vec![
                TransactWriteItem::builder()
                    .update(meta.build().map_err(internal)?)
                    .build(),
                // The leaving host's entry among the hosts (GSI1) goes with their item.
                self.delete_action(keys::room_player(code, target))?,
                self.delete_action(keys::room_nickname(code, &player.nickname.folded()))?,
            ];
            if let Some(next) = remaining.first().filter(|_| &lobby.host_id == target) {
                actions.push(self.start_hosting_action(code, &next.user_id, now_ms)?);
            }
            match self.transact(actions).await {
                Ok(()) => return Ok(()),
                // The room changed since the read: read again.
                Err(DataError::Conflict(_)) => continue,
                Err(err) => return Err(err.into()),
            }
        }
        Err(DataError::Unavailable("the room kept changing; try again".into()).into())
    }

    /// The host changes the room's settings (in the lobby only; never below the players present).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn update_settings(
        self,
        code: &RoomCode,
        host: &UserId,
        settings: RoomSettings,
    ) -> Result<Lobby, RoomConflict> {
        for _ in 0..MAX_ATTEMPTS {
            let lobby = self.lobby(code).await?.ok_or(RoomConflict::NotFound)?;
            if &lobby.host_id != host {
                return Err(RoomConflict::NotHost);
            }
            if lobby.state != RoomState::Lobby {
                return Err(RoomConflict::Started);
            }
            if lobby.players.len() > usize::from(settings.max_players) {
                return Err(RoomConflict::TooManyForSettings);
            }
            // Already so: nothing to write. (Also how this call's own write is recognised
            // when its answer was lost: the SDK's copy is refused by the version it moved.)
            if lobby.settings == settings {
                return Ok(lobby);
            }
            let (gsi2pk, gsi2sk) = open_index(settings, lobby.state, lobby.created_at_ms, code);
            let mut update = self
                .client
                .update_item()
                .table_name(self.table_name())
                .set_key(Some(key_map(keys::room_meta(code))))
                .condition_expression("version = :version AND host_id = :host")
                .expression_attribute_values(
                    ":version",
                    AttributeValue::N(lobby.version.to_string()),
                )
                .expression_attribute_values(":host", AttributeValue::S(host.to_string()))
                .expression_attribute_values(":one", AttributeValue::N("1".into()))
                .expression_attribute_values(
                    ":max",
                    AttributeValue::N(settings.max_players.to_string()),
                )
                .expression_attribute_values(
                    ":rounds",
                    AttributeValue::N(settings.rounds.to_string()),
                )
                .expression_attribute_values(
                    ":window",
                    AttributeValue::N(settings.window_ms.to_string()),
                )
                .expression_attribute_names("#public", "public")
                .expression_attribute_values(":public", AttributeValue::Bool(settings.public));
            let set = "SET max_players = :max, rounds = :rounds, window_ms = :window, \
                       #public = :public, version = version + :one";
            update = match (gsi2pk, gsi2sk) {
                (Some(pk), Some(sk)) => update
                    .update_expression(format!("{set}, GSI2PK = :gsi2pk, GSI2SK = :gsi2sk"))
                    .expression_attribute_values(":gsi2pk", AttributeValue::S(pk))
                    .expression_attribute_values(":gsi2sk", AttributeValue::S(sk)),
                _ => update.update_expression(format!("{set} REMOVE GSI2PK, GSI2SK")),
            };
            match send_recorded!(self, "UpdateItem", update) {
                Ok(_) => {
                    return Ok(Lobby {
                        settings,
                        version: lobby.version + 1,
                        ..lobby
                    })
                }
                Err(DataError::Conflict(Conflict::ConditionFailed)) => continue,
                Err(err) => return Err(err.into()),
            }
        }
        Err(DataError::Unavailable("the room kept changing; try again".into()).into())
    }
}

impl Rooms<'_> {
    /// The transaction action that counts one more in the room's audience (the game's
    /// [`crate::game::store::audience`] puts their seat beside it): only into a live room
    /// that is not locked, whose host did not remove them, and whose audience is under
    /// [`AUDIENCE_LIMIT`]. The room's version moves, so every instance draws the new count.
    pub fn audience_joined(
        &self,
        code: &RoomCode,
        user: &UserId,
    ) -> Result<TransactWriteItem, DataError> {
        let now = epoch_millis() / 1000;
        self.update_action(
            crate::store::tx::update(keys::room_meta(code))
                .update_expression(
                    "SET audience = if_not_exists(audience, :zero) + :one, version = version + :one",
                )
                .condition_expression(
                    "attribute_exists(#pk) AND #ttl > :now AND NOT contains(removed, :user) \
                     AND (attribute_not_exists(locked) OR locked = :unlocked) \
                     AND (attribute_not_exists(audience) OR audience < :limit)",
                )
                .expression_attribute_names("#pk", keys::PK)
                .expression_attribute_names("#ttl", keys::TTL)
                .expression_attribute_values(":zero", AttributeValue::N("0".into()))
                .expression_attribute_values(":one", AttributeValue::N("1".into()))
                .expression_attribute_values(":now", AttributeValue::N(now.to_string()))
                .expression_attribute_values(":user", AttributeValue::S(user.to_string()))
                .expression_attribute_values(":unlocked", AttributeValue::Bool(false))
                .expression_attribute_values(
                    ":limit",
                    AttributeValue::N(AUDIENCE_LIMIT.to_string()),
                ),
        )
    }
}
