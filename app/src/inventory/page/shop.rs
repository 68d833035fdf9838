//! The shop's page: what it sells, today's stock, the wallet, a buy form per item.

use leptos::either::Either;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;

use super::ACTIONS;
use crate::codec::Base64Json;
use crate::i18n::td_string;
use crate::inventory::api::Buy;
use crate::ui::forms::FormError;

/// `/shop`.
#[component]
pub fn ShopPage() -> impl IntoView {
    let l = crate::lang::locale();
    let shop = Resource::<_, Base64Json>::new_with_options(
        || (),
        |_| crate::inventory::api::shop_view(),
        false,
    );
    view! {
        <Title text=td_string!(l, inventory.shop).to_string() />
        <FormError paths=ACTIONS />
        <Suspense fallback=move || view! { <p class="muted">{td_string!(l, inventory.opening_shop)}</p> }>
            {move || Suspend::new(async move {
                match shop.await {
                    Ok((items, feathers)) => Either::Left(view! {
                        <section class="shop">
                            <h1>{td_string!(l, inventory.shop)}</h1>
                            <p data-testid="feathers">"🪶 "{feathers}{td_string!(l, inventory.feathers_unit)}" · "<a href="/inventory">{td_string!(l, inventory.your_cards)}</a></p>
                            <ul class="cards">
                                {items.into_iter().map(|item| {
                                    let left = item.left.map(|n| format!(" · {}", td_string!(l, inventory.left_today, n = n)));
                                    let name = item.name_in(l);
                                    let sold_out = item.left == Some(0);
                                    let id = item.id.clone();
                                    view! {
                                        <li data-testid="shop-item" data-item=id>
                                            <span class="emoji" aria-hidden="true">{item.emoji}</span>" "
                                            <strong>{name}</strong>" · "{item.price}{td_string!(l, inventory.feathers_unit)}{left}
                                            <form method="post" action=Buy::PATH class="inline">
                                                <input type="hidden" name="item" value=item.id />
                                                <button type="submit" disabled=sold_out data-testid="buy">{td_string!(l, inventory.buy)}</button>
                                            </form>
                                        </li>
                                    }
                                }).collect_view()}
                            </ul>
                        </section>
                    }),
                    Err(err) => Either::Right(view! {
                        <section class="hero"><h1>{td_string!(l, inventory.shop)}</h1><p class="error" role="alert">{err.localized()}</p></section>
                    }),
                }
            })}
        </Suspense>
    }
}
