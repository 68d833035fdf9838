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
//! | pattern | method | calls |
//! |---|---|---|
//! | make an offer | `Db::make_offer` | BatchGetItem (the maker's stacks and wallet), PutItem (new) |
//! | accept | `Db::accept_offer` | BatchGetItem (offer, both sides' stacks and wallets), TransactWriteItems |
//! | decline / cancel | `Db::close_offer` | UpdateItem (open, and addressed to / made by this player) |
//! | offers to me / from me | `Db::offers` | Query GSI1 / GSI2 `TRADES#<id>`, newest first |

use crate::inventory::changes::{Changes, Holdings};
use crate::inventory::model::{Offer, OfferId, OfferStatus, Place, Side, UserId};
use crate::inventory::store::{card, check_count, InventoryError, Refusal, MAX_FEATHERS};
use crate::store::keys;
use crate::store::tx::{n, s, update};
use crate::store::{epoch_millis, key_map, Conflict, DataError, Db, Item};

pub use crate::inventory::store::MAX_KINDS;
/// How long an offer stays open at most.
pub const MAX_OFFER_SECS: i64 = 7 * 86_400;
/// How long an offer stays open unless the maker says otherwise.
pub const DEFAULT_OFFER_SECS: i64 = 86_400;
/// An answered or expired offer is kept this long for the lists, then TTL removes it.
pub const KEEP_CLOSED_SECS: i64 = 7 * 86_400;

/// Which list of offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Offers made to the player (GSI1).
    Incoming,
    /// Offers the player made (GSI2).
    Outgoing,
}

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

fn decode_offer(item: Item) -> Result<Offer, DataError> {
    Ok(serde_dynamo::from_item(item)?)
}

impl Db {
    /// Makes an offer from `from` to `to`, open for `secs`. Refused when the maker does not
    /// hold what they give now (they may still lose it before an accept: see the module).
    #[allow(clippy::too_many_arguments)]
    pub async fn make_offer(
        &self,
        from: (&UserId, &str),
        to: (&UserId, &str),
        gives: Side,
        wants: Side,
        secs: i64,
    ) -> Result<Offer, InventoryError> {
        if from.0 == to.0 {
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
        let offer = Offer {
            id: OfferId::generate(),
            from: from.0.clone(),
            from_name: from.1.to_owned(),
            to: to.0.clone(),
            to_name: to.1.to_owned(),
            gives,
            wants,
            status: OfferStatus::Open,
            made_ms: now,
            expires_ms: now + secs * 1000,
        };
        // The maker must hold what they give: checked against a consistent read.
        let mut mine = Changes::default();
        for (thing, count) in &offer.gives.cards {
            mine.give_cards(&offer.from, Place::Bag, thing, *count);
        }
        mine.pay(&offer.from, offer.gives.feathers);
        let held = self.holdings(mine.keys()?).await?;
        mine.actions(self, &held.cards, &held.feathers)?;

        let key = keys::offer(&offer.id);
        let mut item: Item = serde_dynamo::to_item(&offer).map_err(DataError::from)?;
        item.insert(keys::GSI1PK.into(), s(keys::offers_of(&offer.to)));
        item.insert(keys::GSI1SK.into(), s(keys::offer_sort(&offer.id)));
        item.insert(keys::GSI2PK.into(), s(keys::offers_of(&offer.from)));
        item.insert(keys::GSI2SK.into(), s(keys::offer_sort(&offer.id)));
        item.insert(
            keys::TTL.into(),
            n(offer.expires_ms / 1000 + KEEP_CLOSED_SECS),
        );
        if !self.put_if_absent(key, item).await? {
            return Err(InventoryError::Data(DataError::Internal(
                "an offer id was taken".into(),
            )));
        }
        Ok(offer)
    }

    /// One offer, as stored (an expired one reads as closed, whatever TTL has done).
    pub async fn offer(&self, id: &OfferId) -> Result<Option<Offer>, DataError> {
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
    /// unexpired and made to `me`) and moves both sides' cards and feathers (if both still
    /// hold them). Of any number of racing accepts, one succeeds.
    pub async fn accept_offer(&self, id: &OfferId, me: &UserId) -> Result<Offer, InventoryError> {
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
            Ok(vec![self.update_action(
                update(keys::offer(id))
                    .update_expression("SET #status = :accepted, answered_ms = :now")
                    .condition_expression("#status = :open AND expires_ms > :now AND #to = :me")
                    .expression_attribute_names("#status", "status")
                    .expression_attribute_names("#to", "to")
                    .expression_attribute_values(":accepted", s("accepted"))
                    .expression_attribute_values(":open", s("open"))
                    .expression_attribute_values(":now", n(epoch_millis()))
                    .expression_attribute_values(":me", s(me.as_str())),
            )?])
        };
        let offer_key = keys::offer(id);
        let still_open = |held: &Holdings| {
            let open = held
                .others
                .get(&offer_key)
                .and_then(|item| item.get("status")?.as_s().ok().cloned());
            if open.as_deref() == Some("open") {
                close()
            } else {
                Err(InventoryError::Closed)
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

    /// Declines (as the one it was made to) or cancels (as its maker) an open offer: one
    /// conditional UpdateItem.
    pub async fn close_offer(
        &self,
        id: &OfferId,
        me: &UserId,
    ) -> Result<OfferStatus, InventoryError> {
        let offer = self.offer(id).await?.ok_or(InventoryError::NotFound)?;
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
        let request = self
            .client
            .update_item()
            .table_name(self.table_name())
            .set_key(Some(key_map(keys::offer(id))))
            .update_expression("SET #status = :closed, answered_ms = :now")
            .condition_expression("#status = :open AND #who = :me")
            .expression_attribute_names("#status", "status")
            .expression_attribute_names("#who", who)
            .expression_attribute_values(":closed", s(value))
            .expression_attribute_values(":open", s("open"))
            .expression_attribute_values(":now", n(epoch_millis()))
            .expression_attribute_values(":me", s(me.as_str()));
        match crate::store::send_recorded!(self, "UpdateItem", request) {
            Ok(_) => Ok(status),
            Err(DataError::Conflict(Conflict::ConditionFailed)) => Err(InventoryError::Closed),
            Err(err) => Err(err.into()),
        }
    }

    /// The newest offers made to (`Incoming`) or by (`Outgoing`) a player: one Query.
    pub async fn offers(
        &self,
        user: &UserId,
        direction: Direction,
        limit: i32,
    ) -> Result<Vec<Offer>, DataError> {
        let index = match direction {
            Direction::Incoming => keys::Keyed::Gsi1,
            Direction::Outgoing => keys::Keyed::Gsi2,
        };
        let (items, _) = self
            .query_page(
                self.query_prefix(index, keys::offers_of(user), "OFFER#")
                    .scan_index_forward(false)
                    .limit(limit.clamp(1, 50)),
                None,
            )
            .await?;
        items.into_iter().map(decode_offer).collect()
    }
}
