//! The daily flight in the table. Every time is passed in (`now_ms`): the API reads it from the
//! [`DailyClock`](super::clock::DailyClock), which tests set.
//!
//! | pattern | how | round trips |
//! |---|---|---|
//! | the day's draw | GetItem `DAILY#<day>` / `DRAW` (consistent); the day's first player draws it: the catalog's Query, then a PutItem conditioned on being first (a second drawer reads the winner's) | GetItem (+ Query + PutItem, once a day) |
//! | start the day's flight | PutItem `USER#<id>` / `FLIGHT#<day>` only if absent: a second try, tab or device finds the first | PutItem (+ GetItem when refused) |
//! | a player's flight | GetItem `USER#<id>` / `FLIGHT#<day>` (consistent) | GetItem |
//! | a player's flight by its start (a round's thing) | GetItem (eventually consistent; consistent again only when it does not show that start) | GetItem |
//! | tap | one conditional UpdateItem: the flight started when the claimed reveal says, the round holds no tap, the flight not over; timing checked before any call | UpdateItem (+ GetItem when refused) |
//! | finish | once the last window is over: the result written into the flight once (`attribute_not_exists(result)`); the board projector counts it from the stream | UpdateItem |
//!
//! The draw is kept for good (no `ttl`), and so are flights (a player's days in a row and their
//! history of dailies read them).

use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::AttributeValue;
use rand::Rng;
use serde::{Deserialize, Serialize};

use super::model::{
    over_ms, reveal_ms, round_of, score_flight, FlightScore, FLIGHT_ROUNDS, WINDOW_MS,
};
use crate::catalog::model::{FlyFilter, ThingId};
use crate::game::draw::draw_things;
use crate::game::model::ThingCard;
use crate::game::timing::{check_tap, too_fast_to_believe, Received, TapRejected};
use crate::identity::model::{Avatar, DisplayName, UserId};
use crate::ids::Day;
use crate::store::expr::{attr, Cond, Expr, Expressions, Update};
use crate::store::keys;
use crate::store::tx::n;
use crate::store::{handle, key_map, Conflict, DataError};

handle!(
    /// The daily flight: the day's draw, each player's flight, its taps and result.
    Daily,
    daily
);

/// The work the daily's calls are counted as (`/healthz/usage`, the load's bill).
pub const DAILY: &str = "daily";

/// A day's draw as stored: its secret seed (shown once the day is over) and the things it drew
/// from the catalog as it was (`draw_things(catalog, 10, seed)`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DayDraw {
    pub day: Day,
    pub seed: u64,
    pub things: Vec<ThingId>,
    /// Each thing as a round shows it, and its ruling, as the catalog had them that day.
    pub cards: Vec<(ThingCard, bool)>,
    pub drawn_ms: i64,
}

impl DayDraw {
    /// A drawn thing's card and ruling.
    pub fn card_of(&self, id: &ThingId) -> Option<(&ThingCard, bool)> {
        self.cards
            .iter()
            .find(|(card, _)| &card.id == id)
            .map(|(card, flies)| (card, *flies))
    }
}

/// A player's flight of a day as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flight {
    pub user_id: UserId,
    pub nickname: DisplayName,
    pub avatar: Avatar,
    pub day: Day,
    pub started_ms: i64,
    /// The counted reaction of each round tapped, by the round's place in the player's order
    /// (`"0"`–`"9"`).
    #[serde(default)]
    pub taps: BTreeMap<String, u32>,
    /// Written once, when the flight is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<FlightResult>,
    /// Written with the result when its taps were too fast and steady to be a person's (see
    /// `game::timing::too_fast_to_believe`): the result stands for the player and counts on no
    /// board until an operator clears it (`udd-server flagged`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub flagged: bool,
}

impl Flight {
    /// The taps by round, in the player's order.
    pub fn taps_by_round(&self) -> Vec<Option<u32>> {
        (0..FLIGHT_ROUNDS)
            .map(|i| self.taps.get(&i.to_string()).copied())
            .collect()
    }
}

/// A finished flight's result: what the boards count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlightResult {
    pub score: i32,
    pub correct: u32,
    pub best_streak: u32,
    pub average_ms: Option<u32>,
    /// Each round right (`1`) or wrong (`0`), in the player's order: the share's grid.
    pub grid: String,
    pub finished_ms: i64,
}

/// Why a daily action was refused.
#[derive(Debug, thiserror::Error)]
pub enum DailyConflict {
    #[error("You have flown today's flight already: come back tomorrow.")]
    AlreadyFlown,
    #[error("Start today's flight first.")]
    NotStarted,
    #[error("That round is not one of your flight's.")]
    NotThisRound,
    #[error("You have called that round already.")]
    AlreadyCalled,
    #[error(transparent)]
    Tap(#[from] TapRejected),
    #[error("The catalog is empty: there is nothing to show.")]
    NoThings,
    #[error(transparent)]
    Data(#[from] DataError),
}

impl From<serde_dynamo::Error> for DailyConflict {
    fn from(err: serde_dynamo::Error) -> Self {
        Self::Data(err.into())
    }
}

/// The player's order of the day's ten things: a shuffle seeded by the day's secret seed and
/// their id, so two players meet the same things in different orders, and an order cannot be
/// worked out without the seed.
pub fn order(seed: u64, user: &UserId) -> Vec<usize> {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    use sha2::{Digest, Sha256};
    let digest = Sha256::new()
        .chain_update(seed.to_be_bytes())
        .chain_update(user.as_str().as_bytes())
        .finalize();
    let mut rng = rand_chacha::ChaCha8Rng::from_seed(digest.into());
    let mut order: Vec<usize> = (0..FLIGHT_ROUNDS).collect();
    order.shuffle(&mut rng);
    order
}

/// The things of a flight in its player's order.
pub fn things_in_order(draw: &DayDraw, user: &UserId) -> Vec<ThingId> {
    order(draw.seed, user)
        .into_iter()
        .filter_map(|i| draw.things.get(i).cloned())
        .collect()
}

impl Daily<'_> {
    /// The day's draw, drawn now if nobody has drawn it yet (exactly once across instances).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn day_draw(self, day: Day, now_ms: i64) -> Result<DayDraw, DailyConflict> {
        if let Some(draw) = self.draw_if_any(day).await? {
            return Ok(draw);
        }
        let catalog = self.catalog().list_things(FlyFilter::All).await?;
        if catalog.is_empty() {
            return Err(DailyConflict::NoThings);
        }
        let seed: u64 = rand::rng().random();
        let things = draw_things(&catalog, FLIGHT_ROUNDS, seed);
        let cards = things
            .iter()
            .filter_map(|id| catalog.iter().find(|t| &t.id == id))
            .map(|t| {
                let card = ThingCard {
                    id: t.id.clone(),
                    en: t.en.clone(),
                    hi: t.hi.clone(),
                    hi_latin: t.hi_latin.clone(),
                    emoji: t.emoji.clone(),
                    // The daily's flight page shows no notes: its day item stays small.
                    note: None,
                    note_hi: None,
                };
                (card, t.flies)
            })
            .collect();
        let draw = DayDraw {
            day,
            seed,
            things,
            cards,
            drawn_ms: now_ms,
        };
        let item = serde_dynamo::to_item(&draw)?;
        if self.put_if_absent(keys::daily_draw(&day), item).await? {
            return Ok(draw);
        }
        // Another player drew it first: theirs is the day's.
        self.draw_if_any(day)
            .await?
            .ok_or_else(|| DataError::Internal("the day's draw vanished".into()).into())
    }

    /// The day's draw if it has been drawn (one consistent GetItem).
    pub async fn draw_if_any(self, day: Day) -> Result<Option<DayDraw>, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::daily_draw(&day))))
                    .consistent_read(true),
            )
            .await?;
        Ok(item.map(serde_dynamo::from_item).transpose()?)
    }

    /// Starts `user`'s flight of `day` at `now_ms`, once: a second start is refused.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn start(
        self,
        user: &UserId,
        nickname: &DisplayName,
        avatar: Avatar,
        day: Day,
        now_ms: i64,
    ) -> Result<Flight, DailyConflict> {
        let flight = Flight {
            user_id: user.clone(),
            nickname: nickname.clone(),
            avatar,
            day,
            started_ms: now_ms,
            taps: BTreeMap::new(),
            result: None,
            flagged: false,
        };
        let mut item: crate::store::Item = serde_dynamo::to_item(&flight)?;
        // The taps' map exists from the start, so a tap sets one entry of it.
        item.insert("taps".into(), AttributeValue::M(Default::default()));
        if self.put_if_absent(keys::flight(user, &day), item).await? {
            Ok(flight)
        } else {
            Err(DailyConflict::AlreadyFlown)
        }
    }

    /// `user`'s flight of `day`, if they started it (one consistent GetItem).
    pub async fn flight(self, user: &UserId, day: Day) -> Result<Option<Flight>, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::flight(user, &day))))
                    .consistent_read(true),
            )
            .await?;
        Ok(item.map(serde_dynamo::from_item).transpose()?)
    }

    /// `user`'s flight of `day` if it started at `started_ms` (as a round's `daily/thing` asks):
    /// one eventually consistent GetItem, since a flight's start never changes once written and
    /// a round's thing is asked for seconds after it; read again consistently only when that
    /// read does not show the start (a read that lagged behind the start).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn flight_started_at(
        self,
        user: &UserId,
        day: Day,
        started_ms: i64,
    ) -> Result<Option<Flight>, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::flight(user, &day)))),
            )
            .await?;
        let flight: Option<Flight> = item.map(serde_dynamo::from_item).transpose()?;
        if flight.as_ref().is_some_and(|f| f.started_ms == started_ms) {
            return Ok(flight);
        }
        Ok(self
            .flight(user, day)
            .await?
            .filter(|f| f.started_ms == started_ms))
    }

    /// A tap in the round the browser was shown at `reveal_ms`, received as `received`,
    /// after `reaction_ms` by the browser's measure: timing is checked as a room's tap is
    /// (before any call), then one conditional write takes it, only if the flight started
    /// when that reveal says (a reveal of another flight, or forged, is refused) and the round
    /// holds no tap yet. Returns the round and the reaction that counted.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn tap(
        self,
        user: &UserId,
        day: Day,
        started_ms: i64,
        claimed_reveal_ms: i64,
        reaction_ms: u32,
        received: impl Into<Received> + std::fmt::Debug,
    ) -> Result<(usize, u32), DailyConflict> {
        let round = round_of(started_ms, claimed_reveal_ms).ok_or(DailyConflict::NotThisRound)?;
        let received: Received = received.into();
        let counted = check_tap(
            reveal_ms(started_ms, round),
            WINDOW_MS,
            received,
            reaction_ms,
        )?;
        let written = self
            .update_item(
                self.client
                    .update_item()
                    .set_key(Some(key_map(keys::flight(user, &day))))
                    .expressions(
                        Expr::update(
                            Update::new().set(attr("taps").key(round.to_string()), n(counted)),
                        )
                        .when(
                            Cond::eq(attr("started_ms"), n(started_ms))
                                .and(Cond::not_exists(attr("taps").key(round.to_string())))
                                .and(Cond::not_exists(attr("result"))),
                        ),
                    ),
            )
            .await;
        match written {
            Ok(()) => Ok((round, counted)),
            Err(DataError::Conflict(Conflict::ConditionFailed)) => {
                match self.flight(user, day).await? {
                    None => Err(DailyConflict::NotStarted),
                    Some(flight) if flight.started_ms != started_ms => {
                        Err(DailyConflict::NotThisRound)
                    }
                    // This very tap, its first answer lost and sent again (by the SDK, or by
                    // the page later, when the server's measure has moved on): it counted, at
                    // what was stored. A copy's claim counted then either as claimed, or at the
                    // earlier measure less the allowance, which is no later than now's.
                    Some(flight)
                        if flight.taps.get(&round.to_string()).is_some_and(|stored| {
                            *stored == counted
                                || *stored == reaction_ms
                                || (reaction_ms < *stored && *stored <= counted)
                        }) =>
                    {
                        Ok((round, flight.taps[&round.to_string()]))
                    }
                    Some(_) => Err(DailyConflict::AlreadyCalled),
                }
            }
            Err(err) => Err(err.into()),
        }
    }

    /// Writes the result of `flight` once it is over at `now_ms` (its things' rulings from the
    /// day's draw, in the player's order); a flight already finished, or not over yet, is
    /// returned as it is. Any number of calls, from anywhere, write it once.
    #[tracing::instrument(skip(self, flight, draw), err(level = "debug"))]
    pub async fn finish(
        self,
        flight: Flight,
        draw: &DayDraw,
        now_ms: i64,
    ) -> Result<Flight, DailyConflict> {
        if flight.result.is_some() || now_ms < over_ms(flight.started_ms) {
            return Ok(flight);
        }
        let things = things_in_order(draw, &flight.user_id);
        let rulings: Vec<bool> = things
            .iter()
            .map(|id| draw.card_of(id).is_some_and(|(_, flies)| flies))
            .collect();
        let scored = score_flight(&rulings, &flight.taps_by_round());
        let result = result_of(&scored, over_ms(flight.started_ms));
        let taps: Vec<u32> = flight.taps.values().copied().collect();
        let flagged = too_fast_to_believe(&taps);
        let key = keys::flight(&flight.user_id, &flight.day);
        let mut finish = Update::new().set(
            attr("result"),
            AttributeValue::M(serde_dynamo::to_item(&result)?),
        );
        if flagged {
            // On the list of flagged results, in the same write.
            let list = keys::flagged(result.finished_ms, &key.pk, &key.sk);
            finish = finish
                .set(attr("flagged"), AttributeValue::Bool(true))
                .set(attr(keys::GSI1PK), AttributeValue::S(list.pk))
                .set(attr(keys::GSI1SK), AttributeValue::S(list.sk));
        }
        let request = self
            .client
            .update_item()
            .set_key(Some(key_map(key.clone())))
            .expressions(
                Expr::update(finish)
                    .when(Cond::exists(attr("started_ms")).and(Cond::not_exists(attr("result")))),
            );
        match self.update_item(request).await {
            Ok(()) => Ok(Flight {
                result: Some(result),
                flagged,
                ..flight
            }),
            // Finished by another call first: the stored result is the same one.
            Err(DataError::Conflict(Conflict::ConditionFailed)) => self
                .flight(&flight.user_id, flight.day)
                .await?
                .ok_or(DailyConflict::NotStarted),
            Err(err) => Err(err.into()),
        }
    }
}

/// What a scored flight stores.
pub fn result_of(scored: &FlightScore, finished_ms: i64) -> FlightResult {
    FlightResult {
        score: scored.score,
        correct: scored.correct,
        best_streak: scored.best_streak,
        average_ms: scored.average_ms,
        grid: scored
            .rounds
            .iter()
            .map(|r| if r.correct { '1' } else { '0' })
            .collect(),
        finished_ms,
    }
}
