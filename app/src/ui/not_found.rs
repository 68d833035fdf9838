//! The page for an unknown address, served with status 404.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

use crate::i18n::td_string;

#[component]
pub fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(http::StatusCode::NOT_FOUND);
    }
    let l = crate::lang::locale();
    view! {
        <Title text=td_string!(l, common.not_found.title).to_string() />
        <section class="hero">
            <h1>{td_string!(l, common.not_found.heading).to_string()}</h1>
            <p>
                {td_string!(l, common.not_found.text).to_string()}
                <A href="/">{td_string!(l, common.not_found.go_home).to_string()}</A>
            </p>
        </section>
    }
}
