//! The host's rules for strangers, and the queue they make: friendly names (a player's name drawn
//! again, [`REROLLS`] times at most) and a join the host approves (an ask waits as a `QUEUE#`
//! item the room's own Query reads, and is let in, by the join's own actions, or turned away,
//! which keeps the player and their browser from asking again for [`TURNED_AWAY_SECS`]).

use aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem};

use super::{Joiner, RoomConflict, Rooms, MAX_ATTEMPTS};
use crate::identity::model::{DisplayName, UserId};
use crate::rooms::friendly::REROLLS;
use crate::rooms::items::{nickname_item, state_value, AskItem, ASK_SECS};
use crate::rooms::model::{Lobby, RoomCode, RoomRule, RoomRules, RoomState};
use crate::store::expr::{attr, Cond, Expr, Expressions, Operand, Update};
use crate::store::keys;
use crate::store::tx::{n, s};
use crate::store::{epoch_millis, Conflict, DataError};

/// How long a player the host turned away (and their browser) may not ask again.
pub const TURNED_AWAY_SECS: i64 = 10 * 60;

/// How an ask ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asked {
    /// In the queue (asking twice is asking once).
    Waiting,
    /// A player of the room already.
    AlreadyIn,
    /// The room lets anyone in: join as usual.
    NotNeeded,
}

/// A live room's META: there, and not expired.
fn live(now: i64) -> Cond {
    Cond::exists(attr(keys::PK)).and(Cond::gt(attr(keys::TTL), n(now)))
}

/// An item that is absent, or whose `ttl` has passed (TTL sweeps late).
fn lapsed(now: i64) -> Cond {
    Cond::not_exists(attr(keys::PK)).or(Cond::le(attr(keys::TTL), n(now)))
}

/// Who a player and their browser are where marks go: their id and, with one, their mark.
fn whom(user: &UserId, mark: Option<&str>) -> Vec<String> {
    std::iter::once(user.to_string())
        .chain(mark.map(keys::marked))
        .collect()
}

impl Rooms<'_> {
    /// The room's rules for strangers, `None` for an unknown or expired room: one consistent
    /// GetItem of META, projected (what every join reads first: a room made a moment ago is
    /// there).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn rules(self, code: &RoomCode) -> Result<Option<RoomRules>, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(crate::store::key_map(keys::room_meta(code))))
                    .expressions(
                        Expr::default().project(["friendly", "approve", keys::TTL].map(attr)),
                    )
                    .consistent_read(true),
            )
            .await?;
        let on = |item: &crate::store::Item, name: &str| {
            item.get(name)
                .and_then(|v| v.as_bool().ok().copied())
                .unwrap_or(false)
        };
        Ok(item.map(|item| RoomRules {
            friendly: on(&item, "friendly"),
            approve: on(&item, "approve"),
        }))
    }

    /// The host turns one of the room's rules for strangers on or off (one conditional
    /// UpdateItem of META, which moves the version so every page learns it).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn set_rule(
        self,
        code: &RoomCode,
        host: &UserId,
        rule: RoomRule,
        on: bool,
    ) -> Result<(), RoomConflict> {
        let now = epoch_millis() / 1000;
        let name = match rule {
            RoomRule::Friendly => "friendly",
            RoomRule::Approve => "approve",
        };
        let change = crate::store::tx::update(keys::room_meta(code)).expressions(
            Expr::update(
                Update::new()
                    .set(attr(name), AttributeValue::Bool(on))
                    .set(attr("version"), Operand::Plus(attr("version"), n(1))),
            )
            .when(live(now).and(Cond::eq(attr("host_id"), s(host.as_str())))),
        );
        match self.write_alone(self.update_action(change)?).await {
            Ok(()) => Ok(()),
            Err(DataError::Conflict(Conflict::ConditionFailed)) => {
                match self.room_version(code).await? {
                    None => Err(RoomConflict::NotFound),
                    Some(_) => Err(RoomConflict::NotHost),
                }
            }
            Err(err) => Err(err.into()),
        }
    }

    /// `joiner` asks to join a room whose host approves each join: one transaction that puts
    /// their ask in the queue (with `extra`, a guest made for it) and moves the room's version,
    /// only while the room is live, approves joins, is not locked, did not remove them or their
    /// browser, and did not turn them away lately. Refused, one read says why.
    #[tracing::instrument(skip(self, extra), err(level = "debug"))]
    pub async fn ask_to_join(
        self,
        code: &RoomCode,
        joiner: &Joiner,
        extra: Vec<TransactWriteItem>,
    ) -> Result<Asked, RoomConflict> {
        let now_ms = epoch_millis();
        let now = now_ms / 1000;
        let mut allowed = live(now)
            .and(Cond::eq(attr("approve"), AttributeValue::Bool(true)))
            .and(
                Cond::not_exists(attr("locked"))
                    .or(Cond::eq(attr("locked"), AttributeValue::Bool(false))),
            );
        let kept_out = whom(&joiner.user, joiner.mark.as_deref());
        for who in &kept_out {
            allowed = allowed.and(Cond::contains(attr("removed"), s(who)).not());
        }
        let mut actions = vec![self.update_action(
            crate::store::tx::update(keys::room_meta(code)).expressions(
                Expr::update(
                    Update::new().set(attr("version"), Operand::Plus(attr("version"), n(1))),
                )
                .when(allowed),
            ),
        )?];
        let keys::Key { pk, sk } = keys::room_ask(code, &joiner.user);
        actions.push(
            self.put_new(
                serde_dynamo::to_item(AskItem {
                    pk,
                    sk,
                    user_id: joiner.user.clone(),
                    nickname: joiner.nickname.clone(),
                    avatar: joiner.avatar,
                    look: joiner.look.map(|look| look.id().to_owned()),
                    asked_at_ms: now_ms,
                    mark: joiner.mark.clone(),
                    ttl: now + ASK_SECS,
                })
                .map_err(DataError::from)?,
            )?,
        );
        for who in &kept_out {
            actions.push(self.check_action(keys::room_barred(code, who), lapsed(now))?);
        }
        actions.push(self.check_action(
            keys::room_player(code, &joiner.user),
            Cond::not_exists(attr(keys::PK)),
        )?);
        actions.extend(extra);
        match self.transact(actions).await {
            Ok(()) => return Ok(Asked::Waiting),
            Err(err @ DataError::Conflict(Conflict::TransactionConflict)) => return Err(err.into()),
            Err(DataError::Conflict(_)) => {}
            Err(err) => return Err(err.into()),
        }
        let Some(lobby) = self.lobby(code).await? else {
            return Err(RoomConflict::NotFound);
        };
        if lobby.player(&joiner.user).is_some() {
            return Ok(Asked::AlreadyIn);
        }
        if lobby.is_asking(&joiner.user) {
            return Ok(Asked::Waiting);
        }
        if !lobby.rules.approve {
            return Ok(Asked::NotNeeded);
        }
        Err(self
            .kept_out(code, &lobby, joiner)
            .await?
            .unwrap_or(RoomConflict::TurnedAway))
    }

    /// The host lets `user` in from the queue (their ask's join, with the name they asked with,
    /// as one transaction with the ask's delete) or turns them away (the ask deleted, and a mark
    /// for them and their browser that lapses in [`TURNED_AWAY_SECS`]). One read of the room
    /// first, and one of the ask (its browser's mark).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn answer_ask(
        self,
        code: &RoomCode,
        host: &UserId,
        user: &UserId,
        let_in: bool,
    ) -> Result<(), RoomConflict> {
        let lobby = self.lobby(code).await?.ok_or(RoomConflict::NotFound)?;
        if &lobby.host_id != host {
            return Err(RoomConflict::NotHost);
        }
        if lobby.player(user).is_some() {
            return Ok(());
        }
        let ask = self.ask(code, user).await?.ok_or(RoomConflict::NotAsking)?;
        let now_ms = epoch_millis();
        let now = now_ms / 1000;
        let hosting = Cond::eq(attr("host_id"), s(host.as_str()));
        let taken =
            self.delete_action_when(keys::room_ask(code, user), Cond::exists(attr(keys::PK)))?;
        let joiner = Joiner {
            user: ask.user_id,
            nickname: ask.nickname,
            avatar: ask.avatar,
            look: ask.look.as_deref().and_then(crate::ids::Look::parse),
            mark: ask.mark,
        };
        let actions = if let_in {
            let mut actions = self.join_actions(code, &joiner, now_ms, Some(hosting))?;
            actions.push(taken);
            actions
        } else {
            let mut actions = vec![
                self.update_action(
                    crate::store::tx::update(keys::room_meta(code)).expressions(
                        Expr::update(
                            Update::new()
                                .set(attr("version"), Operand::Plus(attr("version"), n(1))),
                        )
                        .when(live(now).and(hosting)),
                    ),
                )?,
                taken,
            ];
            for who in whom(user, joiner.mark.as_deref()) {
                actions.push(self.update_action(
                    crate::store::tx::update(keys::room_barred(code, &who)).expressions(
                        Expr::update(Update::new().set(attr(keys::TTL), n(now + TURNED_AWAY_SECS))),
                    ),
                )?);
            }
            actions
        };
        match self.transact(actions).await {
            Ok(()) => Ok(()),
            Err(err @ DataError::Conflict(Conflict::TransactionConflict)) => Err(err.into()),
            // Let in meanwhile (by another page of the host's) is done; else the join says why.
            Err(DataError::Conflict(_)) if let_in => {
                self.why_not_joined(code, &joiner).await.map(|_| ())
            }
            Err(DataError::Conflict(_)) => Err(RoomConflict::NotAsking),
            Err(err) => Err(err.into()),
        }
    }

    /// One ask in the queue, read consistently (`None` when there is none, or it lapsed).
    async fn ask(self, code: &RoomCode, user: &UserId) -> Result<Option<AskItem>, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(crate::store::key_map(keys::room_ask(code, user))))
                    .consistent_read(true),
            )
            .await?;
        let now = epoch_millis() / 1000;
        Ok(item
            .map(serde_dynamo::from_item::<_, AskItem>)
            .transpose()?
            .filter(|ask| ask.ttl > now))
    }

    /// A player of a room with friendly names draws another (at most [`REROLLS`] times, between
    /// matches): their name changes on their PLAYER item, its claim moves to the new name, and
    /// the room's version moves, in one transaction; a name someone took meanwhile is drawn
    /// again. The name drawn.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn draw_another_name(
        self,
        code: &RoomCode,
        user: &UserId,
        locale: crate::lang::Locale,
    ) -> Result<DisplayName, RoomConflict> {
        for _ in 0..MAX_ATTEMPTS {
            let lobby = self.lobby(code).await?.ok_or(RoomConflict::NotFound)?;
            let me = lobby.player(user).ok_or(RoomConflict::NotInRoom)?.clone();
            if !lobby.rules.friendly {
                return Err(RoomConflict::NoMoreNames);
            }
            if lobby.state != RoomState::Lobby {
                return Err(RoomConflict::Started);
            }
            let taken: Vec<&DisplayName> = lobby.names().collect();
            let name =
                crate::rooms::friendly::draw(locale, &taken).ok_or(RoomConflict::NicknameTaken)?;
            let now_ms = epoch_millis();
            let actions = vec![
                self.update_action(
                    crate::store::tx::update(keys::room_player(code, user)).expressions(
                        Expr::update(Update::new().set(attr("nickname"), s(name.as_str())).set(
                            attr("rerolls"),
                            Operand::CountFrom(attr("rerolls"), n(0), n(1)),
                        ))
                        .when(
                            Cond::eq(attr("nickname"), s(me.nickname.as_str())).and(
                                Cond::not_exists(attr("rerolls"))
                                    .or(Cond::lt(attr("rerolls"), n(REROLLS))),
                            ),
                        ),
                    ),
                )?,
                self.delete_action_when(
                    keys::room_nickname(code, &me.nickname.folded()),
                    Cond::eq(attr("user_id"), s(user.as_str())),
                )?,
                self.put_new(
                    serde_dynamo::to_item(nickname_item(code, user, &name, now_ms))
                        .map_err(DataError::from)?,
                )?,
                self.update_action(
                    crate::store::tx::update(keys::room_meta(code)).expressions(
                        Expr::update(
                            Update::new()
                                .set(attr("version"), Operand::Plus(attr("version"), n(1))),
                        )
                        .when(Cond::eq(attr("state"), state_value(RoomState::Lobby))),
                    ),
                )?,
            ];
            match self.transact(actions).await {
                Ok(()) => return Ok(name),
                Err(err @ DataError::Conflict(Conflict::TransactionConflict)) => {
                    return Err(err.into())
                }
                // All drawn already, or the name (or the room) changed meanwhile: read again.
                Err(DataError::Conflict(_)) => {
                    if self.rerolls(code, user).await? >= REROLLS {
                        return Err(RoomConflict::NoMoreNames);
                    }
                }
                Err(err) => return Err(err.into()),
            }
        }
        Err(DataError::Unavailable("the room kept changing; try again".into()).into())
    }

    /// How many names `user` drew again in the room (one GetItem of their PLAYER item,
    /// projected): what the room's form offers, and why a draw was refused.
    pub async fn rerolls(self, code: &RoomCode, user: &UserId) -> Result<u32, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(crate::store::key_map(keys::room_player(code, user))))
                    .expressions(Expr::default().project([attr("rerolls")]))
                    .consistent_read(true),
            )
            .await?;
        Ok(item
            .and_then(|item| item.get("rerolls")?.as_n().ok()?.parse().ok())
            .unwrap_or(0))
    }
}

impl Lobby {
    /// Every name in the room: its players' and those asking to join.
    pub fn names(&self) -> impl Iterator<Item = &DisplayName> {
        self.players.iter().chain(&self.asking).map(|p| &p.nickname)
    }
}
