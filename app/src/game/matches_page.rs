//! `/matches`: every finished match, newest first, a page at a time; `/matches?room=<room id>`
//! (or a code: the room that has it now): one room's. Server-rendered, no wasm.

use leptos::either::Either;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::codec::Base64Json;
use crate::game::api::list_matches;
use crate::game::match_page::podium_line;
use crate::game::sheet::{MatchList, MatchSummary};
use crate::i18n::td_string;
use crate::ids::{BoardId, RoomId};
use crate::lang::Locale;
use crate::ui::{Missing, Moment};

/// `/matches` (everyone's) and `/matches?room=<CODE>` (one room's), with `after` for the next
/// page.
#[component]
pub fn MatchesPage() -> impl IntoView {
    let l = crate::lang::locale();
    let query = use_query_map();
    let key = move || {
        let q = query.read();
        (q.get("room"), q.get("after"))
    };
    let list = Resource::<_, Base64Json>::new_with_options(
        key,
        |(room, after)| list_matches(room, after),
        false,
    );
    view! {
        <Suspense fallback=move || view! { <p class="muted">{td_string!(l, game.list.reading).to_string()}</p> }>
            {move || Suspend::new(async move {
                let (room, _) = key();
                match list.await {
                    Ok(list) => Either::Left(view! { <Matches list room l /> }),
                    Err(err) => Either::Right(view! {
                        <Missing
                            title=td_string!(l, game.list.no_list).to_string()
                            err
                            href="/matches"
                            link=td_string!(l, game.list.recent).to_string()
                        />
                    }),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Matches(list: MatchList, room: Option<String>, l: Locale) -> impl IntoView {
    let room = room.map(|r| r.trim().to_owned()).filter(|r| !r.is_empty());
    let title = match &room {
        Some(room) => {
            // The room's code, from its id or as typed.
            let code = RoomId::parse(room)
                .map_or_else(|_| room.to_ascii_uppercase(), |id| id.code().to_string());
            td_string!(l, game.list.in_room, code = code.as_str()).to_string()
        }
        None => td_string!(l, game.list.recent).to_string(),
    };
    let next = list.next.map(|cursor| {
        let mut href = "/matches?".to_owned();
        if let Some(code) = &room {
            href.push_str(&format!("room={code}&"));
        }
        href.push_str(&format!("after={cursor}"));
        view! { <p><a href=href rel="next" data-testid="next-page">{td_string!(l, game.list.older).to_string()}</a></p> }
    });
    let empty = list
        .matches
        .is_empty()
        .then(|| view! { <p class="muted">{td_string!(l, game.list.empty).to_string()}</p> });
    view! {
        <Title text=title.clone() />
        <section data-testid="matches-page">
            <h1>{title}</h1>
            {empty}
            <MatchTable matches=list.matches />
            {next}
        </section>
    }
}

/// Finished matches as a table: when, where, who won, and a link to each.
#[component]
pub fn MatchTable(matches: Vec<MatchSummary>) -> impl IntoView {
    if matches.is_empty() {
        return None;
    }
    let l = crate::lang::locale();
    let rows = matches
        .into_iter()
        .map(|m| {
            let room = m.room.to_string();
            view! {
                <tr data-testid="match-row">
                    <td><a href=m.path() data-testid="match-link"><Moment ms=m.finished_at_ms /></a></td>
                    <td><a href=BoardId::room_best(&m.room_id()).href()>{room}</a></td>
                    <td class="num">{m.players.len()}</td>
                    <td>{podium_line(&m)}</td>
                </tr>
            }
        })
        .collect_view();
    Some(view! {
        <table class="standings" data-testid="match-list">
            <thead><tr>
                <th>{td_string!(l, game.list.ended).to_string()}</th>
                <th>{td_string!(l, game.list.room).to_string()}</th>
                <th>{td_string!(l, game.list.players).to_string()}</th>
                <th>{td_string!(l, game.list.top_three).to_string()}</th>
            </tr></thead>
            <tbody>{rows}</tbody>
        </table>
    })
}
