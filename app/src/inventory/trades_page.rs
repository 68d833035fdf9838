//! The market's page, trades. `/trades` lists the offers to and from the player
//! and is where one chooses whom to offer to (a username, or a player of `?room=`);
//! `/trades?with=<player>` is the one form to make an offer, picking cards from both bags.
//! Plain forms and links: everything works without JavaScript.

use crate::inventory::inventory_page::urlencode;
use leptos::either::Either;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::codec::Base64Json;
use crate::game::sheet::Partner;
use crate::i18n::td_string;
use crate::ids::OrBlank;
use crate::inventory::api::{
    offers_waiting, read_trades, AcceptOffer, CloseOffer, DeclineStrangers, MakeOffer, Pick,
    RoomChoice, TradesView,
};
use crate::inventory::model::{Card, Offer, OfferStatus, Side, Stack};
use crate::lang::Locale;
use crate::ui::forms::{form_error, FormError};

mod partners;

/// The answers to an offer, whose refusals the lists' page shows at its top.
const ANSWERS: &[&str] = &[AcceptOffer::PATH, CloseOffer::PATH, DeclineStrangers::PATH];

/// The count of open offers waiting for the player, beside the top bar's "Trades" link: one
/// GetItem per page for a signed-in player, nothing read for a visitor; nothing shown at 0.
#[component]
pub fn OffersWaiting() -> impl IntoView {
    let l = crate::lang::locale();
    let waiting = Resource::<_, Base64Json>::new_with_options(|| (), |_| offers_waiting(), false);
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                let n = waiting.await.unwrap_or(0);
                (n > 0).then(|| {
                    let label = if n == 1 {
                        td_string!(l, trades.waiting_one).to_string()
                    } else {
                        td_string!(l, trades.waiting_many, n = n).to_string()
                    };
                    let title = label.clone();
                    view! {
                        <span class="count-badge" data-testid="offers-waiting" data-count=n title=title>
                            <span aria-hidden="true">{n}</span>
                            <span class="visually-hidden">" "{label}</span>
                        </span>
                    }
                })
            })}
        </Suspense>
    }
}

/// The "Offer a trade" link on another player's profile (none on one's own).
pub fn offer_link(player: &crate::ids::UserId, mine: bool) -> impl IntoView {
    let l = crate::lang::locale();
    (!mine).then(|| {
        view! {
            <p class="actions">
                <a class="button" href=format!("/trades?with={player}") data-testid="offer-trade">{td_string!(l, trades.offer_a_trade)}</a>
            </p>
        }
    })
}

/// A card of an offer by its thing: its emoji and name in `l`.
fn card_words(thing: &crate::ids::ThingId, cards: &[Card], l: Locale) -> (String, String) {
    match cards.iter().find(|c| &c.thing == thing) {
        Some(card) => (card.emoji.clone(), card.name_in(l).to_owned()),
        None => (String::new(), thing.as_str().replace('-', " ")),
    }
}

/// What one side of an offer holds, in words: `🐦‍⬛ 2 × Crow, 🪶 5 feathers`.
fn side_text(side: &Side, l: Locale, cards: &[Card]) -> String {
    let mut parts: Vec<String> = side
        .cards
        .iter()
        .map(|(thing, count)| {
            let (emoji, name) = card_words(thing, cards, l);
            format!("{emoji} {count} × {name}").trim().to_owned()
        })
        .collect();
    if side.feathers > 0 {
        parts.push(format!(
            "🪶 {}",
            td_string!(l, inventory.n_feathers, n = side.feathers)
        ));
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
    cards: &[Card],
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
    // The other player, told apart from any other of the same name: their profile, and their
    // username where they have one.
    let (them, name, username) = if incoming {
        (&offer.from, &offer.from_name, &offer.from_username)
    } else {
        (&offer.to, &offer.to_name, &offer.to_username)
    };
    let profile = crate::identity::model::profile_path(them);
    let (gives, asks) = (
        side_text(&offer.gives, l, cards),
        side_text(&offer.wants, l, cards),
    );
    let (gives_label, asks_label) = if incoming {
        (
            td_string!(l, trades.they_give),
            td_string!(l, trades.they_ask),
        )
    } else {
        (
            td_string!(l, trades.you_give_label),
            td_string!(l, trades.you_ask_label),
        )
    };
    let id = offer.id.to_string();
    let id2 = id.clone();
    let them_name = name.clone();
    view! {
        <li class="tile offer" data-testid="offer" data-offer=id.clone() data-status=status>
            <div class="tile-head">
                <a class="name" href=profile data-testid="offer-player">{name.clone()}</a>
                {username.as_ref().map(|u| view! { <span class="meta">{format!("@{u}")}</span> })}
                <span class=format!("rarity status-{status}") data-testid="offer-status">{status_text}</span>
            </div>
            <dl class="offer-sides">
                <dt>{gives_label}</dt><dd data-testid="offer-gives">{gives}</dd>
                <dt>{asks_label}</dt><dd data-testid="offer-asks">{asks}</dd>
            </dl>
            {open.then(|| view! {
                <div class="actions">
                    {incoming.then(|| view! {
                        <form method="post" action=AcceptOffer::PATH>
                            <input type="hidden" name="offer" value=id.clone() />
                            <button type="submit" data-testid="accept" aria-label=td_string!(l, trades.accept_from, name = them_name.as_str()).to_string()>{td_string!(l, inventory.accept)}</button>
                        </form>
                    })}
                    <form method="post" action=CloseOffer::PATH>
                        <input type="hidden" name="offer" value=id2 />
                        <button type="submit" class="secondary" data-testid="close">{if incoming { td_string!(l, inventory.decline) } else { td_string!(l, inventory.cancel) }}</button>
                    </form>
                </div>
            })}
        </li>
    }
}

/// The notice of what the player just did (`?done=<offer>`), worded from the offer as stored.
fn done_notice(
    offer: &Offer,
    me: &crate::ids::UserId,
    l: Locale,
    cards: &[Card],
) -> Option<String> {
    let mine = &offer.from == me;
    let text = match (offer.status, mine) {
        (OfferStatus::Open, true) => {
            td_string!(l, trades.notice.sent, name = offer.to_name.as_str()).to_string()
        }
        (OfferStatus::Accepted, false) => {
            let got = side_text(&offer.gives, l, cards);
            let gave = side_text(&offer.wants, l, cards);
            td_string!(
                l,
                trades.notice.accepted,
                name = offer.from_name.as_str(),
                got = got.as_str(),
                gave = gave.as_str()
            )
            .to_string()
        }
        (OfferStatus::Declined, false) => {
            td_string!(l, trades.notice.declined, name = offer.from_name.as_str()).to_string()
        }
        (OfferStatus::Cancelled, true) => {
            td_string!(l, trades.notice.cancelled, name = offer.to_name.as_str()).to_string()
        }
        _ => return None,
    };
    Some(text)
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
            <p class="actions pager" data-list=list>
                {newest.map(|href| view! { <a href=href data-testid=format!("{list}-newest")>{td_string!(l, inventory.newest_offers)}</a> })}
                {older.map(|href| view! { <a href=href rel="next" data-testid=format!("{list}-older")>{td_string!(l, inventory.older_offers)}</a> })}
            </p>
        }
    })
}

/// Choosing whom to offer to: the room's players (with `?room=`), and a username.
fn choose_player(
    room: Option<RoomChoice>,
    partners: Vec<Partner>,
    error: Option<String>,
    typed: Option<String>,
    l: Locale,
) -> impl IntoView {
    let partners = partners::partners(partners, l);
    let room = room.map(|RoomChoice { code, players }| {
        let heading = td_string!(l, trades.in_room, code = code.as_str()).to_string();
        let list = if players.is_empty() {
            Either::Left(view! { <p class="empty" data-testid="room-offer-none">{td_string!(l, inventory.nobody_in_room)}</p> })
        } else {
            Either::Right(view! {
                <ul class="actions plain-list" data-testid="room-offer">
                    {players.into_iter().map(|(id, name)| {
                        let href = format!("/trades?with={id}&room={}", urlencode(&code));
                        view! {
                            <li><a class="button secondary" href=href data-testid="room-player" data-player=id.to_string()>
                                {td_string!(l, trades.offer_to, name = name.as_str()).to_string()}
                            </a></li>
                        }
                    }).collect_view()}
                </ul>
            })
        };
        view! { <h3>{heading}</h3>{list} }
    });
    let invalid = error.is_some().then_some("true");
    view! {
        <section class="section" aria-labelledby="make-offer">
            <h2 id="make-offer">{td_string!(l, trades.make_offer)}</h2>
            {room}
            {partners}
            <form method="get" action="/trades" class="form" data-testid="choose-player">
                <div class="field">
                    <label for="with">{td_string!(l, trades.choose_player)}</label>
                    <p class="hint" id="with-hint">{td_string!(l, trades.choose_hint)}</p>
                    <input id="with" name="with" required maxlength="30" autocomplete="off" autocapitalize="none" spellcheck="false"
                        value=typed aria-invalid=invalid aria-describedby="with-hint" data-testid="with" />
                    {error.map(|e| view! { <p class="field-error" role="alert" data-testid="with-error">{e}</p> })}
                </div>
                <div class="actions"><button type="submit" data-testid="choose">{td_string!(l, trades.choose)}</button></div>
            </form>
        </section>
    }
}

/// What the offer form was sent back with after a refusal (the quantities typed, and the field
/// the refusal is about), read from the page's address.
#[derive(Clone, Default)]
struct Typed {
    query: leptos_router::params::ParamsMap,
}

impl Typed {
    fn get(&self, name: &str) -> Option<String> {
        self.query.get(name).filter(|v| !v.trim().is_empty())
    }
}

/// One card of a bag as a tile with a quantity to pick (0 to how many are held).
fn pick_tile(
    stack: Stack,
    side: &'static str,
    typed: &Typed,
    error: Option<String>,
    l: Locale,
) -> impl IntoView {
    let thing = stack.thing.to_string();
    let name = stack.name_in(l).to_owned();
    let field = format!("{side}.{thing}");
    let input_name = format!("{side}[{thing}]");
    let id = format!("{side}-{thing}");
    let value = typed.get(&input_name).unwrap_or_else(|| "0".to_owned());
    let held = if side == "give" {
        td_string!(l, trades.you_have, n = stack.qty).to_string()
    } else {
        td_string!(l, trades.they_have, n = stack.qty).to_string()
    };
    let label = if side == "give" {
        td_string!(l, trades.how_many_give, name = name.as_str()).to_string()
    } else {
        td_string!(l, trades.how_many_ask, name = name.as_str()).to_string()
    };
    let picked = value != "0";
    let error_id = format!("{id}-error");
    view! {
        <li class="tile pick" class:picked=picked data-testid=format!("{side}-card") data-thing=thing.clone() data-field=field>
            <div class="tile-head">
                <span class="emoji" aria-hidden="true">{stack.emoji.clone()}</span>
                <div>
                    <div class="name">{name}</div>
                    <div class="meta">{held}" · "<span class=format!("rarity {}", format!("{:?}", stack.rarity).to_lowercase())>{stack.rarity.label(l)}</span></div>
                </div>
            </div>
            <div class="field qty">
                <label for=id.clone() class="visually-hidden">{label}</label>
                <input id=id.clone() type="number" name=input_name min="0" max=stack.qty step="1" inputmode="numeric" value=value
                    data-testid=id.clone() aria-invalid=error.is_some().then_some("true")
                    aria-describedby=error.is_some().then(|| error_id.clone()) />
                {error.map(|e| view! { <p class="field-error" id=error_id role="alert">{e}</p> })}
            </div>
        </li>
    }
}

/// A feathers field of the offer form.
fn feathers_field(
    name: &'static str,
    label: String,
    hint: Option<String>,
    typed: &Typed,
    error: Option<String>,
) -> impl IntoView {
    let hint_id = format!("{name}-hint");
    let error_id = format!("{name}-error");
    let described = match (hint.is_some(), error.is_some()) {
        (true, true) => Some(format!("{hint_id} {error_id}")),
        (true, false) => Some(hint_id.clone()),
        (false, true) => Some(error_id.clone()),
        (false, false) => None,
    };
    view! {
        <div class="field">
            <label for=name>{label}</label>
            {hint.map(|h| view! { <p class="hint" id=hint_id>{h}</p> })}
            <input id=name name=name type="number" min="0" step="1" inputmode="numeric"
                value=typed.get(name).unwrap_or_else(|| "0".to_owned()) data-testid=name
                aria-invalid=error.is_some().then_some("true") aria-describedby=described />
            {error.map(|e| view! { <p class="field-error" id=error_id role="alert" data-testid=format!("{name}-error")>{e}</p> })}
        </div>
    }
}

/// The one form to make an offer: cards and feathers from the player's bag, cards and feathers
/// asked of the other player's, how long it stays open.
fn offer_form(
    pick: Pick,
    room: Option<String>,
    typed: Typed,
    error: Option<String>,
    l: Locale,
) -> impl IntoView {
    let Pick {
        to,
        name,
        username,
        mine,
        theirs,
        feathers,
    } = pick;
    // The refusal beside its field when the page shows that field; otherwise above the form.
    let field = typed.get("field");
    let fields: Vec<String> = mine
        .iter()
        .map(|s| format!("give.{}", s.thing))
        .chain(theirs.iter().map(|s| format!("want.{}", s.thing)))
        .chain(["give_feathers", "want_feathers", "hours"].map(String::from))
        .collect();
    let at_field = field.filter(|f| fields.contains(f));
    let error_for = |f: &str| error.clone().filter(|_| at_field.as_deref() == Some(f));
    let top_error = error.clone().filter(|_| at_field.is_none());
    let title = td_string!(l, trades.form_title, name = name.as_str()).to_string();
    let profile = crate::identity::model::profile_path(&to);
    let mine_empty = mine.is_empty();
    let theirs_empty = theirs.is_empty();
    let give_tiles = mine
        .into_iter()
        .map(|s| {
            let err = error_for(&format!("give.{}", s.thing));
            pick_tile(s, "give", &typed, err, l)
        })
        .collect_view();
    let want_tiles = theirs
        .into_iter()
        .map(|s| {
            let err = error_for(&format!("want.{}", s.thing));
            pick_tile(s, "want", &typed, err, l)
        })
        .collect_view();
    let hours = typed.get("hours").unwrap_or_else(|| "24".to_owned());
    let hours_error = error_for("hours");
    // Their profile, said as theirs: a lone name beside "Back to your trades" read as a name.
    let who = username
        .as_ref()
        .map(|u| format!("@{u}"))
        .unwrap_or_else(|| name.clone());
    view! {
        <Title text=title.clone() />
        <div class="page-head">
            <h1>{title}</h1>
            <p class="actions">
                <a href=profile data-testid="with-profile">{td_string!(l, trades.their_profile, name = who.as_str()).to_string()}</a>
                <a href="/trades">{td_string!(l, trades.back)}</a>
            </p>
        </div>
        {top_error.map(|e| view! { <p class="notice error" role="alert" data-testid="form-error">{e}</p> })}
        <form method="post" action=MakeOffer::PATH class="offer-form" data-testid="make-offer">
            <input type="hidden" name="to_player" value=to.to_string() />
            {room.map(|code| view! { <input type="hidden" name="room" value=code /> })}
            <section class="section" aria-labelledby="you-give">
                <h2 id="you-give">{td_string!(l, trades.you_give)}</h2>
                {if mine_empty {
                    Either::Left(view! {
                        <p class="empty" data-testid="mine-empty">{td_string!(l, trades.your_bag_empty)}" "<a href="/inventory?place=bank">{td_string!(l, trades.open_bank)}</a></p>
                    })
                } else {
                    Either::Right(view! { <ul class="tiles" data-testid="mine">{give_tiles}</ul> })
                }}
                {feathers_field("give_feathers", td_string!(l, trades.feathers_give).to_string(), Some(td_string!(l, trades.feathers_hint, n = feathers).to_string()), &typed, error_for("give_feathers"))}
            </section>
            <section class="section" aria-labelledby="you-ask">
                <h2 id="you-ask">{td_string!(l, trades.you_ask, name = name.as_str()).to_string()}</h2>
                {if theirs_empty {
                    Either::Left(view! { <p class="empty" data-testid="theirs-empty">{td_string!(l, trades.their_bag_empty, name = name.as_str()).to_string()}</p> })
                } else {
                    Either::Right(view! { <ul class="tiles" data-testid="theirs">{want_tiles}</ul> })
                }}
                {feathers_field("want_feathers", td_string!(l, trades.feathers_ask).to_string(), None, &typed, error_for("want_feathers"))}
            </section>
            <div class="form">
                <div class="field">
                    <label for="hours">{td_string!(l, trades.hours)}</label>
                    <p class="hint" id="hours-hint">{td_string!(l, trades.hours_hint)}</p>
                    <input id="hours" name="hours" type="number" min="1" max="168" step="1" inputmode="numeric" value=hours
                        aria-describedby="hours-hint" aria-invalid=hours_error.is_some().then_some("true") data-testid="hours" />
                    {hours_error.map(|e| view! { <p class="field-error" role="alert">{e}</p> })}
                </div>
                <div class="actions"><button type="submit" data-testid="send-offer">{td_string!(l, trades.send)}</button></div>
            </div>
        </form>
    }
}

/// `/trades`: the offers to and from the player (`incoming_after` and `outgoing_after` page
/// each list on its own), and choosing whom to offer to (with `?room=`, that room's players);
/// `/trades?with=<player>` the offer form; `?done=<offer>` the notice after an action.
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
                query.get("with"),
                query.get("done"),
            )
        },
        |(room, incoming_after, outgoing_after, with, done)| async move {
            let room = crate::error::from_address(OrBlank::parse(room))?;
            read_trades(room, incoming_after, outgoing_after, with, done).await
        },
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
                params.push(format!("{name}={}", urlencode(value)));
            }
        }
        if params.is_empty() {
            "/trades".to_owned()
        } else {
            format!("/trades?{}", params.join("&"))
        }
    };
    // The offer form's refusal, shown in the form (beside its field) rather than at the top.
    let offer_error = form_error(&[MakeOffer::PATH]);
    view! {
        <Title text=td_string!(l, inventory.trades).to_string() />
        <Suspense fallback=move || view! { <p class="muted">{td_string!(l, inventory.reading_offers)}</p> }>
            {move || {
                let offer_error = offer_error.clone();
                Suspend::new(async move {
                let (incoming_after, outgoing_after, typed) = {
                    let query = query.read_untracked();
                    (
                        query.get("incoming_after").filter(|c| !c.is_empty()),
                        query.get("outgoing_after").filter(|c| !c.is_empty()),
                        Typed { query: query.clone() },
                    )
                };
                match trades.await {
                    Ok(TradesView { me, incoming, outgoing, incoming_next, outgoing_next, now_ms, room, cards, done, pick, pick_error, partners }) => {
                        if let Some(pick) = pick {
                            let room = room.map(|r| r.code);
                            return Either::Left(Either::Left(view! {
                                <section class="trades">{offer_form(pick, room, typed, offer_error, l)}</section>
                            }));
                        }
                        let notice = done.as_ref().and_then(|o| done_notice(o, &me, l, &cards)).or_else(|| {
                            let cleared = query.read_untracked().get("cleared")?.parse::<usize>().ok()?;
                            Some(match cleared {
                                1 => td_string!(l, trades.notice.cleared_one).to_string(),
                                n => td_string!(l, trades.notice.cleared, n = n).to_string(),
                            })
                        });
                        // Open offers from players the player has not played with: declined in one go.
                        let strangers = incoming
                            .iter()
                            .filter(|o| o.from_stranger && o.status == OfferStatus::Open && o.expires_ms > now_ms)
                            .count();
                        let typed_with = typed.get("with");
                        // A refused offer whose form is not on this page: the error at the top.
                        let other_error = offer_error.filter(|_| pick_error.is_none());
                        let empty_in = incoming.is_empty();
                        let empty_out = outgoing.is_empty();
                        Either::Left(Either::Right(view! {
                            <section class="trades">
                                <div class="page-head">
                                    <h1>{td_string!(l, inventory.trades)}</h1>
                                    <p class="actions"><a href="/inventory">{td_string!(l, inventory.your_cards)}</a></p>
                                </div>
                                <FormError paths=ANSWERS />
                                {other_error.map(|e| view! { <p class="notice error" role="alert" data-testid="form-error">{e}</p> })}
                                {notice.map(|n| view! { <p class="notice ok" role="status" data-testid="notice">{n}</p> })}
                                <section class="section" aria-labelledby="offers-to-you">
                                    <h2 id="offers-to-you">{td_string!(l, inventory.offers_to_you)}</h2>
                                    {empty_in.then(|| view! { <p class="empty" data-testid="incoming-empty">{td_string!(l, trades.none_to_you)}</p> })}
                                    {(strangers > 0).then(|| view! {
                                        <form method="post" action=DeclineStrangers::PATH class="strangers" data-testid="decline-strangers">
                                            <p class="muted">{td_string!(l, trades.strangers, n = strangers).to_string()}</p>
                                            <button type="submit" class="secondary">{td_string!(l, trades.decline_strangers)}</button>
                                        </form>
                                    })}
                                    <ul class="tiles offers" data-testid="incoming">{incoming.into_iter().map(|o| offer_row(o, true, now_ms, l, &cards)).collect_view()}</ul>
                                    {pager(l, "incoming", incoming_after.is_some().then(|| link(None, outgoing_after.as_deref())), incoming_next.map(|next| link(Some(&next), outgoing_after.as_deref())))}
                                </section>
                                <section class="section" aria-labelledby="your-offers">
                                    <h2 id="your-offers">{td_string!(l, inventory.your_offers)}</h2>
                                    {empty_out.then(|| view! { <p class="empty" data-testid="outgoing-empty">{td_string!(l, trades.none_yours)}</p> })}
                                    <ul class="tiles offers" data-testid="outgoing">{outgoing.into_iter().map(|o| offer_row(o, false, now_ms, l, &cards)).collect_view()}</ul>
                                    {pager(l, "outgoing", outgoing_after.is_some().then(|| link(incoming_after.as_deref(), None)), outgoing_next.map(|next| link(incoming_after.as_deref(), Some(&next))))}
                                </section>
                                {choose_player(room, partners, pick_error, typed_with, l)}
                            </section>
                        }))
                    }
                    Err(err) => Either::Right(view! {
                        <section class="hero"><h1>{td_string!(l, inventory.trades)}</h1><p class="error" role="alert">{err.localized()}</p></section>
                    }),
                }
            })}}
        </Suspense>
    }
}
