//! The room changes that depend on who is in it: leave, kick (with host hand-over: the new
//! host's PLAYER item joins GSI1's `HOSTING#` entries in the same transaction) and settings.
//! Each reads the lobby, then writes in a transaction conditioned on the room's `version` being
//! unchanged, and reads again if it moved.

use super::Rooms;
use aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem};

use crate::identity::model::UserId;
use crate::rooms::items::open_index;
use crate::rooms::model::{
    Lobby, RoomCode, RoomDeck, RoomPlayer, RoomSettings, RoomState, AUDIENCE_LIMIT,
};
use crate::rooms::store::{RoomConflict, MAX_ATTEMPTS};
use crate::store::expr::{attr, Cond, Expr, Expressions, Operand, Update};
use crate::store::keys;
use crate::store::tx::{internal, n, s};
use crate::store::{epoch_millis, key_map, Conflict, DataError};

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
            let one_less = Operand::Minus(attr("player_count"), n(1));
            let moved = Operand::Plus(attr("version"), n(1));
            let mut change = match remaining.first() {
                None => Update::new()
                    .set(attr("player_count"), n(0))
                    .set(attr("version"), moved)
                    .set(attr(keys::TTL), n(now))
                    .remove(attr("GSI2PK"))
                    .remove(attr("GSI2SK")),
                // The new host is seen now (a grace period before the away-host check).
                Some(next) if &lobby.host_id == target => Update::new()
                    .set(attr("player_count"), one_less)
                    .set(attr("version"), moved)
                    .set(attr("host_id"), s(next.user_id.as_str()))
                    .set(attr("host_seen"), n(now_ms)),
                Some(_) => Update::new()
                    .set(attr("player_count"), one_less)
                    .set(attr("version"), moved),
            };
            if acting_host.is_some() && !remaining.is_empty() {
                // Removed by the host: kept out of this room from now on (the join's condition),
                // and so is the browser they joined from, whatever session it comes back with.
                let mut removed = vec![target.to_string()];
                if let Some(mark) = self.player_mark(code, target).await? {
                    removed.push(keys::marked(&mark));
                }
                change = change.add(attr("removed"), AttributeValue::Ss(removed));
            }
            let meta = crate::store::tx::update(keys::room_meta(code))
                .table_name(self.table_name())
                .expressions(
                    Expr::update(change).when(Cond::eq(attr("version"), n(lobby.version))),
                );
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

    /// The room mark of the browser `user` joined from, if it had one (one GetItem of their
    /// PLAYER item, projected): what a removal keeps out with them.
    async fn player_mark(
        self,
        code: &RoomCode,
        user: &UserId,
    ) -> Result<Option<String>, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::room_player(code, user))))
                    .expressions(Expr::default().project([attr("mark")]))
                    .consistent_read(true),
            )
            .await?;
        Ok(item.and_then(|item| item.get("mark")?.as_s().ok().cloned()))
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
            if let Some(deck) = lobby.deck.as_ref() {
                if u32::from(settings.rounds) > deck.things {
                    return Err(RoomConflict::TooFewThings {
                        things: deck.things,
                    });
                }
            }
            // Already so: nothing to write. (Also how this call's own write is recognised
            // when its answer was lost: the SDK's copy is refused by the version it moved.)
            if lobby.settings == settings {
                return Ok(lobby);
            }
            let (gsi2pk, gsi2sk) = open_index(settings, lobby.state, lobby.created_at_ms, code);
            let update = self
                .client
                .update_item()
                .table_name(self.table_name())
                .set_key(Some(key_map(keys::room_meta(code))));
            let change = Update::new()
                .set(attr("max_players"), n(settings.max_players))
                .set(attr("rounds"), n(settings.rounds))
                .set(attr("window_ms"), n(settings.window_ms))
                .set(attr("public"), AttributeValue::Bool(settings.public))
                .set(attr("version"), Operand::Plus(attr("version"), n(1)));
            let change = match (gsi2pk, gsi2sk) {
                (Some(pk), Some(sk)) => {
                    change.set(attr("GSI2PK"), s(pk)).set(attr("GSI2SK"), s(sk))
                }
                _ => change.remove(attr("GSI2PK")).remove(attr("GSI2SK")),
            };
            let unchanged = Cond::eq(attr("version"), n(lobby.version))
                .and(Cond::eq(attr("host_id"), s(host.as_str())));
            let update = update.expressions(Expr::update(change).when(unchanged));
            match self.update_item(update).await {
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
    /// The host chooses what the room plays (`None`: the whole catalog), in the lobby only. A
    /// room set to more rounds than the choice has things is set to as many as it has (the
    /// settings line says so). One UpdateItem conditioned on the version read.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn choose_deck(
        self,
        code: &RoomCode,
        host: &UserId,
        deck: Option<RoomDeck>,
    ) -> Result<Lobby, RoomConflict> {
        for _ in 0..MAX_ATTEMPTS {
            let lobby = self.lobby(code).await?.ok_or(RoomConflict::NotFound)?;
            if &lobby.host_id != host {
                return Err(RoomConflict::NotHost);
            }
            if lobby.state != RoomState::Lobby {
                return Err(RoomConflict::Started);
            }
            // Already so: nothing to write (and how a retry after a lost answer ends).
            if lobby.deck == deck {
                return Ok(lobby);
            }
            let mut settings = lobby.settings;
            if let Some(deck) = &deck {
                let most = u8::try_from(deck.things).unwrap_or(u8::MAX);
                settings.rounds = settings.rounds.min(most.max(1));
            }
            let change = Update::new()
                .set(attr("rounds"), n(settings.rounds))
                .set(attr("version"), Operand::Plus(attr("version"), n(1)));
            let change = match &deck {
                Some(deck) => change.set(
                    attr("deck"),
                    serde_dynamo::to_attribute_value::<_, AttributeValue>(deck)
                        .map_err(DataError::from)?,
                ),
                None => change.remove(attr("deck")),
            };
            let unchanged = Cond::eq(attr("version"), n(lobby.version))
                .and(Cond::eq(attr("host_id"), s(host.as_str())));
            let update = self
                .client
                .update_item()
                .set_key(Some(key_map(keys::room_meta(code))))
                .expressions(Expr::update(change).when(unchanged));
            match self.update_item(update).await {
                Ok(_) => {
                    return Ok(Lobby {
                        settings,
                        deck,
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

    /// The transaction action that counts one more in the room's audience (the game's
    /// [`crate::game::store::audience`] puts their seat beside it): only into a live room
    /// that is not locked, whose host did not remove them, and whose audience is under
    /// [`AUDIENCE_LIMIT`]. The room's version moves, so every instance draws the new count.
    pub fn audience_joined(
        &self,
        code: &RoomCode,
        user: &UserId,
        mark: Option<&str>,
    ) -> Result<TransactWriteItem, DataError> {
        let now = epoch_millis() / 1000;
        // Not the removed player, nor (under a new name) their browser.
        let mut kept = Cond::contains(attr("removed"), s(user.as_str())).not();
        if let Some(mark) = mark {
            kept = kept.and(Cond::contains(attr("removed"), s(keys::marked(mark))).not());
        }
        self.update_action(
            crate::store::tx::update(keys::room_meta(code)).expressions(
                Expr::update(
                    Update::new()
                        .set(
                            attr("audience"),
                            Operand::CountFrom(attr("audience"), n(0), n(1)),
                        )
                        .set(attr("version"), Operand::Plus(attr("version"), n(1))),
                )
                .when(
                    Cond::exists(attr(keys::PK))
                        .and(Cond::gt(attr(keys::TTL), n(now)))
                        .and(kept)
                        .and(
                            Cond::not_exists(attr("locked"))
                                .or(Cond::eq(attr("locked"), AttributeValue::Bool(false))),
                        )
                        .and(
                            Cond::not_exists(attr("audience"))
                                .or(Cond::lt(attr("audience"), n(AUDIENCE_LIMIT))),
                        ),
                ),
            ),
        )
    }
}
