//! The host's suggestion box as the room keeps it: open or closed, and a number on META that
//! moves with every suggestion, vote and answer, so every instance's pages hear of them
//! (`crate::suggest` owns the suggestions themselves, in a partition of their own).

use super::Rooms;
use aws_sdk_dynamodb::types::TransactWriteItem;

use crate::identity::model::UserId;
use crate::rooms::model::RoomCode;
use crate::rooms::store::RoomConflict;
use crate::store::expr::{attr, Cond, Expr, Expressions, Operand, Update};
use crate::store::keys;
use crate::store::tx::{n, s, update};
use crate::store::{epoch_seconds, key_map, Conflict, DataError};

/// META's attributes of the box.
const SUGGEST: &str = "suggest";
const VOTE: &str = "vote";

fn live_room() -> Cond {
    Cond::exists(attr(keys::PK)).and(Cond::gt(attr(keys::TTL), n(epoch_seconds())))
}

impl Rooms<'_> {
    /// The host opens (or closes) room `code`'s suggestion box: one UpdateItem of META
    /// conditioned on `host_id`, moving the room's version so every instance redraws. Closing
    /// keeps the suggestions (they lapse with the room); opening again shows them again.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn set_suggestions(
        self,
        code: &RoomCode,
        host: &UserId,
        open: bool,
    ) -> Result<(), RoomConflict> {
        let change = Update::new().set(attr("version"), Operand::Plus(attr("version"), n(1)));
        let change = match open {
            true => change.set(attr(SUGGEST), Operand::CountFrom(attr(SUGGEST), n(0), n(1))),
            false => change.remove(attr(SUGGEST)).remove(attr(VOTE)),
        };
        let request = self
            .client
            .update_item()
            .set_key(Some(key_map(keys::room_meta(code))))
            .expressions(
                Expr::update(change)
                    .when(live_room().and(Cond::eq(attr("host_id"), s(host.as_str())))),
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

    /// The transaction action that moves the box's number with a suggestion, a vote or the
    /// host's answer: only while the box is open, and with `host`, only for the room's host.
    /// `vote`: the host put a ruling to the room's vote (players' pages drawn before it say so).
    pub fn suggest_moved(
        &self,
        code: &RoomCode,
        host: Option<&UserId>,
        vote: bool,
    ) -> Result<TransactWriteItem, DataError> {
        let mut change = Update::new()
            .set(attr(SUGGEST), Operand::Plus(attr(SUGGEST), n(1)))
            .set(attr("version"), Operand::Plus(attr("version"), n(1)));
        if vote {
            change = change.set(attr(VOTE), Operand::Plus(attr(SUGGEST), n(1)));
        }
        let mut when = live_room().and(Cond::exists(attr(SUGGEST)));
        if let Some(host) = host {
            when = when.and(Cond::eq(attr("host_id"), s(host.as_str())));
        }
        self.update_action(
            update(keys::room_meta(code)).expressions(Expr::update(change).when(when)),
        )
    }

    /// The transaction action that checks `user` is one of room `code`'s players.
    pub fn player_check(
        &self,
        code: &RoomCode,
        user: &UserId,
    ) -> Result<TransactWriteItem, DataError> {
        self.check_action(keys::room_player(code, user), Cond::exists(attr(keys::PK)))
    }
}
