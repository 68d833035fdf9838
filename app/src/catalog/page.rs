//! `/things`: the whole catalog with its rulings, a flies / doesn't fly / all filter and a
//! search. Filter links and the search form are plain GET requests, so they work without
//! JavaScript; once the island wakes, the links and typing filter in place, with no request to
//! the server (submitting the search still loads the page: a plain form keeps the bundle small).

use leptos::either::Either;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use leptos_router::location::Url;

use crate::browser;
use crate::catalog::api::list_things;
use crate::catalog::model::{matches_search, FlyFilter, Thing, FLYING_RULE};
use crate::codec::Base64Json;

fn filter_href(filter: FlyFilter, search: &str) -> String {
    let mut href = format!("/things?flies={}", filter.as_query());
    if !search.trim().is_empty() {
        href.push_str("&q=");
        href.push_str(&Url::escape(search.trim()));
    }
    href
}

#[component]
pub fn ThingsPage() -> impl IntoView {
    // The address the page was asked for; in the browser the island keeps it current.
    let query = use_query_map();
    let filter = FlyFilter::from_query(query.read_untracked().get("flies").as_deref());
    let search = query.read_untracked().get("q").unwrap_or_default();
    let things = OnceResource::<_, Base64Json>::new_with_options(list_things(), false);
    view! {
        <Title text="Things" />
        <section class="things-page">
            <h1>"Things"</h1>
            <details class="rule">
                <summary>"What counts as flying?"</summary>
                <p>{FLYING_RULE}</p>
            </details>
            <Suspense fallback=|| view! { <p class="muted">"Loading things…"</p> }>
                {move || {
                    let search = search.clone();
                    Suspend::new(async move {
                        match things.await {
                            Ok(all) => Either::Left(view! { <ThingBrowser all filter search /> }),
                            Err(err) => Either::Right(view! {
                                <p class="error" role="alert">{err.to_string()}</p>
                            }),
                        }
                    })
                }}
            </Suspense>
        </section>
    }
}

/// The filter links, the search box and the list: the page's one island. Rendered on the
/// server for the address asked; in the browser, a filter link or typing filters in place,
/// and the address follows (back and forward too).
#[island]
fn ThingBrowser(all: Vec<Thing>, filter: FlyFilter, search: String) -> impl IntoView {
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
    let filter_link = move |target: FlyFilter, label: &'static str| {
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
            <nav class="filters" aria-label="Filter by flying">
                {filter_link(FlyFilter::All, "All")}
                {filter_link(FlyFilter::Flies, "Flies")}
                {filter_link(FlyFilter::Grounded, "Doesn't fly")}
            </nav>
            <form method="get" action="/things" role="search" class="search">
                <input type="hidden" name="flies" value=move || filter.get().as_query() />
                <label for="thing-search" class="visually-hidden">"Search things"</label>
                <input
                    id="thing-search"
                    type="search"
                    name="q"
                    placeholder="Search in English or Hindi"
                    maxlength="40"
                    node_ref=search_box
                    value=search.get_untracked()
                    on:input=move |ev| search.set(event_target_value(&ev))
                />
                <button type="submit">"Search"</button>
            </form>
        </div>
        <ThingList all filter search />
    }
}

#[component]
fn ThingList(
    all: Vec<Thing>,
    filter: RwSignal<FlyFilter>,
    search: RwSignal<String>,
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
            {move || format!("Showing {} of {total} things", visible.read().len())}
        </p>
        <ul class="thing-grid">
            <For each=move || visible.get() key=|i| *i let:i>
                {all.with_value(|things| view! { <ThingCard thing=things[i].clone() /> })}
            </For>
        </ul>
    }
}

#[component]
fn ThingCard(thing: Thing) -> impl IntoView {
    let verdict = if thing.flies { "Udd!" } else { "No udd" };
    view! {
        <li class="thing" data-testid="thing" data-flies=thing.flies.to_string()>
            <span class="emoji" aria-hidden="true">{thing.emoji}</span>
            <span class="names">
                <span class="en">{thing.en}</span>
                <span class="hi" lang="hi">{thing.hi}</span>
            </span>
            <span class=if thing.flies { "verdict flies" } else { "verdict grounded" }>
                {verdict}
            </span>
            <span class="category">{thing.category.label()}</span>
            {thing.note.map(|note| view! { <small class="note">{note}</small> })}
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_links_keep_the_search_and_escape_it() {
        assert_eq!(filter_href(FlyFilter::Flies, ""), "/things?flies=yes");
        assert_eq!(
            filter_href(FlyFilter::Grounded, " a&b "),
            "/things?flies=no&q=a%26b"
        );
    }
}
