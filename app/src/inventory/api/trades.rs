//! Trades over HTTP: make an offer (to a username, a player id, or someone in your room) by
//! picking cards from both bags, accept, decline or cancel, the lists of offers a page at a
//! time, and the count of offers waiting for the top bar. Offers, accepts and
//! cancels count against the player's trade limit; declines against a generous limit of their
//! own, so offers from others cannot spend one's trade limit.
// A plain form posts one field per argument; the browser's copy of each server function
// (generated for hydration) takes them all too.
#![allow(clippy::too_many_arguments)]

use leptos::prelude::*;

use std::collections::BTreeMap;

use crate::error::AppError;
use crate::ids::{OrBlank, RoomCode};
use crate::inventory::model::{Offer, OfferId};
#[cfg(feature = "ssr")]
use crate::inventory::views::trades::trades_page;
pub use crate::inventory::views::trades::{
    Pick, RoomChoice, TradesView, OFFERS_PER_PAGE, PARTNER_MATCHES,
};
#[cfg(feature = "ssr")]
use ssr::*;

/// Offers a trade to a player: by username (`@name` or `name`), by id (a profile, a card's
/// page, the form picked from), or to a player in a room the maker is in. Cards picked as
/// `give[<thing>]=<count>` and `want[<thing>]=<count>` (blank or 0: none), or for the API as
/// `give_cards=thing:count,…`; feathers each way; hours open. A plain form post goes to
/// `/trades` with a notice, or back to the form as it was with the error beside its field.
#[server(endpoint = "trades/offer")]
pub async fn make_offer(
    to: Option<String>,
    room: Option<String>,
    to_player: Option<String>,
    give: Option<BTreeMap<String, String>>,
    want: Option<BTreeMap<String, String>>,
    give_cards: Option<String>,
    want_cards: Option<String>,
    give_feathers: Option<String>,
    want_feathers: Option<String>,
    hours: Option<String>,
) -> Result<Offer, AppError> {
    crate::error::answer("make_offer", async move {
        let db = expect_context::<Db>();
        let me = session::require_player(&db).await?;
        let form = OfferForm {
            to,
            room,
            to_player,
            give,
            want,
            give_cards,
            want_cards,
            give_feathers,
            want_feathers,
            hours,
        };
        offer_or_back(
            &db,
            &me,
            &form,
            <MakeOffer as leptos::server_fn::ServerFn>::PATH,
        )
        .await
    })
    .await
}

/// Accepts an offer made to the player.
#[server(endpoint = "trades/accept")]
pub async fn accept_offer(offer: OfferId) -> Result<Offer, AppError> {
    crate::error::answer("accept_offer", async move {
        let db = expect_context::<Db>();
        let me = session::require_player(&db).await?;
        limit(&db, Limited::Trades(&me.id), TRADES_PER_WINDOW).await?;
        let accepted = db.inventory().accept_offer(&offer, &me.id).await?;
        to_notice(&accepted.id);
        Ok(accepted)
    })
    .await
}

/// Declines every open offer made to the player by players they have not played with, in one
/// action (counted as one decline): their places for strangers are free at once. A plain form
/// post goes back to `/trades` saying how many (`?cleared=<n>`). How many it declined.
#[server(endpoint = "trades/decline-strangers")]
pub async fn decline_strangers() -> Result<usize, AppError> {
    crate::error::answer("decline_strangers", async move {
        let db = expect_context::<Db>();
        let me = session::require_player(&db).await?;
        limit(&db, Limited::Declines(&me.id), DECLINES_PER_WINDOW).await?;
        let declined = db.inventory().decline_strangers(&me.id).await?;
        if crate::inventory::api::offer_form::form_post() {
            leptos_axum::redirect(&format!("/trades?cleared={declined}"));
        }
        Ok(declined)
    })
    .await
}

/// Declines an offer made to the player (counted against their declines, not their trade
/// limit), or cancels one the player made (a trade action).
#[server(endpoint = "trades/close")]
pub async fn close_offer(offer: OfferId) -> Result<(), AppError> {
    crate::error::answer("close_offer", async move {
        let db = expect_context::<Db>();
        let me = session::require_player(&db).await?;
        let found = db.inventory().offer(&offer).await?;
        match found {
            Some(found) if found.to == me.id => {
                limit(&db, Limited::Declines(&me.id), DECLINES_PER_WINDOW).await?;
                db.inventory().close_read_offer(&found, &me.id).await?;
            }
            found => {
                limit(&db, Limited::Trades(&me.id), TRADES_PER_WINDOW).await?;
                let found = found.ok_or_else(|| {
                    AppError::from(crate::inventory::store::InventoryError::NotFound)
                })?;
                db.inventory().close_read_offer(&found, &me.id).await?;
            }
        }
        to_notice(&offer);
        Ok(())
    })
    .await
}

/// The offers to and from the player, a page of each (from `incoming_after` and
/// `outgoing_after`, the cursors of older pages): two Queries; with a room, one more Query of
/// its players; with `done`, one GetItem of that offer; with `with` (a player id, a username or
/// `@username`), their profile and both players' bags (a Query each, and the wallet); without
/// it, whom the player played with in their [`PARTNER_MATCHES`] latest matches (a Query and a
/// BatchGetItem).
#[server(endpoint = "trades/mine")]
pub async fn read_trades(
    room: Option<OrBlank<RoomCode>>,
    incoming_after: Option<String>,
    outgoing_after: Option<String>,
    with: Option<String>,
    done: Option<String>,
) -> Result<TradesView, AppError> {
    crate::error::answer("read_trades", async move {
        let db = expect_context::<Db>();
        let me = session::require_player(&db).await?;
        let pages = (incoming_after, outgoing_after);
        trades_page(&db, &me.id, OrBlank::value(room), pages, with, done).await
    })
    .await
}

/// How many open offers are waiting for the signed-in player (the top bar's count): nothing
/// read for a visitor; for a player, their session and one eventually consistent GetItem.
#[server(endpoint = "trades/waiting")]
pub async fn offers_waiting() -> Result<usize, AppError> {
    crate::error::answer("offers_waiting", async move {
        let db = expect_context::<Db>();
        let Some(me) = session::current_user(&db).await? else {
            return Ok(0);
        };
        db.inventory()
            .offers_waiting(&me)
            .await
            .map_err(AppError::from)
    })
    .await
}

/// What only the server needs: the server functions' helpers and limits.
#[cfg(feature = "ssr")]
mod ssr {
    pub(super) use crate::inventory::api::offer_form::{offer_or_back, to_notice, OfferForm};
    pub(super) use crate::inventory::api::{limit, DECLINES_PER_WINDOW, TRADES_PER_WINDOW};
    pub(super) use crate::{identity::session, store::keys::Limited, store::Db};
}
