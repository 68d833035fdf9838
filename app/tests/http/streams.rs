//! A live stream's life (`live::hub::stream::STREAM_LIFE`): it ends itself with the server's own
//! last event, `bye`, so a task the load balancer drains has nothing left to cut; never just
//! before a reveal, which the player would then see late.

use crate::support;

use std::time::{Duration, Instant};

use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use tower::ServiceExt;

use support::{app_with_stream_life, cookie_pair, post};

/// One event of a stream: when it arrived (ms since the epoch), its name (`message` unless
/// named), and its data.
#[derive(Debug)]
struct Heard {
    at_ms: i64,
    name: String,
    data: String,
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// Every event of the room's stream until the server ends it (panics if it is still open after
/// `within`).
async fn listen_to_the_end(app: &Router, code: &str, within: Duration) -> Vec<Heard> {
    let response = app
        .clone()
        .oneshot(
            Request::get(format!("/r/{code}/events"))
                .header(header::ACCEPT, "text/event-stream")
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    let (mut heard, mut text) = (Vec::new(), String::new());
    let deadline = Instant::now() + within;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let frame = match tokio::time::timeout(left, body.frame()).await {
            Err(_) => panic!("the stream was still open after {within:?}: {heard:?}"),
            Ok(None) => return heard,
            Ok(Some(frame)) => frame.expect("a frame"),
        };
        if let Ok(data) = frame.into_data() {
            text.push_str(std::str::from_utf8(&data).unwrap());
        }
        // Whole events only: each ends with a blank line.
        while let Some(end) = text.find("\n\n") {
            let block: String = text.drain(..end + 2).collect();
            let field = |name: &str| {
                block
                    .lines()
                    .find_map(|l| l.strip_prefix(name))
                    .map(|v| v.trim().to_owned())
            };
            if let Some(data) = field("data:") {
                heard.push(Heard {
                    at_ms: now_ms(),
                    name: field("event:").unwrap_or_else(|| "message".into()),
                    data,
                });
            }
        }
    }
}

#[tokio::test]
async fn in_the_lobby_a_stream_ends_itself_when_its_life_is_over_with_the_servers_own_last_event() {
    let (app, _engine) = app_with_stream_life(Duration::from_millis(800)).await;
    let created = post(&app, "/api/rooms/create", "name=Host", None).await;
    let code = created.json.as_str().unwrap().to_owned();
    let opened = Instant::now();
    let heard = listen_to_the_end(&app, &code, Duration::from_secs(10)).await;
    let lasted = opened.elapsed();
    let names: Vec<&str> = heard.iter().map(|h| h.name.as_str()).collect();
    assert_eq!(names, ["message", "bye"], "{heard:?}");
    assert!(heard[0].data.contains("\"Host\""), "{heard:?}");
    // Its own life: between three quarters of the set one and all of it, and some slack.
    assert!(
        lasted >= Duration::from_millis(600) && lasted < Duration::from_millis(2000),
        "the stream lasted {lasted:?}"
    );
}

#[tokio::test]
async fn a_stream_whose_life_ends_just_before_a_reveal_ends_only_after_that_round_closes() {
    // The first reveal is 3 s after the start; the stream's life, 1.2-1.6 s, ends within the
    // quiet gap before it.
    let (app, _engine) = app_with_stream_life(Duration::from_millis(1600)).await;
    let created = post(&app, "/api/rooms/create", "name=Host", None).await;
    let host = cookie_pair(&created.cookie.expect("a guest session"));
    let code = created.json.as_str().unwrap().to_owned();
    let joined = post(
        &app,
        "/api/rooms/join",
        &format!("code={code}&name=Asha"),
        None,
    )
    .await;
    assert!(joined.status.is_success(), "{}", joined.json);
    let started = post(
        &app,
        "/api/rooms/start",
        &format!("code={code}&seed=7"),
        Some(&host),
    )
    .await;
    assert!(started.status.is_success(), "{}", started.json);
    let heard = listen_to_the_end(&app, &code, Duration::from_secs(20)).await;

    let (last, rooms) = heard.split_last().expect("events");
    assert_eq!(last.name, "bye", "the server's own last event: {heard:?}");
    assert!(rooms.iter().all(|h| h.name == "message"), "{heard:?}");
    let room: serde_json::Value = serde_json::from_str(&rooms[0].data).unwrap();
    let game = &room["lobby"]["game"];
    let first = &game["rounds"][0];
    let reveal = first["reveal_ms"]
        .as_i64()
        .expect("the first round's reveal");
    let window = game["window_ms"].as_i64().expect("the match's window");
    // The round's close, as the game's timing states it: its window and 400 ms of grace.
    let closes = reveal + window + 400;
    assert!(
        rooms.iter().any(|h| h.data.contains("\"thing\":{")),
        "the reveal reached this stream before it ended: {heard:?}"
    );
    assert!(
        last.at_ms >= closes,
        "ended {} ms before the first round closed",
        closes - last.at_ms
    );
    assert!(
        last.at_ms < closes + 2000,
        "ended {} ms after the first round closed",
        last.at_ms - closes
    );
}
