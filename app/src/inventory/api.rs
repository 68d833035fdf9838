//! The inventory over HTTP. Every action is the signed-in player's own: the server takes the
//! player from the session, never from the request. Trading and buying are rate-limited per
//! player across every instance (the table's counters).
// A plain form posts one field per argument; the browser's copy of each server function
// (generated for hydration) takes them all too.
#![allow(clippy::too_many_arguments)]

use leptos::prelude::*;

use crate::error::AppError;
use crate::ids::{Look, OrBlank, ThingId};
use crate::inventory::model::{Place, SetProgress};
#[cfg(feature = "ssr")]
use ssr::*;

#[cfg(feature = "ssr")]
mod offer_form;
#[cfg(feature = "ssr")]
use crate::inventory::views::{card_page, inventory_page, shop_page, InventoryQuery};
pub use crate::inventory::views::{
    CardView, Holder, InventoryView, ShopPageView, Sort, HOLDERS_SHOWN, OPENED_PACK_MS,
};
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

/// A page of the player's bag or bank: one Query (by category, or by name on LSI1 when sorted
/// by name; a search reads the whole place on LSI1 and keeps the names with a word starting
/// with each word searched) beside one GetItem of the wallet.
#[server(endpoint = "inventory/view")]
pub async fn read_inventory(
    place: Option<OrBlank<Place>>,
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
        let query = InventoryQuery {
            place: OrBlank::value(place),
            category,
            sort,
            q,
            after,
            confirm,
        };
        inventory_page(&db, &me, query, (note, nsig)).await
    })
    .await
}

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
        let me = session::current_player(&db).await?;
        card_page(&db, me, &thing, (note, nsig)).await
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
pub async fn move_cards(thing: ThingId, count: u32, from: Place) -> Result<(), AppError> {
    crate::error::answer("move_cards", async move {
        let db = expect_context::<Db>();
        let me = session::require_player(&db).await?;
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
    thing: ThingId,
    count: u32,
    confirm: Option<String>,
) -> Result<u64, AppError> {
    crate::error::answer("sell_cards", async move {
        let db = expect_context::<Db>();
        let me = session::require_player(&db).await?;
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
        shop_page(&db, me, (note, nsig)).await
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
pub async fn wear_look(look: OrBlank<Look>) -> Result<(), AppError> {
    crate::error::answer("wear_look", async move {
        let db = expect_context::<Db>();
        let me = session::require_player(&db).await?;
        let OrBlank(look) = look;
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
        error::fail, i18n::td_string, identity::session, lang::locale, store::keys::Limited,
        store::Db,
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
}
