//! The gallery on `/decks`: public decks most played this week, of all time, or newest, in one
//! language or all, a page at a time; or those whose title starts with the words searched.
//! Drawn by the server with links and a plain search form: no island.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

use crate::codec::Base64Json;
use crate::decks::api::deck_path;
use crate::decks::model::{DeckLang, GalleryDeck, GalleryOrder};
use crate::error::AppError;
use crate::i18n::td_string;
use crate::lang::Locale;

/// The longest search the gallery takes, in characters (a deck's title is at most 60).
pub const SEARCH_MAX: usize = 60;

/// A page of the gallery and the cursor of the next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GalleryView {
    pub decks: Vec<GalleryDeck>,
    pub next: Option<String>,
}

/// A page of the gallery: decks whose title starts with `q` when it is given; else in order
/// `by` (this week's plays by default), in `lang` (every language: none), below `after`.
#[server(endpoint = "decks/gallery")]
pub async fn read_gallery(
    by: Option<GalleryOrder>,
    lang: Option<DeckLang>,
    q: Option<String>,
    after: Option<String>,
) -> Result<GalleryView, AppError> {
    crate::error::answer("read_gallery", async move {
        let db = expect_context::<crate::store::Db>();
        let l = crate::lang::locale();
        let too_long = |text: &str, max: usize| text.chars().count() > max;
        if q.as_deref().is_some_and(|q| too_long(q, SEARCH_MAX))
            || after.as_deref().is_some_and(|a| too_long(a, 40))
        {
            return Err(AppError::BadRequest(
                td_string!(l, decks.gallery.too_long, max = SEARCH_MAX).to_string(),
            ));
        }
        if let Some(q) = q.filter(|q| !q.trim().is_empty()) {
            let decks = db.decks().search(&q).await?;
            return Ok(GalleryView { decks, next: None });
        }
        let week = crate::decks::model::week_label(crate::store::epoch_millis());
        let order = by.unwrap_or_default();
        let (decks, next) = db
            .decks()
            .gallery(order, lang, &week, after.as_deref())
            .await?;
        Ok(GalleryView { decks, next })
    })
    .await
}

/// An address of the gallery.
fn href(by: GalleryOrder, lang: Option<DeckLang>, after: Option<&str>) -> String {
    let mut href = format!("/decks?by={}", by.as_str());
    if let Some(lang) = lang {
        href.push_str(&format!("&lang={}", lang.as_str()));
    }
    if let Some(after) = after {
        // A cursor is digits, letters and `#`.
        href.push_str(&format!("&after={}", after.replace('#', "%23")));
    }
    href
}

fn lang_name(lang: Option<DeckLang>, l: Locale) -> String {
    match lang {
        None => td_string!(l, decks.gallery.lang_all).to_string(),
        Some(DeckLang::En) => td_string!(l, decks.pages.lang_en).to_string(),
        Some(DeckLang::Hi) => td_string!(l, decks.pages.lang_hi).to_string(),
        Some(DeckLang::Both) => td_string!(l, decks.pages.lang_both).to_string(),
    }
}

/// The gallery, as the address asks for it.
#[component]
pub fn Gallery() -> impl IntoView {
    let l = crate::lang::locale();
    let query = use_query_map();
    let asked = query.with_untracked(|q| {
        (
            q.get("by").as_deref().and_then(GalleryOrder::parse),
            q.get("lang").as_deref().and_then(DeckLang::parse),
            q.get("q").filter(|q| !q.trim().is_empty()),
            q.get("after"),
        )
    });
    let (by, lang, searched, after) = asked.clone();
    let page = Resource::<_, Base64Json>::new_with_options(
        move || asked.clone(),
        |(by, lang, q, after)| read_gallery(by, lang, q, after),
        false,
    );
    let by = by.unwrap_or_default();
    let orders = GalleryOrder::ALL
        .into_iter()
        .map(|order| {
            let label = match order {
                GalleryOrder::Week => td_string!(l, decks.gallery.by_week),
                GalleryOrder::Plays => td_string!(l, decks.gallery.by_plays),
                GalleryOrder::Newest => td_string!(l, decks.gallery.by_newest),
            };
            let current = (searched.is_none() && order == by).then_some("page");
            view! { <a href=href(order, lang, None) aria-current=current>{label.to_string()}</a> }
        })
        .collect_view();
    let langs = [
        None,
        Some(DeckLang::En),
        Some(DeckLang::Hi),
        Some(DeckLang::Both),
    ]
    .into_iter()
    .map(|choice| {
        let current = (searched.is_none() && choice == lang).then_some("page");
        view! { <a href=href(by, choice, None) aria-current=current>{lang_name(choice, l)}</a> }
    })
    .collect_view();
    let heading = match &searched {
        Some(q) => td_string!(l, decks.gallery.results_for, q = q.as_str()).to_string(),
        None => td_string!(l, decks.gallery.heading).to_string(),
    };
    let empty = match &searched {
        Some(q) => td_string!(l, decks.gallery.found_none, q = q.as_str()).to_string(),
        None => td_string!(l, decks.gallery.none).to_string(),
    };
    let first_page = after.is_none();
    // A search's decks come from their titles, which do not count plays.
    let shown = if searched.is_some() {
        GalleryOrder::Newest
    } else {
        by
    };
    view! {
        <section class="gallery" data-testid="gallery" aria-labelledby="gallery-heading">
            <h2 id="gallery-heading">{heading}</h2>
            <p>{td_string!(l, decks.gallery.what).to_string()}</p>
            <nav class="board-picker" aria-label=td_string!(l, decks.gallery.orders_label).to_string()>
                <div class="tabs" data-testid="gallery-orders">{orders}</div>
                <div class="tabs" data-testid="gallery-langs">{langs}</div>
            </nav>
            <form method="get" action="/decks" class="card search" role="search">
                <label>{td_string!(l, decks.gallery.search_label).to_string()}" "
                    <input type="search" name="q" maxlength=SEARCH_MAX.to_string() value=searched.clone().unwrap_or_default() data-testid="gallery-search" />
                </label>
                " "<button type="submit">{td_string!(l, decks.gallery.search).to_string()}</button>
            </form>
            <Suspense fallback=move || view! { <p class="muted">{td_string!(l, decks.pages.reading).to_string()}</p> }>
                {move || {
                    let empty = empty.clone();
                    Suspend::new(async move {
                        match page.await {
                            Ok(view) if view.decks.is_empty() => view! {
                                <p class="empty" data-testid="gallery-empty">{if first_page { empty } else { String::new() }}</p>
                            }.into_any(),
                            Ok(view) => {
                                let next = view.next.map(|cursor| view! {
                                    <p><a href=href(by, lang, Some(&cursor)) rel="next" data-testid="gallery-next">{td_string!(l, decks.gallery.next).to_string()}</a></p>
                                });
                                view! {
                                    <ul class="room-list" data-testid="gallery-decks">
                                        {view.decks.into_iter().map(|d| deck_line(d, shown, l)).collect_view()}
                                    </ul>
                                    {next}
                                }.into_any()
                            }
                            Err(err) => view! { <p class="error" role="alert">{err.localized()}</p> }.into_any(),
                        }
                    })
                }}
            </Suspense>
        </section>
    }
}

/// One deck of the gallery: its title, size, language and plays.
fn deck_line(deck: GalleryDeck, by: GalleryOrder, l: Locale) -> impl IntoView {
    // The newest are listed from their heads, which do not count plays (nor a search's, from
    // their titles: shown so too).
    let plays = match by {
        GalleryOrder::Week => {
            td_string!(l, decks.gallery.week_plays, count = deck.week_plays).to_string()
        }
        GalleryOrder::Plays => td_string!(l, decks.gallery.plays, count = deck.plays).to_string(),
        GalleryOrder::Newest => String::new(),
    };
    let mut about = format!(
        "{} · {}",
        td_string!(l, decks.pages.count, count = deck.count),
        lang_name(Some(deck.lang), l)
    );
    if !plays.is_empty() {
        about.push_str(&format!(" · {plays}"));
    }
    view! {
        <li data-testid="gallery-deck" data-code=deck.code.to_string()>
            <a href=deck_path(&deck.code)>
                <span>{deck.title}</span>
                <span class="muted">{about}</span>
            </a>
        </li>
    }
}
