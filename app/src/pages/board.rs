//! `/r/<CODE>/lb`: a room's leaderboard, public and shareable. Rendered in full on the server
//! (no JavaScript or session needed), with OpenGraph and Twitter tags naming the top three, so
//! a shared link previews with the standings.

use leptos::either::Either;
use leptos::prelude::*;
use leptos_meta::{Meta, Title};
use leptos_router::hooks::use_params_map;

use crate::play::{room_leaderboard, BoardPage};

/// "1. Asha 3200 · 2. Ravi 2900 · 3. Mei 1500", or a note that nobody has played yet.
pub fn top_three(page: &BoardPage) -> String {
    if page.entries.is_empty() {
        return format!("Nobody has finished a match in room {} yet.", page.code);
    }
    page.entries
        .iter()
        .take(3)
        .enumerate()
        .map(|(i, e)| format!("{}. {} {}", i + 1, e.nickname, e.best_score))
        .collect::<Vec<_>>()
        .join(" · ")
}

#[component]
pub fn BoardPage() -> impl IntoView {
    let params = use_params_map();
    let code = move || {
        params
            .read()
            .get("code")
            .unwrap_or_default()
            .to_ascii_uppercase()
    };
    let board = Resource::new(code, room_leaderboard);
    view! {
        <Suspense fallback=|| view! { <p class="muted">"Loading the leaderboard…"</p> }>
            {move || Suspend::new(async move {
                match board.await {
                    Ok(page) => Either::Left(view! { <Board page /> }),
                    Err(err) => Either::Right(view! {
                        <Title text="No such leaderboard" />
                        <section class="hero">
                            <h1>"No such leaderboard"</h1>
                            <p class="error" role="alert">{err.to_string()}</p>
                        </section>
                    }),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Board(page: BoardPage) -> impl IntoView {
    let title = format!("Udd room {} leaderboard", page.code);
    let description = top_three(&page);
    let code = page.code.to_string();
    let rows = page
        .entries
        .into_iter()
        .enumerate()
        .map(|(i, e)| {
            view! {
                <tr data-testid="board-entry">
                    <td>{i + 1}</td>
                    <td><span class="avatar" aria-hidden="true">{e.avatar.emoji()}</span>" "{e.nickname.to_string()}</td>
                    <td class="num" data-testid="board-score">{e.best_score}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <Title text=title.clone() />
        <Meta property="og:type" content="website" />
        <Meta property="og:title" content=title.clone() />
        <Meta property="og:description" content=description.clone() />
        <Meta name="twitter:card" content="summary" />
        <Meta name="twitter:title" content=title.clone() />
        <Meta name="twitter:description" content=description.clone() />
        <section class="board" data-testid="board">
            <h1>{title}</h1>
            <p class="muted">"Each player's best score in this room."</p>
            <table class="standings">
                <thead><tr><th>"#"</th><th>"Player"</th><th>"Best"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
            <p><a href=format!("/r/{code}")>"Back to the room"</a></p>
        </section>
    }
}
