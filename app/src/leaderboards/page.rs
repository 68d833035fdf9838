//! `/r/<CODE>/lb`: a room's leaderboard, public and shareable. A server page like every other
//! (same router, same shell) with nothing interactive on it, so it loads no wasm; its OpenGraph
//! and Twitter tags name the top three, so a shared link previews with the standings.

use leptos::either::Either;
use leptos::prelude::*;
use leptos_meta::{Meta, Title};

use crate::browser;
use crate::codec::Base64Json;
use crate::leaderboards::api::room_leaderboard;
use crate::leaderboards::model::{BoardEntry, RoomBoard};
use crate::rooms::model::RoomCode;
use crate::ui::code_param;

/// "1. Asha 3200 · 2. Ravi 2900 · 3. Mei 1500", or a note that nobody has played yet.
pub fn top_three(code: &RoomCode, entries: &[BoardEntry]) -> String {
    if entries.is_empty() {
        return format!("Nobody has finished a match in room {code} yet.");
    }
    entries
        .iter()
        .take(3)
        .enumerate()
        .map(|(i, e)| format!("{}. {} {}", i + 1, e.nickname, e.best_score))
        .collect::<Vec<_>>()
        .join(" · ")
}

#[component]
pub fn BoardPage() -> impl IntoView {
    let code = code_param();
    let board = Resource::<_, Base64Json>::new_with_options(code, room_leaderboard, false);
    view! {
        <Suspense fallback=|| view! { <p class="muted">"Reading the board…"</p> }>
            {move || Suspend::new(async move {
                match board.await {
                    Ok(board) => Either::Left(view! { <Board board /> }),
                    Err(err) => Either::Right(view! {
                        <Title text="No such room" />
                        <section class="hero">
                            <h1>"No such board"</h1>
                            <p class="error" role="alert">{err.to_string()}</p>
                            <p><a href="/">"Open or join a room"</a></p>
                        </section>
                    }),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Board(board: RoomBoard) -> impl IntoView {
    let RoomBoard { code, entries } = board;
    let title = format!("Udd room {code} leaderboard");
    let description = top_three(&code, &entries);
    let room = format!("/r/{code}");
    let rows = entries
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
        <Meta name="description" content=description.clone() />
        <Meta property="og:type" content="website" />
        <Meta property="og:title" content=title.clone() />
        <Meta property="og:description" content=description.clone() />
        <Meta name="twitter:card" content="summary" />
        <Meta name="twitter:title" content=title.clone() />
        <Meta name="twitter:description" content=description />
        <section class="board" data-testid="board">
            <h1>{title}</h1>
            <p class="muted">"Each player's best score in this room."</p>
            <table class="standings">
                <thead><tr><th>"#"</th><th>"Player"</th><th>"Best"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
            <p><a href=room>"Back to the room"</a></p>
        </section>
    }
}

/// The room leaderboard's link, with share and copy where the browser can.
#[component]
pub fn BoardLink(code: String) -> impl IntoView {
    let path = format!("/r/{code}/lb");
    let link = StoredValue::new(path.clone());
    let status = RwSignal::new(String::new());
    let share = move |_| {
        let url = browser::absolute(&link.get_value());
        leptos::task::spawn_local(async move {
            let shared = browser::can_share() && browser::share("Udd leaderboard", &url).await;
            if !shared {
                status.set(if browser::copy_text(&url).await {
                    "Link copied.".into()
                } else {
                    String::new()
                });
            }
        });
    };
    view! {
        <p class="board-link">
            <a href=path data-testid="board-link">"Room leaderboard"</a>" "
            <button type="button" class="small secondary" data-testid="share-board" on:click=share>"Share"</button>
            <span class="muted" role="status">{move || status.get()}</span>
        </p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::{DisplayName, UserId};

    #[test]
    fn the_preview_names_the_top_three_in_order() {
        let code = RoomCode::parse("K7QX2").unwrap();
        assert_eq!(
            top_three(&code, &[]),
            "Nobody has finished a match in room K7QX2 yet."
        );
        let entry = |name: &str, best_score| BoardEntry {
            user_id: UserId::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap(),
            nickname: DisplayName::parse(name).unwrap(),
            avatar: Default::default(),
            best_score,
            achieved_at_ms: 0,
        };
        let entries = [
            entry("Asha", 3200),
            entry("Ravi", 2900),
            entry("Mei", 1500),
            entry("Om", 10),
        ];
        assert_eq!(
            top_three(&code, &entries),
            "1. Asha 3200 · 2. Ravi 2900 · 3. Mei 1500"
        );
    }
}
