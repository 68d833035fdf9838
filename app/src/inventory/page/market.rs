//! The market's page: trades (offers to and from the player, a form to make one,
//! and with `?room=` a form to offer to someone in that room).

use leptos::either::Either;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use super::ACTIONS;
use crate::codec::Base64Json;
use crate::i18n::{td, td_string};
use crate::inventory::api::{
    read_trades, AcceptOffer, CloseOffer, MakeOffer, RoomChoice, TradesView,
};
use crate::inventory::model::{Offer, OfferStatus, Side, ThingId};
use crate::lang::Locale;
use crate::ui::forms::FormError;

/// What one side of an offer holds, in words. Cards by name: in Hindi their Devanagari name
/// (from `names`), else the thing's id in words.
fn side_text(side: &Side, l: Locale, names: &[(ThingId, String)]) -> String {
    let mut parts: Vec<String> = side
        .cards
        .iter()
        .map(|(thing, count)| {
            let hindi = (l == Locale::hi)
                .then(|| names.iter().find(|(t, _)| t == thing))
                .flatten();
            match hindi {
                Some((_, name)) => format!("{count} × {name}"),
                None => format!("{count} × {}", thing.as_str().replace('-', " ")),
            }
        })
        .collect();
    if side.feathers > 0 {
        parts.push(td_string!(l, inventory.n_feathers, n = side.feathers).to_string());
    }
    if parts.is_empty() {
        td_string!(l, inventory.nothing).into()
    } else {
        parts.join(", ")
    }
}

fn offer_row(
    offer: Offer,
    incoming: bool,
    now_ms: i64,
    l: Locale,
    names: &[(ThingId, String)],
) -> impl IntoView {
    let open = offer.is_open(now_ms);
    // The status's slug (for `data-status`) and its words.
    let (status, status_text) = match offer.status {
        OfferStatus::Open if !open => ("expired", td_string!(l, inventory.status.expired)),
        OfferStatus::Open => ("open", td_string!(l, inventory.status.open)),
        OfferStatus::Accepted => ("accepted", td_string!(l, inventory.status.accepted)),
        OfferStatus::Declined => ("declined", td_string!(l, inventory.status.declined)),
        OfferStatus::Cancelled => ("cancelled", td_string!(l, inventory.status.cancelled)),
    };
    let who = if incoming {
        td_string!(l, inventory.from_player, name = offer.from_name.as_str()).to_string()
    } else {
        td_string!(l, inventory.to_player, name = offer.to_name.as_str()).to_string()
    };
    // The other player, told apart from any other of the same name: their profile, named by
    // their username where they have one.
    let (them, username) = if incoming {
        (&offer.from, &offer.from_username)
    } else {
        (&offer.to, &offer.to_username)
    };
    let profile = crate::identity::model::profile_path(them);
    let handle = match username {
        Some(username) => format!("@{username}"),
        None => td_string!(l, inventory.profile).to_owned(),
    };
    let (gives, asks) = (
        side_text(&offer.gives, l, names),
        side_text(&offer.wants, l, names),
    );
    let line = td_string!(
        l,
        inventory.offer_line,
        who = who.as_str(),
        gives = gives.as_str(),
        asks = asks.as_str()
    )
    .to_string();
    let id = offer.id.to_string();
    let id2 = id.clone();
    view! {
        <li data-testid="offer" data-offer=id.clone() data-status=status>
            {line}" · "
            <a href=profile data-testid="offer-player">{handle}</a>" · "
            <span data-testid="offer-status">{status_text}</span>
            {(open && incoming).then(|| view! {
                <form method="post" action=AcceptOffer::PATH class="inline">
                    <input type="hidden" name="offer" value=id.clone() />
                    <button type="submit" data-testid="accept">{td_string!(l, inventory.accept)}</button>
                </form>
            })}
            {open.then(|| view! {
                <form method="post" action=CloseOffer::PATH class="inline">
                    <input type="hidden" name="offer" value=id2 />
                    <button type="submit" data-testid="close">{if incoming { td_string!(l, inventory.decline) } else { td_string!(l, inventory.cancel) }}</button>
                </form>
            })}
        </li>
    }
}

/// The fields of an offer: what each side gives, and for how long.
fn offer_fields(l: Locale) -> impl IntoView {
    view! {
        <label>{td!(l, inventory.give_cards, <code> = |children: ChildrenFn| view! { <span lang="en">{children()}</span> })}" "<input name="give_cards" maxlength="400" /></label>
        <label>{td_string!(l, inventory.give_feathers)}" "<input name="give_feathers" type="number" min="0" value="0" /></label>
        <label>{td_string!(l, inventory.want_cards)}" "<input name="want_cards" maxlength="400" /></label>
        <label>{td_string!(l, inventory.want_feathers)}" "<input name="want_feathers" type="number" min="0" value="0" /></label>
        <label>{td_string!(l, inventory.open_for_hours)}" "<input name="hours" type="number" min="1" max="168" value="24" /></label>
        <button type="submit">{td_string!(l, inventory.offer)}</button>
    }
}

/// The form to offer to someone in a room (guests have no username to offer to).
fn room_offer(room: RoomChoice, l: Locale) -> impl IntoView {
    let RoomChoice { code, players } = room;
    let heading = td_string!(l, inventory.offer_in_room, code = code.as_str()).to_string();
    if players.is_empty() {
        return Either::Left(view! {
            <h2>{heading}</h2>
            <p class="muted" data-testid="room-offer-none">{td_string!(l, inventory.nobody_in_room)}</p>
        });
    }
    let choices = players
        .into_iter()
        .map(|(id, name)| view! { <option value=id.to_string()>{name}</option> })
        .collect_view();
    Either::Right(view! {
        <h2>{heading}</h2>
        <form method="post" action=MakeOffer::PATH class="card" data-testid="room-offer">
            <input type="hidden" name="room" value=code />
            <label>{td_string!(l, inventory.to)}" "<select name="to_player" data-testid="room-player">{choices}</select></label>
            {offer_fields(l)}
        </form>
    })
}

/// The links under a list of offers: back to its newest page (when on an older one), and on
/// to its older offers (when there are more). Plain links: they work without JavaScript.
fn pager(
    l: Locale,
    list: &'static str,
    newest: Option<String>,
    older: Option<String>,
) -> impl IntoView {
    (newest.is_some() || older.is_some()).then(|| {
        view! {
            <p class="pager" data-list=list>
                {newest.map(|href| view! { <a href=href data-testid=format!("{list}-newest")>{td_string!(l, inventory.newest_offers)}</a>" " })}
                {older.map(|href| view! { <a href=href rel="next" data-testid=format!("{list}-older")>{td_string!(l, inventory.older_offers)}</a> })}
            </p>
        }
    })
}

/// `/trades` (and `/trades?room=<code>`, linked from a match's results; `incoming_after` and
/// `outgoing_after` page each list on its own).
#[component]
pub fn TradesPage() -> impl IntoView {
    let l = crate::lang::locale();
    let query = use_query_map();
    let trades = Resource::<_, Base64Json>::new_with_options(
        move || {
            let query = query.read();
            (
                query.get("room"),
                query.get("incoming_after"),
                query.get("outgoing_after"),
            )
        },
        |(room, incoming_after, outgoing_after)| read_trades(room, incoming_after, outgoing_after),
        false,
    );
    // A link to this page with the given room and cursors (each list pages on its own).
    let link = move |incoming: Option<&str>, outgoing: Option<&str>| {
        let room = query.read_untracked().get("room");
        let mut params = Vec::new();
        for (name, value) in [
            ("room", room.as_deref()),
            ("incoming_after", incoming),
            ("outgoing_after", outgoing),
        ] {
            if let Some(value) = value.filter(|v| !v.is_empty()) {
                params.push(format!("{name}={}", super::urlencode(value)));
            }
        }
        if params.is_empty() {
            "/trades".to_owned()
        } else {
            format!("/trades?{}", params.join("&"))
        }
    };
    view! {
        <Title text=td_string!(l, inventory.trades).to_string() />
        <FormError paths=ACTIONS />
        <Suspense fallback=move || view! { <p class="muted">{td_string!(l, inventory.reading_offers)}</p> }>
            {move || Suspend::new(async move {
                let (incoming_after, outgoing_after) = {
                    let query = query.read_untracked();
                    (
                        query.get("incoming_after").filter(|c| !c.is_empty()),
                        query.get("outgoing_after").filter(|c| !c.is_empty()),
                    )
                };
                match trades.await {
                    Ok(TradesView { incoming, outgoing, incoming_next, outgoing_next, now_ms, room, names, .. }) => Either::Left(view! {
                        <section class="trades">
                            <h1>{td_string!(l, inventory.trades)}</h1>
                            <p><a href="/inventory">{td_string!(l, inventory.your_cards)}</a></p>
                            {room.map(|room| room_offer(room, l))}
                            <h2>{td_string!(l, inventory.offers_to_you)}</h2>
                            <ul data-testid="incoming">{incoming.into_iter().map(|o| offer_row(o, true, now_ms, l, &names)).collect_view()}</ul>
                            {pager(l, "incoming", incoming_after.is_some().then(|| link(None, outgoing_after.as_deref())), incoming_next.map(|next| link(Some(&next), outgoing_after.as_deref())))}
                            <h2>{td_string!(l, inventory.your_offers)}</h2>
                            <ul data-testid="outgoing">{outgoing.into_iter().map(|o| offer_row(o, false, now_ms, l, &names)).collect_view()}</ul>
                            {pager(l, "outgoing", outgoing_after.is_some().then(|| link(incoming_after.as_deref(), None)), outgoing_next.map(|next| link(incoming_after.as_deref(), Some(&next))))}
                            <h2>{td_string!(l, inventory.make_offer)}</h2>
                            <form method="post" action=MakeOffer::PATH class="card" data-testid="make-offer">
                                <label>{td_string!(l, inventory.to_username)}" "<input name="to" required maxlength="30" /></label>
                                {offer_fields(l)}
                            </form>
                        </section>
                    }),
                    Err(err) => Either::Right(view! {
                        <section class="hero"><h1>{td_string!(l, inventory.trades)}</h1><p class="error" role="alert">{err.localized()}</p></section>
                    }),
                }
            })}
        </Suspense>
    }
}
