//! The HTML document around the app (rendered on the server), the top bar, and the routes: the
//! one place that knows every feature's pages.

use crate::i18n::td_string;
use crate::{
    bundle, catalog, daily, decks, game, identity, inventory, lang, leaderboards, live, profiles,
    reports, rooms, ui,
};
use leptos::prelude::*;
use leptos_meta::{provide_meta_context, Link, Meta, MetaTags, Title};
use leptos_router::components::{Route, Router, Routes, A};
use leptos_router::{ParamSegment, SsrMode, StaticSegment};

use catalog::things_page::ThingsPage;
use daily::daily_page::{DailyPage, DayPage, FlownPage};
use decks::deck_pages::{DeckPage, DecksPage, EditDeckPage, NewDeckPage};
use game::match_page::MatchPage;
use game::matches_page::MatchesPage;
use identity::account_page::AccountPage;
use inventory::inventory_page::{CardPage, InventoryPage};
use inventory::shop_page::ShopPage;
use inventory::trades_page::TradesPage;
use leaderboards::boards_page::{BoardPage, BoardsIndex, RoomBoardPage};
use live::room_page::RoomPage;
use live::screen_page::ScreenPage;
use profiles::profile_page::ProfilePage;
use reports::report_page::{ReportPage, RoomReportPage};
use reports::review_page::ReviewPage;
use rooms::home_page::HomePage;
use ui::not_found::NotFound;

/// The HTML document around the app, rendered on the server.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    use leptos_i18n::Locale as _;
    let lang = lang::locale().as_str();
    view! {
        <!DOCTYPE html>
        <html lang=lang>
            <head>
                <meta charset="utf-8" />
                <meta name="viewport" content="width=device-width, initial-scale=1" />
                <AutoReload options=options.clone() />
                <link rel="stylesheet" href=format!("/{}/{}", options.site_pkg_dir, bundle::Bundle::of(&options).css) />
                <IslandScripts options />
                <MetaTags />
            </head>
            <body>
                <App />
            </body>
        </html>
    }
}

/// What loads the islands, in place of Leptos's `HydrationScripts`: that one fetches and starts
/// the wasm on every page; this one looks for an island first, so a page with nothing
/// interactive loads no wasm and no JavaScript beyond this line. On a page with islands it
/// fetches the bundle's JavaScript and wasm side by side, starts them, and wakes each island.
/// Either way it then sets `data-hydrated="true"` on the app: the page is as interactive as it
/// will get (the browser tests wait for it).
#[component]
fn IslandScripts(options: LeptosOptions) -> impl IntoView {
    let nonce = leptos::nonce::use_nonce();
    let pkg = format!("/{}", options.site_pkg_dir);
    let bundle = bundle::Bundle::of(&options);
    // Each lazy island's chunks by the island's name (`LiveRoom`), as a JSON object.
    let chunks = bundle.islands();
    let script = format!(
        "{}({pkg:?},{:?},{:?},{},{})",
        include_str!("islands.js").trim_end().trim_end_matches(';'),
        bundle.js,
        bundle.wasm,
        serde_json::to_string(&bundle.link).unwrap_or_else(|_| "null".into()),
        serde_json::to_string(&chunks).unwrap_or_else(|_| "{}".into()),
    );
    view! { <script type="module" nonce=nonce>{script}</script> }
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
    // Who is signed in is read once per page, however many parts of it ask.
    #[cfg(feature = "ssr")]
    provide_context(identity::session::SessionMemo::default());
    let l = lang::locale();

    view! {
        <Link rel="icon" href="/favicon.svg" type_="image/svg+xml" />
        <Meta name="description" content=td_string!(l, common.description).to_string() />
        <Meta name="theme-color" content="#1d3557" />
        <Title formatter=page_title />
        <Router>
            <div class="app" data-hydrated="false">
                <header class="topbar">
                    <A href="/" attr:class="brand">
                        <span aria-hidden="true">"🐦‍⬛ "</span>
                        "Udd"
                    </A>
                    <nav aria-label=td_string!(l, common.nav_label).to_string()>
                        <A href="/lb">{td_string!(l, common.nav_boards).to_string()}</A>
                        <A href="/matches">{td_string!(l, common.nav_matches).to_string()}</A>
                        <A href="/things">{td_string!(l, common.nav_things).to_string()}</A>
                        <A href="/inventory">{td_string!(l, common.nav_cards).to_string()}</A>
                        <A href="/shop">{td_string!(l, common.nav_shop).to_string()}</A>
                        <A href="/trades">{td_string!(l, common.nav_trades).to_string()}<inventory::trades_page::OffersWaiting /></A>
                        <A href="/me">{td_string!(l, common.nav_you).to_string()}</A>
                    </nav>
                    <ui::language::LanguageToggle />
                </header>
                <main>
                    <Routes fallback=NotFound>
                        <Route path=StaticSegment("") view=HomePage ssr=SsrMode::Async />
                        <Route path=(StaticSegment("r"), ParamSegment("code")) view=RoomPage ssr=SsrMode::Async />
                        <Route path=StaticSegment("things") view=ThingsPage ssr=SsrMode::Async />
                        <Route path=(StaticSegment("r"), ParamSegment("code"), StaticSegment("lb")) view=RoomBoardPage ssr=SsrMode::Async />
                        <Route path=(StaticSegment("r"), ParamSegment("code"), StaticSegment("screen")) view=ScreenPage ssr=SsrMode::Async />
                        <Route path=(StaticSegment("r"), ParamSegment("code"), StaticSegment("m"), ParamSegment("first")) view=MatchPage ssr=SsrMode::Async />
                        <Route path=(StaticSegment("m"), ParamSegment("room"), ParamSegment("first")) view=MatchPage ssr=SsrMode::Async />
                        <Route path=StaticSegment("matches") view=MatchesPage ssr=SsrMode::Async />
                        <Route path=StaticSegment("daily") view=DailyPage ssr=SsrMode::Async />
                        <Route path=(StaticSegment("daily"), ParamSegment("day")) view=DayPage ssr=SsrMode::Async />
                        <Route path=(StaticSegment("daily"), ParamSegment("day"), ParamSegment("id")) view=FlownPage ssr=SsrMode::Async />
                        <Route path=StaticSegment("lb") view=BoardsIndex ssr=SsrMode::Async />
                        <Route path=(StaticSegment("lb"), ParamSegment("metric"), ParamSegment("period"), ParamSegment("scope")) view=BoardPage ssr=SsrMode::Async />
                        <Route path=StaticSegment("me") view=AccountPage ssr=SsrMode::Async />
                        <Route path=(StaticSegment("report"), ParamSegment("id")) view=ReportPage ssr=SsrMode::Async />
                        <Route path=(StaticSegment("r"), ParamSegment("code"), StaticSegment("report")) view=RoomReportPage ssr=SsrMode::Async />
                        <Route path=StaticSegment("operator") view=ReviewPage ssr=SsrMode::Async />
                        <Route path=(StaticSegment("p"), ParamSegment("id")) view=ProfilePage ssr=SsrMode::Async />
                        <Route path=StaticSegment("inventory") view=InventoryPage ssr=SsrMode::Async />
                        <Route path=StaticSegment("shop") view=ShopPage ssr=SsrMode::Async />
                        <Route path=StaticSegment("trades") view=TradesPage ssr=SsrMode::Async />
                        <Route path=(StaticSegment("cards"), ParamSegment("thing")) view=CardPage ssr=SsrMode::Async />
                        <Route path=StaticSegment("decks") view=DecksPage ssr=SsrMode::Async />
                        <Route path=(StaticSegment("decks"), StaticSegment("new")) view=NewDeckPage ssr=SsrMode::Async />
                        <Route path=(StaticSegment("d"), ParamSegment("code")) view=DeckPage ssr=SsrMode::Async />
                        <Route path=(StaticSegment("d"), ParamSegment("code"), StaticSegment("edit")) view=EditDeckPage ssr=SsrMode::Async />
                    </Routes>
                </main>
            </div>
        </Router>
    }
}
