//! The shop's page: what it sells, today's stock, the wallet, a buy form per item.

use leptos::either::Either;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::codec::Base64Json;
use crate::i18n::td_string;
use crate::ids::Look;
use crate::inventory::api::{Buy, ShopPageView, WearLook};
use crate::inventory::inventory_page::{notice_view, rarity_class, ACTIONS};
use crate::inventory::model::{ShopItem, ShopKind};
use crate::lang::Locale;
use crate::ui::forms::FormError;

/// `/shop`: the wallet, then packs and looks as tiles. Buy is disabled (with how many feathers
/// are missing) when the player cannot afford it; after a pack, its cards; a look owned is
/// marked and can be worn.
#[component]
pub fn ShopPage() -> impl IntoView {
    let l = crate::lang::locale();
    let query = use_query_map();
    let shop = Resource::<_, Base64Json>::new_with_options(
        move || {
            let q = query.read();
            (q.get("note"), q.get("nsig"))
        },
        |(note, nsig)| crate::inventory::api::shop_view(note, nsig),
        false,
    );
    view! {
        <Title text=td_string!(l, inventory.shop).to_string() />
        <FormError paths=ACTIONS />
        <Suspense fallback=move || view! { <p class="muted">{td_string!(l, inventory.opening_shop)}</p> }>
            {move || Suspend::new(async move {
                match shop.await {
                    Ok(view) => Either::Left(view! { <Shop view l /> }),
                    Err(err) => Either::Right(view! {
                        <section class="hero"><h1>{td_string!(l, inventory.shop)}</h1><p class="error" role="alert">{err.localized()}</p></section>
                    }),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Shop(view: ShopPageView, l: Locale) -> impl IntoView {
    let ShopPageView {
        items,
        feathers,
        signed_in,
        owned,
        wearing,
        notice,
        opened,
    } = view;
    let opened = (!opened.is_empty()).then(|| {
        let tiles = opened
            .into_iter()
            .map(|card| {
                view! {
                    <li class="tile" data-testid="opened-card" data-thing=card.thing.to_string()>
                        <div class="tile-head">
                            <span class="emoji" aria-hidden="true">{card.emoji.clone()}</span>
                            <div>
                                <a class="name" href=format!("/cards/{}", card.thing)>{card.name_in(l).to_owned()}</a>
                                <div class="meta"><span class=rarity_class(card.rarity)>{card.rarity.label(l)}</span>" "{card.category.label_in(l)}</div>
                            </div>
                        </div>
                    </li>
                }
            })
            .collect_view();
        view! {
            <section class="section" data-testid="opened-pack">
                <h2>{td_string!(l, inventory.pack_gave)}</h2>
                <ul class="tiles">{tiles}</ul>
                <p><a href="/inventory">{td_string!(l, inventory.your_cards)}</a></p>
            </section>
        }
    });
    let (packs, looks): (Vec<ShopItem>, Vec<ShopItem>) = items
        .into_iter()
        .partition(|i| matches!(i.kind, ShopKind::Pack { .. }));
    let tile = move |item: ShopItem| {
        let owns = owned.contains(&item.id);
        let look = Look::parse(&item.id);
        let worn = look.is_some() && look == wearing;
        item_tile(item, feathers, signed_in, owns, worn, l)
    };
    let pack_tiles = packs.into_iter().map(tile.clone()).collect_view();
    let look_tiles = looks.into_iter().map(tile).collect_view();
    view! {
        <section class="shop">
            <header class="page-head">
                <h1>{td_string!(l, inventory.shop)}</h1>
                <p class="actions" data-testid="feathers" data-feathers=feathers>
                    <strong>"🪶 "{feathers}{td_string!(l, inventory.feathers_unit)}</strong>
                    <a href="/inventory">{td_string!(l, inventory.your_cards)}</a>
                </p>
            </header>
            {notice_view(notice)}
            {(!signed_in).then(|| view! { <p class="empty">{td_string!(l, inventory.sign_in_to_buy)}</p> })}
            {opened}
            <section class="section">
                <h2>{td_string!(l, inventory.packs)}</h2>
                <ul class="tiles" data-testid="packs">{pack_tiles}</ul>
            </section>
            <section class="section">
                <h2>{td_string!(l, inventory.looks)}</h2>
                <p class="hint">{td_string!(l, inventory.looks_help)}</p>
                <ul class="tiles" data-testid="looks">{look_tiles}</ul>
            </section>
        </section>
    }
}

fn item_tile(
    item: ShopItem,
    feathers: u64,
    signed_in: bool,
    owns: bool,
    worn: bool,
    l: Locale,
) -> impl IntoView {
    let name = item.name_in(l);
    let sold_out = item.left == Some(0);
    let short = item.price.saturating_sub(feathers);
    let left = item
        .left
        .filter(|n| *n > 0)
        .map(|n| td_string!(l, inventory.left_today, n = n).to_string());
    let id = item.id.clone();
    let look = Look::parse(&item.id);
    let class = if owns { "tile owned" } else { "tile" };
    let action = if owns {
        // A look owned: wear it, or take it off.
        let (label, value, test_id) = if worn {
            (td_string!(l, inventory.take_off), String::new(), "take-off")
        } else {
            (td_string!(l, inventory.wear), item.id.clone(), "wear")
        };
        view! {
            <p class="meta">
                <span class="badge" data-testid="owned">{td_string!(l, inventory.owned)}</span>" "
                {worn.then(|| view! { <span class="badge worn-badge" data-testid="wearing">{td_string!(l, inventory.wearing)}</span> })}
            </p>
            <form method="post" action=WearLook::PATH>
                <input type="hidden" name="look" value=value />
                <button type="submit" class=if worn { "secondary" } else { "" } data-testid=test_id>{label}</button>
            </form>
        }
        .into_any()
    } else {
        let cannot = !signed_in || sold_out || short > 0;
        let reason = if sold_out {
            Some(td_string!(l, inventory.sold_out).to_string())
        } else if signed_in && short > 0 {
            Some(td_string!(l, inventory.need_more, n = short).to_string())
        } else {
            None
        };
        let reason_id = format!("why-{}", item.id);
        view! {
            <form method="post" action=Buy::PATH>
                <input type="hidden" name="item" value=item.id.clone() />
                <button type="submit" disabled=cannot aria-describedby=reason.as_ref().map(|_| reason_id.clone()) data-testid="buy">
                    {td_string!(l, inventory.buy)}" · 🪶 "{item.price}
                </button>
            </form>
            {reason.map(|r| view! { <p class="hint" id=reason_id data-testid="buy-reason">{r}</p> })}
        }
        .into_any()
    };
    view! {
        <li class=class data-testid="shop-item" data-item=id>
            <div class="tile-head">
                <span class=look.map_or("emoji".to_owned(), |l| format!("emoji avatar worn {}", l.id())) aria-hidden="true">{item.emoji}</span>
                <div>
                    <span class="name">{name}</span>
                    <div class="meta" data-testid="price">"🪶 "{item.price}{left.map(|l| format!(" · {l}"))}</div>
                </div>
            </div>
            <div class="actions">{action}</div>
        </li>
    }
}
