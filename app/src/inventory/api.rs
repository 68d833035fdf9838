//! The inventory over HTTP. Every action is the signed-in player's own: the server takes the
//! player from the session, never from the request. Trading and buying are rate-limited per
//! player across every instance (the table's counters).
// A plain form posts one field per argument; the browser's copy of each server function
// (generated for hydration) takes them all too.
#![allow(clippy::too_many_arguments)]

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;
use crate::inventory::model::{Place, SetProgress, Stack};
#[cfg(feature = "ssr")]
use ssr::*;

#[cfg(feature = "ssr")]
mod offer_form;
mod trades;
pub use trades::*;

/// Trade actions (offers, accepts, cancels) one player may make per window.
pub const TRADES_PER_WINDOW: u32 = 30;
/// Declines of offers made to one player per window: a limit of their own, so offers one did
/// not ask for never spend one's trade limit (and generous: at most `STRANGER_OFFERS` of them
/// come from strangers at once, see `trades.rs`).
pub const DECLINES_PER_WINDOW: u32 = 300;
/// Purchases and sales one player may make per window.
pub const SHOP_PER_WINDOW: u32 = 60;
pub const WINDOW_SECS: i64 = 600;

/// How an inventory page is sorted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Sort {
    /// By category, then thing (the sort key).
    #[default]
    Category,
    /// By name (LSI1).
    Name,
}

/// One page of a player's bag or bank.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InventoryView {
    pub place: Place,
    pub category: Option<String>,
    pub sort: Sort,
    pub search: Option<String>,
    pub stacks: Vec<Stack>,
    pub next: Option<String>,
    pub feathers: u64,
    /// What the player's last action did (a sealed notice; see `inventory::notice`).
    pub notice: Option<String>,
    /// The card whose last one in the bag the player asked to sell: the page asks first.
    pub confirm: Option<crate::inventory::model::Card>,
}

/// A page of the player's bag or bank: one Query (by category, or by name on LSI1 when sorted
/// by name; a search reads the whole place on LSI1 and keeps the names with a word starting
/// with each word searched) beside one GetItem of the wallet.
#[server(endpoint = "inventory/view")]
pub async fn read_inventory(
    place: Option<String>,
    category: Option<String>,
    sort: Option<String>,
    q: Option<String>,
    after: Option<String>,
    confirm: Option<String>,
    note: Option<String>,
    nsig: Option<String>,
) -> Result<InventoryView, AppError> {
    crate::error::answer("read_inventory", async move {
        let db = expect_context::<Db>();
        let me = session::require_player(&db).await?;
        let place = match place.as_deref() {
            None | Some("") => Place::Bag,
            Some(raw) => Place::parse(raw)?,
        };
        let category = match category.as_deref() {
            None | Some("") => None,
            Some(raw) => Some(Category::from_slug(raw).ok_or_else(|| {
                AppError::BadRequest(
                    td_string!(locale(), inventory.error.no_such_category).to_string(),
                )
            })?),
        };
        let search = q.map(|q| q.trim().to_owned()).filter(|q| !q.is_empty());
        if search.as_ref().is_some_and(|q| q.chars().count() > 40) {
            return Err(AppError::BadRequest(
                td_string!(locale(), inventory.error.search_too_long).to_string(),
            ));
        }
        let sort = if sort.as_deref() == Some("name") || search.is_some() {
            Sort::Name
        } else {
            Sort::Category
        };
        let after = after.filter(|a| !a.is_empty());
        // The page's one Query and the wallet's GetItem, side by side: one round trip.
        let list = async {
            if let Some(q) = &search {
                return db
                    .inventory()
                    .search_cards(&me.id, place, q)
                    .await
                    .map(|items| crate::store::Page { items, next: None })
                    .map_err(AppError::from);
            }
            match sort {
                Sort::Name => {
                    db.inventory()
                        .cards_by_name(&me.id, place, search.as_deref(), after.as_deref(), 30)
                        .await
                }
                Sort::Category => {
                    db.inventory()
                        .cards(&me.id, place, category, after.as_deref(), 30)
                        .await
                }
            }
            .map_err(AppError::from)
        };
        let wallet = async {
            db.inventory()
                .feathers(&me.id)
                .await
                .map_err(AppError::from)
        };
        let (page, feathers) = futures::try_join!(list, wallet)?;
        let notice = crate::inventory::notice::open(&db, note.as_deref(), nsig.as_deref())
            .await
            .map(|n| n.text(locale()));
        let confirm = confirm
            .and_then(|c| ThingId::parse(&c).ok())
            .and_then(|t| crate::inventory::store::card(&t).cloned());
        Ok(InventoryView {
            place,
            category: category.map(|c| c.slug().to_owned()),
            sort,
            search,
            stacks: page.items,
            next: page.next,
            feathers,
            notice,
            confirm,
        })
    })
    .await
}

/// Someone who might trade a card: they hold two or more in their bag.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Holder {
    pub id: crate::ids::UserId,
    pub name: String,
    pub qty: u32,
}

/// A card's page: the card, how many the player holds, who might trade it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardView {
    pub card: crate::inventory::model::Card,
    /// `None` for a visitor.
    pub mine: Option<(u32, u32)>,
    pub holders: Vec<Holder>,
    /// What the player's last action did (a sealed notice).
    #[serde(default)]
    pub notice: Option<String>,
}

/// Holders a card's page shows at most.
pub const HOLDERS_SHOWN: usize = 12;

/// A card's page: one BatchGetItem of the player's two stacks beside one Query of the card's
/// holders, then one BatchGetItem of the holders' names.
#[server(endpoint = "inventory/card")]
pub async fn read_card(
    thing: String,
    note: Option<String>,
    nsig: Option<String>,
) -> Result<CardView, AppError> {
    crate::error::answer("read_card", async move {
        let db = expect_context::<Db>();
        let thing = ThingId::parse(&thing)
            .ok()
            .and_then(|t| crate::inventory::store::card(&t))
            .ok_or_else(|| {
                AppError::NotFound(td_string!(locale(), inventory.error.no_such_card).to_string())
            })?;
        let me = session::current_player(&db).await?;
        let mine = async {
            let Some(me) = &me else {
                return Ok::<_, AppError>(None);
            };
            let keys =
                Place::ALL.map(|place| crate::inventory::store::stack_key(&me.id, place, thing));
            let held = db.inventory().holdings(keys.to_vec()).await?;
            let count = |key| held.cards.get(key).copied().unwrap_or(0);
            Ok(Some((count(&keys[0]), count(&keys[1]))))
        };
        let holders = async {
            db.inventory()
                .card_holders(&thing.thing, 60)
                .await
                .map_err(AppError::from)
        };
        let (mine, holders) = futures::try_join!(mine, holders)?;
        let others: Vec<(crate::ids::UserId, u32)> = holders
            .into_iter()
            .filter(|(id, _)| me.as_ref().is_none_or(|me| &me.id != id))
            .take(HOLDERS_SHOWN)
            .collect();
        let ids: Vec<_> = others.iter().map(|(id, _)| id.clone()).collect();
        let names = if ids.is_empty() {
            Default::default()
        } else {
            db.accounts().profiles_of(&ids).await?
        };
        let notice = crate::inventory::notice::open(&db, note.as_deref(), nsig.as_deref())
            .await
            .map(|n| n.text(locale()));
        Ok(CardView {
            notice,
            card: thing.clone(),
            mine,
            holders: others
                .into_iter()
                .filter_map(|(id, qty)| {
                    let name = names.get(&id)?.display_name.to_string();
                    Some(Holder { id, name, qty })
                })
                .collect(),
        })
    })
    .await
}

/// How far the player is with each category's set.
#[server(endpoint = "inventory/sets")]
pub async fn my_sets() -> Result<Vec<SetProgress>, AppError> {
    crate::error::answer("my_sets", async move {
        let db = expect_context::<Db>();
        let me = session::require_player(&db).await?;
        db.inventory()
            .set_progress(&me.id)
            .await
            .map_err(AppError::from)
    })
    .await
}

/// Moves cards between the bag and the bank.
#[server(endpoint = "inventory/move")]
pub async fn move_cards(thing: String, count: u32, from: String) -> Result<(), AppError> {
    crate::error::answer("move_cards", async move {
        let db = expect_context::<Db>();
        let me = session::require_player(&db).await?;
        let from = Place::parse(&from)?;
        let thing = thing_id(&thing)?;
        db.inventory()
            .move_cards(&me.id, &thing, count, from)
            .await?;
        let to = from.other();
        let notice = crate::inventory::notice::Notice::Moved {
            thing,
            n: count,
            to,
        };
        crate::inventory::notice::redirect_with(&db, &notice, "/inventory").await;
        Ok(())
    })
    .await
}

/// Sells bag cards back to the shop; the feathers earned. Selling the last of a kind in the
/// bag needs `confirm=yes` (the page asks first); without it: 400, nothing changed.
#[server(endpoint = "inventory/sell")]
pub async fn sell_cards(
    thing: String,
    count: u32,
    confirm: Option<String>,
) -> Result<u64, AppError> {
    crate::error::answer("sell_cards", async move {
        let db = expect_context::<Db>();
        let me = session::require_player(&db).await?;
        let thing = thing_id(&thing)?;
        limit(&db, Limited::Shop(&me.id), SHOP_PER_WINDOW).await?;
        let confirmed = confirm.as_deref() == Some("yes");
        let feathers = db
            .inventory()
            .sell_cards(&me.id, &thing, count, confirmed)
            .await?;
        let notice = crate::inventory::notice::Notice::Sold {
            thing,
            n: count,
            feathers,
        };
        crate::inventory::notice::redirect_with(&db, &notice, "/inventory").await;
        Ok(feathers)
    })
    .await
}

/// The shop as one player sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShopPageView {
    pub items: Vec<crate::inventory::model::ShopItem>,
    pub feathers: u64,
    pub signed_in: bool,
    /// The looks the player owns (shop item ids).
    pub owned: Vec<String>,
    pub wearing: Option<crate::ids::Look>,
    /// What the player's last action did (a sealed notice).
    pub notice: Option<String>,
    /// The cards of the pack just bought (read back from what the purchase wrote).
    pub opened: Vec<crate::inventory::model::Card>,
}

/// How long after buying a pack the shop page shows its cards.
pub const OPENED_PACK_MS: i64 = 60_000;

/// What the shop sells, with today's stock: one Query. For a player also their wallet (GetItem)
/// and looks (Query `LOOK#`), side by side; after a pack's purchase, the pack (GetItem).
#[server(endpoint = "shop/view")]
pub async fn shop_view(
    note: Option<String>,
    nsig: Option<String>,
) -> Result<ShopPageView, AppError> {
    crate::error::answer("shop_view", async move {
        let db = expect_context::<Db>();
        let me = session::current_player(&db).await?;
        let items = async { db.inventory().shop().await.map_err(AppError::from) };
        let mine = async {
            match &me {
                Some(me) => {
                    let (feathers, owned) = futures::try_join!(
                        db.inventory().feathers(&me.id),
                        db.inventory().looks(&me.id)
                    )?;
                    Ok::<_, AppError>((feathers, owned))
                }
                None => Ok((0, Vec::new())),
            }
        };
        let (items, (feathers, owned)) = futures::try_join!(items, mine)?;
        let notice = crate::inventory::notice::open(&db, note.as_deref(), nsig.as_deref()).await;
        let mut opened = Vec::new();
        if let (Some(me), Some(crate::inventory::notice::Notice::Bought { item, .. })) =
            (&me, &notice)
        {
            opened = db
                .inventory()
                .last_pack(&me.id, item, OPENED_PACK_MS)
                .await?
                .iter()
                .filter_map(|t| crate::inventory::store::card(t).cloned())
                .collect();
        }
        Ok(ShopPageView {
            items,
            feathers,
            signed_in: me.is_some(),
            owned,
            wearing: me.as_ref().and_then(|me| me.look),
            notice: notice.map(|n| n.text(locale())),
            opened,
        })
    })
    .await
}

/// Buys an item from the shop. Feathers short: 400, nothing changed.
#[server(endpoint = "shop/buy")]
pub async fn buy(item: String) -> Result<crate::inventory::model::Bought, AppError> {
    crate::error::answer("buy", async move {
        let db = expect_context::<Db>();
        let me = session::require_player(&db).await?;
        limit(&db, Limited::Shop(&me.id), SHOP_PER_WINDOW).await?;
        let bought = db.inventory().buy(&me.id, &item, rand::random()).await?;
        let notice = crate::inventory::notice::Notice::Bought {
            item: bought.item.clone(),
            paid: bought.paid,
        };
        crate::inventory::notice::redirect_with(&db, &notice, "/shop").await;
        Ok(bought)
    })
    .await
}

/// Wears a look the player owns (`look` empty: takes it off). One they do not own: 403; an
/// unknown one: 400; nothing changed either way.
#[server(endpoint = "shop/wear")]
pub async fn wear_look(look: String) -> Result<(), AppError> {
    crate::error::answer("wear_look", async move {
        let db = expect_context::<Db>();
        let me = session::require_player(&db).await?;
        let look = match look.trim() {
            "" => None,
            raw => Some(crate::ids::Look::parse(raw).ok_or_else(|| {
                AppError::BadRequest(td_string!(locale(), inventory.error.no_such_look).to_string())
            })?),
        };
        limit(&db, Limited::Shop(&me.id), SHOP_PER_WINDOW).await?;
        match db.inventory().wear(&me.id, look).await {
            Ok(()) => {}
            Err(crate::inventory::store::InventoryError::Forbidden) => {
                return Err(AppError::Forbidden(
                    td_string!(locale(), inventory.error.look_not_owned).to_string(),
                ))
            }
            Err(err) => return Err(AppError::from(err)),
        }
        let notice = crate::inventory::notice::Notice::Wore { look };
        crate::inventory::notice::redirect_with(&db, &notice, "/shop").await;
        Ok(())
    })
    .await
}

/// What only the server needs: the server functions' helpers and limits.
#[cfg(feature = "ssr")]
mod ssr {
    use super::*;
    pub(super) use crate::{
        catalog::model::Category, error::fail, i18n::td_string, identity::session,
        inventory::model::ThingId, lang::locale, store::keys::Limited, store::Db,
    };

    /// Counts one action of a player (`limited`: trades, declines or the shop) against its window, across every
    /// instance: 429 past `per_window`.
    pub(super) async fn limit(
        db: &Db,
        limited: crate::store::keys::Limited<'_>,
        per_window: u32,
    ) -> Result<(), AppError> {
        session::rate_limit(db, limited, WINDOW_SECS, per_window)
            .await
            .map_err(fail)
    }

    pub(super) fn thing_id(raw: &str) -> Result<ThingId, AppError> {
        ThingId::parse(raw).map_err(|_| {
            fail(AppError::BadRequest(
                td_string!(locale(), inventory.error.no_such_card).to_string(),
            ))
        })
    }
}
