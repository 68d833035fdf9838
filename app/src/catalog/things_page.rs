//! `/things`: the whole catalog with its rulings, a flies / doesn't fly / all filter and a
//! search. Filter links and the search form are plain GET requests, so they work without
//! JavaScript; once the island wakes, the links and typing filter in place, with no request to
//! the server (submitting the search still loads the page: a plain form keeps the bundle small).

use leptos::either::Either;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use leptos_router::location::Url;
use serde::{Deserialize, Serialize};

use crate::browser;
use crate::catalog::api::list_things;
use crate::catalog::model::{flying_rule_in, matches_search, FlyFilter, Thing};
use crate::i18n::td_string;
use crate::lang::Locale;
use crate::ui::IslandProps;

pub fn filter_href(filter: FlyFilter, search: &str) -> String {
    let mut href = format!("/things?flies={}", filter.as_query());
    if !search.trim().is_empty() {
        href.push_str("&q=");
        href.push_str(&Url::escape(search.trim()));
    }
    href
}

/// Keeps only the notes a page in `l` shows, so the page and its island carry one language of
/// them: English pages never the Hindi ones (they stay as they were), Hindi pages the English
/// one only where there is no Hindi.
pub fn notes_for(mut things: Vec<Thing>, l: Locale) -> Vec<Thing> {
    for thing in &mut things {
        match l {
            Locale::en => thing.note_hi = None,
            Locale::hi if thing.note_hi.is_some() => thing.note = None,
            Locale::hi => {}
        }
    }
    things
}

#[component]
pub fn ThingsPage() -> impl IntoView {
    // The address the page was asked for; in the browser the island keeps it current.
    let l = crate::lang::locale();
    let query = use_query_map();
    let filter = FlyFilter::from_query(query.read_untracked().get("flies").as_deref());
    let search = query.read_untracked().get("q").unwrap_or_default();
    view! {
        <Title text=td_string!(l, catalog.title).to_string() />
        <section class="things-page">
            <h1>{td_string!(l, catalog.title).to_string()}</h1>
            <details class="rule">
                <summary>{td_string!(l, catalog.rule_question).to_string()}</summary>
                <p>{flying_rule_in(l)}</p>
            </details>
            <Suspense fallback=move || view! { <p class="muted">{td_string!(l, catalog.loading).to_string()}</p> }>
                {move || {
                    let search = search.clone();
                    // Awaited here, not held in a resource: a resource outside an island is
                    // written into the page for a hydration that never reads it (40 KB of
                    // base64 on this page, and the time to write it).
                    Suspend::new(async move {
                        match list_things().await.map(|all| notes_for(all, l)) {
                            Ok(all) => Either::Left(view! { <ThingBrowser page=IslandProps(Browse { all, filter, search }) /> }),
                            Err(err) => Either::Right(view! {
                                <p class="error" role="alert">{err.localized()}</p>
                            }),
                        }
                    })
                }}
            </Suspense>
        </section>
    }
}

/// What the catalog's island starts from: every thing, and the filter and search the address
/// asked for.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Browse {
    all: Vec<Thing>,
    filter: FlyFilter,
    search: String,
}

/// The filter links, the search box and the list: the page's one island. Rendered on the
/// server for the address asked; in the browser, a filter link or typing filters in place,
/// and the address follows (back and forward too).
#[island(lazy)]
fn ThingBrowser(page: IslandProps<Browse>) -> impl IntoView {
    let IslandProps(Browse {
        all,
        filter,
        search,
    }) = page;
    let l = crate::lang::locale();
    let filter = RwSignal::new(filter);
    let search = RwSignal::new(search);
    let search_box = NodeRef::<leptos::html::Input>::new();
    // Once hydrated, take over whatever the player typed while the page was still static.
    Effect::new(move |_| {
        if let Some(input) = search_box.get() {
            search.set(input.value());
        }
    });
    // Back and forward: the address is the truth again.
    let history = window_event_listener(leptos::ev::popstate, move |_| {
        let [flies, q] = browser::query_params(&["flies", "q"]);
        filter.set(FlyFilter::from_query(flies.as_deref()));
        let q = q.unwrap_or_default();
        if let Some(input) = search_box.get_untracked() {
            input.set_value(&q);
        }
        search.set(q);
    });
    on_cleanup(move || history.remove());

    // Plain links without JavaScript; with it, a click filters here and only the address moves.
    let filter_link = move |target: FlyFilter, label: String| {
        view! {
            <a
                href=move || filter_href(target, &search.read())
                class="chip"
                aria-current=move || (filter.get() == target).then_some("page")
                data-testid=format!("filter-{}", target.as_query())
                on:click=move |ev: leptos::ev::MouseEvent| {
                    if ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.button() != 0 {
                        return;
                    }
                    ev.prevent_default();
                    filter.set(target);
                    browser::push_address(&filter_href(target, &search.read_untracked()));
                }
            >
                {label}
            </a>
        }
    };

    view! {
        <div class="controls">
            <nav class="filters" aria-label=td_string!(l, catalog.filter_label).to_string()>
                {filter_link(FlyFilter::All, td_string!(l, catalog.filter_all).to_string())}
                {filter_link(FlyFilter::Flies, td_string!(l, catalog.filter_flies).to_string())}
                {filter_link(FlyFilter::Grounded, td_string!(l, catalog.filter_grounded).to_string())}
            </nav>
            <form method="get" action="/things" role="search" class="search">
                <input type="hidden" name="flies" value=move || filter.get().as_query() />
                <label for="thing-search" class="visually-hidden">{td_string!(l, catalog.search_label).to_string()}</label>
                <input
                    id="thing-search"
                    type="search"
                    name="q"
                    placeholder=td_string!(l, catalog.search_placeholder).to_string()
                    maxlength="40"
                    node_ref=search_box
                    value=search.get_untracked()
                    on:input=move |ev| search.set(event_target_value(&ev))
                />
                <button type="submit">{td_string!(l, catalog.search_button).to_string()}</button>
            </form>
        </div>
        <ThingList all filter search l />
    }
}

#[component]
fn ThingList(
    all: Vec<Thing>,
    filter: RwSignal<FlyFilter>,
    search: RwSignal<String>,
    l: Locale,
) -> impl IntoView {
    let total = all.len();
    let all = StoredValue::new(all);
    // Positions into `all`, so filtering never copies a thing.
    let visible = Memo::new(move |_| {
        let filter = filter.get();
        let search = search.read();
        all.with_value(|things| {
            things
                .iter()
                .enumerate()
                .filter(|(_, t)| filter.matches(t) && matches_search(t, &search))
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        })
    });
    view! {
        <p class="count" role="status" aria-live="polite" data-testid="thing-count">
            {move || {
                td_string!(l, catalog.showing, shown = visible.read().len(), total = total)
                    .to_string()
            }}
        </p>
        <ul class="thing-grid">
            <For each=move || visible.get() key=|i| *i let:i>
                {all.with_value(|things| view! { <ThingCard thing=things[i].clone() l /> })}
            </For>
        </ul>
    }
}

#[component]
pub fn ThingCard(thing: Thing, l: Locale) -> impl IntoView {
    // The call "Udd!" is the same in every language.
    let verdict = if thing.flies {
        "Udd!".to_owned()
    } else {
        td_string!(l, catalog.no_udd).to_string()
    };
    // Both names, the page's language first, each marked with its language.
    let name = |class: &'static str, lang: &'static str, text: String| {
        view! { <span class=class lang=lang>{text}</span> }
    };
    let (first, second) = match l {
        Locale::hi => (name("hi", "hi", thing.hi), name("en", "en", thing.en)),
        Locale::en => (name("en", "en", thing.en), name("hi", "hi", thing.hi)),
    };
    // The note in the page's language; one not yet in Hindi shows in English, marked so.
    let (note, note_lang) = match (l, thing.note_hi) {
        (Locale::hi, Some(hi)) => (Some(hi), "hi"),
        _ => (thing.note, "en"),
    };
    view! {
        <li class="thing" data-testid="thing" data-flies=thing.flies.to_string()>
            <span class="emoji" aria-hidden="true">{thing.emoji}</span>
            <span class="names">{first}{second}</span>
            <span class=if thing.flies { "verdict flies" } else { "verdict grounded" }>
                {verdict}
            </span>
            <span class="category">{thing.category.label_in(l)}</span>
            {note.map(|note| view! { <small class="note" lang=note_lang>{note}</small> })}
        </li>
    }
}
