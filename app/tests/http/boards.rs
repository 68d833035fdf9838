//! The board pages over HTTP, in-process: server-rendered with exact ranks, pages through
//! cursors and positions, the reader's own standing when signed in, and a clear 4xx for every
//! bad address.

use crate::support;

use app::identity::UserId;
use app::leaderboards::store::seed::Synthetic;
use app::leaderboards::BoardId;
use app::store::Db;
use axum::http::StatusCode;

use support::{app, cookie_pair, get_page, post, send};

fn count(html: &str, needle: &str) -> usize {
    html.matches(needle).count()
}

#[tokio::test]
async fn a_board_page_shows_exact_ranks_pages_and_the_readers_neighbours() {
    let (app, engine) = app().await;
    let db = Db::new(engine.client.clone(), "udd");
    let guest = post(&app, "/api/guest", "name=Asha", None).await;
    let cookie = cookie_pair(&guest.cookie.expect("a guest session"));
    let me = UserId::parse(guest.json["id"].as_str().unwrap()).unwrap();
    let mut players: Vec<Synthetic> = (0..50)
        .map(|i| Synthetic {
            user_id: UserId::generate(),
            nickname: app::identity::DisplayName::parse("Bot").unwrap(),
            score: (i % 10) * 300,
            reached_ms: 1_000 + i,
        })
        .collect();
    players.push(Synthetic {
        user_id: me.clone(),
        nickname: app::identity::DisplayName::parse("Asha").unwrap(),
        score: 1_234,
        reached_ms: 5,
    });
    db.boards()
        .seed_board(&BoardId::all_time_best(), &players)
        .await
        .unwrap();
    let above = players.iter().filter(|p| p.score > 1_234).count();

    let page = send(&app, get_page("/lb/best/all/global")).await;
    assert_eq!(page.status, StatusCode::OK);
    let html = page.body;
    assert_eq!(count(&html, r#"data-testid="board-entry""#), 20);
    assert!(
        html.contains(
            r#"<meta property="og:description" content="1. Bot 2700 · 1. Bot 2700 · 1. Bot 2700""#
        ),
        "{html}"
    );
    assert!(html.contains("51 players"));
    assert!(
        !html.contains("my-standing"),
        "no standing without a session"
    );
    assert!(
        !html.contains("<leptos-island"),
        "no island, so no wasm, on a board page"
    );
    let next = html
        .split(r#"href="/lb/best/all/global?after="#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a next-page link");
    let second = send(&app, get_page(&format!("/lb/best/all/global?after={next}"))).await;
    assert_eq!(second.status, StatusCode::OK);
    // Positions 21..: scores 2700 x5, 2400 x5, 2100 x5, 1800 x5 fill 20; the next is 1500, rank 21.
    assert!(
        second
            .body
            .contains(r#"data-testid="board-rank" class="num">21</td>"#),
        "{}",
        second.body
    );

    let mine = send(
        &app,
        get_page("/lb/best/all/global").header("cookie", &cookie),
    )
    .await;
    assert!(mine.body.contains("my-standing"));
    assert!(
        mine.body.contains(&format!("You are #{} of 51", above + 1)),
        "{}",
        mine.body
    );
    assert_eq!(count(&mine.body, r#"data-testid="around-me""#), 1);
    assert_eq!(
        count(&mine.body, r#"aria-current="true""#),
        1,
        "her row is marked once, in the rows around her"
    );
    // A page of the board that shows her among its lines: no second table of the same rows.
    let hers = send(
        &app,
        get_page(&format!("/lb/best/all/global?at={}", above + 1)).header("cookie", &cookie),
    )
    .await;
    assert!(hers.body.contains("my-standing"), "{}", hers.body);
    assert_eq!(count(&hers.body, r#"data-testid="around-me""#), 0);
    assert_eq!(count(&hers.body, r#"aria-current="true""#), 1);
    let marked = hers
        .body
        .split("<tr")
        .find(|row| row.contains(r#"aria-current="true""#))
        .and_then(|row| row.split("</tr>").next())
        .expect("a marked row");
    assert!(marked.contains(">Asha<"), "{marked}");

    let jump = send(&app, get_page("/lb/best/all/global?at=45")).await;
    assert_eq!(jump.status, StatusCode::OK);
    assert!(
        jump.body
            .contains(r#"data-testid="board-rank" class="num">42</td>"#),
        "positions 42-46 score 300 (Asha's 1234 is 26th), so the 45th shares rank 42"
    );
    // One table, around the position asked for: it starts three before, and the 45th row is
    // marked where the form's address (`#at-row`) scrolls.
    assert_eq!(count(&jump.body, "<table"), 1);
    assert!(jump.body.contains("Around position 45"));
    let rows: Vec<&str> = jump.body.split("<tr").skip(2).collect();
    assert!(
        rows[0].contains(r#"class="num">42</td>"#),
        "position 42 first"
    );
    assert!(
        rows[3].contains(r#"id="at-row""#),
        "the 45th row marked: {}",
        rows[3]
    );
    assert_eq!(count(&jump.body, r#"id="at-row""#), 1);
    assert!(jump
        .body
        .contains(r##"action="/lb/best/all/global#at-row""##));
    // Past the end: the board's end, its last position marked, and a note (not a 404).
    let past = send(&app, get_page("/lb/best/all/global?at=999")).await;
    assert_eq!(past.status, StatusCode::OK);
    assert!(
        past.body
            .contains("This board has 51 players, so there is no position 999: here is its end."),
        "{}",
        past.body
    );
    let marked = past
        .body
        .split("<tr")
        .find(|row| row.contains(r#"id="at-row""#))
        .unwrap();
    let last = past.body.split("<tr").last().unwrap();
    assert_eq!(marked, last, "the last row is the one marked");

    let index = send(&app, get_page("/lb?metric=best&period=all&scope=global")).await;
    assert_eq!(index.status, StatusCode::OK);
    assert!(
        index.body.contains(r#"href="/lb/best/all/global""#),
        "the permanent address"
    );
    assert!(index.body.contains("period-links"));
}

#[tokio::test]
async fn bad_board_addresses_are_a_clear_4xx() {
    let (app, _engine) = app().await;
    for (path, status) in [
        ("/lb/worst/all/global", StatusCode::BAD_REQUEST),
        ("/lb/best/day-2026-02-30/global", StatusCode::BAD_REQUEST),
        ("/lb/total/day-2026-11-20/global", StatusCode::BAD_REQUEST),
        ("/lb/best/all/room-x", StatusCode::BAD_REQUEST),
        ("/lb/best/season-nope/global", StatusCode::NOT_FOUND),
        ("/lb/best/week-2025-W53/global", StatusCode::NOT_FOUND),
        ("/lb/best/day-2999-01-01/global", StatusCode::NOT_FOUND),
        ("/lb/best/all/global?at=0", StatusCode::BAD_REQUEST),
        ("/lb/best/all/global?at=x", StatusCode::BAD_REQUEST),
        (
            "/lb/best/all/global?after=forged.cursor",
            StatusCode::BAD_REQUEST,
        ),
        ("/lb?period=century", StatusCode::BAD_REQUEST),
        ("/r/K7QX/lb", StatusCode::BAD_REQUEST),
    ] {
        let answer = send(&app, get_page(path)).await;
        assert_eq!(answer.status, status, "{path}");
        assert!(answer.body.contains("No such board"), "{path}");
    }
    let empty = send(&app, get_page("/lb/best/all/global")).await;
    assert_eq!(empty.status, StatusCode::OK);
    assert!(empty.body.contains("Nobody is on this board yet."));
    // A position on an empty board: the board as it is, saying so.
    let past = send(&app, get_page("/lb/best/all/global?at=5")).await;
    assert_eq!(past.status, StatusCode::OK);
    assert!(past
        .body
        .contains("This board has 0 players, so there is no position 5"));
}
