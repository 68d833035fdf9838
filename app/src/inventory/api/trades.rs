//! Trades over HTTP: make an offer (to a username, a player id, or someone in your room),
//! accept, decline or cancel, and the lists of offers, a page at a time. Offers, accepts and
//! cancels count against the player's trade limit; declines against a generous limit of their
//! own, so offers from others cannot spend one's trade limit.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;
use crate::inventory::model::Offer;

#[cfg(feature = "ssr")]
use super::{limit, thing_id, DECLINES_PER_WINDOW, TRADES_PER_WINDOW};
#[cfg(feature = "ssr")]
use crate::{
    error::fail,
    i18n::td_string,
    identity::session,
    inventory::model::{OfferId, Side, ThingId},
    inventory::trades::{Direction, Met, Party},
    lang::locale,
    store::Db,
};

/// The trades page: offers to and from the player.
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
    /// With `?room=`: the room's other players, whom the player may offer to (guests have no
    /// username). Empty when the player is not in that room.
    pub room: Option<RoomChoice>,
    /// The Devanagari names of the cards in these offers (for a Hindi page).
    #[serde(default)]
    pub names: Vec<(crate::ids::ThingId, String)>,
}

/// The players of a room one may make an offer to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoomChoice {
    pub code: String,
    /// (player id, nickname), the player themself left out.
    pub players: Vec<(crate::ids::UserId, String)>,
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
                fail(AppError::BadRequest(
                    td_string!(locale(), inventory.error.not_whole_number, part = part).to_string(),
                ))
            })?;
            Ok((thing_id(thing.trim())?, count))
        })
        .collect()
}

/// Offers a trade to a player: by username, by id (a card's page lists who might trade), or to a
/// player in a room the maker is in (guests have no username). Cards as `thing:count,…`,
/// feathers each way.
#[allow(clippy::too_many_arguments)]
#[server(endpoint = "trades/offer")]
pub async fn make_offer(
    to: Option<String>,
    room: Option<String>,
    to_player: Option<String>,
    give_cards: Option<String>,
    give_feathers: Option<u64>,
    want_cards: Option<String>,
    want_feathers: Option<u64>,
    hours: Option<u32>,
) -> Result<Offer, AppError> {
    let db = expect_context::<Db>();
    let me = session::require_player(&db).await.map_err(fail)?;
    let given = |v: Option<String>| v.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    let recipient = match (given(to), given(room), given(to_player)) {
        (Some(username), None, None) => {
            Recipient::Username(crate::ids::Username::parse(&username).map_err(fail)?)
        }
        (None, None, Some(player)) => {
            Recipient::Player(crate::ids::UserId::parse(&player).map_err(fail)?)
        }
        (None, Some(room), Some(player)) => Recipient::InRoom(
            crate::ids::RoomCode::parse(&room).map_err(fail)?,
            crate::ids::UserId::parse(&player).map_err(fail)?,
        ),
        _ => {
            return Err(fail(AppError::BadRequest(
                td_string!(locale(), inventory.error.name_a_player).to_string(),
            )))
        }
    };
    let gives = Side {
        cards: parse_cards(give_cards.as_deref().unwrap_or(""))?,
        feathers: give_feathers.unwrap_or(0),
    };
    let wants = Side {
        cards: parse_cards(want_cards.as_deref().unwrap_or(""))?,
        feathers: want_feathers.unwrap_or(0),
    };
    let secs = i64::from(hours.unwrap_or(24).clamp(1, 168)) * 3_600;
    limit(&db, "trade", &me.id, TRADES_PER_WINDOW).await?;
    let (to, to_name, to_username, met) = match recipient {
        Recipient::Username(username) => {
            let to = db
                .user_by_username(&username)
                .await
                .map_err(fail)?
                .ok_or_else(|| {
                    fail(AppError::NotFound(
                        td_string!(locale(), inventory.error.no_such_username).to_string(),
                    ))
                })?;
            let name = db
                .profile(&to)
                .await
                .map_err(fail)?
                .map(|p| p.display_name.to_string())
                .unwrap_or_else(|| username.to_string());
            (to, name, Some(username), Met::Unknown)
        }
        Recipient::Player(them) => {
            let profile = db.profile(&them).await.map_err(fail)?.ok_or_else(|| {
                fail(AppError::NotFound(
                    td_string!(locale(), inventory.error.no_such_player).to_string(),
                ))
            })?;
            (
                them,
                profile.display_name.to_string(),
                profile.username,
                Met::Unknown,
            )
        }
        Recipient::InRoom(code, them) => {
            let names = db
                .room_nicknames(&code, &[&me.id, &them])
                .await
                .map_err(fail)?;
            if !names.contains_key(&me.id) {
                return Err(fail(AppError::Forbidden(
                    td_string!(locale(), inventory.error.only_from_inside).to_string(),
                )));
            }
            let name = names.get(&them).map(ToString::to_string).ok_or_else(|| {
                fail(AppError::NotFound(
                    td_string!(locale(), inventory.error.not_in_room).to_string(),
                ))
            })?;
            // Both are players of the room now: they have played together.
            (them, name, None, Met::InRoomNow)
        }
    };
    let from_name = me.display_name.to_string();
    db.make_offer_as(
        Party {
            id: &me.id,
            name: &from_name,
            username: me.username.as_ref(),
        },
        Party {
            id: &to,
            name: &to_name,
            username: to_username.as_ref(),
        },
        gives,
        wants,
        secs,
        met,
    )
    .await
    .map_err(fail)
}

/// Whom an offer is made to.
#[cfg(feature = "ssr")]
enum Recipient {
    Username(crate::ids::Username),
    /// By id, as a card's page lists those who might trade it.
    Player(crate::ids::UserId),
    InRoom(crate::ids::RoomCode, crate::ids::UserId),
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
    limit(&db, "trade", &me.id, TRADES_PER_WINDOW).await?;
    db.accept_offer(&offer, &me.id).await.map_err(fail)
}

/// Declines an offer made to the player (counted against their declines, not their trade
/// limit), or cancels one the player made (a trade action).
#[server(endpoint = "trades/close")]
pub async fn close_offer(offer: String) -> Result<(), AppError> {
    let db = expect_context::<Db>();
    let me = session::require_player(&db).await.map_err(fail)?;
    let offer = offer_id(&offer)?;
    let found = db.offer(&offer).await.map_err(fail)?;
    match found {
        Some(found) if found.to == me.id => {
            limit(&db, "decline", &me.id, DECLINES_PER_WINDOW).await?;
            db.close_read_offer(&found, &me.id).await.map_err(fail)?;
        }
        found => {
            limit(&db, "trade", &me.id, TRADES_PER_WINDOW).await?;
            let found =
                found.ok_or_else(|| fail(crate::inventory::store::InventoryError::NotFound))?;
            db.close_read_offer(&found, &me.id).await.map_err(fail)?;
        }
    }
    Ok(())
}

/// Offers per page of each list.
pub const OFFERS_PER_PAGE: i32 = 20;

/// The offers to and from the player, a page of each (from `incoming_after` and
/// `outgoing_after`, the cursors of older pages): two Queries; with a room, one more Query of
/// its players.
#[server(endpoint = "trades/mine")]
pub async fn read_trades(
    room: Option<String>,
    incoming_after: Option<String>,
    outgoing_after: Option<String>,
) -> Result<TradesView, AppError> {
    let db = expect_context::<Db>();
    let me = session::require_player(&db).await.map_err(fail)?;
    let code = match room.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(raw) => Some(crate::ids::RoomCode::parse(raw).map_err(fail)?),
    };
    let room_read = async {
        match &code {
            Some(code) => db.lobby(code).await.map(Some),
            None => Ok(None),
        }
    };
    fn cursor(raw: &Option<String>) -> Option<&str> {
        raw.as_deref().map(str::trim).filter(|c| !c.is_empty())
    }
    let (incoming, outgoing, lobby) = futures::try_join!(
        db.offers_page(
            &me.id,
            Direction::Incoming,
            OFFERS_PER_PAGE,
            cursor(&incoming_after)
        ),
        db.offers_page(
            &me.id,
            Direction::Outgoing,
            OFFERS_PER_PAGE,
            cursor(&outgoing_after)
        ),
        room_read
    )
    .map_err(fail)?;
    let (incoming_next, outgoing_next) = (incoming.next, outgoing.next);
    let (incoming, outgoing) = (incoming.items, outgoing.items);
    let room = match (code, lobby) {
        (Some(_), Some(None)) => {
            return Err(fail(AppError::NotFound(
                td_string!(locale(), inventory.error.no_such_room).to_string(),
            )))
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
    let mut names: Vec<(ThingId, String)> = incoming
        .iter()
        .chain(&outgoing)
        .flat_map(|o| o.gives.cards.iter().chain(&o.wants.cards))
        .filter_map(|(thing, _)| {
            let card = crate::inventory::store::card(thing)?;
            (!card.hi.is_empty()).then(|| (thing.clone(), card.hi.clone()))
        })
        .collect();
    names.sort();
    names.dedup();
    Ok(TradesView {
        names,
        me: me.id,
        incoming,
        outgoing,
        incoming_next,
        outgoing_next,
        now_ms: crate::store::epoch_millis(),
        room,
    })
}
