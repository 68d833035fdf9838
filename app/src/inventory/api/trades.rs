//! Trades over HTTP: make an offer (to a username, a player id, or someone in your room) by
//! picking cards from both bags, accept, decline or cancel, the lists of offers a page at a
//! time, and the count of offers waiting for the top bar. Offers, accepts and
//! cancels count against the player's trade limit; declines against a generous limit of their
//! own, so offers from others cannot spend one's trade limit.
// A plain form posts one field per argument; the browser's copy of each server function
// (generated for hydration) takes them all too.
#![allow(clippy::too_many_arguments)]

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use std::collections::BTreeMap;

use crate::error::AppError;
use crate::inventory::model::{Card, Offer, Stack};
#[cfg(feature = "ssr")]
use ssr::*;

/// The trades page: offers to and from the player, and with `?with=` the form to offer to one
/// player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TradesView {
    pub me: crate::ids::UserId,
    pub incoming: Vec<Offer>,
    pub outgoing: Vec<Offer>,
    /// The cursor of the next (older) page of offers to the player, if there is one.
    pub incoming_next: Option<String>,
    /// The cursor of the next (older) page of the player's own offers, if there is one.
    pub outgoing_next: Option<String>,
    pub now_ms: i64,
    /// With `?room=`: the room's other players, whom the player may offer to. Empty when the
    /// player is not in that room.
    pub room: Option<RoomChoice>,
    /// The cards these offers name (their emoji and names in both languages).
    #[serde(default)]
    pub cards: Vec<Card>,
    /// With `?done=<offer>` (where an action sends the browser): that offer, when the player
    /// is one of its two sides, for the notice of what just happened.
    #[serde(default)]
    pub done: Option<Offer>,
    /// With `?with=<player>`: the form's two bags.
    #[serde(default)]
    pub pick: Option<Pick>,
    /// With a `?with=` that names nobody one can offer to: why, for the field.
    #[serde(default)]
    pub pick_error: Option<String>,
    /// Without `?with=`: whom the player played with lately (guests too), to pick from.
    #[serde(default)]
    pub partners: Vec<crate::game::model::Partner>,
}

/// How many of the player's latest matches the trades page lists their fellow players from.
pub const PARTNER_MATCHES: i32 = 10;

/// The offer form's other player and both bags.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pick {
    pub to: crate::ids::UserId,
    pub name: String,
    pub username: Option<crate::ids::Username>,
    /// The player's bag (only bag cards can be traded).
    pub mine: Vec<Stack>,
    /// The other player's bag.
    pub theirs: Vec<Stack>,
    /// The player's feathers.
    pub feathers: u64,
}

/// The players of a room one may make an offer to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoomChoice {
    pub code: String,
    /// (player id, nickname), the player themself left out.
    pub players: Vec<(crate::ids::UserId, String)>,
}

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
        match offer_from_form(&db, &me, &form).await {
            Ok(offer) => {
                to_notice(&offer.id);
                Ok(offer)
            }
            Err((field, err)) => {
                back_to_form(
                    &form,
                    field.as_deref(),
                    &err,
                    <MakeOffer as leptos::server_fn::ServerFn>::PATH,
                );
                Err(err)
            }
        }
    })
    .await
}

/// Accepts an offer made to the player.
#[server(endpoint = "trades/accept")]
pub async fn accept_offer(offer: String) -> Result<Offer, AppError> {
    crate::error::answer("accept_offer", async move {
        let db = expect_context::<Db>();
        let me = session::require_player(&db).await?;
        let offer = offer_id(&offer)?;
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
pub async fn close_offer(offer: String) -> Result<(), AppError> {
    crate::error::answer("close_offer", async move {
        let db = expect_context::<Db>();
        let me = session::require_player(&db).await?;
        let offer = offer_id(&offer)?;
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

/// Offers per page of each list.
pub const OFFERS_PER_PAGE: i32 = 20;

/// The offers to and from the player, a page of each (from `incoming_after` and
/// `outgoing_after`, the cursors of older pages): two Queries; with a room, one more Query of
/// its players; with `done`, one GetItem of that offer; with `with` (a player id, a username or
/// `@username`), their profile and both players' bags (a Query each, and the wallet); without
/// it, whom the player played with in their [`PARTNER_MATCHES`] latest matches (a Query and a
/// BatchGetItem).
#[server(endpoint = "trades/mine")]
pub async fn read_trades(
    room: Option<String>,
    incoming_after: Option<String>,
    outgoing_after: Option<String>,
    with: Option<String>,
    done: Option<String>,
) -> Result<TradesView, AppError> {
    crate::error::answer("read_trades", async move {
        let db = expect_context::<Db>();
        let me = session::require_player(&db).await?;
        let code = match room.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(raw) => Some(crate::ids::RoomCode::parse(raw)?),
        };
        let room_read = async {
            match &code {
                Some(code) => db.rooms().lobby(code).await.map(Some),
                None => Ok(None),
            }
        };
        fn cursor(raw: &Option<String>) -> Option<&str> {
            raw.as_deref().map(str::trim).filter(|c| !c.is_empty())
        }
        let done_read = async {
            let id = done
                .as_deref()
                .and_then(|raw| OfferId::parse(raw.trim()).ok());
            match id {
                Some(id) => db.inventory().offer(&id).await,
                None => Ok(None),
            }
        };
        let picking = with.as_deref().is_some_and(|w| !w.trim().is_empty());
        let partners_read = async {
            match picking {
                true => Ok(Vec::new()),
                false => db.game().played_with(&me.id, PARTNER_MATCHES).await,
            }
        };
        let (incoming, outgoing, lobby, done, partners) = futures::try_join!(
            db.inventory().offers_page(
                &me.id,
                Direction::Incoming,
                OFFERS_PER_PAGE,
                cursor(&incoming_after)
            ),
            db.inventory().offers_page(
                &me.id,
                Direction::Outgoing,
                OFFERS_PER_PAGE,
                cursor(&outgoing_after)
            ),
            room_read,
            done_read,
            partners_read
        )?;
        let done = done.filter(|o| o.from == me.id || o.to == me.id);
        let (incoming_next, outgoing_next) = (incoming.next, outgoing.next);
        let (incoming, outgoing) = (incoming.items, outgoing.items);
        let room = match (code, lobby) {
            (Some(_), Some(None)) => {
                return Err(AppError::NotFound(
                    td_string!(locale(), inventory.error.no_such_room).to_string(),
                ))
            }
            (Some(code), Some(Some(lobby))) => {
                let inside = lobby.players.iter().any(|p| p.user_id == me.id);
                Some(RoomChoice {
                    code: code.to_string(),
                    players: lobby
                        .players
                        .iter()
                        .filter(|p| inside && p.user_id != me.id)
                        .map(|p| (p.user_id.clone(), p.nickname.to_string()))
                        .collect(),
                })
            }
            _ => None,
        };
        let (pick, pick_error) = match with.as_deref().map(str::trim).filter(|w| !w.is_empty()) {
            None => (None, None),
            Some(raw) => match pick(&db, &me.id, raw).await? {
                Ok(pick) => (Some(pick), None),
                Err(why) => (None, Some(why)),
            },
        };
        let mut cards: Vec<Card> = incoming
            .iter()
            .chain(&outgoing)
            .chain(&done)
            .flat_map(|o| o.gives.cards.iter().chain(&o.wants.cards))
            .filter_map(|(thing, _)| crate::inventory::store::card(thing).cloned())
            .collect();
        cards.sort_by(|a, b| a.thing.cmp(&b.thing));
        cards.dedup_by(|a, b| a.thing == b.thing);
        Ok(TradesView {
            cards,
            me: me.id,
            incoming,
            outgoing,
            incoming_next,
            outgoing_next,
            now_ms: crate::store::epoch_millis(),
            room,
            done,
            pick,
            pick_error,
            partners,
        })
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
    use super::*;
    pub(super) use crate::inventory::api::offer_form::{
        back_to_form, offer_from_form, to_notice, OfferForm,
    };
    pub(super) use crate::inventory::api::{limit, DECLINES_PER_WINDOW, TRADES_PER_WINDOW};
    pub(super) use crate::{
        error::fail, i18n::td_string, identity::session, inventory::model::OfferId,
        inventory::store::trades::Direction, lang::locale, store::keys::Limited, store::Db,
    };

    pub(super) fn offer_id(raw: &str) -> Result<OfferId, AppError> {
        OfferId::parse(raw).map_err(fail)
    }

    /// The player `raw` names (an id, a username or `@username`) and both bags, or why there is
    /// nobody to offer to.
    pub(super) async fn pick(
        db: &Db,
        me: &crate::ids::UserId,
        raw: &str,
    ) -> Result<Result<Pick, String>, AppError> {
        let l = locale();
        let id = match crate::ids::UserId::parse(raw) {
            Ok(id) => Some(id),
            Err(_) => {
                let name = raw.strip_prefix('@').unwrap_or(raw);
                match crate::ids::Username::parse(name) {
                    Ok(username) => db.accounts().user_by_username(&username).await?,
                    Err(_) => {
                        return Ok(Err(td_string!(l, trades.error.no_such_player).to_string()))
                    }
                }
            }
        };
        let profile = match id {
            Some(id) => db.accounts().profile(&id).await?,
            None => None,
        };
        let Some(profile) = profile else {
            return Ok(Err(td_string!(l, trades.error.no_such_player).to_string()));
        };
        if &profile.id == me {
            return Ok(Err(td_string!(l, inventory.error.offer_to_self).to_string()));
        }
        let (mine, theirs, feathers) = futures::try_join!(
            db.inventory().bag_cards(me),
            db.inventory().bag_cards(&profile.id),
            db.inventory().feathers(me)
        )?;
        Ok(Ok(Pick {
            to: profile.id,
            name: profile.display_name.to_string(),
            username: profile.username,
            mine,
            theirs,
            feathers,
        }))
    }
}
