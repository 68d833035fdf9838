//! Trades between players: an offer of cards and feathers for cards and feathers, accepted in
//! one transaction or not at all.
//!
//! **Nothing is held while an offer is open.** An offer is a promise to check, not an escrow:
//! the accept's transaction is conditioned on the offer being open, unexpired and addressed to
//! the accepter, and on both sides still holding what they give at that moment. Escrow would
//! lock cards for up to a day, and giving them back on expiry would need a write that happens
//! exactly once at a time nobody chooses (TTL deletes silently, and late). Without it, a card
//! offered twice can be traded once: the second accept finds it gone and is refused, changing
//! nothing. Only bag cards can be offered; the bank is safe from trades.
//!
//! **Every open offer to a player is counted in one item**, `TRADES#<id>` / `FROM_STRANGERS`
//! (its key kept from when it held only strangers' offers): the ids of the open offers made to
//! the player, with when each expires, in two maps: `open` from players they have not played
//! with, `met` from the others. Every offer is put in one transaction with that item rewritten,
//! conditioned on the version read (so of any number of racing senders, at most the caps' worth
//! get in), leaving out the offers that expired since. Accepting, declining or cancelling an
//! offer takes its id out in the same transaction that closes it. **Expiry needs no write:** a
//! reader counts only the entries whose time has not come ([`Inventory::offers_waiting`]), so an offer
//! stops counting the moment it expires, and the next offer to that player drops its entry.
//! The top bar's count of offers waiting is this item, read once per page (eventually
//! consistent, a few hundred bytes: 0.5 RCU). Offers made before the item counted every offer
//! (`counted` false) close as before and are never in `met`.
//!
//! **Offers from strangers are capped.** A player has at most [`STRANGER_OFFERS`] open offers
//! from players they have not played with, each open for a day at most
//! ([`STRANGER_OFFER_SECS`]), and declines them all in one action (`strangers.rs`); and at most
//! [`WAITING_OFFERS`] open offers in all (so the item stays small). *Played with*: the two were both players of one finished match among
//! each one's [`PLAYED_WITH_SCAN`] latest (their match records, two Queries), or the offer is
//! made from a room both are players of now (the room form).
//!
//! | pattern | method | calls |
//! |---|---|---|
//! | make an offer | `Inventory::make_offer` | BatchGetItem (the maker's stacks and wallet, the recipient's stacks asked for) beside two Queries (both players' latest matches); GetItem (consistent) + TransactWriteItems (the offer, the count) |
//! | accept | `Inventory::accept_offer` | GetItem, BatchGetItem (offer, both sides' stacks and wallets), TransactWriteItems (with the count) |
//! | decline / cancel | `Inventory::close_offer` | GetItem, TransactWriteItems (open, and addressed to / made by this player; the count) |
//! | decline every stranger's offer | `Inventory::decline_strangers` | GetItem (consistent) + TransactWriteItems (each offer, and the count's `open` emptied) |
//! | offers waiting (the top bar) | `Inventory::offers_waiting` | GetItem `TRADES#<id>` / `FROM_STRANGERS`, eventually consistent |
//! | offers to me / from me | `Inventory::offers_page` | Query GSI1 / GSI2 `TRADES#<id>`, newest first, from a signed cursor |

use super::Inventory;
use std::collections::{BTreeMap, HashSet};

use aws_sdk_dynamodb::types::{AttributeValue, ReturnValue, TransactWriteItem};

pub use crate::inventory::model::{Direction, Met, Party};
use crate::inventory::model::{Offer, OfferId, OfferStatus, Place, Side, UserId};
use crate::inventory::rules::{STRANGER_OFFERS, WAITING_OFFERS};
use crate::inventory::store::changes::{Changes, Holdings};
use crate::inventory::store::{
    card, check_count, number, stack_key, InventoryError, Refusal, MAX_FEATHERS,
};
use crate::store::expr::{attr, Cond, Expr, Expressions, Update};
use crate::store::keys;
use crate::store::retry::{holds, Written};
use crate::store::tx::{n, s, update};
use crate::store::{epoch_millis, key_map, Conflict, DataError, Item};

pub use crate::inventory::store::MAX_KINDS;
/// How long an offer stays open at most.
pub const MAX_OFFER_SECS: i64 = 7 * 86_400;
/// The longest an offer from a stranger stays open (it holds one of [`STRANGER_OFFERS`]).
pub const STRANGER_OFFER_SECS: i64 = 86_400;
/// How long an offer stays open unless the maker says otherwise.
pub const DEFAULT_OFFER_SECS: i64 = 86_400;
/// An answered or expired offer is kept this long for the lists, then TTL removes it.
pub const KEEP_CLOSED_SECS: i64 = 7 * 86_400;
/// How many of each player's latest finished matches "played with" looks through.
pub const PLAYED_WITH_SCAN: i32 = 50;
/// Offers per page of a list at most.
pub const MAX_OFFERS_PAGE: i32 = 50;
/// Pages of a bag the offer form reads at most.
pub const BAG_PAGES: usize = 5;
/// Tries of a stranger's offer against racing writers of the recipient's places.
const PLACE_ATTEMPTS: u32 = 24;

fn check_side(side: &Side) -> Result<(), InventoryError> {
    if side.cards.len() > MAX_KINDS {
        return Err(InventoryError::Invalid(Refusal::TooManyKinds));
    }
    let mut seen = std::collections::BTreeSet::new();
    for (thing, count) in &side.cards {
        check_count(*count)?;
        if card(thing).is_none() {
            return Err(InventoryError::Invalid(Refusal::NoCard((*thing).clone())));
        }
        if !seen.insert(thing) {
            return Err(InventoryError::Invalid(Refusal::ListedTwice(
                (*thing).clone(),
            )));
        }
    }
    if side.feathers > MAX_FEATHERS {
        return Err(InventoryError::Invalid(Refusal::TooManyFeathers));
    }
    Ok(())
}

/// The changes an accepted offer makes.
fn trade_changes(offer: &Offer) -> Changes {
    let mut changes = Changes::default();
    for (thing, count) in &offer.gives.cards {
        changes.give_cards(&offer.from, Place::Bag, thing, *count);
        changes.get_cards(&offer.to, Place::Bag, thing, *count);
    }
    for (thing, count) in &offer.wants.cards {
        changes.give_cards(&offer.to, Place::Bag, thing, *count);
        changes.get_cards(&offer.from, Place::Bag, thing, *count);
    }
    if offer.gives.feathers > 0 {
        changes.pay(&offer.from, offer.gives.feathers);
        changes.earn(&offer.to, offer.gives.feathers);
    }
    if offer.wants.feathers > 0 {
        changes.pay(&offer.to, offer.wants.feathers);
        changes.earn(&offer.from, offer.wants.feathers);
    }
    changes
}

pub(super) fn decode_offer(item: Item) -> Result<Offer, DataError> {
    Ok(serde_dynamo::from_item(item)?)
}

/// Whether the maker of `offer` holds what it gives, by a read of both sides.
fn maker_holds(offer: &Offer, held: &Holdings) -> bool {
    let cards = offer.gives.cards.iter().all(|(thing, count)| {
        card(thing).is_some_and(|card| {
            let key = stack_key(&offer.from, Place::Bag, card);
            held.cards.get(&key).copied().unwrap_or(0) >= *count
        })
    });
    let feathers = offer.gives.feathers == 0
        || held.feathers.get(&offer.from).copied().unwrap_or(0) >= offer.gives.feathers;
    cards && feathers
}

/// A recipient's count of open offers, as read: the item's version (none before the first
/// offer) and the offers in it with when each expires, from strangers (`open`) and from players
/// they have played with (`met`).
pub(super) struct Places {
    pub(super) version: Option<i64>,
    pub(super) strangers: BTreeMap<String, i64>,
    met: BTreeMap<String, i64>,
}

impl Places {
    pub(super) fn read(item: Option<&Item>) -> Self {
        let map = |name: &str| -> BTreeMap<String, i64> {
            item.and_then(|item| item.get(name)?.as_m().ok())
                .map(|open| {
                    open.iter()
                        .filter_map(|(id, expires)| {
                            Some((id.clone(), expires.as_n().ok()?.parse::<i64>().ok()?))
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        Places {
            version: item.and_then(|item| number(item, "version")),
            strangers: map("open"),
            met: map("met"),
        }
    }

    /// Leaves out the offers that expired by `now`.
    fn prune(&mut self, now: i64) {
        self.strangers.retain(|_, expires| *expires > now);
        self.met.retain(|_, expires| *expires > now);
    }

    /// Open offers unexpired at `now`.
    fn waiting(&self, now: i64) -> usize {
        self.strangers
            .values()
            .chain(self.met.values())
            .filter(|expires| **expires > now)
            .count()
    }
}

/// A short, random pause before trying a stranger's offer again, so racing senders spread out.
async fn pause(attempt: u32) {
    let most = 4u64 << attempt.min(4);
    let ms = rand::random_range(1..=most);
    tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
}

impl Inventory<'_> {
    /// Makes an offer from `from` to `to`, open for `secs`. Refused when the maker does not
    /// hold what they give now (they may still lose it before an accept: see the module), and
    /// when `to` has not played with `from` and already has [`STRANGER_OFFERS`] open offers
    /// from such players.
    pub async fn make_offer<'a>(
        self,
        from: impl Into<Party<'a>>,
        to: impl Into<Party<'a>>,
        gives: Side,
        wants: Side,
        secs: i64,
    ) -> Result<Offer, InventoryError> {
        self.make_offer_as(from.into(), to.into(), gives, wants, secs, Met::Unknown)
            .await
    }

    /// [`Inventory::make_offer`], saying what the caller knows of the two players: an offer between
    /// players of one room ([`Met::InRoomNow`], which the caller has read) is never a
    /// stranger's.
    pub async fn make_offer_as(
        self,
        from: Party<'_>,
        to: Party<'_>,
        gives: Side,
        wants: Side,
        secs: i64,
        met: Met,
    ) -> Result<Offer, InventoryError> {
        if from.id == to.id {
            return Err(InventoryError::Invalid(Refusal::OfferToSelf));
        }
        if gives.is_empty() && wants.is_empty() {
            return Err(InventoryError::Invalid(Refusal::EmptyOffer));
        }
        if !(60..=MAX_OFFER_SECS).contains(&secs) {
            return Err(InventoryError::Invalid(Refusal::OfferLength));
        }
        check_side(&gives)?;
        check_side(&wants)?;
        let now = epoch_millis();
        let mut offer = Offer {
            id: OfferId::generate(),
            from: from.id.clone(),
            from_name: from.name.to_owned(),
            to: to.id.clone(),
            to_name: to.name.to_owned(),
            gives,
            wants,
            status: OfferStatus::Open,
            made_ms: now,
            expires_ms: now + secs * 1000,
            from_username: from.username.cloned(),
            to_username: to.username.cloned(),
            from_stranger: false,
            counted: false,
        };
        // The maker must hold what they give, and the recipient what they are asked for:
        // checked against a consistent read, beside the look at whether the two have played
        // together.
        let mut mine = Changes::default();
        for (thing, count) in &offer.gives.cards {
            mine.give_cards(&offer.from, Place::Bag, thing, *count);
        }
        mine.pay(&offer.from, offer.gives.feathers);
        let mut keys = mine.keys()?;
        for (thing, _) in &offer.wants.cards {
            let card = card(thing).ok_or_else(|| crate::inventory::store::unknown(thing))?;
            keys.push(stack_key(&offer.to, Place::Bag, card));
        }
        let met = async {
            match met {
                Met::InRoomNow => Ok(true),
                Met::Unknown => self.played_together(&offer.from, &offer.to).await,
            }
        };
        let (held, met) = futures::try_join!(self.holdings(keys), met)?;
        mine.actions(&self, &held.cards, &held.feathers)?;
        for (thing, count) in &offer.wants.cards {
            let key = card(thing).map(|card| stack_key(&offer.to, Place::Bag, card));
            let theirs = key
                .and_then(|key| held.cards.get(&key).copied())
                .unwrap_or(0);
            if theirs < *count {
                return Err(InventoryError::NotEnough(Refusal::TheyLack(thing.clone())));
            }
        }
        offer.from_stranger = !met;
        offer.counted = true;
        if offer.from_stranger {
            // A stranger's offer holds one of the player's few places for strangers: a day.
            offer.expires_ms = offer.expires_ms.min(now + STRANGER_OFFER_SECS * 1000);
        }

        let mut item: Item = serde_dynamo::to_item(&offer).map_err(DataError::from)?;
        item.insert(keys::GSI1PK.into(), s(keys::offers_of(&offer.to)));
        item.insert(keys::GSI1SK.into(), s(keys::offer_sort(&offer.id)));
        item.insert(keys::GSI2PK.into(), s(keys::offers_of(&offer.from)));
        item.insert(keys::GSI2SK.into(), s(keys::offer_sort(&offer.id)));
        item.insert(
            keys::TTL.into(),
            n(offer.expires_ms / 1000 + KEEP_CLOSED_SECS),
        );
        self.put_counted_offer(&offer, item).await?;
        Ok(offer)
    }

    /// Whether two players were both players of one finished match among each one's
    /// [`PLAYED_WITH_SCAN`] latest: two Queries of their match records, side by side.
    pub async fn played_together(self, one: &UserId, other: &UserId) -> Result<bool, DataError> {
        let (mine, theirs) = futures::try_join!(
            self.game().my_matches(one, PLAYED_WITH_SCAN, None),
            self.game().my_matches(other, PLAYED_WITH_SCAN, None)
        )?;
        // A match is its room, its first round and when it ended (the same on every player's
        // record of it).
        let matches: HashSet<(String, u32, i64)> = mine
            .items
            .iter()
            .map(|r| (r.room_id().to_string(), r.first_round, r.finished_at_ms))
            .collect();
        Ok(theirs
            .items
            .iter()
            .any(|r| matches.contains(&(r.room_id().to_string(), r.first_round, r.finished_at_ms))))
    }

    /// How many open offers `user` has from players they have not played with: one GetItem.
    pub async fn offers_from_strangers(self, user: &UserId) -> Result<usize, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::offers_from_strangers(user))))
                    .consistent_read(true),
            )
            .await?;
        let now = epoch_millis();
        let places = Places::read(item.as_ref());
        Ok(places.strangers.values().filter(|e| **e > now).count())
    }

    /// How many open, unexpired offers are waiting for `user` (the top bar's count): one
    /// GetItem, eventually consistent (0.5 RCU: the item holds at most [`WAITING_OFFERS`]
    /// entries). An expired offer stops counting at once, with no write.
    pub async fn offers_waiting(self, user: &UserId) -> Result<usize, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::offers_from_strangers(user)))),
            )
            .await?;
        Ok(Places::read(item.as_ref()).waiting(epoch_millis()))
    }

    /// Puts an offer with its entry in its recipient's count: reads the count, and writes the
    /// offer with the count rewritten (the expired left out, this one in) in one transaction
    /// conditioned on the version read; a racing writer makes it read again. Refused when the
    /// recipient has no place left (for a stranger's offer, or at all).
    async fn put_counted_offer(self, offer: &Offer, mut item: Item) -> Result<(), InventoryError> {
        let key = keys::offer(&offer.id);
        item.insert(keys::PK.into(), s(key.pk));
        item.insert(keys::SK.into(), s(key.sk));
        let places = keys::offers_from_strangers(&offer.to);
        for attempt in 0..PLACE_ATTEMPTS {
            let read = self
                .get(
                    self.client
                        .get_item()
                        .set_key(Some(key_map(places.clone())))
                        .consistent_read(true),
                )
                .await?;
            let mut read = Places::read(read.as_ref());
            read.prune(epoch_millis());
            if offer.from_stranger && read.strangers.len() >= STRANGER_OFFERS {
                return Err(InventoryError::NotEnough(Refusal::StrangerOffersFull));
            }
            if read.strangers.len() + read.met.len() >= WAITING_OFFERS {
                return Err(InventoryError::NotEnough(Refusal::WaitingFull));
            }
            let version = read.version;
            if offer.from_stranger {
                read.strangers
                    .insert(offer.id.to_string(), offer.expires_ms);
            } else {
                read.met.insert(offer.id.to_string(), offer.expires_ms);
            }
            let map = |m: BTreeMap<String, i64>| {
                AttributeValue::M(m.into_iter().map(|(id, at)| (id, n(at))).collect())
            };
            let counted = Update::new()
                .set(attr("open"), map(read.strangers))
                .set(attr("met"), map(read.met))
                .set(attr("version"), n(version.unwrap_or(0) + 1));
            let as_read = match version {
                Some(version) => Cond::eq(attr("version"), n(version)),
                None => Cond::not_exists(attr(keys::PK)),
            };
            let write = update(places.clone()).expressions(Expr::update(counted).when(as_read));
            let actions = vec![self.put_new(item.clone())?, self.update_action(write)?];
            match self.transact(actions).await {
                Ok(()) => return Ok(()),
                Err(DataError::Conflict(conflict)) => match conflict.failed_condition() {
                    Some(0) => return Err(taken()),
                    // The count changed since the read, or another transaction held it.
                    Some(_) => pause(attempt).await,
                    None if conflict == Conflict::TransactionConflict => pause(attempt).await,
                    None => return Err(InventoryError::Data(DataError::Conflict(conflict))),
                },
                Err(err) => return Err(err.into()),
            }
        }
        Err(InventoryError::Data(DataError::Conflict(
            Conflict::TransactionConflict,
        )))
    }

    /// The action that takes a closing offer out of its recipient's count, in the transaction
    /// that closes it (a version change, so a sender who read the count before reads again);
    /// `None` for an offer made before every offer was counted, and not a stranger's.
    fn free_place(self, offer: &Offer) -> Result<Option<TransactWriteItem>, DataError> {
        let map = match (offer.from_stranger, offer.counted) {
            (true, _) => "open",
            (false, true) => "met",
            (false, false) => return Ok(None),
        };
        self.update_action(
            update(keys::offers_from_strangers(&offer.to)).expressions(Expr::update(
                Update::new()
                    .remove(attr(map).key(offer.id.as_str()))
                    .add(attr("version"), n(1)),
            )),
        )
        .map(Some)
    }

    /// One offer, as stored (an expired one reads as closed, whatever TTL has done).
    pub async fn offer(self, id: &OfferId) -> Result<Option<Offer>, DataError> {
        self.get(
            self.client
                .get_item()
                .set_key(Some(key_map(keys::offer(id))))
                .consistent_read(true),
        )
        .await?
        .map(decode_offer)
        .transpose()
    }

    /// Accepts offer `id` as `me`: one transaction that closes the offer (if still open,
    /// unexpired and made to `me`), gives back a stranger's place, and moves both sides' cards
    /// and feathers (if both still hold them). Of any number of racing accepts, one succeeds.
    /// A maker who no longer holds what they give is refused as "no longer held", without
    /// telling the accepter what the maker has.
    pub async fn accept_offer(self, id: &OfferId, me: &UserId) -> Result<Offer, InventoryError> {
        let offer = self.offer(id).await?.ok_or(InventoryError::NotFound)?;
        if &offer.to != me {
            return Err(InventoryError::Forbidden);
        }
        let now = epoch_millis();
        if !offer.is_open(now) {
            return Err(InventoryError::Closed);
        }
        let changes = trade_changes(&offer);
        let close = || -> Result<Vec<_>, InventoryError> {
            let now = epoch_millis();
            let mut actions = vec![self.update_action(
                update(keys::offer(id)).expressions(
                    Expr::update(
                        Update::new()
                            .set(attr("status"), s("accepted"))
                            .set(attr("answered_ms"), n(now)),
                    )
                    .when(
                        Cond::eq(attr("status"), s("open"))
                            .and(Cond::gt(attr("expires_ms"), n(now)))
                            .and(Cond::eq(attr("to"), s(me.as_str()))),
                    ),
                ),
            )?];
            actions.extend(self.free_place(&offer)?);
            Ok(actions)
        };
        let offer_key = keys::offer(id);
        let still_open = |held: &Holdings| {
            let open = held
                .others
                .get(&offer_key)
                .and_then(|item| item.get("status")?.as_s().ok().cloned());
            if open.as_deref() != Some("open") {
                Err(InventoryError::Closed)
            } else if !maker_holds(&offer, held) {
                Err(InventoryError::NotEnough(Refusal::MakerNoLongerHolds))
            } else {
                close()
            }
        };
        match self
            .apply_changes(&changes, vec![offer_key.clone()], still_open)
            .await
        {
            Ok(_) => Ok(Offer {
                status: OfferStatus::Accepted,
                ..offer
            }),
            Err(InventoryError::Data(DataError::Conflict(conflict))) => {
                match conflict.failed_condition() {
                    Some(0) => Err(InventoryError::Closed),
                    Some(_) => Err(InventoryError::NotEnough(Refusal::NoLongerHeld)),
                    None => Err(InventoryError::Data(DataError::Conflict(conflict))),
                }
            }
            Err(err) => Err(err),
        }
    }

    /// Declines (as the one it was made to) or cancels (as its maker) an open offer: a GetItem,
    /// then [`Inventory::close_read_offer`].
    pub async fn close_offer(
        self,
        id: &OfferId,
        me: &UserId,
    ) -> Result<OfferStatus, InventoryError> {
        let offer = self.offer(id).await?.ok_or(InventoryError::NotFound)?;
        self.close_read_offer(&offer, me).await
    }

    /// Declines or cancels an offer already read: one conditional UpdateItem, or for a
    /// stranger's offer one transaction of that and its place given back.
    pub async fn close_read_offer(
        self,
        offer: &Offer,
        me: &UserId,
    ) -> Result<OfferStatus, InventoryError> {
        let (status, who) = if &offer.to == me {
            (OfferStatus::Declined, "to")
        } else if &offer.from == me {
            (OfferStatus::Cancelled, "from")
        } else {
            return Err(InventoryError::Forbidden);
        };
        let value = match status {
            OfferStatus::Declined => "declined",
            _ => "cancelled",
        };
        // The close, the same whether it goes alone or with its place given back.
        let now = epoch_millis();
        let closing = Expr::update(
            Update::new()
                .set(attr("status"), s(value))
                .set(attr("answered_ms"), n(now)),
        )
        .when(Cond::eq(attr("status"), s("open")).and(Cond::eq(attr(who), s(me.as_str()))));
        let outcome = if let Some(free) = self.free_place(offer)? {
            let close = update(keys::offer(&offer.id)).expressions(closing);
            let actions = vec![self.update_action(close)?, free];
            match self.transact(actions).await {
                Err(DataError::Conflict(conflict)) if conflict.failed_condition() == Some(0) => {
                    Err(DataError::Conflict(Conflict::ConditionFailed))
                }
                other => other,
            }
        } else {
            let request = self
                .client
                .update_item()
                .table_name(self.table_name())
                .set_key(Some(key_map(keys::offer(&offer.id))))
                .expressions(closing);
            // Refused by its own copy (sent again after a lost answer): closed by this call.
            let ours = [("status", s(value)), ("answered_ms", n(now))];
            match self.update_written(request, ReturnValue::None).await? {
                Written::Refused(offer) if !holds(&offer, &ours) => {
                    Err(DataError::Conflict(Conflict::ConditionFailed))
                }
                _ => Ok(()),
            }
        };
        match outcome {
            Ok(()) => Ok(status),
            Err(DataError::Conflict(Conflict::ConditionFailed)) => Err(InventoryError::Closed),
            Err(err) => Err(err.into()),
        }
    }
}

/// An offer id that was taken: a bug or a ULID collision, never the player's doing.
fn taken() -> InventoryError {
    InventoryError::Data(DataError::Internal("an offer id was taken".into()))
}
