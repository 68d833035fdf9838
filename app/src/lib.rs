//! Udd's Leptos application: the shell, the routes and the pages, shared by the server (which
//! renders them, feature `ssr`) and the browser bundle (which hydrates them, feature `hydrate`).

mod browser;
pub mod catalog;
pub mod codec;
pub mod error;
pub mod game;
pub mod identity;
pub mod live;
pub mod lobby;
mod pages;
pub mod play;
pub mod players;
pub mod rooms;

#[cfg(feature = "ssr")]
pub mod auth;
#[cfg(feature = "ssr")]
pub mod data;
#[cfg(feature = "ssr")]
pub mod engine;
#[cfg(feature = "ssr")]
pub mod http;
#[cfg(feature = "ssr")]
pub mod session;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, Link, Meta, MetaTags, Stylesheet, Title};
use leptos_router::components::{Route, Router, Routes, A};
use leptos_router::{ParamSegment, SsrMode, StaticSegment};

use pages::{AccountPage, HomePage, NotFound, RoomPage, ThingsPage};

/// The HTML document around the app, rendered on the server.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    view! {
        <!DOCTYPE html>
        <html lang="en">
            <head>
                <meta charset="utf-8" />
                <meta name="viewport" content="width=device-width, initial-scale=1" />
                <AutoReload options=options.clone() />
                <HydrationScripts options />
                <MetaTags />
            </head>
            <body>
                <App />
            </body>
        </html>
    }
}

/// The document title for a page's own title. leptos_meta writes the server's `<title>` without
/// escaping it, so the server escapes here, once, for every page; the browser sets
/// `document.title`, which is text and needs none.
fn page_title(page: String) -> String {
    let title = if page.is_empty() {
        "Udd".to_owned()
    } else {
        format!("{page} · Udd")
    };
    #[cfg(feature = "ssr")]
    let title = html_escape::encode_text(&title).into_owned();
    title
}

#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    // Effects run only in the browser: the attribute flips once hydration has wired the page.
    let hydrated = RwSignal::new(false);
    Effect::new(move |_| hydrated.set(true));

    view! {
        <Stylesheet id="leptos" href="/pkg/udd.css" />
        <Link rel="icon" href="/favicon.svg" type_="image/svg+xml" />
        <Meta name="description" content="Udd: the Kauwa Udd reaction party game. Tap only if it flies." />
        <Meta name="theme-color" content="#1d3557" />
        <Title formatter=page_title />
        <Router>
            <div class="app" data-hydrated=move || hydrated.get().to_string()>
                <header class="topbar">
                    <A href="/" attr:class="brand">
                        <span aria-hidden="true">"🐦‍⬛ "</span>
                        "Udd"
                    </A>
                    <nav aria-label="Main">
                        <A href="/things">"Things"</A>
                        <A href="/me">"You"</A>
                    </nav>
                </header>
                <main>
                    <Routes fallback=NotFound>
                        <Route path=StaticSegment("") view=HomePage ssr=SsrMode::Async />
                        <Route path=(StaticSegment("r"), ParamSegment("code")) view=RoomPage ssr=SsrMode::Async />
                        <Route path=StaticSegment("things") view=ThingsPage ssr=SsrMode::Async />
                        <Route path=StaticSegment("me") view=AccountPage ssr=SsrMode::Async />
                    </Routes>
                </main>
            </div>
        </Router>
    }
}
