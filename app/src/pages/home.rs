//! The home page: what the game is, and the way in.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

#[component]
pub fn HomePage() -> impl IntoView {
    view! {
        <Title text="" />
        <section class="hero">
            <h1>"Kauwa udd! "<span lang="hi">"कौआ उड़!"</span></h1>
            <p class="lead">
                "A thing flashes up. Tap " <strong>"Udd!"</strong>
                " only if it can fly, faster than your friends. Crow? Tap. Elephant? Hold still."
            </p>
            <p>
                <A href="/things" attr:class="button">"See every thing and its ruling"</A>
            </p>
        </section>
    }
}
