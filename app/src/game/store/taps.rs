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
use crate::store::expr::{attr, Cond, Expr, Expressions, Update};
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
        let mine = || attr("taps").key(user.as_str());
        let add = Update::new()
            .set(
                mine(),
                serde_dynamo::to_attribute_value::<_, AttributeValue>(tap)
                    .map_err(DataError::from)?,
            )
            .add(attr("tap_count"), n(1));
        let open = Cond::eq(attr("n"), n(round))
            .and(Cond::eq(attr("reveal_ms"), n(reveal_ms)))
            .and(Cond::eq(attr("window_ms"), n(window_ms)))
            .and(Cond::not_exists(attr("resolved_at_ms")))
            .and(Cond::contains(attr("players"), s(user.as_str())))
            .and(Cond::not_exists(mine()));
        let written = self
            .update_item(
                self.client
                    .update_item()
                    .set_key(Some(key_map(keys::round(code, round))))
                    .expressions(Expr::update(add).when(open)),
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
                    .expressions(Expr::default().project([
                        attr("n"),
                        attr("reveal_ms"),
                        attr("window_ms"),
                        attr("resolved_at_ms"),
                        attr("players"),
                        attr("taps").key(user.as_str()),
                    ]))
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
