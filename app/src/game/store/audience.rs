//! The room's audience: people who tap along in a match without a seat in it (the room was full,
//! the match had begun, or they came to watch), each scored for themselves, and counted together
//! on the big screen and the podium ("62 % of the audience said it flies"). Nothing of theirs
//! touches the players' rounds: a player's results are the same with an audience or without.
//!
//! | pattern | how | round trips |
//! |---|---|---|
//! | join the audience | one transaction: META's `audience` count (under [`AUDIENCE_LIMIT`], the room live, unlocked, neither the joiner nor their browser's room mark removed) and the seat `AUD#<id>` put new; a refused join reads the room to say why | TransactWriteItems (+ Query, GetItem when refused) |
//! | tap along | the round read (eventually consistent, projected: reveal, window, closed, players) to check the tap is for the round as it is; then one conditional UpdateItem of the member's own seat adds the call (`calls.<n>`), only if the seat exists and holds no call for that round | GetItem + UpdateItem (+ GetItem when refused) |
//! | the audience's calls | Query `AUD#` of the room partition (consistent): every seat, with its calls; counted once per instance at each round's close (`game::crowds`) | Query |
//! | a viewer's own seat | GetItem `AUD#<id>` (consistent): the room page's own calls | GetItem |

use std::collections::HashMap;

use aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem};
use serde::{Deserialize, Serialize};

use super::Game;
use crate::game::model::Room;
use crate::game::store::{GameConflict, Tapped};
use crate::game::timing::{check_tap, Received};
use crate::identity::model::{Avatar, DisplayName, UserId};
use crate::rooms::items::ROOM_IDLE_SECS;
use crate::rooms::model::{RoomCode, AUDIENCE_LIMIT};
use crate::store::expr::{attr, Cond, Expr, Expressions, KeyCond, Update};
use crate::store::keys;
use crate::store::tx::{n, s};
use crate::store::{epoch_millis, key_map, Conflict, DataError};

/// The work the audience's calls are counted as (`/healthz/usage`, the load's bill): apart from
/// the players' requests, so the game's own cost per player-round is the players' alone.
pub const AUDIENCE: &str = "audience";

/// One member of a room's audience as stored: `ROOM#<code>` / `AUD#<id>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AudienceSeat {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    pub user_id: UserId,
    pub nickname: DisplayName,
    pub avatar: Avatar,
    pub joined_ms: i64,
    /// Their calls: the counted reaction (ms) by room-wide round number, for the rounds they
    /// said fly. A round with no call is a "does not fly".
    #[serde(default)]
    pub calls: HashMap<String, u32>,
    ttl: i64,
}

impl AudienceSeat {
    /// The counted reaction of their call in round `n`, if they tapped along in it.
    pub fn call(&self, n: u32) -> Option<u32> {
        self.calls.get(&n.to_string()).copied()
    }

    /// Whether this seat counts in the round revealed at `reveal_ms` (a call scored, no call a
    /// "does not fly"): joined by the window's end, so it could call it; a round it called
    /// counts whenever it joined. The room's figure ([`count_calls`]) and each member's own score
    /// (the room page's `along_from`) count by this one rule, so they agree.
    pub fn counts_in(&self, n: u32, reveal_ms: i64, window_ms: u32) -> bool {
        self.joined_ms <= reveal_ms + i64::from(window_ms) || self.call(n).is_some()
    }

    /// The index of the first round of `rounds` this seat could play (`rounds.len()` if none).
    pub fn first_round(&self, rounds: &[crate::game::model::Round], window_ms: u32) -> usize {
        rounds
            .iter()
            .position(|r| self.joined_ms <= r.reveal_ms + i64::from(window_ms))
            .unwrap_or(rounds.len())
    }
}

/// How joining the audience ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JoinedAudience {
    Joined,
    /// They were in it already: nothing was written.
    AlreadyIn,
}

/// Each resolved round's audience count of the match in `room`: how many had joined by its
/// window's end (and so could call it), and how many of them said it flies; and the audience's
/// size. Pure: what the round's close and the room page both show.
pub fn count_calls(room: &mut Room, seats: &[AudienceSeat]) {
    room.lobby.audience = room.lobby.audience.max(seats.len() as u32);
    let Some(game) = room.game.as_mut() else {
        return;
    };
    let window = game.window_ms;
    for round in game.rounds.iter_mut().filter(|r| r.results.is_some()) {
        let (mut crowd, mut flies) = (0, 0);
        for seat in seats {
            if seat.counts_in(round.n, round.reveal_ms, window) {
                crowd += 1;
                flies += u32::from(seat.call(round.n).is_some());
            }
        }
        round.crowd = crowd;
        round.crowd_flies = flies;
    }
}

impl Game<'_> {
    /// `user` joins the room's audience (see the module's table). Joining twice is joining once.
    /// A player of the match in play taps as a player, not here. A player the host removed is
    /// kept out, and so is their browser (its room `mark`) under another name.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn join_audience(
        self,
        code: &RoomCode,
        user: &UserId,
        nickname: &DisplayName,
        avatar: Avatar,
        mark: Option<&str>,
        extra: Vec<TransactWriteItem>,
    ) -> Result<JoinedAudience, GameConflict> {
        let now_ms = epoch_millis();
        let seat = AudienceSeat {
            pk: keys::room_partition(code),
            sk: keys::audience_seat(code, user).sk,
            user_id: user.clone(),
            nickname: nickname.clone(),
            avatar,
            joined_ms: now_ms,
            calls: HashMap::new(),
            ttl: now_ms / 1000 + ROOM_IDLE_SECS,
        };
        let db = self.counted_as(AUDIENCE);
        let mut actions = vec![
            db.rooms().audience_joined(code, user, mark)?,
            db.put_new(serde_dynamo::to_item(&seat).map_err(DataError::from)?)?,
        ];
        // A guest made for this join rides in its transaction: a refused join makes none.
        actions.extend(extra);
        match db.transact(actions).await {
            Ok(()) => return Ok(JoinedAudience::Joined),
            Err(err @ DataError::Conflict(Conflict::TransactionConflict)) => return Err(err.into()),
            Err(DataError::Conflict(_)) => {}
            Err(err) => return Err(err.into()),
        }
        // Refused (or this very join's copy, its first answer lost): say why.
        if db.game().seat(code, user).await?.is_some() {
            return Ok(JoinedAudience::AlreadyIn);
        }
        let Some(lobby) = db.rooms().lobby(code).await? else {
            return Err(GameConflict::NotFound);
        };
        if db.rooms().was_removed(code, user, mark).await? {
            return Err(GameConflict::Removed);
        }
        if lobby.locked {
            return Err(GameConflict::Locked);
        }
        if lobby.audience >= AUDIENCE_LIMIT {
            return Err(GameConflict::AudienceFull);
        }
        Err(DataError::Conflict(Conflict::ConditionFailed).into())
    }

    /// `user`'s seat in the room's audience, if they have one (one consistent GetItem).
    pub async fn seat(
        self,
        code: &RoomCode,
        user: &UserId,
    ) -> Result<Option<AudienceSeat>, DataError> {
        let db = self.counted_as(AUDIENCE);
        let item = db
            .get(
                db.client
                    .get_item()
                    .set_key(Some(key_map(keys::audience_seat(code, user))))
                    .consistent_read(true),
            )
            .await?;
        Ok(item.map(serde_dynamo::from_item).transpose()?)
    }

    /// Every seat of the room's audience, with their calls (one consistent Query of `AUD#`).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn audience(self, code: &RoomCode) -> Result<Vec<AudienceSeat>, DataError> {
        let db = self.counted_as(AUDIENCE);
        let items = db
            .query_all(
                db.client
                    .query()
                    .expressions(Expr::query(
                        KeyCond::partition(keys::PK, s(keys::room_partition(code)))
                            .begins_with(keys::SK, s(keys::AUDIENCE_PREFIX)),
                    ))
                    .consistent_read(true),
            )
            .await?;
        let now = epoch_millis() / 1000;
        Ok(items
            .into_iter()
            .filter_map(|item| serde_dynamo::from_item::<_, AudienceSeat>(item).ok())
            .filter(|seat| seat.ttl > now)
            .collect())
    }

    /// The room with its audience counted into its resolved rounds ([`count_calls`]): one
    /// Query when the room has an audience, nothing otherwise.
    pub async fn with_audience(self, code: &RoomCode, room: &mut Room) -> Result<(), DataError> {
        if room.lobby.audience > 0 && room.game.is_some() {
            let seats = self.audience(code).await?;
            count_calls(room, &seats);
        }
        Ok(())
    }

    /// A member of the audience taps along in round `n`, which the browser was told is revealed
    /// at `reveal_ms` with a window of `window_ms` (see the module's table). Timing is checked
    /// as a player's tap is; the round must be that round as it is, still open, and not one the
    /// tapper plays in. The call goes into their own seat only: at most one write per member
    /// and round, and none into the round the players' taps and its close contend for.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    #[allow(clippy::too_many_arguments)]
    pub async fn tap_along(
        self,
        code: &RoomCode,
        user: &UserId,
        round: u32,
        reveal_ms: i64,
        window_ms: u32,
        client_reaction_ms: u32,
        received: impl Into<Received> + std::fmt::Debug,
    ) -> Result<Tapped, GameConflict> {
        let received: Received = received.into();
        let reaction_ms = check_tap(reveal_ms, window_ms, received, client_reaction_ms)?;
        let db = self.counted_as(AUDIENCE);
        let item = db
            .get(
                db.client
                    .get_item()
                    .set_key(Some(key_map(keys::round(code, round))))
                    .expressions(Expr::default().project(
                        ["n", "reveal_ms", "window_ms", "resolved_at_ms", "players"].map(attr),
                    )),
            )
            .await?
            .ok_or(GameConflict::RoundClosed)?;
        let number = |name: &str| item.get(name).and_then(|v| v.as_n().ok()).cloned();
        let same = number("n") == Some(round.to_string())
            && number("reveal_ms") == Some(reveal_ms.to_string())
            && number("window_ms") == Some(window_ms.to_string());
        if !same || item.contains_key("resolved_at_ms") {
            return Err(GameConflict::RoundClosed);
        }
        let plays = matches!(item.get("players"), Some(AttributeValue::L(players))
            if players.iter().any(|p| p.as_s().is_ok_and(|p| p == user.as_str())));
        if plays {
            return Err(GameConflict::InTheMatch);
        }
        let call = || attr("calls").key(round.to_string());
        let add = Update::new()
            .set(call(), n(reaction_ms))
            .set(attr(keys::TTL), n(received.at_ms / 1000 + ROOM_IDLE_SECS));
        let seated = Cond::exists(attr(keys::PK)).and(Cond::not_exists(call()));
        let written = db
            .update_item(
                db.client
                    .update_item()
                    .set_key(Some(key_map(keys::audience_seat(code, user))))
                    .expressions(Expr::update(add).when(seated)),
            )
            .await;
        match written {
            Ok(()) => Ok(Tapped::Counted { reaction_ms }),
            Err(DataError::Conflict(Conflict::ConditionFailed)) => {
                match db
                    .game()
                    .seat(code, user)
                    .await?
                    .map(|seat| seat.call(round))
                {
                    None => Err(GameConflict::NotInAudience),
                    // This very call, its first answer lost (the SDK sent it again and the
                    // condition refused the copy): it counted.
                    Some(Some(ms)) if ms == reaction_ms => Ok(Tapped::Counted { reaction_ms }),
                    Some(_) => Ok(Tapped::AlreadyCounted),
                }
            }
            Err(err) => Err(err.into()),
        }
    }
}
