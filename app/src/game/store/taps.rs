//! A tap: the player's decision in a round, written once, into the round itself.
//!
//! | pattern | how | round trips |
//! |---|---|---|
//! | tap | one conditional UpdateItem of `ROUND#<n>`: it has the reveal and window the browser was told, is not closed, lists the player, and holds no tap of theirs yet; the tap is added to its `taps` and `tap_count` goes up by one. A refused tap reads the round once to say why | UpdateItem (+ GetItem when refused) |

use std::collections::HashMap;

use super::Game;
use aws_sdk_dynamodb::types::AttributeValue;

use crate::game::store::GameConflict;
use crate::game::timing::{check_tap, Received};
use crate::identity::model::UserId;
use crate::rooms::model::RoomCode;
use crate::store::keys;
use crate::store::tx::{n, s};
use crate::store::{key_map, Conflict, DataError};
use serde::{Deserialize, Serialize};

/// The counted reaction of each player who tapped in an open round, from the round's `taps`.
pub(super) fn counted(taps: &HashMap<String, TapEntry>) -> Vec<(UserId, u32)> {
    taps.iter()
        .filter_map(|(id, tap)| Some((UserId::parse(id).ok()?, tap.m)))
        .collect()
}

/// How a tap ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tapped {
    /// Counted, with this reaction time.
    Counted { reaction_ms: u32 },
    /// The player had tapped this round already: the first tap stands.
    AlreadyCounted,
}

/// One tap as its round holds it (short attribute names: every byte of the round is paid by
/// each later tap's write).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct TapEntry {
    /// When the server received it (its clock).
    pub(crate) r: i64,
    /// What the browser measured, as sent.
    pub(crate) c: u32,
    /// The reaction that counts (see [`crate::game::timing::check_tap`]).
    pub(crate) m: u32,
}

impl Game<'_> {
    /// A player taps in round `n`, which the browser was told is revealed at `reveal_ms` with
    /// a window of `window_ms`. The timing is checked against the server's clock first (no
    /// write for a refused tap); then one conditional UpdateItem writes the tap into the round
    /// only if the round really has that reveal and window, is not closed, lists the player,
    /// and holds no tap of theirs. The round's close is a write of the same item conditioned
    /// on its tap count, so a tap either lands before the close (and counts) or is refused:
    /// an acknowledged tap is never left out of the results.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    #[allow(clippy::too_many_arguments)]
    pub async fn tap(
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
        let tap = TapEntry {
            r: received.at_ms,
            c: client_reaction_ms,
            m: reaction_ms,
        };
        let written = self
            .update_item(
                self.client
                    .update_item()
                    .set_key(Some(key_map(keys::round(code, round))))
                    .update_expression("SET taps.#player = :tap ADD tap_count :one")
                    .condition_expression(
                        "n = :n AND reveal_ms = :reveal AND window_ms = :window \
                         AND attribute_not_exists(resolved_at_ms) \
                         AND contains(players, :user) AND attribute_not_exists(taps.#player)",
                    )
                    .expression_attribute_names("#player", user.as_str())
                    .expression_attribute_values(
                        ":tap",
                        serde_dynamo::to_attribute_value(tap).map_err(DataError::from)?,
                    )
                    .expression_attribute_values(":one", n(1))
                    .expression_attribute_values(":n", n(round))
                    .expression_attribute_values(":reveal", n(reveal_ms))
                    .expression_attribute_values(":window", n(window_ms))
                    .expression_attribute_values(":user", s(user.as_str())),
            )
            .await;
        match written {
            Ok(()) => Ok(Tapped::Counted { reaction_ms }),
            Err(DataError::Conflict(Conflict::ConditionFailed)) => {
                match self
                    .why_refused(code, user, round, reveal_ms, window_ms)
                    .await?
                {
                    Refused::Closed(refused) => Err(refused),
                    // This very tap, written by an attempt whose answer was lost (the SDK sent
                    // it again and the condition refused the copy): it counted, with its time.
                    Refused::Tapped(stored) if stored == tap => Ok(Tapped::Counted { reaction_ms }),
                    Refused::Tapped(_) => Ok(Tapped::AlreadyCounted),
                }
            }
            Err(err) => Err(err.into()),
        }
    }

    /// Why a tap's condition failed, from one consistent read of the round: the player's tap
    /// there already (the first stands), or why the round takes none.
    async fn why_refused(
        self,
        code: &RoomCode,
        user: &UserId,
        round: u32,
        reveal_ms: i64,
        window_ms: u32,
    ) -> Result<Refused, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::round(code, round))))
                    .projection_expression(
                        "n, reveal_ms, window_ms, resolved_at_ms, players, taps.#player",
                    )
                    .expression_attribute_names("#player", user.as_str())
                    .consistent_read(true),
            )
            .await?;
        let Some(item) = item else {
            return Ok(Refused::Closed(GameConflict::RoundClosed));
        };
        let number = |name: &str| item.get(name).and_then(|v| v.as_n().ok()).cloned();
        if number("n") != Some(round.to_string()) {
            return Ok(Refused::Closed(GameConflict::RoundClosed));
        }
        let same = number("reveal_ms") == Some(reveal_ms.to_string())
            && number("window_ms") == Some(window_ms.to_string());
        let stored = item
            .get("taps")
            .and_then(|taps| taps.as_m().ok())
            .and_then(|taps| taps.get(user.as_str()))
            .and_then(|tap| serde_dynamo::from_attribute_value::<_, TapEntry>(tap.clone()).ok());
        if let Some(stored) = stored {
            return Ok(Refused::Tapped(stored));
        }
        if !same || item.contains_key("resolved_at_ms") {
            return Ok(Refused::Closed(GameConflict::RoundClosed));
        }
        let listed = match item.get("players") {
            Some(AttributeValue::L(players)) => players
                .iter()
                .any(|p| p.as_s().is_ok_and(|p| p == user.as_str())),
            _ => false,
        };
        if !listed {
            return Ok(Refused::Closed(GameConflict::Spectating));
        }
        // Nothing explains it but a change between the write and the read (the round closed).
        Ok(Refused::Closed(GameConflict::RoundClosed))
    }
}

/// Why a tap's write was refused.
enum Refused {
    /// The player's tap is in the round already: this one's own copy, or an earlier tap.
    Tapped(TapEntry),
    /// The round takes no tap from this player.
    Closed(GameConflict),
}
