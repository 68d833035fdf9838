//! A tap: the player's decision in a round, written once.
//!
//! | pattern | how | round trips |
//! |---|---|---|
//! | tap | one transaction: `ROUND#<n>` still open with the reveal and window the browser was told (a condition check), the player in this match (a condition check), `CLICK#<n>#<player>` only if absent | TransactWriteItems |

use serde::{Deserialize, Serialize};

use crate::game::store::{GameConflict, Tapped};
use crate::game::timing::check_tap;
use crate::identity::model::UserId;
use crate::rooms::items::ROOM_IDLE_SECS;
use crate::rooms::model::RoomCode;
use crate::store::keys::{self, Key};
use crate::store::tx::n;
use crate::store::{Conflict, DataError, Db};

#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct ClickItem {
    #[serde(rename = "PK")]
    pub(crate) pk: String,
    #[serde(rename = "SK")]
    pub(crate) sk: String,
    pub(crate) user_id: UserId,
    /// When the server received the tap (its clock).
    pub(crate) received_ms: i64,
    /// What the browser measured, as sent.
    pub(crate) client_reaction_ms: u32,
    /// The reaction that counts (see [`game::check_tap`]).
    pub(crate) reaction_ms: u32,
    pub(crate) ttl: i64,
}

impl Db {
    /// A player taps in round `n`, which the browser was told is revealed at `reveal_ms` with
    /// a window of `window_ms`. The timing is checked against the server's clock first (no
    /// write for a refused tap); then one transaction checks that the round really has that
    /// reveal and window and is not resolved, that the player plays this match, and writes the
    /// tap only if the player has none in this round yet.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    #[allow(clippy::too_many_arguments)]
    pub async fn tap(
        &self,
        code: &RoomCode,
        user: &UserId,
        round: u32,
        reveal_ms: i64,
        window_ms: u32,
        client_reaction_ms: u32,
        received_ms: i64,
    ) -> Result<Tapped, GameConflict> {
        let reaction_ms = check_tap(reveal_ms, window_ms, received_ms, client_reaction_ms)?;
        let Key { pk, sk } = keys::click(code, round, user);
        let click = ClickItem {
            pk,
            sk,
            user_id: user.clone(),
            received_ms,
            client_reaction_ms,
            reaction_ms,
            ttl: received_ms / 1000 + ROOM_IDLE_SECS,
        };
        let actions = vec![
            self.check_action(
                keys::round(code, round),
                "reveal_ms = :reveal AND window_ms = :window AND attribute_not_exists(resolved_at_ms)",
                &[(":reveal", n(reveal_ms)), (":window", n(window_ms))],
            )?,
            self.check_action(
                keys::room_player(code, user),
                "in_match <= :round",
                &[(":round", n(round))],
            )?,
            self.put_new(serde_dynamo::to_item(click).map_err(DataError::from)?)?,
        ];
        match self.transact(actions).await {
            Ok(()) => Ok(Tapped::Counted { reaction_ms }),
            Err(DataError::Conflict(conflict @ Conflict::TransactionCanceled { .. })) => {
                match conflict.failed_condition() {
                    Some(0) => Err(GameConflict::RoundClosed),
                    Some(1) => Err(GameConflict::Spectating),
                    Some(_) => Ok(Tapped::AlreadyCounted),
                    None => Err(DataError::Conflict(conflict).into()),
                }
            }
            Err(err) => Err(err.into()),
        }
    }
}
