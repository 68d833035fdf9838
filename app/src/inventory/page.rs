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
use crate::inventory::api::{
    my_sets, read_card, read_inventory, AcceptOffer, Buy, CardView, CloseOffer, InventoryView,
    MakeOffer, MoveCards, SellCards, Sort,
};
use crate::inventory::model::{Place, Stack};
use crate::lang::Locale;
use crate::ui::forms::FormError;

mod market;
pub use market::{offer_link, OffersWaiting, ShopPage, TradesPage};

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

fn urlencode(raw: &str) -> String {
    raw.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

const ACTIONS: &[&str] = &[
    MoveCards::PATH,
    SellCards::PATH,
    Buy::PATH,
    MakeOffer::PATH,
    AcceptOffer::PATH,
    CloseOffer::PATH,
];

/// `/inventory`.
#[component]
pub fn InventoryPage() -> impl IntoView {
    let l = crate::lang::locale();
    let query = use_query_map();
    let key = move || {
        let q = query.read();
        (
            q.get("place"),
            q.get("category"),
            q.get("sort"),
            q.get("q"),
            q.get("after"),
        )
    };
    let page = Resource::<_, Base64Json>::new_with_options(
        key,
        |(place, category, sort, q, after)| read_inventory(place, category, sort, q, after),
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
            view! { <a href=address(p, None, Sort::Category, None, None) aria-current=current>{label}</a> }
        })
        .collect_view();
    let tabs = std::iter::once(None)
        .chain(Category::ALL.into_iter().map(Some))
        .map(|c| {
            let slug = c.map(Category::slug);
            let current = (slug == cat.as_deref() && search.is_none()).then_some("page");
            let label = c.map_or_else(|| td_string!(l, inventory.all).to_owned(), |c| c.label_in(l));
            let progress = c.and_then(|c| sets.iter().find(|s| s.category == c)).map(|s| {
                format!(" {}/{}", s.held, s.of)
            });
            view! {
                <a href=address(place, slug, Sort::Category, None, None) aria-current=current data-testid="category-tab">
                    {label}{progress}
                </a>
            }
        })
        .collect_view();
    let sort_link = match sort {
        Sort::Category => view! { <a href=address(place, None, Sort::Name, None, None) data-testid="sort-toggle">{td_string!(l, inventory.sort_by_name)}</a> }.into_any(),
        Sort::Name => view! { <a href=address(place, None, Sort::Category, None, None) data-testid="sort-toggle">{td_string!(l, inventory.sort_by_category)}</a> }.into_any(),
    };
    let empty = stacks.is_empty();
    let rows = stacks
        .into_iter()
        .map(|s| stack_row(s, place, l))
        .collect_view();
    let next_link = next.map(|n| {
        view! {
            <p><a rel="next" data-testid="next-page" href=address(place, category.as_deref(), sort, search.as_deref(), Some(&n))>{td_string!(l, inventory.next_page)}</a></p>
        }
    });
    view! {
        <section class="inventory">
            <h1>{title}</h1>
            <p data-testid="feathers">"🪶 "{feathers}{td_string!(l, inventory.feathers_unit)}" · "<a href="/shop">{td_string!(l, inventory.shop)}</a>" · "<a href="/trades">{td_string!(l, inventory.trades)}</a></p>
            <nav aria-label=td_string!(l, inventory.places) class="tabs">{places}</nav>
            <nav aria-label=td_string!(l, inventory.categories) class="tabs" data-testid="category-tabs">{tabs}</nav>
            <form method="get" action="/inventory" class="inline" data-testid="search">
                <input type="hidden" name="place" value=place.as_str() />
                <label>{td_string!(l, inventory.name_starts_with)}" "<input type="search" name="q" maxlength="40" value=search.clone().unwrap_or_default() /></label>
                <button type="submit">{td_string!(l, inventory.search)}</button>
            </form>
            <p>{sort_link}</p>
            {empty.then(|| view! { <p class="muted" data-testid="no-cards">{td_string!(l, inventory.no_cards)}</p> })}
            <ul class="cards" data-testid="cards">{rows}</ul>
            {next_link}
        </section>
    }
}

fn stack_row(stack: Stack, place: Place, l: Locale) -> impl IntoView {
    let thing = stack.thing.to_string();
    let (thing2, thing3) = (thing.clone(), thing.clone());
    let link = format!("/cards/{thing}");
    let name = stack.name_in(l).to_owned();
    let to = match place {
        Place::Bag => td_string!(l, inventory.to_bank),
        Place::Bank => td_string!(l, inventory.to_bag),
    };
    view! {
        <li class="card-stack" data-testid="card" data-thing=thing.clone()>
            <span class="emoji" aria-hidden="true">{stack.emoji}</span>
            " "<strong><a href=link data-testid="card-name">{name}</a></strong>
            " × "<span data-testid="card-qty">{stack.qty}</span>
            " · "{stack.category.label_in(l)}" · "{stack.rarity.label(l)}
            <form method="post" action=MoveCards::PATH class="inline">
                <input type="hidden" name="thing" value=thing2 />
                <input type="hidden" name="count" value="1" />
                <input type="hidden" name="from" value=place.as_str() />
                <button type="submit" data-testid="move">{to}</button>
            </form>
            {(place == Place::Bag).then(|| view! {
                <form method="post" action=SellCards::PATH class="inline">
                    <input type="hidden" name="thing" value=thing3 />
                    <input type="hidden" name="count" value="1" />
                    <button type="submit" data-testid="sell">{td_string!(l, inventory.sell_one)}</button>
                </form>
            })}
        </li>
    }
}

/// `/cards/<thing>`: a card, how many the player holds, and who might trade it.
#[component]
pub fn CardPage() -> impl IntoView {
    let l = crate::lang::locale();
    let params = use_params_map();
    let card = Resource::<_, Base64Json>::new_with_options(
        move || params.read().get("thing").unwrap_or_default(),
        read_card,
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
    } = view;
    let signed_in = mine.is_some();
    let held = match mine {
        Some((bag, bank)) => view! {
            <p data-testid="card-held" data-bag=bag data-bank=bank>
                {td!(l, inventory.held, bag = move || bag, bank = move || bank, <strong> = |children: ChildrenFn| view! { <strong>{children()}</strong> })}
            </p>
        }
        .into_any(),
        None => view! { <p class="muted">{td_string!(l, inventory.start_collecting)}</p> }.into_any(),
    };
    let thing = card.thing.to_string();
    let rows = holders
        .into_iter()
        .map(|holder| {
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
                <li data-testid="holder" data-player=holder.id.to_string()>
                    {td_string!(l, inventory.holder_has, name = holder.name.as_str(), qty = holder.qty).to_string()}" "{form}
                </li>
            }
        })
        .collect_view();
    view! {
        <Title text=card.name_in(l).to_owned() />
        <section class="card-detail">
            <h1><span class="emoji" aria-hidden="true">{card.emoji.clone()}</span>" "{card.name_in(l).to_owned()}</h1>
            <p>{card.category.label_in(l)}" · "{card.rarity.label(l)}" · "{td_string!(l, inventory.sells_back, n = crate::inventory::rules::sell_price(card.rarity)).to_string()}</p>
            {held}
            <h2>{td_string!(l, inventory.who_might_trade)}</h2>
            <p class="muted">{td_string!(l, inventory.who_might_trade_help)}</p>
            <ul data-testid="holders">{rows}</ul>
            <p><a href="/inventory">{td_string!(l, inventory.your_cards)}</a>" · "<a href="/trades">{td_string!(l, inventory.trades)}</a></p>
        </section>
    }
}
