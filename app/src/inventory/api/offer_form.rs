//! The offer form's server side: what a posted form or an API call says (the recipient, both
//! sides' cards and feathers, the hours), read into an offer or refused with the field at fault;
//! and where a plain form post is sent back to.

use leptos::prelude::*;

use std::collections::BTreeMap;

use crate::error::AppError;
use crate::inventory::model::Offer;

use super::{limit, TRADES_PER_WINDOW};
use crate::{
    error::fail,
    i18n::td_string,
    inventory::model::{OfferId, Side, ThingId},
    inventory::store::trades::{Met, Party},
    lang::locale,
    store::keys::Limited,
    store::Db,
};

/// Which field of the offer form a refusal is about: `give.<thing>`, `want.<thing>`,
/// `give_feathers`, `want_feathers`, `hours` or `to` (the page shows the error beside it).
pub(super) type Refused = (Option<String>, AppError);

pub(super) fn bad(field: impl Into<Option<String>>, message: String) -> Refused {
    (field.into(), fail(AppError::BadRequest(message)))
}

/// A quantity typed into the form: blank is none; otherwise a whole number from 0 to `max`.
pub(super) fn quantity(field: &str, raw: Option<&str>, max: u64) -> Result<u64, Refused> {
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
pub(super) fn side_cards(
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
pub(super) struct OfferForm {
    pub(super) to: Option<String>,
    pub(super) room: Option<String>,
    pub(super) to_player: Option<String>,
    pub(super) give: Option<BTreeMap<String, String>>,
    pub(super) want: Option<BTreeMap<String, String>>,
    pub(super) give_cards: Option<String>,
    pub(super) want_cards: Option<String>,
    pub(super) give_feathers: Option<String>,
    pub(super) want_feathers: Option<String>,
    pub(super) hours: Option<String>,
}

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
pub(super) fn form_post() -> bool {
    use_context::<http::request::Parts>().is_some_and(|parts| {
        parts
            .headers
            .get(http::header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|accept| accept.contains("text/html"))
    })
}

/// After a plain form post that worked: to `/trades`, with the notice of what happened.
pub(super) fn to_notice(offer: &OfferId) {
    if form_post() {
        leptos_axum::redirect(&format!("/trades?done={offer}"));
    }
}

/// After a plain form post that was refused: back to the form as it was, the error with it
/// (sealed for this browser by the form-error layer, like every form error); `path` is the
/// server function the form posts to.
pub(super) fn back_to_form(form: &OfferForm, field: Option<&str>, err: &AppError, path: &str) {
    if !form_post() {
        return;
    }
    let base = format!("http://udd.invalid{}", form.address(field));
    let url = leptos::server_fn::error::ServerFnUrlError::new(path, err.clone()).to_url(&base);
    if let Ok(url) = url {
        let query = url.query().unwrap_or("");
        leptos_axum::redirect(&format!("{}?{query}", url.path()));
    }
}

/// An inventory refusal, with the field of the form it is about.
pub(super) fn refused(err: crate::inventory::store::InventoryError) -> Refused {
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

/// The offer `form` makes, once made: after a plain form post to `/trades` with its notice; when
/// refused, back to the form (posted to server function `path`) with the error beside its field.
pub(super) async fn offer_or_back(
    db: &Db,
    me: &crate::identity::Profile,
    form: &OfferForm,
    path: &str,
) -> Result<Offer, AppError> {
    match offer_from_form(db, me, form).await {
        Ok(offer) => {
            to_notice(&offer.id);
            Ok(offer)
        }
        Err((field, err)) => {
            back_to_form(form, field.as_deref(), &err, path);
            Err(err)
        }
    }
}

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
    limit(db, Limited::Trades(&me.id), TRADES_PER_WINDOW)
        .await
        .map_err(|e| (None, e))?;
    let not_found = |message: String| (Some("to".to_owned()), fail(AppError::NotFound(message)));
    let (to, to_name, to_username, met) = match recipient {
        Recipient::Username(username) => {
            let to = db
                .accounts()
                .user_by_username(&username)
                .await
                .map_err(|e| (None, fail(e)))?
                .ok_or_else(|| {
                    not_found(td_string!(locale(), inventory.error.no_such_username).to_string())
                })?;
            let name = db
                .accounts()
                .profile(&to)
                .await
                .map_err(|e| (None, fail(e)))?
                .map(|p| p.display_name.to_string())
                .unwrap_or_else(|| username.to_string());
            (to, name, Some(username), Met::Unknown)
        }
        Recipient::Player(them) => {
            let profile = db
                .accounts()
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
                .rooms()
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
    db.inventory()
        .make_offer_as(
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
pub(super) enum Recipient {
    Username(crate::ids::Username),
    /// By id, as a card's page lists those who might trade it.
    Player(crate::ids::UserId),
    InRoom(crate::ids::RoomCode, crate::ids::UserId),
}
