//! The market's pages: the shop and trades (offers to and from the player, a form to make one,
//! and with `?room=` a form to offer to someone in that room).

use leptos::either::Either;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use super::ACTIONS;
use crate::codec::Base64Json;
use crate::inventory::api::{
    read_trades, AcceptOffer, Buy, CloseOffer, MakeOffer, RoomChoice, TradesView,
};
use crate::inventory::model::{Offer, OfferStatus, Side};
use crate::ui::forms::FormError;

/// `/shop`.
#[component]
pub fn ShopPage() -> impl IntoView {
    let shop = Resource::<_, Base64Json>::new_with_options(
        || (),
        |_| crate::inventory::api::shop_view(),
        false,
    );
    view! {
        <Title text="Shop" />
        <FormError paths=ACTIONS />
        <Suspense fallback=|| view! { <p class="muted">"Opening the shop…"</p> }>
            {move || Suspend::new(async move {
                match shop.await {
                    Ok((items, feathers)) => Either::Left(view! {
                        <section class="shop">
                            <h1>"Shop"</h1>
                            <p data-testid="feathers">"🪶 "{feathers}" feathers · "<a href="/inventory">"Your cards"</a></p>
                            <ul class="cards">
                                {items.into_iter().map(|item| {
                                    let left = item.left.map(|l| format!(" · {l} left today"));
                                    let sold_out = item.left == Some(0);
                                    let id = item.id.clone();
                                    view! {
                                        <li data-testid="shop-item" data-item=id>
                                            <span class="emoji" aria-hidden="true">{item.emoji}</span>" "
                                            <strong>{item.name}</strong>" · "{item.price}" feathers"{left}
                                            <form method="post" action=Buy::PATH class="inline">
                                                <input type="hidden" name="item" value=item.id />
                                                <button type="submit" disabled=sold_out data-testid="buy">"Buy"</button>
                                            </form>
                                        </li>
                                    }
                                }).collect_view()}
                            </ul>
                        </section>
                    }),
                    Err(err) => Either::Right(view! {
                        <section class="hero"><h1>"Shop"</h1><p class="error" role="alert">{err.to_string()}</p></section>
                    }),
                }
            })}
        </Suspense>
    }
}

fn side_text(side: &Side) -> String {
    let mut parts: Vec<String> = side
        .cards
        .iter()
        .map(|(thing, count)| format!("{count} × {}", thing.as_str().replace('-', " ")))
        .collect();
    if side.feathers > 0 {
        parts.push(format!("{} feathers", side.feathers));
    }
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(", ")
    }
}

fn offer_row(offer: Offer, incoming: bool, now_ms: i64) -> impl IntoView {
    let open = offer.is_open(now_ms);
    let status = match offer.status {
        OfferStatus::Open if !open => "expired",
        OfferStatus::Open => "open",
        OfferStatus::Accepted => "accepted",
        OfferStatus::Declined => "declined",
        OfferStatus::Cancelled => "cancelled",
    };
    let who = if incoming {
        format!("From {}", offer.from_name)
    } else {
        format!("To {}", offer.to_name)
    };
    let id = offer.id.to_string();
    let id2 = id.clone();
    view! {
        <li data-testid="offer" data-offer=id.clone() data-status=status>
            {who}": gives "{side_text(&offer.gives)}", asks "{side_text(&offer.wants)}" · "
            <span data-testid="offer-status">{status}</span>
            {(open && incoming).then(|| view! {
                <form method="post" action=AcceptOffer::PATH class="inline">
                    <input type="hidden" name="offer" value=id.clone() />
                    <button type="submit" data-testid="accept">"Accept"</button>
                </form>
            })}
            {open.then(|| view! {
                <form method="post" action=CloseOffer::PATH class="inline">
                    <input type="hidden" name="offer" value=id2 />
                    <button type="submit" data-testid="close">{if incoming { "Decline" } else { "Cancel" }}</button>
                </form>
            })}
        </li>
    }
}

/// The fields of an offer: what each side gives, and for how long.
fn offer_fields() -> impl IntoView {
    view! {
        <label>"You give, cards (e.g. crow:1, kite:2) "<input name="give_cards" maxlength="400" /></label>
        <label>"You give, feathers "<input name="give_feathers" type="number" min="0" value="0" /></label>
        <label>"You ask, cards "<input name="want_cards" maxlength="400" /></label>
        <label>"You ask, feathers "<input name="want_feathers" type="number" min="0" value="0" /></label>
        <label>"Open for (hours) "<input name="hours" type="number" min="1" max="168" value="24" /></label>
        <button type="submit">"Offer"</button>
    }
}

/// The form to offer to someone in a room (guests have no username to offer to).
fn room_offer(room: RoomChoice) -> impl IntoView {
    let RoomChoice { code, players } = room;
    let heading = format!("Offer to someone in room {code}");
    if players.is_empty() {
        return Either::Left(view! {
            <h2>{heading}</h2>
            <p class="muted" data-testid="room-offer-none">"Nobody else in this room for you to offer to."</p>
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
            <label>"To "<select name="to_player" data-testid="room-player">{choices}</select></label>
            {offer_fields()}
        </form>
    })
}

/// `/trades` (and `/trades?room=<code>`, linked from a match's results).
#[component]
pub fn TradesPage() -> impl IntoView {
    let query = use_query_map();
    let trades = Resource::<_, Base64Json>::new_with_options(
        move || query.read().get("room"),
        read_trades,
        false,
    );
    view! {
        <Title text="Trades" />
        <FormError paths=ACTIONS />
        <Suspense fallback=|| view! { <p class="muted">"Reading your offers…"</p> }>
            {move || Suspend::new(async move {
                match trades.await {
                    Ok(TradesView { incoming, outgoing, now_ms, room, .. }) => Either::Left(view! {
                        <section class="trades">
                            <h1>"Trades"</h1>
                            <p><a href="/inventory">"Your cards"</a></p>
                            {room.map(room_offer)}
                            <h2>"Offers to you"</h2>
                            <ul data-testid="incoming">{incoming.into_iter().map(|o| offer_row(o, true, now_ms)).collect_view()}</ul>
                            <h2>"Your offers"</h2>
                            <ul data-testid="outgoing">{outgoing.into_iter().map(|o| offer_row(o, false, now_ms)).collect_view()}</ul>
                            <h2>"Make an offer"</h2>
                            <form method="post" action=MakeOffer::PATH class="card" data-testid="make-offer">
                                <label>"To (username) "<input name="to" required maxlength="30" /></label>
                                {offer_fields()}
                            </form>
                        </section>
                    }),
                    Err(err) => Either::Right(view! {
                        <section class="hero"><h1>"Trades"</h1><p class="error" role="alert">{err.to_string()}</p></section>
                    }),
                }
            })}
        </Suspense>
    }
}
