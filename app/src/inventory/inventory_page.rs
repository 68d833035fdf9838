//! The inventory's pages, server-rendered and working without JavaScript (plain links and
//! forms; no island):
//!
//! - `/inventory` the bag, `/inventory?place=bank` the bank: category tabs, a sort toggle
//!   (category or name), a name-prefix search and "next page" links; per card, forms to move it
//!   to the other place or sell one;
//! - `/shop`: what the shop sells, today's stock, the wallet, a buy form per item;
//! - `/trades`: offers to and from the player (accept, decline, cancel) and a form to make one.

use leptos::either::Either;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::catalog::model::Category;
use crate::codec::Base64Json;
use crate::i18n::{td, td_string};
use crate::ids::OrBlank;
use crate::inventory::api::{
    my_sets, read_card, read_inventory, AcceptOffer, Buy, CardView, CloseOffer, InventoryView,
    MakeOffer, MoveCards, SellCards, Sort, WearLook,
};
use crate::inventory::model::{Place, Stack};
use crate::lang::Locale;
use crate::ui::forms::FormError;

/// The address of an inventory page with these choices.
fn address(
    place: Place,
    category: Option<&str>,
    sort: Sort,
    search: Option<&str>,
    after: Option<&str>,
) -> String {
    let mut parts = vec![format!("place={place}")];
    if let Some(c) = category {
        parts.push(format!("category={c}"));
    }
    if sort == Sort::Name {
        parts.push("sort=name".into());
    }
    if let Some(q) = search {
        parts.push(format!("q={}", urlencode(q)));
    }
    if let Some(a) = after {
        parts.push(format!("after={}", urlencode(a)));
    }
    format!("/inventory?{}", parts.join("&"))
}

pub(crate) fn urlencode(raw: &str) -> String {
    raw.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

pub(crate) const ACTIONS: &[&str] = &[
    MoveCards::PATH,
    SellCards::PATH,
    Buy::PATH,
    MakeOffer::PATH,
    AcceptOffer::PATH,
    CloseOffer::PATH,
    WearLook::PATH,
];

/// `/inventory`.
#[component]
pub fn InventoryPage() -> impl IntoView {
    let l = crate::lang::locale();
    let query = use_query_map();
    let key = move || {
        let q = query.read();
        (
            (q.get("place"), q.get("category"), q.get("sort"), q.get("q")),
            (
                q.get("after"),
                q.get("confirm"),
                q.get("note"),
                q.get("nsig"),
            ),
        )
    };
    let page = Resource::<_, Base64Json>::new_with_options(
        key,
        |((place, category, sort, q), (after, confirm, note, nsig))| async move {
            let place = crate::error::from_address(OrBlank::parse(place))?;
            read_inventory(place, category, sort, q, after, confirm, note, nsig).await
        },
        false,
    );
    let sets = Resource::<_, Base64Json>::new_with_options(|| (), |_| my_sets(), false);
    view! {
        <Title text=td_string!(l, inventory.your_cards).to_string() />
        <FormError paths=ACTIONS />
        <Suspense fallback=move || view! { <p class="muted">{td_string!(l, inventory.opening_bag)}</p> }>
            {move || Suspend::new(async move {
                match (page.await, sets.await) {
                    (Ok(view), Ok(sets)) => Either::Left(view! { <Inventory view sets l /> }),
                    (Err(err), _) | (_, Err(err)) => Either::Right(view! {
                        <section class="hero">
                            <h1>{td_string!(l, inventory.your_cards)}</h1>
                            <p class="error" role="alert" data-testid="inventory-error">{err.localized()}</p>
                            <p><a href="/">{td_string!(l, inventory.play_to_earn)}</a></p>
                        </section>
                    }),
                }
            })}
        </Suspense>
    }
}

/// A notice the server wrote after the player's last action.
pub(crate) fn notice_view(notice: Option<String>) -> impl IntoView {
    notice.map(|text| view! { <p class="notice ok" role="status" data-testid="notice">{text}</p> })
}

#[component]
fn Inventory(
    view: InventoryView,
    sets: Vec<crate::inventory::SetProgress>,
    l: Locale,
) -> impl IntoView {
    let InventoryView {
        place,
        category,
        sort,
        search,
        stacks,
        next,
        feathers,
        notice,
        confirm,
    } = view;
    let title = match place {
        Place::Bag => td_string!(l, inventory.your_bag),
        Place::Bank => td_string!(l, inventory.your_bank),
    };
    let cat = category.clone();
    let places = Place::ALL
        .into_iter()
        .map(|p| {
            let current = (p == place).then_some("page");
            let label = match p {
                Place::Bag => td_string!(l, inventory.bag),
                Place::Bank => td_string!(l, inventory.bank),
            };
            view! { <a href=address(p, None, Sort::Category, None, None) aria-current=current data-testid="place-tab">{label}</a> }
        })
        .collect_view();
    let tabs = std::iter::once(None)
        .chain(Category::ALL.into_iter().map(Some))
        .map(|c| {
            let slug = c.map(Category::slug);
            let current = (slug == cat.as_deref() && search.is_none()).then_some("page");
            let label = c.map_or_else(|| td_string!(l, inventory.all).to_owned(), |c| c.label_in(l));
            view! {
                <a href=address(place, slug, Sort::Category, None, None) aria-current=current data-testid="category-tab">
                    {label}
                </a>
            }
        })
        .collect_view();
    let (held_all, of_all) = sets.iter().fold((0, 0), |(h, o), s| (h + s.held, o + s.of));
    let progress = sets
        .iter()
        .map(|s| {
            let pct = s.held * 100 / s.of.max(1);
            view! {
                <li class="set" data-testid="set" data-category=s.category.slug()>
                    <span class="set-name">{s.category.label_in(l)}</span>
                    <span class="set-count">{td_string!(l, inventory.set_progress, held = s.held, of = s.of).to_string()}</span>
                    <span class="meter" role="img" aria-label=td_string!(l, inventory.set_progress, held = s.held, of = s.of).to_string()><span style=format!("width: {pct}%")></span></span>
                </li>
            }
        })
        .collect_view();
    let sort_link = match sort {
        Sort::Category => view! { <a href=address(place, None, Sort::Name, None, None) data-testid="sort-toggle">{td_string!(l, inventory.sort_by_name)}</a> }.into_any(),
        Sort::Name => view! { <a href=address(place, None, Sort::Category, None, None) data-testid="sort-toggle">{td_string!(l, inventory.sort_by_category)}</a> }.into_any(),
    };
    let empty = stacks.is_empty().then(|| match &search {
        Some(q) => view! {
            <div class="empty" role="status" data-testid="no-match">
                <p>{match place {
                    Place::Bag => td_string!(l, inventory.no_match_bag, q = q.as_str()).to_string(),
                    Place::Bank => td_string!(l, inventory.no_match_bank, q = q.as_str()).to_string(),
                }}</p>
                <p><a href=address(place, None, Sort::Category, None, None) data-testid="clear-search">{td_string!(l, inventory.clear_search)}</a></p>
            </div>
        }
        .into_any(),
        None => view! {
            <div class="empty" data-testid="no-cards">
                <p>{match place { Place::Bag => td_string!(l, inventory.empty_place), Place::Bank => td_string!(l, inventory.empty_bank) }}</p>
                <p><a href="/">{td_string!(l, inventory.play_to_earn)}</a>" · "<a href="/shop">{td_string!(l, inventory.shop)}</a></p>
            </div>
        }
        .into_any(),
    });
    let back = address(place, category.as_deref(), sort, search.as_deref(), None);
    let confirm_box = confirm.map(|card| {
        let price = crate::inventory::rules::sell_price(card.rarity);
        let thing = card.thing.to_string();
        view! {
            <div class="notice confirm" role="alert" data-testid="confirm-sell">
                <p>{td_string!(l, inventory.confirm_last, name = card.name_in(l), n = price).to_string()}</p>
                <div class="actions">
                    <form method="post" action=SellCards::PATH>
                        <input type="hidden" name="thing" value=thing />
                        <input type="hidden" name="count" value="1" />
                        <input type="hidden" name="confirm" value="yes" />
                        <button type="submit" class="danger" data-testid="confirm-sell-button">{td_string!(l, inventory.confirm_sell)}</button>
                    </form>
                    <a href=back.clone() class="button secondary" data-testid="keep-it">{td_string!(l, inventory.keep_it)}</a>
                </div>
            </div>
        }
    });
    let tiles = stacks
        .into_iter()
        .map(|s| stack_tile(s, place, &back, l))
        .collect_view();
    let next_link = next.map(|n| {
        view! {
            <p><a rel="next" data-testid="next-page" href=address(place, category.as_deref(), sort, search.as_deref(), Some(&n))>{td_string!(l, inventory.next_page)}</a></p>
        }
    });
    view! {
        <section class="inventory">
            <header class="page-head">
                <h1>{title}</h1>
                <p class="actions" data-testid="feathers">
                    <strong>"🪶 "{feathers}{td_string!(l, inventory.feathers_unit)}</strong>
                    <a href="/shop">{td_string!(l, inventory.shop)}</a>
                    <a href="/trades">{td_string!(l, inventory.trades)}</a>
                </p>
            </header>
            {notice_view(notice)}
            {confirm_box}
            <nav aria-label=td_string!(l, inventory.places) class="tabs">{places}</nav>
            <details class="sets">
                <summary>{td_string!(l, inventory.sets_summary, held = held_all, of = of_all).to_string()}</summary>
                <ul class="set-list" data-testid="sets">{progress}</ul>
            </details>
            <nav aria-label=td_string!(l, inventory.categories) class="tabs" data-testid="category-tabs">{tabs}</nav>
            <form method="get" action="/inventory" class="search-form" data-testid="search">
                <input type="hidden" name="place" value=place.as_str() />
                <label class="field">{td_string!(l, inventory.search_words)}
                    <input type="search" name="q" maxlength="40" value=search.clone().unwrap_or_default() />
                    <span class="hint">{td_string!(l, inventory.search_hint)}</span>
                </label>
                <button type="submit">{td_string!(l, inventory.search)}</button>
            </form>
            <p>{sort_link}</p>
            {empty}
            <ul class="tiles" data-testid="cards">{tiles}</ul>
            {next_link}
        </section>
    }
}

fn stack_tile(stack: Stack, place: Place, back: &str, l: Locale) -> impl IntoView {
    let thing = stack.thing.to_string();
    let (thing2, thing3) = (thing.clone(), thing.clone());
    let link = format!("/cards/{thing}");
    let name = stack.name_in(l).to_owned();
    let to = match place {
        Place::Bag => td_string!(l, inventory.to_bank),
        Place::Bank => td_string!(l, inventory.to_bag),
    };
    let price = crate::inventory::rules::sell_price(stack.rarity);
    let sell_label = td_string!(l, inventory.sell_for, n = price).to_string();
    let rarity_class = rarity_class(stack.rarity);
    // The last one in the bag: the button goes to a step that asks first (a plain link-like
    // GET form, so it works without JavaScript); the server refuses it unconfirmed anyway.
    let sell = (place == Place::Bag).then(|| {
        if stack.qty == 1 {
            let (base, query) = back.split_once('?').unwrap_or((back, ""));
            let hidden = form_urlencoded_pairs(query)
                .into_iter()
                .filter(|(k, _)| k != "confirm")
                .map(|(k, v)| view! { <input type="hidden" name=k value=v /> })
                .collect_view();
            view! {
                <form method="get" action=base.to_owned()>
                    {hidden}
                    <input type="hidden" name="confirm" value=thing3 />
                    <button type="submit" class="secondary" data-testid="sell">{sell_label}</button>
                </form>
            }
            .into_any()
        } else {
            view! {
                <form method="post" action=SellCards::PATH>
                    <input type="hidden" name="thing" value=thing3 />
                    <input type="hidden" name="count" value="1" />
                    <button type="submit" class="secondary" data-testid="sell">{sell_label}</button>
                </form>
            }
            .into_any()
        }
    });
    view! {
        <li class="tile" data-testid="card" data-thing=thing.clone()>
            <div class="tile-head">
                <span class="emoji" aria-hidden="true">{stack.emoji}</span>
                <div>
                    <a class="name" href=link data-testid="card-name">{name}</a>
                    <div class="meta">
                        <span class=rarity_class>{stack.rarity.label(l)}</span>" "
                        {stack.category.label_in(l)}
                    </div>
                </div>
                <strong class="tile-count">"× "<span data-testid="card-qty">{stack.qty}</span></strong>
            </div>
            <div class="actions">
                <form method="post" action=MoveCards::PATH>
                    <input type="hidden" name="thing" value=thing2 />
                    <input type="hidden" name="count" value="1" />
                    <input type="hidden" name="from" value=place.as_str() />
                    <button type="submit" class="small" data-testid="move">{to}</button>
                </form>
                {sell}
            </div>
        </li>
    }
}

/// The classes of a rarity's label (the visual system's `.rarity`).
pub(crate) fn rarity_class(rarity: crate::inventory::model::Rarity) -> &'static str {
    use crate::inventory::model::Rarity;
    match rarity {
        Rarity::Common => "rarity",
        Rarity::Rare => "rarity rare",
        Rarity::Epic => "rarity epic",
        Rarity::Legendary => "rarity legendary",
    }
}

/// The pairs of a query string (as this page writes them: `%XX`-encoded, no `+`).
fn form_urlencoded_pairs(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (percent_decode(k), percent_decode(v)))
        .collect()
}

fn percent_decode(raw: &str) -> String {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&raw[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `/cards/<thing>`: a card, how many the player holds, and who might trade it.
#[component]
pub fn CardPage() -> impl IntoView {
    let l = crate::lang::locale();
    let params = use_params_map();
    let query = use_query_map();
    let card = Resource::<_, Base64Json>::new_with_options(
        move || {
            let q = query.read();
            (
                params.read().get("thing").unwrap_or_default(),
                q.get("note"),
                q.get("nsig"),
            )
        },
        |(thing, note, nsig)| read_card(thing, note, nsig),
        false,
    );
    view! {
        <FormError paths=ACTIONS />
        <Suspense fallback=move || view! { <p class="muted">{td_string!(l, inventory.finding_card)}</p> }>
            {move || Suspend::new(async move {
                match card.await {
                    Ok(view) => Either::Left(view! { <CardDetail view l /> }),
                    Err(err) => Either::Right(view! {
                        <Title text=td_string!(l, inventory.no_such_card_title).to_string() />
                        <section class="hero"><h1>{td_string!(l, inventory.cards)}</h1><p class="error" role="alert" data-testid="card-error">{err.localized()}</p></section>
                    }),
                }
            })}
        </Suspense>
    }
}

#[component]
fn CardDetail(view: CardView, l: Locale) -> impl IntoView {
    let CardView {
        card,
        mine,
        holders,
        notice,
    } = view;
    let signed_in = mine.is_some();
    let thing = card.thing.to_string();
    let price = crate::inventory::rules::sell_price(card.rarity);
    let held = match mine {
        Some((bag, bank)) => {
            let (t1, t2, t3) = (thing.clone(), thing.clone(), thing.clone());
            view! {
                <p data-testid="card-held" data-bag=bag data-bank=bank>
                    {td!(l, inventory.held, bag = move || bag, bank = move || bank, <strong> = |children: ChildrenFn| view! { <strong>{children()}</strong> })}
                </p>
                <div class="actions">
                    {(bag > 0).then(|| view! {
                        <form method="post" action=MoveCards::PATH>
                            <input type="hidden" name="thing" value=t1 />
                            <input type="hidden" name="count" value="1" />
                            <input type="hidden" name="from" value="bag" />
                            <button type="submit" class="small" data-testid="move">{td_string!(l, inventory.to_bank)}</button>
                        </form>
                    })}
                    {(bank > 0).then(|| view! {
                        <form method="post" action=MoveCards::PATH>
                            <input type="hidden" name="thing" value=t2 />
                            <input type="hidden" name="count" value="1" />
                            <input type="hidden" name="from" value="bank" />
                            <button type="submit" class="small" data-testid="move-back">{td_string!(l, inventory.to_bag)}</button>
                        </form>
                    })}
                    {(bag > 1).then(|| view! {
                        <form method="post" action=SellCards::PATH>
                            <input type="hidden" name="thing" value=t3.clone() />
                            <input type="hidden" name="count" value="1" />
                            <button type="submit" class="secondary" data-testid="sell">{td_string!(l, inventory.sell_for, n = price).to_string()}</button>
                        </form>
                    })}
                    {(bag == 1).then(|| view! {
                        <form method="get" action="/inventory">
                            <input type="hidden" name="place" value="bag" />
                            <input type="hidden" name="confirm" value=t3.clone() />
                            <button type="submit" class="secondary" data-testid="sell">{td_string!(l, inventory.sell_for, n = price).to_string()}</button>
                        </form>
                    })}
                </div>
            }
            .into_any()
        }
        None => {
            view! { <p class="muted">{td_string!(l, inventory.start_collecting)}</p> }.into_any()
        }
    };
    let empty_holders = holders.is_empty();
    // Two holders of one name are told apart.
    let names = crate::ui::told_apart(
        &holders
            .iter()
            .map(|h| (&h.id, h.name.as_str()))
            .collect::<Vec<_>>(),
    );
    let rows = holders
        .into_iter()
        .zip(names)
        .map(|(holder, name)| {
            // The offer form with this card picked from the holder's bag.
            let form = signed_in.then(|| {
                let href = format!(
                    "/trades?with={}&{}=1",
                    holder.id,
                    urlencode(&format!("want[{thing}]"))
                );
                view! {
                    <a class="button small" href=href data-testid="offer-for-one">{td_string!(l, trades.offer_this_card)}</a>
                }
            });
            view! {
                <li class="tile" data-testid="holder" data-player=holder.id.to_string()>
                    <span>{td_string!(l, inventory.holder_has, name = name.as_str(), qty = holder.qty).to_string()}</span>
                    {form}
                </li>
            }
        })
        .collect_view();
    view! {
        <Title text=card.name_in(l).to_owned() />
        <section class="card-detail">
            <header class="page-head">
                <h1><span class="emoji" aria-hidden="true">{card.emoji.clone()}</span>" "{card.name_in(l).to_owned()}</h1>
                <p class="actions">
                    <a href="/inventory">{td_string!(l, inventory.your_cards)}</a>
                    <a href="/trades">{td_string!(l, inventory.trades)}</a>
                </p>
            </header>
            {notice_view(notice)}
            <div class="tile card-tile">
                <div class="meta">
                    <span class=rarity_class(card.rarity)>{card.rarity.label(l)}</span>" "
                    {card.category.label_in(l)}" · "{td_string!(l, inventory.sells_back, n = price).to_string()}
                </div>
                {held}
            </div>
            <section class="section">
                <h2>{td_string!(l, inventory.who_might_trade)}</h2>
                <p class="hint">{td_string!(l, inventory.who_might_trade_help)}</p>
                {empty_holders.then(|| view! { <p class="empty" data-testid="no-holders">{td_string!(l, inventory.nobody_spare)}</p> })}
                <ul class="tiles" data-testid="holders">{rows}</ul>
            </section>
        </section>
    }
}
