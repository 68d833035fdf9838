//! The page for an unknown address, served with status 404.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

#[component]
pub fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(http::StatusCode::NOT_FOUND);
    }
    view! {
        <Title text="Not found" />
        <section class="hero">
            <h1>"Nothing flies here"</h1>
            <p>"That page does not exist. "<A href="/">"Go home"</A></p>
        </section>
    }
}
