//! The inventory's items and their read patterns.
//!
//! | pattern | method | call |
//! |---|---|---|
//! | a place's cards, by category then thing, paged | `Inventory::cards` | Query `INV#<id>`, `begins_with(SK, <place>#[<category>#])` |
//! | a place's cards by name, or by a name prefix | `Inventory::cards_by_name` | Query LSI1, `begins_with(LSI1SK, <place>#<folded prefix>)` |
//! | a place's cards with a word of the name starting with each searched word | `Inventory::search_cards` | Query LSI1 `begins_with(LSI1SK, <place>#)` (the whole place, ≤ one stack per thing), filtered in the server |
//! | one stack | `Inventory::stack` | GetItem |
//! | set completion per category | `Inventory::set_progress` | Query `INV#<id>` (keys and two attributes) |
//! | feathers | `Inventory::feathers` | GetItem `WALLET` |
//! | badges | `Inventory::badges` | Query `begins_with(SK, BADGE#)` |
//! | who might trade a card | `Inventory::card_holders` | Query GSI2 `HOLDERS#<thing>` |
//!
//! The writes (add, remove, move, rewards) are in `changes`.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::catalog::model::Category;
use crate::inventory::model::{Badge, Card, Place, SetProgress, Stack, ThingId, UserId};
use crate::inventory::rules::{card_of, fold_name};
use crate::store::expr::{attr, Cond, Expr, Expressions};
use crate::store::keys::{self, Key};
use crate::store::tx::n;
use crate::store::{key_map, DataError, Item, Page};

pub mod changes;
pub mod offers;
pub mod shop;
pub mod strangers;
pub mod trades;

crate::store::handle!(
    /// The access patterns of players' inventories: cards, feathers, badges, the shop, trades.
    Inventory,
    inventory
);

/// Most cards of one thing in one stack (and most of one thing in one trade or move).
pub const MAX_STACK: u32 = 9_999;
/// Most feathers a wallet can hold.
pub const MAX_FEATHERS: u64 = 1_000_000_000;
/// Most kinds of card on one side of a trade offer (checked with the other bounds here, so a
/// refusal can name it).
pub const MAX_KINDS: usize = 10;
/// Cards per inventory page at most.
pub const MAX_PAGE: i32 = 60;

/// Every card there is, by thing: the catalog's seed, which the catalog in the table is written
/// from.
pub static CARDS: LazyLock<BTreeMap<ThingId, Card>> = LazyLock::new(|| {
    crate::catalog::validate(crate::catalog::seed::SEED)
        .map(|things| things.iter().map(|t| (t.id.clone(), card_of(t))).collect())
        .unwrap_or_default()
});

/// The card of a thing, if the catalog has it.
pub fn card(thing: &ThingId) -> Option<&'static Card> {
    CARDS.get(thing)
}

/// Why an inventory change was refused.
#[derive(Debug, thiserror::Error)]
pub enum InventoryError {
    /// The request itself is wrong (unknown card, bad quantity): 400.
    #[error("{0}")]
    Invalid(Refusal),
    /// Not enough cards or feathers for it (or no place left for it): 409.
    #[error("{0}")]
    NotEnough(Refusal),
    /// The offer is no longer open, or expired: 409.
    #[error("that offer is no longer open")]
    Closed,
    /// Not this player's to do: 403.
    #[error("that is not yours to do")]
    Forbidden,
    #[error("no such offer")]
    NotFound,
    #[error(transparent)]
    Data(#[from] DataError),
}

/// Why a change was refused, in a player's words (`app/locales/*/inventory.json`): `Display` is
/// the English (logs, plain HTTP answers), [`Refusal::localized`] the page's language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    NoCard(ThingId),
    Count,
    StackFull,
    TooManyFeathers,
    TooManyKinds,
    ListedTwice(ThingId),
    OfferToSelf,
    EmptyOffer,
    OfferLength,
    NotSold,
    AlreadyOwned,
    /// Selling the last of a card in the bag without confirming it.
    LastCard(ThingId),
    Cards {
        thing: ThingId,
        name: String,
        held: u32,
        need: u32,
    },
    Feathers {
        held: u64,
        need: u64,
    },
    SoldOutToday,
    CannotBuy,
    NoLongerHeld,
    /// The maker of an offer no longer holds what it gives (told without what they hold).
    MakerNoLongerHolds,
    /// The recipient has [`crate::inventory::rules::STRANGER_OFFERS`] open offers from players
    /// they have not played with.
    StrangerOffersFull,
    /// The recipient already has [`crate::inventory::rules::WAITING_OFFERS`] open offers.
    WaitingFull,
    /// The recipient of an offer does not hold that many of a card it asks for, in their bag.
    TheyLack(ThingId),
}

impl Refusal {
    /// The refusal in the language of the request being answered (English outside one).
    pub fn localized(&self) -> String {
        self.text(crate::lang::locale())
    }

    /// The refusal in `l`'s language.
    pub fn text(&self, l: crate::lang::Locale) -> String {
        use crate::i18n::td_string;
        match self {
            Refusal::NoCard(thing) => {
                td_string!(l, inventory.error.no_card, thing = thing.as_str()).to_string()
            }
            Refusal::Count => td_string!(l, inventory.error.count, max = MAX_STACK).to_string(),
            Refusal::StackFull => {
                td_string!(l, inventory.error.stack_full, max = MAX_STACK).to_string()
            }
            Refusal::TooManyFeathers => {
                td_string!(l, inventory.error.too_many_feathers).to_string()
            }
            Refusal::TooManyKinds => {
                td_string!(l, inventory.error.too_many_kinds, max = MAX_KINDS).to_string()
            }
            Refusal::ListedTwice(thing) => {
                td_string!(l, inventory.error.listed_twice, thing = thing.as_str()).to_string()
            }
            Refusal::OfferToSelf => td_string!(l, inventory.error.offer_to_self).to_string(),
            Refusal::EmptyOffer => td_string!(l, inventory.error.empty_offer).to_string(),
            Refusal::OfferLength => td_string!(l, inventory.error.offer_length).to_string(),
            Refusal::NotSold => td_string!(l, inventory.error.not_sold).to_string(),
            Refusal::AlreadyOwned => td_string!(l, inventory.error.already_owned).to_string(),
            Refusal::LastCard(thing) => td_string!(
                l,
                inventory.error.last_card,
                name = card(thing).map_or(thing.as_str(), |c| c.name_in(l))
            )
            .to_string(),
            Refusal::Cards {
                thing,
                name,
                held,
                need,
            } => td_string!(
                l,
                inventory.error.not_enough_cards,
                name = card(thing).map_or(name.as_str(), |c| c.name_in(l)),
                held = *held,
                need = *need
            )
            .to_string(),
            Refusal::Feathers { held, need } => td_string!(
                l,
                inventory.error.not_enough_feathers,
                held = *held,
                need = *need
            )
            .to_string(),
            Refusal::SoldOutToday => td_string!(l, inventory.error.sold_out_today).to_string(),
            Refusal::CannotBuy => td_string!(l, inventory.error.cannot_buy).to_string(),
            Refusal::NoLongerHeld => td_string!(l, inventory.error.no_longer_held).to_string(),
            Refusal::MakerNoLongerHolds => {
                td_string!(l, inventory.error.maker_no_longer_holds).to_string()
            }
            Refusal::StrangerOffersFull => td_string!(
                l,
                inventory.error.stranger_offers_full,
                max = crate::inventory::rules::STRANGER_OFFERS
            )
            .to_string(),
            Refusal::WaitingFull => td_string!(
                l,
                inventory.error.waiting_full,
                max = crate::inventory::rules::WAITING_OFFERS
            )
            .to_string(),
            Refusal::TheyLack(thing) => td_string!(
                l,
                inventory.error.they_lack,
                name = card(thing).map_or(thing.as_str(), |c| c.name_in(l))
            )
            .to_string(),
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(crate::lang::Locale::en))
    }
}

impl std::error::Error for Refusal {}

impl InventoryError {
    /// The HTTP status a server function answers with.
    pub fn status(&self) -> u16 {
        match self {
            InventoryError::Invalid(_) => 400,
            InventoryError::NotEnough(_) | InventoryError::Closed => 409,
            InventoryError::Forbidden => 403,
            InventoryError::NotFound => 404,
            InventoryError::Data(DataError::BadCursor) => 400,
            InventoryError::Data(_) => 503,
        }
    }
}

/// A stack as stored.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct StackItem {
    thing: ThingId,
    name: String,
    emoji: String,
    category: Category,
    rarity: crate::inventory::model::Rarity,
    place: Place,
    qty: u32,
}

impl From<StackItem> for Stack {
    fn from(i: StackItem) -> Self {
        Stack {
            hi: card(&i.thing).map(|c| c.hi.clone()).unwrap_or_default(),
            thing: i.thing,
            name: i.name,
            emoji: i.emoji,
            category: i.category,
            rarity: i.rarity,
            place: i.place,
            qty: i.qty,
        }
    }
}

fn decode_stacks(items: Vec<Item>) -> Result<Vec<Stack>, DataError> {
    items
        .into_iter()
        .map(|i| Ok(serde_dynamo::from_item::<_, StackItem>(i)?.into()))
        .collect()
}

/// The refusal of a card the catalog does not have.
pub(crate) fn unknown(thing: &ThingId) -> InventoryError {
    InventoryError::Invalid(Refusal::NoCard(thing.clone()))
}

/// The key of `user`'s stack of `card` in `place`.
pub fn stack_key(user: &UserId, place: Place, card: &Card) -> Key {
    keys::card(user, place, card.category.slug(), &card.thing)
}

impl Inventory<'_> {
    /// A page of `user`'s cards in `place` (one category of them, if given), by category then
    /// thing: one Query.
    pub async fn cards(
        self,
        user: &UserId,
        place: Place,
        category: Option<Category>,
        cursor: Option<&str>,
        limit: i32,
    ) -> Result<Page<Stack>, DataError> {
        let prefix = keys::card_prefix(place, category.map(Category::slug));
        let scope = format!("inv:{user}:{prefix}");
        let request = self
            .query_prefix(keys::Keyed::Table, keys::inventory_partition(user), prefix)
            .limit(limit.clamp(1, MAX_PAGE));
        self.stack_page(request, &scope, cursor).await
    }

    /// A page of `user`'s cards in `place` in name order, only those whose folded name starts
    /// with `prefix` if given: one Query of LSI1. A prefix search, not a search: no match inside
    /// a name ("cuckoo" does not find "Hawk-cuckoo"), no spelling tolerance.
    pub async fn cards_by_name(
        self,
        user: &UserId,
        place: Place,
        prefix: Option<&str>,
        cursor: Option<&str>,
        limit: i32,
    ) -> Result<Page<Stack>, DataError> {
        let folded = prefix.map(fold_name).unwrap_or_default();
        let start = format!("{}{folded}", keys::card_prefix(place, None));
        let scope = format!("inv-name:{user}:{start}");
        let request = self
            .query_prefix(keys::Keyed::Lsi1, keys::inventory_partition(user), start)
            .limit(limit.clamp(1, MAX_PAGE));
        self.stack_page(request, &scope, cursor).await
    }

    /// `user`'s cards in `place` with a name (English or Hindi) that has a word starting with
    /// each word of `query` ("squirrel" finds "Flying squirrel"), in name order: one Query of
    /// the whole place on LSI1 (at most one stack per catalog thing), filtered here.
    pub async fn search_cards(
        self,
        user: &UserId,
        place: Place,
        query: &str,
    ) -> Result<Vec<Stack>, DataError> {
        let items = self
            .query_all(self.query_prefix(
                keys::Keyed::Lsi1,
                keys::inventory_partition(user),
                keys::card_prefix(place, None),
            ))
            .await?;
        Ok(decode_stacks(items)?
            .into_iter()
            .filter(|stack| {
                crate::inventory::rules::name_matches(&stack.name, query)
                    || crate::inventory::rules::name_matches(&stack.hi, query)
            })
            .collect())
    }

    async fn stack_page(
        self,
        request: aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder,
        scope: &str,
        cursor: Option<&str>,
    ) -> Result<Page<Stack>, DataError> {
        let start = match cursor {
            Some(cursor) => Some(self.cursor_key().await?.open(scope, cursor)?),
            None => None,
        };
        let (items, last) = self.query_page(request, start).await?;
        let next = match last {
            Some(last) => Some(self.cursor_key().await?.seal(scope, &last)?),
            None => None,
        };
        Ok(Page {
            items: decode_stacks(items)?,
            next,
        })
    }

    /// One stack, if held: one GetItem.
    pub async fn stack(
        self,
        user: &UserId,
        place: Place,
        thing: &ThingId,
    ) -> Result<Option<Stack>, InventoryError> {
        let card = card(thing).ok_or_else(|| unknown(thing))?;
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(stack_key(user, place, card)))),
            )
            .await?;
        Ok(item
            .map(serde_dynamo::from_item::<_, StackItem>)
            .transpose()
            .map_err(DataError::from)?
            .map(Stack::from))
    }

    /// Who might trade `thing`: players with two or more in their bag, the most recently
    /// changed stack first, with how many they hold. One Query of GSI2 `HOLDERS#<thing>`
    /// reading at most `scan` holders (the filter drops those with one; it reads, and is billed
    /// for, all `scan`).
    pub async fn card_holders(
        self,
        thing: &ThingId,
        scan: i32,
    ) -> Result<Vec<(UserId, u32)>, InventoryError> {
        card(thing).ok_or_else(|| unknown(thing))?;
        let (items, _) = self
            .query_page(
                self.query_partition(keys::Keyed::Gsi2, keys::card_holders(thing))
                    .expressions(Expr::default().filter(Cond::ge(attr("qty"), n(2))))
                    .scan_index_forward(false)
                    .limit(scan.clamp(1, 200)),
                None,
            )
            .await?;
        Ok(items
            .iter()
            .filter_map(|item| {
                let user = keys::inventory_owner(item.get(keys::PK)?.as_s().ok()?)?;
                Some((
                    user,
                    number(item, "qty")?.clamp(0, i64::from(MAX_STACK)) as u32,
                ))
            })
            .collect())
    }

    /// How many of each category's things `user` holds, bag and bank together, of how many
    /// there are: one Query of the inventory's keys (pages only past ~8,000 stacks).
    pub async fn set_progress(self, user: &UserId) -> Result<Vec<SetProgress>, DataError> {
        let items = self
            .query_all(
                self.query_partition(keys::Keyed::Table, keys::inventory_partition(user))
                    .expressions(
                        Expr::default().project([keys::SK, "thing", "category"].map(attr)),
                    ),
            )
            .await?;
        let held: std::collections::BTreeSet<&str> = items
            .iter()
            .filter_map(|i| i.get("thing")?.as_s().ok().map(String::as_str))
            .collect();
        Ok(Category::ALL
            .into_iter()
            .map(|category| {
                let all: Vec<&Card> = CARDS.values().filter(|c| c.category == category).collect();
                SetProgress {
                    category,
                    held: all
                        .iter()
                        .filter(|c| held.contains(c.thing.as_str()))
                        .count() as u32,
                    of: all.len() as u32,
                }
            })
            .collect())
    }

    /// A player's feathers: one GetItem.
    pub async fn feathers(self, user: &UserId) -> Result<u64, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::wallet(user))))
                    .consistent_read(true),
            )
            .await?;
        Ok(item
            .and_then(|i| i.get("feathers")?.as_n().ok()?.parse().ok())
            .unwrap_or(0))
    }

    /// A player's badges with when each was first earned: one Query.
    pub async fn badges(self, user: &UserId) -> Result<Vec<(Badge, i64)>, DataError> {
        let items = self
            .query_all(self.query_prefix(
                keys::Keyed::Table,
                keys::inventory_partition(user),
                keys::BADGE_PREFIX,
            ))
            .await?;
        Ok(items
            .iter()
            .filter_map(|i| {
                let slug = crate::store::sort_key(i).strip_prefix(keys::BADGE_PREFIX)?;
                let badge = Badge::ALL.into_iter().find(|b| b.slug() == slug)?;
                let at = i.get("earned_ms")?.as_n().ok()?.parse().ok()?;
                Some((badge, at))
            })
            .collect())
    }
}

/// Refuses a count of cards outside 1..=[`MAX_STACK`].
pub fn check_count(count: u32) -> Result<(), InventoryError> {
    if count == 0 || count > MAX_STACK {
        return Err(InventoryError::Invalid(Refusal::Count));
    }
    Ok(())
}

/// An attribute map's number, for readers of other items.
pub(crate) fn number(item: &Item, name: &str) -> Option<i64> {
    item.get(name)
        .and_then(|v: &AttributeValue| v.as_n().ok()?.parse().ok())
}

impl From<InventoryError> for crate::error::AppError {
    fn from(err: InventoryError) -> Self {
        use crate::error::AppError;
        use crate::i18n::td_string;
        let l = crate::lang::locale();
        match err {
            InventoryError::Invalid(refusal) => AppError::BadRequest(refusal.localized()),
            InventoryError::NotEnough(refusal) => AppError::Conflict(refusal.localized()),
            InventoryError::Closed => {
                AppError::Conflict(td_string!(l, inventory.error.offer_closed).to_string())
            }
            InventoryError::Forbidden => {
                AppError::Forbidden(td_string!(l, inventory.error.not_yours).to_string())
            }
            InventoryError::NotFound => {
                AppError::NotFound(td_string!(l, inventory.error.no_such_offer).to_string())
            }
            InventoryError::Data(err) => err.into(),
        }
    }
}
