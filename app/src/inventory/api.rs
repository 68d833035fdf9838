//! The inventory over HTTP. Every action is the signed-in player's own: the server takes the
//! player from the session, never from the request. Trading and buying are rate-limited per
//! player across every instance (the table's counters).

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;
use crate::inventory::model::{Offer, Place, SetProgress, Stack};

#[cfg(feature = "ssr")]
use crate::{
    catalog::model::Category,
    error::fail,
    identity::session,
    inventory::model::{OfferId, Side, ThingId},
    inventory::trades::Direction,
    store::Db,
};

/// Trade actions (offers, accepts, declines, cancels) one player may make per window.
pub const TRADES_PER_WINDOW: u32 = 30;
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
}

/// The trades page: offers to and from the player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TradesView {
    pub me: crate::ids::UserId,
    pub incoming: Vec<Offer>,
    pub outgoing: Vec<Offer>,
    pub now_ms: i64,
}

/// A page of the player's bag or bank: one Query (by category, or by name on LSI1 when sorted
/// by name or searched), and one GetItem of the wallet.
#[server(endpoint = "inventory/view")]
pub async fn read_inventory(
    place: Option<String>,
    category: Option<String>,
    sort: Option<String>,
    q: Option<String>,
    after: Option<String>,
) -> Result<InventoryView, AppError> {
    let db = expect_context::<Db>();
    let me = session::require_player(&db).await.map_err(fail)?;
    let place = match place.as_deref() {
        None | Some("") => Place::Bag,
        Some(raw) => Place::parse(raw).map_err(fail)?,
    };
    let category = match category.as_deref() {
        None | Some("") => None,
        Some(raw) => Some(
            Category::from_slug(raw)
                .ok_or_else(|| fail(AppError::BadRequest("There is no such category.".into())))?,
        ),
    };
    let search = q.map(|q| q.trim().to_owned()).filter(|q| !q.is_empty());
    if search.as_ref().is_some_and(|q| q.chars().count() > 40) {
        return Err(fail(AppError::BadRequest(
            "Search for at most 40 characters.".into(),
        )));
    }
    let sort = if sort.as_deref() == Some("name") || search.is_some() {
        Sort::Name
    } else {
        Sort::Category
    };
    let after = after.filter(|a| !a.is_empty());
    let page = match sort {
        Sort::Name => {
            db.cards_by_name(&me.id, place, search.as_deref(), after.as_deref(), 30)
                .await
        }
        Sort::Category => {
            db.cards(&me.id, place, category, after.as_deref(), 30)
                .await
        }
    }
    .map_err(fail)?;
    let feathers = db.feathers(&me.id).await.map_err(fail)?;
    Ok(InventoryView {
        place,
        category: category.map(|c| c.slug().to_owned()),
        sort,
        search,
        stacks: page.items,
        next: page.next,
        feathers,
    })
}

/// How far the player is with each category's set.
#[server(endpoint = "inventory/sets")]
pub async fn my_sets() -> Result<Vec<SetProgress>, AppError> {
    let db = expect_context::<Db>();
    let me = session::require_player(&db).await.map_err(fail)?;
    db.set_progress(&me.id).await.map_err(fail)
}

#[cfg(feature = "ssr")]
fn thing_id(raw: &str) -> Result<ThingId, AppError> {
    ThingId::parse(raw).map_err(|_| fail(AppError::BadRequest("There is no such card.".into())))
}

/// Moves cards between the bag and the bank.
#[server(endpoint = "inventory/move")]
pub async fn move_cards(thing: String, count: u32, from: String) -> Result<(), AppError> {
    let db = expect_context::<Db>();
    let me = session::require_player(&db).await.map_err(fail)?;
    let from = Place::parse(&from).map_err(fail)?;
    db.move_cards(&me.id, &thing_id(&thing)?, count, from)
        .await
        .map_err(fail)
}

/// Sells bag cards back to the shop; the feathers earned.
#[server(endpoint = "inventory/sell")]
pub async fn sell_cards(thing: String, count: u32) -> Result<u64, AppError> {
    let db = expect_context::<Db>();
    let me = session::require_player(&db).await.map_err(fail)?;
    let thing = thing_id(&thing)?;
    session::rate_limit(
        &db,
        &format!("shop#{}", me.id),
        WINDOW_SECS,
        SHOP_PER_WINDOW,
    )
    .await
    .map_err(fail)?;
    db.sell_cards(&me.id, &thing, count).await.map_err(fail)
}

/// What the shop sells, with today's stock, and the player's feathers (none for a visitor).
#[server(endpoint = "shop/view")]
pub async fn shop_view() -> Result<(Vec<crate::inventory::model::ShopItem>, u64), AppError> {
    let db = expect_context::<Db>();
    let items = db.shop().await.map_err(fail)?;
    let feathers = match session::current_player(&db).await.map_err(fail)? {
        Some(me) => db.feathers(&me.id).await.map_err(fail)?,
        None => 0,
    };
    Ok((items, feathers))
}

/// Buys an item from the shop.
#[server(endpoint = "shop/buy")]
pub async fn buy(item: String) -> Result<crate::inventory::model::Bought, AppError> {
    let db = expect_context::<Db>();
    let me = session::require_player(&db).await.map_err(fail)?;
    session::rate_limit(
        &db,
        &format!("shop#{}", me.id),
        WINDOW_SECS,
        SHOP_PER_WINDOW,
    )
    .await
    .map_err(fail)?;
    db.buy(&me.id, &item, rand::random()).await.map_err(fail)
}

/// Parses `thing:count,thing:count` into a side's cards.
#[cfg(feature = "ssr")]
fn parse_cards(raw: &str) -> Result<Vec<(ThingId, u32)>, AppError> {
    raw.split(',')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(|part| {
            let (thing, count) = part.split_once(':').unwrap_or((part, "1"));
            let count: u32 = count.trim().parse().map_err(|_| {
                fail(AppError::BadRequest(format!(
                    "{part}: how many is a whole number"
                )))
            })?;
            Ok((thing_id(thing.trim())?, count))
        })
        .collect()
}

/// Offers a trade to a player, by username: cards as `thing:count,…`, feathers each way.
#[server(endpoint = "trades/offer")]
pub async fn make_offer(
    to: String,
    give_cards: Option<String>,
    give_feathers: Option<u64>,
    want_cards: Option<String>,
    want_feathers: Option<u64>,
    hours: Option<u32>,
) -> Result<Offer, AppError> {
    let db = expect_context::<Db>();
    let me = session::require_player(&db).await.map_err(fail)?;
    let username = crate::ids::Username::parse(to.trim()).map_err(fail)?;
    let gives = Side {
        cards: parse_cards(give_cards.as_deref().unwrap_or(""))?,
        feathers: give_feathers.unwrap_or(0),
    };
    let wants = Side {
        cards: parse_cards(want_cards.as_deref().unwrap_or(""))?,
        feathers: want_feathers.unwrap_or(0),
    };
    let secs = i64::from(hours.unwrap_or(24).clamp(1, 168)) * 3_600;
    session::rate_limit(
        &db,
        &format!("trade#{}", me.id),
        WINDOW_SECS,
        TRADES_PER_WINDOW,
    )
    .await
    .map_err(fail)?;
    let to = db
        .user_by_username(&username)
        .await
        .map_err(fail)?
        .ok_or_else(|| fail(AppError::NotFound("No player has that username.".into())))?;
    let to_name = db
        .profile(&to)
        .await
        .map_err(fail)?
        .map(|p| p.display_name.to_string())
        .unwrap_or_else(|| username.to_string());
    db.make_offer(
        (&me.id, &me.display_name.to_string()),
        (&to, &to_name),
        gives,
        wants,
        secs,
    )
    .await
    .map_err(fail)
}

#[cfg(feature = "ssr")]
fn offer_id(raw: &str) -> Result<OfferId, AppError> {
    OfferId::parse(raw).map_err(fail)
}

/// Accepts an offer made to the player.
#[server(endpoint = "trades/accept")]
pub async fn accept_offer(offer: String) -> Result<Offer, AppError> {
    let db = expect_context::<Db>();
    let me = session::require_player(&db).await.map_err(fail)?;
    let offer = offer_id(&offer)?;
    session::rate_limit(
        &db,
        &format!("trade#{}", me.id),
        WINDOW_SECS,
        TRADES_PER_WINDOW,
    )
    .await
    .map_err(fail)?;
    db.accept_offer(&offer, &me.id).await.map_err(fail)
}

/// Declines an offer made to the player, or cancels one the player made.
#[server(endpoint = "trades/close")]
pub async fn close_offer(offer: String) -> Result<(), AppError> {
    let db = expect_context::<Db>();
    let me = session::require_player(&db).await.map_err(fail)?;
    let offer = offer_id(&offer)?;
    session::rate_limit(
        &db,
        &format!("trade#{}", me.id),
        WINDOW_SECS,
        TRADES_PER_WINDOW,
    )
    .await
    .map_err(fail)?;
    db.close_offer(&offer, &me.id).await.map_err(fail)?;
    Ok(())
}

/// The offers to and from the player: two Queries.
#[server(endpoint = "trades/mine")]
pub async fn read_trades() -> Result<TradesView, AppError> {
    let db = expect_context::<Db>();
    let me = session::require_player(&db).await.map_err(fail)?;
    let (incoming, outgoing) = futures::try_join!(
        db.offers(&me.id, Direction::Incoming, 20),
        db.offers(&me.id, Direction::Outgoing, 20)
    )
    .map_err(fail)?;
    Ok(TradesView {
        me: me.id,
        incoming,
        outgoing,
        now_ms: crate::store::epoch_millis(),
    })
}
