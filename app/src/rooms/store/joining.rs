//! Joining a room: one transaction whose conditions enforce capacity, the lock, the players and
//! browsers the host removed, and nickname uniqueness, so concurrent joins can never overfill a
//! room; and, when it is refused, one read that says why.

use aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem, Update as UpdateAction};

use super::{Joined, Joiner, RoomConflict, Rooms, ROOM_IDLE_SECS};
use crate::identity::model::{Avatar, DisplayName, UserId};
use crate::rooms::items::{nickname_item, player_item};
use crate::rooms::model::{Lobby, RoomCode};
use crate::store::expr::{attr, Cond, Expr, Expressions, Operand, Update};
use crate::store::keys;
use crate::store::tx::{internal, n, s};
use crate::store::{epoch_millis, key_map, Conflict, DataError};

impl Rooms<'_> {
    /// Puts a player in a room: one transaction that counts the seat only while the room has a
    /// free seat, and claims the nickname only if nobody in the room has it. A player who joins
    /// during a match watches it and plays from the next.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn join_room(
        self,
        code: &RoomCode,
        user: &UserId,
        nickname: &DisplayName,
        avatar: Avatar,
    ) -> Result<Joined, RoomConflict> {
        self.join_room_with(code, user, nickname, avatar, Vec::new())
            .await
    }

    /// [`Rooms::join_room`] with `extra` actions in the same transaction, after the join's own: a
    /// guest made for the join (`Accounts::guest_actions`) exists only if the join succeeds.
    pub async fn join_room_with(
        self,
        code: &RoomCode,
        user: &UserId,
        nickname: &DisplayName,
        avatar: Avatar,
        extra: Vec<TransactWriteItem>,
    ) -> Result<Joined, RoomConflict> {
        self.join_room_looking(code, &Joiner::new(user, nickname, avatar), extra)
            .await
    }

    /// [`Rooms::join_room_with`] for a [`Joiner`]: their look is copied onto their place in the
    /// room (the lobby then shows it from the Query it already makes), and their browser's mark
    /// is kept out with them as their id is.
    #[tracing::instrument(skip(self, extra), err(level = "debug"))]
    pub async fn join_room_looking(
        self,
        code: &RoomCode,
        joiner: &Joiner,
        extra: Vec<TransactWriteItem>,
    ) -> Result<Joined, RoomConflict> {
        let mut actions = self.join_actions(code, joiner, epoch_millis(), None)?;
        actions.extend(extra);
        match self.transact(actions).await {
            Ok(()) => return Ok(Joined::Joined),
            // Still contended after the retries: busy, not refused.
            Err(err @ DataError::Conflict(Conflict::TransactionConflict)) => return Err(err.into()),
            Err(DataError::Conflict(_)) => {}
            Err(err) => return Err(err.into()),
        }
        self.why_not_joined(code, joiner).await
    }

    /// A join's own actions: one more seat counted on META (only while the room has a free seat,
    /// is not locked and did not remove the player or their browser), the PLAYER item, and the
    /// nickname's claim (only if nobody in the room has it), META's condition with `also` if
    /// given. A player who joins during a match watches it and plays from the next.
    pub(crate) fn join_actions(
        &self,
        code: &RoomCode,
        joiner: &Joiner,
        now_ms: i64,
        also: Option<Cond>,
    ) -> Result<Vec<TransactWriteItem>, DataError> {
        let now = now_ms / 1000;
        let user = &joiner.user;
        // A player the host removed stays out for the room's life (`removed` is a set of ids and
        // browsers' marks); nobody new joins a locked room (one already in it is answered as a
        // rejoin).
        let mut allowed = Cond::exists(attr(keys::PK))
            .and(Cond::gt(attr(keys::TTL), n(now)))
            .and(Cond::lt(attr("player_count"), attr("max_players")))
            .and(Cond::contains(attr("removed"), s(user.as_str())).not())
            .and(
                Cond::not_exists(attr("locked"))
                    .or(Cond::eq(attr("locked"), AttributeValue::Bool(false))),
            );
        if let Some(mark) = &joiner.mark {
            allowed = allowed.and(Cond::contains(attr("removed"), s(keys::marked(mark))).not());
        }
        if let Some(also) = also {
            allowed = allowed.and(also);
        }
        let seat = UpdateAction::builder()
            .table_name(self.table_name())
            .set_key(Some(key_map(keys::room_meta(code))))
            .expressions(
                Expr::update(
                    Update::new()
                        .set(
                            attr("player_count"),
                            Operand::Plus(attr("player_count"), n(1)),
                        )
                        .set(attr("version"), Operand::Plus(attr("version"), n(1)))
                        .set(attr(keys::TTL), n(now + ROOM_IDLE_SECS)),
                )
                .when(allowed),
            )
            .build()
            .map_err(internal)?;
        let mut player = player_item(
            code,
            user,
            &joiner.nickname,
            joiner.avatar,
            joiner.look,
            now_ms,
            false,
        );
        player.mark = joiner.mark.clone();
        Ok(vec![
            TransactWriteItem::builder().update(seat).build(),
            self.put_new(serde_dynamo::to_item(player).map_err(DataError::from)?)?,
            self.put_new(
                serde_dynamo::to_item(nickname_item(code, user, &joiner.nickname, now_ms))
                    .map_err(DataError::from)?,
            )?,
        ])
    }

    /// Why a join was refused: one consistent read of the room says (and, for a player the host
    /// removed, one of its removed set). A player already in it is not refused: joining twice is
    /// joining once.
    pub(super) async fn why_not_joined(
        self,
        code: &RoomCode,
        joiner: &Joiner,
    ) -> Result<Joined, RoomConflict> {
        let Some(lobby) = self.lobby(code).await? else {
            return Err(RoomConflict::NotFound);
        };
        if lobby.player(&joiner.user).is_some() {
            return Ok(Joined::AlreadyIn);
        }
        if let Some(why) = self.kept_out(code, &lobby, joiner).await? {
            return Err(why);
        }
        if lobby.is_full() {
            return Err(RoomConflict::Full);
        }
        if lobby
            .players
            .iter()
            .any(|p| p.nickname.folded() == joiner.nickname.folded())
        {
            return Err(RoomConflict::NicknameTaken);
        }
        Err(RoomConflict::Data(DataError::Conflict(
            Conflict::ConditionFailed,
        )))
    }

    /// Why `joiner` may not come in however many seats are free: the host removed them or their
    /// browser (`removed` read with one GetItem, only to explain a refusal), or locked the room.
    pub(super) async fn kept_out(
        self,
        code: &RoomCode,
        lobby: &Lobby,
        joiner: &Joiner,
    ) -> Result<Option<RoomConflict>, DataError> {
        if self
            .was_removed(code, &joiner.user, joiner.mark.as_deref())
            .await?
        {
            return Ok(Some(RoomConflict::Removed));
        }
        Ok(lobby.locked.then_some(RoomConflict::Locked))
    }

    /// Whether the host removed `user` (or the browser with room mark `mark`) from the room (one
    /// GetItem of META, projected to the set of removed players); read only to explain a
    /// refused join.
    pub(crate) async fn was_removed(
        self,
        code: &RoomCode,
        user: &UserId,
        mark: Option<&str>,
    ) -> Result<bool, DataError> {
        let marked = mark.map(keys::marked);
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::room_meta(code))))
                    .expressions(Expr::default().project([attr("removed")]))
                    .consistent_read(true),
            )
            .await?;
        Ok(item
            .and_then(|item| item.get("removed").cloned())
            .and_then(|set| set.as_ss().ok().cloned())
            .is_some_and(|ids| {
                ids.iter()
                    .any(|id| id == user.as_str() || Some(id) == marked.as_ref())
            }))
    }
}
