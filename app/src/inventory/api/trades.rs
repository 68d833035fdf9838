//! Trades over HTTP: make an offer (to a username, a player id, or someone in your room) by
//! picking cards from both bags, accept, decline or cancel, the lists of offers a page at a
//! time, and the count of offers waiting for the top bar. Offers, accepts and
//! cancels count against the player's trade limit; declines against a generous limit of their
//! own, so offers from others cannot spend one's trade limit.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use std::collections::BTreeMap;

use crate::error::AppError;
use crate::inventory::model::{Card, Offer, Stack};

#[cfg(feature = "ssr")]
use super::{limit, DECLINES_PER_WINDOW, TRADES_PER_WINDOW};
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
}

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

/// Which field of the offer form a refusal is about: `give.<thing>`, `want.<thing>`,
/// `give_feathers`, `want_feathers`, `hours` or `to` (the page shows the error beside it).
#[cfg(feature = "ssr")]
type Refused = (Option<String>, AppError);

#[cfg(feature = "ssr")]
fn bad(field: impl Into<Option<String>>, message: String) -> Refused {
    (field.into(), fail(AppError::BadRequest(message)))
}

/// A quantity typed into the form: blank is none; otherwise a whole number from 0 to `max`.
#[cfg(feature = "ssr")]
fn quantity(field: &str, raw: Option<&str>, max: u64) -> Result<u64, Refused> {
    let raw = raw.map(str::trim).unwrap_or("");
    if raw.is_empty() {
        return Ok(0);
    }
    match raw.parse::<u64>() {
        Ok(n) if n <= max => Ok(n),
        Ok(_) => Err(bad(
            field.to_owned(),
            td_string!(locale(), trades.error.too_many, max = max).to_string(),
        )),
        Err(_) => Err(bad(
            field.to_owned(),
            td_string!(locale(), trades.error.whole_number).to_string(),
        )),
    }
}

/// One side's cards: the form's `side[thing]=count` quantities (blank and 0 left out) and the
/// compact `thing:count,…` of the API, each card known and counted once.
#[cfg(feature = "ssr")]
fn side_cards(
    side: &str,
    picked: Option<&BTreeMap<String, String>>,
    compact: Option<&str>,
) -> Result<Vec<(ThingId, u32)>, Refused> {
    let mut cards: Vec<(ThingId, u32)> = Vec::new();
    let mut add = |thing: &str, count: u64| -> Result<(), Refused> {
        let field = format!("{side}.{thing}");
        let known = ThingId::parse(thing.trim())
            .ok()
            .filter(|t| crate::inventory::store::card(t).is_some())
            .ok_or_else(|| {
                bad(
                    None,
                    td_string!(locale(), inventory.error.no_such_card).to_string(),
                )
            })?;
        if count == 0 {
            return Ok(());
        }
        if cards.iter().any(|(t, _)| *t == known) {
            return Err(bad(
                field,
                td_string!(
                    locale(),
                    inventory.error.listed_twice,
                    thing = known.as_str()
                )
                .to_string(),
            ));
        }
        cards.push((known, count as u32));
        Ok(())
    };
    for (thing, raw) in picked.into_iter().flatten() {
        let count = quantity(
            &format!("{side}.{thing}"),
            Some(raw),
            u64::from(crate::inventory::store::MAX_STACK),
        )?;
        add(thing, count)?;
    }
    for part in compact
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let (thing, count) = part.split_once(':').unwrap_or((part, "1"));
        let count: u32 = count.trim().parse().map_err(|_| {
            bad(
                None,
                td_string!(locale(), inventory.error.not_whole_number, part = part).to_string(),
            )
        })?;
        if count == 0 || count > crate::inventory::store::MAX_STACK {
            return Err(bad(
                None,
                td_string!(
                    locale(),
                    inventory.error.count,
                    max = crate::inventory::store::MAX_STACK
                )
                .to_string(),
            ));
        }
        add(thing, u64::from(count))?;
    }
    Ok(cards)
}

/// The offer form as posted, to send back to it on a refusal.
#[cfg(feature = "ssr")]
struct OfferForm {
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
}

#[cfg(feature = "ssr")]
impl OfferForm {
    /// The form's page with what was typed in it, the refused field named: where a plain form
    /// post goes back to (the error is added by [`back_to_form`]).
    fn address(&self, field: Option<&str>) -> String {
        let mut query = form_urlencoded::Serializer::new(String::new());
        let with = self
            .to_player
            .as_deref()
            .or(self.to.as_deref())
            .map(str::trim)
            .unwrap_or("");
        if !with.is_empty() {
            query.append_pair("with", with);
        }
        if let Some(room) = self.room.as_deref().filter(|r| !r.trim().is_empty()) {
            query.append_pair("room", room.trim());
        }
        for (side, picked) in [("give", &self.give), ("want", &self.want)] {
            for (thing, count) in picked.iter().flatten() {
                let count = count.trim();
                if !count.is_empty() && count != "0" && thing.len() <= 60 && count.len() <= 12 {
                    query.append_pair(&format!("{side}[{thing}]"), count);
                }
            }
        }
        for (name, value) in [
            ("give_feathers", &self.give_feathers),
            ("want_feathers", &self.want_feathers),
            ("hours", &self.hours),
        ] {
            if let Some(value) = value.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
                if value.len() <= 12 {
                    query.append_pair(name, value);
                }
            }
        }
        if let Some(field) = field {
            query.append_pair("field", field);
        }
        format!("/trades?{}", query.finish())
    }
}

/// Whether this request is a plain HTML form post (a browser that follows a redirect), not a
/// server-function client.
#[cfg(feature = "ssr")]
fn form_post() -> bool {
    use_context::<http::request::Parts>().is_some_and(|parts| {
        parts
            .headers
            .get(http::header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|accept| accept.contains("text/html"))
    })
}

/// After a plain form post that worked: to `/trades`, with the notice of what happened.
#[cfg(feature = "ssr")]
fn to_notice(offer: &OfferId) {
    if form_post() {
        leptos_axum::redirect(&format!("/trades?done={offer}"));
    }
}

/// After a plain form post that was refused: back to the form as it was, the error with it
/// (sealed for this browser by the form-error layer, like every form error).
#[cfg(feature = "ssr")]
fn back_to_form(form: &OfferForm, field: Option<&str>, err: &AppError) {
    if !form_post() {
        return;
    }
    let base = format!("http://udd.invalid{}", form.address(field));
    let url = leptos::server_fn::error::ServerFnUrlError::new(
        <MakeOffer as leptos::server_fn::ServerFn>::PATH,
        err.clone(),
    )
    .to_url(&base);
    if let Ok(url) = url {
        let query = url.query().unwrap_or("");
        leptos_axum::redirect(&format!("{}?{query}", url.path()));
    }
}

/// An inventory refusal, with the field of the form it is about.
#[cfg(feature = "ssr")]
fn refused(err: crate::inventory::store::InventoryError) -> Refused {
    use crate::inventory::store::{InventoryError, Refusal};
    let field = match &err {
        InventoryError::NotEnough(Refusal::Cards { thing, .. }) => Some(format!("give.{thing}")),
        InventoryError::NotEnough(Refusal::TheyLack(thing)) => Some(format!("want.{thing}")),
        InventoryError::NotEnough(Refusal::Feathers { .. }) => Some("give_feathers".to_owned()),
        InventoryError::Invalid(Refusal::TooManyFeathers) => Some("give_feathers".to_owned()),
        InventoryError::Invalid(Refusal::OfferToSelf) => Some("to".to_owned()),
        _ => None,
    };
    (field, fail(err))
}

/// Offers a trade to a player: by username (`@name` or `name`), by id (a profile, a card's
/// page, the form picked from), or to a player in a room the maker is in. Cards picked as
/// `give[<thing>]=<count>` and `want[<thing>]=<count>` (blank or 0: none), or for the API as
/// `give_cards=thing:count,…`; feathers each way; hours open. A plain form post goes to
/// `/trades` with a notice, or back to the form as it was with the error beside its field.
#[allow(clippy::too_many_arguments)]
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
    let db = expect_context::<Db>();
    let me = session::require_player(&db).await.map_err(fail)?;
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
            back_to_form(&form, field.as_deref(), &err);
            Err(err)
        }
    }
}

#[cfg(feature = "ssr")]
async fn offer_from_form(
    db: &Db,
    me: &crate::identity::Profile,
    form: &OfferForm,
) -> Result<Offer, Refused> {
    let given = |v: &Option<String>| {
        v.as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(ToOwned::to_owned)
    };
    let recipient = match (given(&form.to), given(&form.room), given(&form.to_player)) {
        (Some(username), None, None) => {
            let username = username.strip_prefix('@').unwrap_or(&username);
            Recipient::Username(
                crate::ids::Username::parse(username)
                    .map_err(|e| (Some("to".to_owned()), fail(e)))?,
            )
        }
        (None, None, Some(player)) => Recipient::Player(
            crate::ids::UserId::parse(&player).map_err(|e| (Some("to".to_owned()), fail(e)))?,
        ),
        (None, Some(room), Some(player)) => Recipient::InRoom(
            crate::ids::RoomCode::parse(&room).map_err(|e| (None, fail(e)))?,
            crate::ids::UserId::parse(&player).map_err(|e| (Some("to".to_owned()), fail(e)))?,
        ),
        _ => {
            return Err(bad(
                "to".to_owned(),
                td_string!(locale(), inventory.error.name_a_player).to_string(),
            ))
        }
    };
    let gives = Side {
        cards: side_cards("give", form.give.as_ref(), form.give_cards.as_deref())?,
        feathers: quantity(
            "give_feathers",
            form.give_feathers.as_deref(),
            crate::inventory::store::MAX_FEATHERS,
        )?,
    };
    let wants = Side {
        cards: side_cards("want", form.want.as_ref(), form.want_cards.as_deref())?,
        feathers: quantity(
            "want_feathers",
            form.want_feathers.as_deref(),
            crate::inventory::store::MAX_FEATHERS,
        )?,
    };
    let hours = match form.hours.as_deref().map(str::trim) {
        None | Some("") => 24,
        Some(raw) => match raw.parse::<i64>() {
            Ok(h) if (1..=168).contains(&h) => h,
            _ => {
                return Err(bad(
                    "hours".to_owned(),
                    td_string!(locale(), trades.error.hours).to_string(),
                ))
            }
        },
    };
    if gives.is_empty() && wants.is_empty() {
        return Err(bad(
            None,
            td_string!(locale(), trades.error.pick_something).to_string(),
        ));
    }
    limit(db, "trade", &me.id, TRADES_PER_WINDOW)
        .await
        .map_err(|e| (None, e))?;
    let not_found = |message: String| (Some("to".to_owned()), fail(AppError::NotFound(message)));
    let (to, to_name, to_username, met) = match recipient {
        Recipient::Username(username) => {
            let to = db
                .user_by_username(&username)
                .await
                .map_err(|e| (None, fail(e)))?
                .ok_or_else(|| {
                    not_found(td_string!(locale(), inventory.error.no_such_username).to_string())
                })?;
            let name = db
                .profile(&to)
                .await
                .map_err(|e| (None, fail(e)))?
                .map(|p| p.display_name.to_string())
                .unwrap_or_else(|| username.to_string());
            (to, name, Some(username), Met::Unknown)
        }
        Recipient::Player(them) => {
            let profile = db
                .profile(&them)
                .await
                .map_err(|e| (None, fail(e)))?
                .ok_or_else(|| {
                    not_found(td_string!(locale(), inventory.error.no_such_player).to_string())
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
                .map_err(|e| (None, fail(e)))?;
            if !names.contains_key(&me.id) {
                return Err((
                    None,
                    fail(AppError::Forbidden(
                        td_string!(locale(), inventory.error.only_from_inside).to_string(),
                    )),
                ));
            }
            let name = names.get(&them).map(ToString::to_string).ok_or_else(|| {
                not_found(td_string!(locale(), inventory.error.not_in_room).to_string())
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
        hours * 3_600,
        met,
    )
    .await
    .map_err(refused)
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
    let accepted = db.accept_offer(&offer, &me.id).await.map_err(fail)?;
    to_notice(&accepted.id);
    Ok(accepted)
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
    to_notice(&offer);
    Ok(())
}

/// Offers per page of each list.
pub const OFFERS_PER_PAGE: i32 = 20;

/// The offers to and from the player, a page of each (from `incoming_after` and
/// `outgoing_after`, the cursors of older pages): two Queries; with a room, one more Query of
/// its players; with `done`, one GetItem of that offer; with `with` (a player id, a username or
/// `@username`), their profile and both players' bags (a Query each, and the wallet).
#[server(endpoint = "trades/mine")]
pub async fn read_trades(
    room: Option<String>,
    incoming_after: Option<String>,
    outgoing_after: Option<String>,
    with: Option<String>,
    done: Option<String>,
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
    let done_read = async {
        let id = done
            .as_deref()
            .and_then(|raw| OfferId::parse(raw.trim()).ok());
        match id {
            Some(id) => db.offer(&id).await,
            None => Ok(None),
        }
    };
    let (incoming, outgoing, lobby, done) = futures::try_join!(
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
        room_read,
        done_read
    )
    .map_err(fail)?;
    let done = done.filter(|o| o.from == me.id || o.to == me.id);
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
    })
}

/// The player `raw` names (an id, a username or `@username`) and both bags, or why there is
/// nobody to offer to.
#[cfg(feature = "ssr")]
async fn pick(
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
                Ok(username) => db.user_by_username(&username).await.map_err(fail)?,
                Err(_) => return Ok(Err(td_string!(l, trades.error.no_such_player).to_string())),
            }
        }
    };
    let profile = match id {
        Some(id) => db.profile(&id).await.map_err(fail)?,
        None => None,
    };
    let Some(profile) = profile else {
        return Ok(Err(td_string!(l, trades.error.no_such_player).to_string()));
    };
    if &profile.id == me {
        return Ok(Err(td_string!(l, inventory.error.offer_to_self).to_string()));
    }
    let (mine, theirs, feathers) =
        futures::try_join!(db.bag_cards(me), db.bag_cards(&profile.id), db.feathers(me))
            .map_err(fail)?;
    Ok(Ok(Pick {
        to: profile.id,
        name: profile.display_name.to_string(),
        username: profile.username,
        mine,
        theirs,
        feathers,
    }))
}

/// How many open offers are waiting for the signed-in player (the top bar's count): nothing
/// read for a visitor; for a player, their session and one eventually consistent GetItem.
#[server(endpoint = "trades/waiting")]
pub async fn offers_waiting() -> Result<usize, AppError> {
    let db = expect_context::<Db>();
    let Some(me) = session::current_user(&db).await.map_err(fail)? else {
        return Ok(0);
    };
    db.offers_waiting(&me).await.map_err(fail)
}
