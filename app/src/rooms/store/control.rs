//! Room control: the host's lock, handing hosting on (by the host's choice, when the host is
//! away, when the host signs out), and giving it back to an away host who returns. Whether the
//! host is here is not written: the instances tell each other (`live::hub`); the table's
//! `host_seen` moves only when hosting passes.
//!
//! Every write that changes the host also moves the sparse GSI1 entry `HOSTING#<id>` / `<code>`
//! from the old host's PLAYER item to the new host's, in the same transaction, so the rooms a
//! player hosts are one Query ([`Rooms::rooms_hosted_by`]). Each change is decided by its write's
//! condition on META (`host_id = :host`, and for an away host `host_seen < :stale`), never by a
//! read before it: two instances racing to hand a room on do it once.

use super::Rooms;
use aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem};

use crate::identity::model::UserId;
use crate::rooms::items::{state_value, AWAY_UNTIL};
use crate::rooms::model::{Lobby, RoomCode, RoomState, HOST_RETURN_MS};
use crate::rooms::store::{RoomConflict, MAX_ATTEMPTS};
use crate::store::expr::{attr, Cond, Expr, Expressions, Operand, Update};
use crate::store::keys;
use crate::store::tx::{n, s, update};
use crate::store::{epoch_millis, epoch_seconds, key_map, Conflict, DataError};

impl Rooms<'_> {
    /// The host locks (or unlocks) the room: one UpdateItem of META conditioned on `host_id`,
    /// bumping `version` so every instance's watchers redraw. A locked room refuses new players
    /// in the join's own condition; its players stay and may rejoin.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn set_locked(
        self,
        code: &RoomCode,
        host: &UserId,
        locked: bool,
    ) -> Result<(), RoomConflict> {
        let request = self
            .client
            .update_item()
            .set_key(Some(key_map(keys::room_meta(code))))
            .expressions(
                Expr::update(
                    Update::new()
                        .set(attr("locked"), AttributeValue::Bool(locked))
                        .set(attr("version"), Operand::Plus(attr("version"), n(1))),
                )
                .when(live(epoch_seconds()).and(Cond::eq(attr("host_id"), s(host.as_str())))),
            );
        match self.update_item(request).await {
            Ok(()) => Ok(()),
            Err(DataError::Conflict(Conflict::ConditionFailed)) => {
                Err(match self.room_pulse(code).await? {
                    None => RoomConflict::NotFound,
                    Some(_) => RoomConflict::NotHost,
                })
            }
            Err(err) => Err(err.into()),
        }
    }

    /// The host hands hosting to `target`, a player in the room: one transaction conditioned on
    /// `host_id = :host` and the target's PLAYER item (the new host is seen now: a grace period).
    /// A refusal reads the lobby once to say why: not the host, not in the room, no such room.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn hand_over(
        self,
        code: &RoomCode,
        host: &UserId,
        target: &UserId,
    ) -> Result<(), RoomConflict> {
        if host != target {
            match self
                .pass_hosting(code, host, target, Passing::Chosen, epoch_millis())
                .await
            {
                Ok(()) => return Ok(()),
                Err(err @ DataError::Conflict(Conflict::TransactionConflict)) => {
                    return Err(err.into())
                }
                Err(DataError::Conflict(_)) => {}
                Err(err) => return Err(err.into()),
            }
        }
        let lobby = self.lobby(code).await?.ok_or(RoomConflict::NotFound)?;
        if &lobby.host_id != host {
            return Err(RoomConflict::NotHost);
        }
        if lobby.player(target).is_none() {
            return Err(RoomConflict::NotInRoom);
        }
        if host == target {
            // Handing hosting to oneself changes nothing.
            return Ok(());
        }
        Err(DataError::Conflict(Conflict::ConditionFailed).into())
    }

    /// Hands the room on if its host is away (unseen for longer than `away_ms`, normally
    /// [`HOST_AWAY_MS`](crate::rooms::model::HOST_AWAY_MS), at `now_ms` by `lobby`'s
    /// `host_seen_ms`: what the calling instance knows, from its own streams and the others'
    /// news) and someone else is in it: to the longest-present other player, in one transaction
    /// conditioned on the host being the same and hosting not having passed within `away_ms`.
    /// Watchers on several instances may try at once: one succeeds, the others find the
    /// condition false and change nothing. The new host, if this call made one.
    #[tracing::instrument(skip(self, lobby), fields(code = %lobby.code), err(level = "debug"))]
    pub async fn hand_over_if_host_away(
        self,
        lobby: &Lobby,
        now_ms: i64,
        away_ms: i64,
    ) -> Result<Option<UserId>, DataError> {
        let Some(next) = lobby.successor_if_host_away(now_ms, away_ms) else {
            return Ok(None);
        };
        match self
            .pass_hosting(
                &lobby.code,
                &lobby.host_id,
                &next.user_id,
                Passing::Away { after_ms: away_ms },
                now_ms,
            )
            .await
        {
            Ok(()) => Ok(Some(next.user_id.clone())),
            // Another instance handed it on first, the host came back, or the next player left.
            Err(DataError::Conflict(Conflict::TransactionConflict)) => Ok(None),
            Err(DataError::Conflict(_)) => Ok(None),
            Err(err) => Err(err),
        }
    }

    /// `user`, the host the room was handed on from while they were away, is back: the room is
    /// theirs again if [`Lobby::may_take_back`] says so at `now_ms`, in one transaction
    /// conditioned on the host being the same, `user` still being the away host, their time
    /// not being up and no match having started since (`away_until` is removed by a start), and
    /// the room being in its lobby. Whether this call gave it back.
    #[tracing::instrument(skip(self, lobby), fields(code = %lobby.code), err(level = "debug"))]
    pub async fn take_back(
        self,
        lobby: &Lobby,
        user: &UserId,
        now_ms: i64,
    ) -> Result<bool, DataError> {
        if !lobby.may_take_back(user, now_ms) {
            return Ok(false);
        }
        match self
            .pass_hosting(&lobby.code, &lobby.host_id, user, Passing::Back, now_ms)
            .await
        {
            Ok(()) => Ok(true),
            // The room changed: a match started, it was handed on again, or `user` left.
            Err(DataError::Conflict(_)) => Ok(false),
            Err(err) => Err(err),
        }
    }

    /// The rooms `user` hosts: one Query of GSI1 `HOSTING#<id>` (the host's PLAYER items;
    /// eventually consistent, so a room made a moment ago may be missing).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn rooms_hosted_by(self, user: &UserId) -> Result<Vec<RoomCode>, DataError> {
        let items = self
            .query_all(
                self.query_partition(keys::Keyed::Gsi1, keys::hosting(user))
                    .expressions(Expr::default().project([keys::GSI1SK, keys::TTL].map(attr))),
            )
            .await?;
        Ok(items
            .iter()
            .filter_map(|item| item.get(keys::GSI1SK)?.as_s().ok())
            .filter_map(|code| RoomCode::parse(code).ok())
            .collect())
    }

    /// `user` steps down everywhere (signing out): every room they host passes at once to its
    /// longest-present other player (a room where they are alone stays theirs). Per room: a
    /// Query of the lobby, then the hand-over's transaction conditioned on `host_id`, read again
    /// if the room changed. The rooms handed on.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn step_down(self, user: &UserId) -> Result<Vec<RoomCode>, DataError> {
        let mut handed = Vec::new();
        for code in self.rooms_hosted_by(user).await? {
            for _ in 0..MAX_ATTEMPTS {
                let Some(lobby) = self.lobby(&code).await? else {
                    break;
                };
                if &lobby.host_id != user {
                    break;
                }
                let Some(next) = lobby.next_host() else {
                    break;
                };
                match self
                    .pass_hosting(&code, user, &next.user_id, Passing::Chosen, epoch_millis())
                    .await
                {
                    Ok(()) => {
                        handed.push(code.clone());
                        break;
                    }
                    // The next player left, or the room changed: read it again.
                    Err(DataError::Conflict(_)) => continue,
                    Err(err) => return Err(err),
                }
            }
        }
        Ok(handed)
    }

    /// The transaction that makes `to` host instead of `from`: META (`host_id`, `host_seen` =
    /// now, a new version) only while `from` hosts, and as `why` adds (see [`Passing`]);
    /// `from`'s PLAYER item loses its `HOSTING#` entry, `to`'s (which must exist) gains it.
    async fn pass_hosting(
        self,
        code: &RoomCode,
        from: &UserId,
        to: &UserId,
        why: Passing,
        now_ms: i64,
    ) -> Result<(), DataError> {
        let hosts = live(now_ms / 1000).and(Cond::eq(attr("host_id"), s(from.as_str())));
        let change = Update::new()
            .set(attr("host_id"), s(to.as_str()))
            .set(attr("host_seen"), n(now_ms))
            .set(attr("version"), Operand::Plus(attr("version"), n(1)));
        let forget = |change: Update| change.remove(attr("away_host")).remove(attr(AWAY_UNTIL));
        let (change, condition) = match why {
            Passing::Chosen => (forget(change), hosts),
            Passing::Away { after_ms } => (
                change
                    .set(attr("away_host"), s(from.as_str()))
                    .set(attr(AWAY_UNTIL), n(now_ms + HOST_RETURN_MS)),
                hosts.and(Cond::lt(attr("host_seen"), n(now_ms - after_ms))),
            ),
            Passing::Back => (
                forget(change),
                hosts
                    .and(Cond::eq(attr("away_host"), s(to.as_str())))
                    .and(Cond::gt(attr(AWAY_UNTIL), n(now_ms)))
                    .and(Cond::eq(attr("state"), state_value(RoomState::Lobby))),
            ),
        };
        let meta = update(keys::room_meta(code)).expressions(Expr::update(change).when(condition));
        let actions = vec![
            self.update_action(meta)?,
            self.stop_hosting_action(code, from)?,
            self.start_hosting_action(code, to, now_ms)?,
        ];
        self.transact(actions).await
    }

    /// The action that puts `user`'s PLAYER item in the room on GSI1 as the room's host (only if
    /// they are in the room: it never makes a PLAYER item).
    pub(crate) fn start_hosting_action(
        self,
        code: &RoomCode,
        user: &UserId,
        now_ms: i64,
    ) -> Result<TransactWriteItem, DataError> {
        self.update_action(
            update(keys::room_player(code, user)).expressions(
                Expr::update(
                    Update::new()
                        .set(attr(keys::GSI1PK), s(keys::hosting(user)))
                        .set(attr(keys::GSI1SK), s(keys::hosting_sort(code))),
                )
                .when(live(now_ms / 1000)),
            ),
        )
    }

    /// The action that takes `user`'s PLAYER item in the room off GSI1's hosts.
    fn stop_hosting_action(
        self,
        code: &RoomCode,
        user: &UserId,
    ) -> Result<TransactWriteItem, DataError> {
        self.update_action(
            update(keys::room_player(code, user)).expressions(
                Expr::update(
                    Update::new()
                        .remove(attr(keys::GSI1PK))
                        .remove(attr(keys::GSI1SK)),
                )
                .when(Cond::exists(attr(keys::PK))),
            ),
        )
    }
}

/// Why hosting passes, which decides the hand-over's condition and what it remembers.
#[derive(Debug, Clone, Copy)]
enum Passing {
    /// The host chose (handing it on, signing out): nothing to give back.
    Chosen,
    /// The host is away (unseen for `after_ms`, by what the instance knows; hosting, written
    /// as `host_seen`, did not pass within it): the room remembers them as its away host, who
    /// may take it back within [`HOST_RETURN_MS`].
    Away { after_ms: i64 },
    /// The away host is back in time, in the lobby: forgotten as away.
    Back,
}

/// The item is there and not expired at `now` (epoch seconds).
fn live(now: i64) -> Cond {
    Cond::exists(attr(keys::PK)).and(Cond::gt(attr(keys::TTL), n(now)))
}
