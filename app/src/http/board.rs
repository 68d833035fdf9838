//! `GET /r/<CODE>/lb`: a room's leaderboard, public and shareable. A plain server page (no
//! JavaScript, no session, no browser-bundle code: nothing on it is interactive), with
//! OpenGraph and Twitter tags naming the top three, so a shared link previews with the
//! standings. Player names are escaped by the renderer like every other text.

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use leptos::prelude::*;

use super::AppState;
use crate::error::AppError;
use crate::game::BoardEntry;
use crate::play::BOARD_SIZE;
use crate::rooms::RoomCode;

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

pub async fn room_board_page(State(state): State<AppState>, Path(code): Path<String>) -> Response {
    let code = match RoomCode::parse(&code) {
        Ok(code) => code,
        Err(err) => return AppError::from(err).into_response(),
    };
    let entries = match state.db.room_board(&code, BOARD_SIZE).await {
        Ok(entries) => entries,
        Err(err) => return AppError::from(err).into_response(),
    };
    let html = Owner::new().with(|| document(&code, entries));
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        html,
    )
        .into_response()
}

fn document(code: &RoomCode, entries: Vec<BoardEntry>) -> String {
    let title = format!("Udd room {code} leaderboard");
    let description = top_three(code, &entries);
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
    let attr = |value: &str| html_escape::encode_double_quoted_attribute(value).into_owned();
    let (t, d) = (attr(&title), attr(&description));
    // The head is text: the view macro has no `property` attribute for <meta>.
    let head = format!(
        "<head><meta charset=\"utf-8\"/>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\
         <title>{} · Udd</title>\
         <meta name=\"description\" content=\"{d}\"/>\
         <meta property=\"og:type\" content=\"website\"/>\
         <meta property=\"og:title\" content=\"{t}\"/>\
         <meta property=\"og:description\" content=\"{d}\"/>\
         <meta name=\"twitter:card\" content=\"summary\"/>\
         <meta name=\"twitter:title\" content=\"{t}\"/>\
         <meta name=\"twitter:description\" content=\"{d}\"/>\
         <meta name=\"theme-color\" content=\"#1d3557\"/>\
         <link rel=\"stylesheet\" href=\"/pkg/udd.css\"/>\
         <link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\"/></head>",
        html_escape::encode_text(&title)
    );
    let body = view! {
            <body>
                <div class="app">
                    <header class="topbar">
                        <a href="/" class="brand"><span aria-hidden="true">"🐦‍⬛ "</span>"Udd"</a>
                        <nav aria-label="Main"><a href="/things">"Things"</a><a href="/me">"You"</a></nav>
                    </header>
                    <main>
                        <section class="board" data-testid="board">
                            <h1>{title}</h1>
                            <p class="muted">"Each player's best score in this room."</p>
                            <table class="standings">
                                <thead><tr><th>"#"</th><th>"Player"</th><th>"Best"</th></tr></thead>
                                <tbody>{rows}</tbody>
                            </table>
                            <p><a href=room>"Back to the room"</a></p>
                        </section>
                    </main>
                </div>
            </body>
    }
    .to_html();
    format!("<!DOCTYPE html><html lang=\"en\">{head}{body}</html>")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::{Avatar, DisplayName, UserId};

    #[test]
    fn player_names_are_escaped_in_the_preview_tags_and_the_table() {
        let code = RoomCode::parse("K7QX2").unwrap();
        let entries = vec![BoardEntry {
            user_id: UserId::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap(),
            nickname: DisplayName::parse("\"><script>x</script>").unwrap(),
            avatar: Avatar::Crow,
            best_score: 1200,
            achieved_at_ms: 0,
        }];
        let html = Owner::new().with(|| document(&code, entries));
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains(
            r#"<meta property="og:description" content="1. &quot;&gt;&lt;script&gt;x&lt;/script&gt; 1200"/>"#
        ), "{html}");
        assert!(
            html.contains("<meta property=\"og:title\" content=\"Udd room K7QX2 leaderboard\"/>")
        );
    }
}
