//! The shop: an inventory of its own (`SHOP` / `ITEM#<id>`), written from the list below when
//! the server starts. Card packs and cosmetics (looks), some with a daily stock. A purchase is
//! one transaction: the price out of the wallet (never below zero), one off the day's stock
//! (if it has one), and what was bought in. Selling a card back pays [`sell_price`] of its rarity.
//!
//! | pattern | method | calls |
//! |---|---|---|
//! | what the shop sells, with today's stock left | `Inventory::shop` | Query `SHOP` |
//! | buy | `Inventory::buy` | BatchGetItem (today's stock, the look, wallet, stacks), TransactWriteItems |
//! | sell a card | `Inventory::sell_cards` | BatchGetItem (stack, wallet), TransactWriteItems |
//! | looks a player owns | `Inventory::looks` | Query `begins_with(SK, LOOK#)` |
//! | wear a look (or none) | `Inventory::wear` | TransactWriteItems (ConditionCheck `LOOK#<item>`, Update `USER#<id>`/`PROFILE`) |
//! | the last pack opened | `Inventory::last_pack` | GetItem `PACK` (only on the page after a pack's purchase) |

use super::Inventory;
use aws_sdk_dynamodb::types::TransactWriteItem;

use crate::ids::Look;
pub use crate::inventory::model::{Bought, ShopItem, ShopKind};
use crate::inventory::model::{Place, ThingId, UserId};
use crate::inventory::rules::{pack, sell_price};
use crate::inventory::store::changes::{Changes, Holdings};
use crate::inventory::store::{card, check_count, number, InventoryError, Refusal, CARDS};
use crate::store::expr::{attr, Cond, Expr, Expressions, Operand, Update};
use crate::store::keys::{self, Key};
use crate::store::tx::{n, s, update};
use crate::store::{epoch_millis, DataError, Item};

/// The shop's list, as written to the table.
pub fn catalog() -> Vec<ShopItem> {
    let item = |id: &str, name: &str, emoji: &str, price, kind, daily| ShopItem {
        id: id.into(),
        name: name.into(),
        emoji: emoji.into(),
        price,
        kind,
        daily,
        left: None,
    };
    vec![
        item(
            "pack-3",
            "Pack of 3 cards",
            "🎴",
            20,
            ShopKind::Pack { cards: 3 },
            None,
        ),
        item(
            "pack-10",
            "Flock of 10 cards",
            "🪶",
            60,
            ShopKind::Pack { cards: 10 },
            Some(25),
        ),
        item(
            "look-night",
            "Night sky theme",
            "🌌",
            40,
            ShopKind::Look,
            None,
        ),
        item(
            "look-monsoon",
            "Monsoon theme",
            "🌧️",
            40,
            ShopKind::Look,
            None,
        ),
        item(
            "look-golden-feather",
            "Golden feather frame",
            "✨",
            150,
            ShopKind::Look,
            Some(5),
        ),
    ]
}

/// Days since 1970-01-01, UTC: what a daily stock is counted in.
pub fn day_number(ms: i64) -> i64 {
    ms.div_euclid(86_400_000)
}

fn decode(item: &Item) -> Option<ShopItem> {
    serde_dynamo::from_item(item.clone()).ok()
}

impl Inventory<'_> {
    /// Writes the shop's list (idempotent): one BatchWriteItem.
    pub async fn seed_shop(self) -> Result<(), DataError> {
        let mut requests = Vec::new();
        for item in catalog() {
            let key = keys::shop_item(&item.id);
            let mut stored: Item = serde_dynamo::to_item(&item)?;
            stored.insert(keys::PK.into(), s(key.pk));
            stored.insert(keys::SK.into(), s(key.sk));
            requests.push(crate::store::tx::put_request(stored)?);
        }
        self.batch_write(requests).await
    }

    /// Everything the shop sells, with what is left of today's stock: one Query.
    pub async fn shop(self) -> Result<Vec<ShopItem>, DataError> {
        let items = self
            .query_all(self.query_partition(keys::Keyed::Table, keys::SHOP))
            .await?;
        let today = day_number(epoch_millis());
        let mut list: Vec<ShopItem> = items.iter().filter_map(decode).collect();
        for entry in &mut list {
            if let Some(daily) = entry.daily {
                let stock = keys::shop_stock(&entry.id, today);
                let sold_out = items.iter().find(|i| crate::store::sort_key(i) == stock.sk);
                entry.left = Some(
                    sold_out
                        .and_then(|i| number(i, "left"))
                        .map_or(daily, |l| l.max(0) as u32),
                );
            }
        }
        list.sort_by_key(|i| (i.price, i.id.clone()));
        Ok(list)
    }

    /// Buys `item_id` for `user`: one transaction after one consistent read of what it changes.
    /// A pack's cards are drawn from `seed`.
    pub async fn buy(
        self,
        user: &UserId,
        item_id: &str,
        seed: u64,
    ) -> Result<Bought, InventoryError> {
        // The list is this code's (the table's copy serves the shop's Query), so the buy reads
        // only what it changes: one BatchGetItem, then one TransactWriteItems.
        let listed = catalog()
            .into_iter()
            .find(|i| i.id == item_id)
            .ok_or_else(|| InventoryError::Invalid(Refusal::NotSold))?;
        let today = day_number(epoch_millis());
        let stock_key = keys::shop_stock(item_id, today);
        let mut changes = Changes::default();
        changes.pay(user, listed.price);
        let mut cards = Vec::new();
        match listed.kind {
            ShopKind::Pack { cards: count } => {
                let all: Vec<_> = CARDS.values().cloned().collect();
                cards = pack(&all, count as usize, seed);
                for thing in &cards {
                    changes.get_cards(user, Place::Bag, thing, 1);
                }
            }
            ShopKind::Look => {}
        }
        let look_key = keys::look(user, item_id);
        let extra = |held: &Holdings| {
            let mut actions: Vec<TransactWriteItem> = Vec::new();
            if let Some(daily) = listed.daily {
                let left = held.others.get(&stock_key).and_then(|i| number(i, "left"));
                if left.is_some_and(|l| l < 1) {
                    return Err(InventoryError::NotEnough(Refusal::SoldOutToday));
                }
                actions.push(
                    self.update_action(
                        update(stock_key.clone()).expressions(
                            Expr::update(
                                Update::new()
                                    .set(
                                        attr("left"),
                                        Operand::CountFrom(attr("left"), n(daily), n(-1)),
                                    )
                                    .set(attr(keys::TTL), n((today + 2) * 86_400)),
                            )
                            .when(Cond::not_exists(attr("left")).or(Cond::ge(attr("left"), n(1)))),
                        ),
                    )?,
                );
            }
            if !cards.is_empty() {
                // What the pack gave, for the page the buyer lands on (read back from here).
                let key = keys::last_pack(user);
                let mut item = Item::new();
                item.insert(keys::PK.into(), s(key.pk));
                item.insert(keys::SK.into(), s(key.sk));
                item.insert("item".into(), s(item_id));
                item.insert(
                    "cards".into(),
                    aws_sdk_dynamodb::types::AttributeValue::L(
                        cards.iter().map(|t| s(t.as_str())).collect(),
                    ),
                );
                item.insert("bought_ms".into(), n(epoch_millis()));
                let put = aws_sdk_dynamodb::types::Put::builder()
                    .table_name(self.table_name())
                    .set_item(Some(item))
                    .build()
                    .map_err(crate::store::tx::internal)?;
                actions.push(TransactWriteItem::builder().put(put).build());
            }
            if matches!(listed.kind, ShopKind::Look) {
                if held.others.contains_key(&look_key) {
                    return Err(InventoryError::Invalid(Refusal::AlreadyOwned));
                }
                let mut item = Item::new();
                item.insert(keys::PK.into(), s(look_key.pk.clone()));
                item.insert(keys::SK.into(), s(look_key.sk.clone()));
                item.insert("earned_ms".into(), n(epoch_millis()));
                actions.push(self.put_new(item)?);
            }
            Ok(actions)
        };
        let extra_keys: Vec<Key> = vec![stock_key.clone(), look_key.clone()];
        match self.apply_changes(&changes, extra_keys, extra).await {
            Ok(_) => Ok(Bought {
                item: item_id.to_owned(),
                cards,
                paid: listed.price,
            }),
            // Feathers short: the request cannot be met as it is (the page disables it): 400.
            Err(InventoryError::NotEnough(refusal @ Refusal::Feathers { .. })) => {
                Err(InventoryError::Invalid(refusal))
            }
            Err(InventoryError::Data(DataError::Conflict(conflict))) => {
                match conflict.failed_condition() {
                    Some(_) => Err(InventoryError::NotEnough(Refusal::CannotBuy)),
                    None => Err(InventoryError::Data(DataError::Conflict(conflict))),
                }
            }
            Err(err) => Err(err),
        }
    }

    /// Sells `count` of `thing` from the bag back to the shop: one transaction after one
    /// consistent read. Returns the feathers earned.
    ///
    /// Selling every card of a kind left in the bag needs `confirmed` (the page asks first):
    /// without it the sale is refused (400) and nothing changes.
    pub async fn sell_cards(
        self,
        user: &UserId,
        thing: &ThingId,
        count: u32,
        confirmed: bool,
    ) -> Result<u64, InventoryError> {
        check_count(count)?;
        let card =
            card(thing).ok_or_else(|| InventoryError::Invalid(Refusal::NoCard(thing.clone())))?;
        let earned = sell_price(card.rarity) * u64::from(count);
        let mut changes = Changes::default();
        changes.give_cards(user, Place::Bag, thing, count);
        changes.earn(user, earned);
        let bag = crate::inventory::store::stack_key(user, Place::Bag, card);
        self.apply_changes(&changes, Vec::new(), |held| {
            if !confirmed && held.cards.get(&bag).copied() == Some(count) {
                return Err(InventoryError::Invalid(Refusal::LastCard(thing.clone())));
            }
            Ok(Vec::new())
        })
        .await?;
        Ok(earned)
    }

    /// Wears `look` (or takes any off with `None`): one transaction that checks `user` owns it
    /// and sets it on their profile. Not owned: refused (403), nothing changes.
    pub async fn wear(self, user: &UserId, look: Option<Look>) -> Result<(), InventoryError> {
        let mut actions = Vec::new();
        if let Some(look) = look {
            actions.push(
                self.check_action(keys::look(user, look.id()), Cond::exists(attr(keys::PK)))?,
            );
        }
        actions.push(self.accounts().wear_look_action(user, look)?);
        match self.transact(actions).await {
            Ok(()) => Ok(()),
            Err(DataError::Conflict(conflict)) if conflict.failed_condition().is_some() => {
                Err(InventoryError::Forbidden)
            }
            Err(err) => Err(err.into()),
        }
    }

    /// The cards of the last pack `user` opened, if it was `item` and bought within the last
    /// `max_age_ms`: one GetItem.
    pub async fn last_pack(
        self,
        user: &UserId,
        item: &str,
        max_age_ms: i64,
    ) -> Result<Vec<ThingId>, DataError> {
        let found = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(crate::store::key_map(keys::last_pack(user))))
                    .consistent_read(true),
            )
            .await?;
        let Some(found) = found else {
            return Ok(Vec::new());
        };
        let same = found
            .get("item")
            .and_then(|v| v.as_s().ok())
            .map(String::as_str)
            == Some(item);
        let fresh = number(&found, "bought_ms").is_some_and(|at| epoch_millis() - at <= max_age_ms);
        if !same || !fresh {
            return Ok(Vec::new());
        }
        Ok(found
            .get("cards")
            .and_then(|v| v.as_l().ok())
            .map(|list| {
                list.iter()
                    .filter_map(|v| ThingId::parse(v.as_s().ok()?).ok())
                    .collect()
            })
            .unwrap_or_default())
    }

    /// The looks a player owns: one Query.
    pub async fn looks(self, user: &UserId) -> Result<Vec<String>, DataError> {
        let items = self
            .query_all(self.query_prefix(
                keys::Keyed::Table,
                keys::inventory_partition(user),
                keys::LOOK_PREFIX,
            ))
            .await?;
        Ok(items
            .iter()
            .filter_map(|i| {
                crate::store::sort_key(i)
                    .strip_prefix(keys::LOOK_PREFIX)
                    .map(str::to_owned)
            })
            .collect())
    }
}
