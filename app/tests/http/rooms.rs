//! Rooms over HTTP, driven through the router in-process: one-step create and join (a guest
//! session when there is none), the lobby, and authorization: only the host runs the room, the
//! acting player always comes from the session, and bad codes are clear 4xx answers.

use crate::support;

use axum::http::StatusCode;
use axum::Router;

use support::{app, cookie_pair, post, Reply};

async fn create(app: &Router, name: &str, public: bool) -> (String, String) {
    let reply = post(
        app,
        "/api/rooms/create",
        &format!("name={name}&public={public}"),
        None,
    )
    .await;
    assert!(
        reply.status.is_success() || reply.status.is_redirection(),
        "{:?} {}",
        reply.status,
        reply.json
    );
    let cookie = cookie_pair(&reply.cookie.expect("a guest session"));
    (
        reply.json.as_str().expect("the room code").to_owned(),
        cookie,
    )
}

async fn join(app: &Router, code: &str, name: &str) -> (Reply, Option<String>) {
    let reply = post(
        app,
        "/api/rooms/join",
        &format!("code={code}&name={name}"),
        None,
    )
    .await;
    let cookie = reply.cookie.as_deref().map(cookie_pair);
    (reply, cookie)
}

#[tokio::test]
async fn creating_and_joining_start_guest_sessions_and_fill_the_lobby() {
    let (app, _engine) = app().await;
    let (code, host_cookie) = create(&app, "Host", true).await;
    assert_eq!(code.len(), 5);
    let (joined, guest_cookie) = join(&app, &code.to_lowercase(), "Asha").await;
    assert!(joined.status.is_success(), "{}", joined.json);
    assert!(guest_cookie.is_some());

    let lobby = post(
        &app,
        "/api/rooms/lobby",
        &format!("code={code}"),
        Some(&host_cookie),
    )
    .await;
    let players = lobby.json["lobby"]["players"].as_array().unwrap();
    let names: Vec<_> = players
        .iter()
        .map(|p| p["nickname"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Host", "Asha"]);
    assert_eq!(
        lobby.json["me"], lobby.json["lobby"]["host_id"],
        "the host asked"
    );
    assert!(
        lobby.json["qr_svg"].as_str().unwrap().starts_with("<svg"),
        "a QR code"
    );

    let open = post(&app, "/api/rooms/open", "", None).await;
    assert_eq!(open.json[0]["code"], code.as_str());
}

#[tokio::test]
async fn only_the_host_runs_the_room() {
    let (app, _engine) = app().await;
    let (code, host_cookie) = create(&app, "Host", false).await;
    let (_, asha_cookie) = join(&app, &code, "Asha").await;
    let asha_cookie = asha_cookie.unwrap();
    let lobby = post(
        &app,
        "/api/rooms/lobby",
        &format!("code={code}"),
        Some(&asha_cookie),
    )
    .await;
    let host_id = lobby.json["lobby"]["host_id"].as_str().unwrap().to_owned();
    let asha_id = lobby.json["me"].as_str().unwrap().to_owned();

    let settings = format!(
        "code={code}&settings[max_players]=4&settings[rounds]=5&settings[window_ms]=2000&settings[public]=false"
    );
    let by_guest = post(&app, "/api/rooms/settings", &settings, Some(&asha_cookie)).await;
    assert_eq!(by_guest.status, StatusCode::FORBIDDEN, "{}", by_guest.json);
    let kick_host = post(
        &app,
        "/api/rooms/kick",
        &format!("code={code}&player={host_id}"),
        Some(&asha_cookie),
    )
    .await;
    assert_eq!(kick_host.status, StatusCode::FORBIDDEN);

    let by_host = post(&app, "/api/rooms/settings", &settings, Some(&host_cookie)).await;
    assert_eq!(by_host.status, StatusCode::OK, "{}", by_host.json);
    assert_eq!(by_host.json["settings"]["rounds"], 5);
    let bad = post(
        &app,
        "/api/rooms/settings",
        &settings.replace("max_players]=4", "max_players]=40"),
        Some(&host_cookie),
    )
    .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);

    let kicked = post(
        &app,
        "/api/rooms/kick",
        &format!("code={code}&player={asha_id}"),
        Some(&host_cookie),
    )
    .await;
    assert_eq!(kicked.status, StatusCode::OK, "{}", kicked.json);
    let forged = format!("udd_session={}", "B".repeat(43));
    let leave = post(
        &app,
        "/api/rooms/leave",
        &format!("code={code}"),
        Some(&forged),
    )
    .await;
    assert_eq!(leave.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn bad_and_unknown_codes_are_clear_answers() {
    let (app, _engine) = app().await;
    let (malformed, _) = join(&app, "O0IL1", "Asha").await;
    assert_eq!(malformed.status, StatusCode::BAD_REQUEST);
    assert!(
        malformed.json.to_string().contains("room code"),
        "{}",
        malformed.json
    );
    let (unknown, guest) = join(&app, "ZZZZZ", "Asha").await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND, "{}", unknown.json);
    assert_eq!(guest, None, "no guest is made for a room that is not there");
    let lobby = post(&app, "/api/rooms/lobby", "code=ZZZZZ", None).await;
    assert_eq!(lobby.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_full_room_says_so_and_a_refused_visitor_becomes_nobody() {
    let (app, engine) = app().await;
    let (code, host_cookie) = create(&app, "Host", false).await;
    let small = format!(
        "code={code}&settings[max_players]=2&settings[rounds]=10&settings[window_ms]=3000&settings[public]=false"
    );
    assert_eq!(
        post(&app, "/api/rooms/settings", &small, Some(&host_cookie))
            .await
            .status,
        StatusCode::OK
    );
    let (first, _) = join(&app, &code, "Asha").await;
    assert!(first.status.is_success());
    let profiles = || async {
        engine
            .client
            .scan()
            .table_name("udd")
            .filter_expression("SK = :profile")
            .expression_attribute_values(
                ":profile",
                aws_sdk_dynamodb::types::AttributeValue::S("PROFILE".into()),
            )
            .send()
            .await
            .unwrap()
            .count
    };
    let before = profiles().await;
    let (second, cookie) = join(&app, &code, "Ravi").await;
    assert_eq!(second.status, StatusCode::CONFLICT);
    assert!(second.json.to_string().contains("full"), "{}", second.json);
    // The visitor's guest would have been made in the join's own transaction: refused, it is
    // not made, and no session cookie is set.
    assert_eq!(cookie, None);
    assert_eq!(profiles().await, before, "no guest left behind");
}

/// Reads the stream until the next `data:` line and parses it.
async fn next_event(body: &mut axum::body::Body) -> serde_json::Value {
    use http_body_util::BodyExt;
    let mut text = String::new();
    let read = tokio::time::timeout(std::time::Duration::from_secs(5), async {
        loop {
            let frame = body
                .frame()
                .await
                .expect("the stream is open")
                .expect("a frame");
            if let Ok(data) = frame.into_data() {
                text.push_str(std::str::from_utf8(&data).unwrap());
            }
            if let Some(line) = text.lines().find_map(|l| l.strip_prefix("data:")) {
                return serde_json::from_str(line.trim()).unwrap();
            }
        }
    })
    .await;
    read.expect("an event within 5 s")
}

#[tokio::test]
async fn the_live_stream_sends_the_lobby_and_each_change() {
    use axum::http::{header, Request};
    use tower::ServiceExt;

    let (app, _engine) = app().await;
    let (code, _) = create(&app, "Host", false).await;
    let response = app
        .clone()
        .oneshot(
            Request::get(format!("/r/{code}/events"))
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "text/event-stream"
    );
    let mut body = response.into_body();
    let first = next_event(&mut body).await;
    assert_eq!(first["lobby"]["players"].as_array().unwrap().len(), 1);

    // A join through this instance pokes its watcher: the change follows at once.
    let (joined, _) = join(&app, &code, "Asha").await;
    assert!(joined.status.is_success() || joined.status.is_redirection());
    let second = next_event(&mut body).await;
    let names: Vec<_> = second["lobby"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["nickname"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names, ["Host", "Asha"]);
}

#[tokio::test]
async fn the_live_stream_refuses_bad_and_unknown_codes() {
    use axum::http::Request;
    use tower::ServiceExt;

    let (app, _engine) = app().await;
    for (path, status) in [
        ("/r/K0QX2/events", StatusCode::BAD_REQUEST),
        ("/r/ZZZZZ/events", StatusCode::NOT_FOUND),
    ] {
        let response = app
            .clone()
            .oneshot(Request::get(path).body(axum::body::Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(response.status(), status, "{path}");
    }
}

#[tokio::test]
async fn a_refused_form_post_goes_back_to_its_page_with_the_reason() {
    use axum::http::{header, Request};
    use tower::ServiceExt;

    let (app, _engine) = app().await;
    let response = app
        .clone()
        .oneshot(
            Request::post("/api/rooms/join")
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                .header(header::ACCEPT, "text/html,application/xhtml+xml")
                .header(header::HOST, "udd.test")
                .header(header::REFERER, "http://udd.test/")
                .body(axum::body::Body::from("code=ZZZZZ&name=Asha"))
                .unwrap(),
        )
        .await
        .unwrap();
    assert!(
        response.status().is_redirection(),
        "a browser only follows a redirect: {}",
        response.status()
    );
    let location = response.headers()[header::LOCATION].to_str().unwrap();
    assert!(
        // Back to the same page, as a path: redirects never leave our origin.
        location.starts_with("/?") && location.contains("__err="),
        "{location}"
    );
}

/// The room as a player (or a visitor) reads it: `/api/rooms/lobby`'s JSON.
async fn lobby_json(app: &Router, code: &str, cookie: &str) -> serde_json::Value {
    let reply = post(
        app,
        "/api/rooms/lobby",
        &format!("code={code}"),
        Some(cookie),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    reply.json
}

#[tokio::test]
async fn only_the_host_locks_the_room_and_a_locked_room_refuses_a_join_with_its_reason() {
    let (app, _engine) = app().await;
    let (code, host_cookie) = create(&app, "Host", false).await;
    let (_, asha_cookie) = join(&app, &code, "Asha").await;
    let asha_cookie = asha_cookie.unwrap();
    let before = lobby_json(&app, &code, &host_cookie).await;

    let by_player = post(
        &app,
        "/api/rooms/lock",
        &format!("code={code}&locked=true"),
        Some(&asha_cookie),
    )
    .await;
    assert_eq!(
        by_player.status,
        StatusCode::FORBIDDEN,
        "{}",
        by_player.json
    );
    assert_eq!(
        lobby_json(&app, &code, &host_cookie).await,
        before,
        "a refused lock changes nothing"
    );

    let by_host = post(
        &app,
        "/api/rooms/lock",
        &format!("code={code}&locked=true"),
        Some(&host_cookie),
    )
    .await;
    assert!(
        by_host.status.is_success() || by_host.status.is_redirection(),
        "{:?} {}",
        by_host.status,
        by_host.json
    );
    let locked = lobby_json(&app, &code, &host_cookie).await;
    assert_eq!(locked["lobby"]["locked"], true);

    let (refused, cookie) = join(&app, &code, "Ravi").await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.json);
    assert!(
        refused
            .json
            .to_string()
            .contains("The host has locked this room."),
        "{}",
        refused.json
    );
    assert_eq!(cookie, None, "a refused visitor becomes nobody");
    // Asha is in the room: joining again still works.
    let again = post(
        &app,
        "/api/rooms/join",
        &format!("code={code}&name=Asha"),
        Some(&asha_cookie),
    )
    .await;
    assert!(
        again.status.is_success(),
        "{:?} {}",
        again.status,
        again.json
    );

    post(
        &app,
        "/api/rooms/lock",
        &format!("code={code}&locked=false"),
        Some(&host_cookie),
    )
    .await;
    let (admitted, _) = join(&app, &code, "Ravi").await;
    assert!(admitted.status.is_success(), "{}", admitted.json);
    let players = lobby_json(&app, &code, &host_cookie).await["lobby"]["players"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(players, 3);
}

#[tokio::test]
async fn only_the_host_hands_over_and_a_forged_hand_over_changes_nothing() {
    let (app, _engine) = app().await;
    let (code, host_cookie) = create(&app, "Host", false).await;
    let (_, asha_cookie) = join(&app, &code, "Asha").await;
    let (_, ravi_cookie) = join(&app, &code, "Ravi").await;
    let (asha_cookie, ravi_cookie) = (asha_cookie.unwrap(), ravi_cookie.unwrap());
    let asha = lobby_json(&app, &code, &asha_cookie).await["me"].clone();
    let ravi = lobby_json(&app, &code, &ravi_cookie).await["me"].clone();
    let (asha, ravi) = (asha.as_str().unwrap(), ravi.as_str().unwrap());
    let before = lobby_json(&app, &code, &host_cookie).await;

    for (cookie, target) in [
        (&asha_cookie, asha),
        (&ravi_cookie, asha),
        (&asha_cookie, ravi),
    ] {
        let forged = post(
            &app,
            "/api/rooms/host",
            &format!("code={code}&player={target}"),
            Some(cookie),
        )
        .await;
        assert_eq!(forged.status, StatusCode::FORBIDDEN, "{}", forged.json);
    }
    let nobody = post(
        &app,
        "/api/rooms/host",
        &format!("code={code}&player=01ARZ3NDEKTSV4RRFFQ69G5FAV"),
        Some(&host_cookie),
    )
    .await;
    assert_eq!(nobody.status, StatusCode::NOT_FOUND, "{}", nobody.json);
    let malformed = post(
        &app,
        "/api/rooms/host",
        &format!("code={code}&player=not-a-player"),
        Some(&host_cookie),
    )
    .await;
    assert_eq!(
        malformed.status,
        StatusCode::BAD_REQUEST,
        "{}",
        malformed.json
    );
    assert_eq!(
        lobby_json(&app, &code, &host_cookie).await,
        before,
        "nothing changed"
    );

    let handed = post(
        &app,
        "/api/rooms/host",
        &format!("code={code}&player={ravi}"),
        Some(&host_cookie),
    )
    .await;
    assert!(
        handed.status.is_success() || handed.status.is_redirection(),
        "{:?} {}",
        handed.status,
        handed.json
    );
    assert_eq!(
        lobby_json(&app, &code, &host_cookie).await["lobby"]["host_id"],
        ravi
    );
}

#[tokio::test]
async fn a_host_signing_out_hands_the_room_to_the_next_player_at_once() {
    let (app, _engine) = app().await;
    let (code, host_cookie) = create(&app, "Host", false).await;
    let (_, asha_cookie) = join(&app, &code, "Asha").await;
    let (_, ravi_cookie) = join(&app, &code, "Ravi").await;
    let (asha_cookie, _ravi_cookie) = (asha_cookie.unwrap(), ravi_cookie.unwrap());
    let asha = lobby_json(&app, &code, &asha_cookie).await["me"].clone();

    let out = post(&app, "/api/sign-out", "", Some(&host_cookie)).await;
    assert_eq!(out.status, StatusCode::OK, "{}", out.json);
    let lobby = lobby_json(&app, &code, &asha_cookie).await;
    assert_eq!(
        lobby["lobby"]["host_id"], asha,
        "the longest-present other player"
    );
    assert_eq!(
        lobby["lobby"]["players"].as_array().unwrap().len(),
        3,
        "the old host is still in the room, no longer hosting"
    );
}

/// A proxy in front of `upstream` that passes bytes both ways and cuts a connection on which
/// neither side has sent anything for `idle`, as a load balancer does at its idle timeout (an
/// AWS Application Load Balancer's is 60 s unless set). Its address, and how many connections it
/// has cut.
async fn idle_cutting_proxy(
    upstream: std::net::SocketAddr,
    idle: std::time::Duration,
) -> (
    std::net::SocketAddr,
    std::sync::Arc<std::sync::atomic::AtomicUsize>,
) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let cuts = std::sync::Arc::new(AtomicUsize::new(0));
    let counted = std::sync::Arc::clone(&cuts);
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let cuts = std::sync::Arc::clone(&counted);
            tokio::spawn(async move {
                let server = tokio::net::TcpStream::connect(upstream).await.unwrap();
                let (mut client_in, mut client_out) = client.into_split();
                let (mut server_in, mut server_out) = server.into_split();
                let (mut up, mut down) = ([0u8; 8192], [0u8; 8192]);
                loop {
                    // A fresh timer each time anything passes: it fires only after `idle` of
                    // silence both ways.
                    tokio::select! {
                        read = client_in.read(&mut up) => match read {
                            Ok(n) if n > 0 && server_out.write_all(&up[..n]).await.is_ok() => {}
                            _ => break,
                        },
                        read = server_in.read(&mut down) => match read {
                            Ok(n) if n > 0 && client_out.write_all(&down[..n]).await.is_ok() => {}
                            _ => break,
                        },
                        () = tokio::time::sleep(idle) => {
                            cuts.fetch_add(1, Ordering::SeqCst);
                            break;
                        }
                    }
                }
            });
        }
    });
    (address, cuts)
}

#[tokio::test]
async fn a_rooms_stream_stays_open_through_a_quiet_minute_behind_a_proxy_that_cuts_idle_connections(
) {
    use std::sync::atomic::Ordering;
    use std::time::{Duration, Instant};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let (app, _engine) = app().await;
    let (code, host) = create(&app, "Host", false).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let upstream = listener.local_addr().unwrap();
    tokio::spawn(app::http::serve::serve(
        listener,
        app.clone(),
        app::http::serve::Timeouts::default(),
        std::future::pending(),
    ));
    let (proxy, cuts) = idle_cutting_proxy(upstream, Duration::from_secs(60)).await;

    let mut stream = tokio::net::TcpStream::connect(proxy).await.unwrap();
    stream
        .write_all(
            format!(
                // The host's own page: with them listening, nobody shows away, and the room is quiet.
                "GET /r/{code}/events HTTP/1.1\r\nHost: udd.test\r\nAccept: text/event-stream\r\nCookie: {host}\r\n\r\n"
            )
            .as_bytes(),
        )
        .await
        .unwrap();
    let mut heard = String::new();
    let mut buf = [0u8; 8192];
    let mut read_until = async |stream: &mut tokio::net::TcpStream,
                                heard: &mut String,
                                until: Instant,
                                done: &dyn Fn(&str) -> bool| {
        while !done(heard) {
            let left = until.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, stream.read(&mut buf)).await {
                Err(_) => return,
                Ok(Ok(0)) | Ok(Err(_)) => panic!("the stream was cut; it had sent: {heard}"),
                Ok(Ok(n)) => heard.push_str(&String::from_utf8_lossy(&buf[..n])),
            }
        }
    };
    let soon = || Instant::now() + Duration::from_secs(10);
    read_until(&mut stream, &mut heard, soon(), &|h| h.contains("data:")).await;
    assert!(heard.starts_with("HTTP/1.1 200"), "{heard}");
    assert!(
        heard.contains("\"Host\""),
        "the room's first snapshot: {heard}"
    );

    // A quiet lobby for 75 s: nothing changes, so only the server's keep-alives cross the proxy.
    let quiet = heard.len();
    read_until(
        &mut stream,
        &mut heard,
        Instant::now() + Duration::from_secs(75),
        &|_| false,
    )
    .await;
    assert_eq!(cuts.load(Ordering::SeqCst), 0, "the proxy cut the stream");
    let during = &heard[quiet..];
    assert!(
        during.matches("\n:").count() >= 4,
        "a keep-alive at least every 15 s kept the connection busy: {during:?}"
    );
    assert!(!during.contains("data:"), "nothing changed: {during:?}");

    // The same connection still carries the room: a join arrives on it.
    let (joined, _) = join(&app, &code, "Asha").await;
    assert!(joined.status.is_success(), "{}", joined.json);
    read_until(&mut stream, &mut heard, soon(), &|h| {
        h[quiet..].contains("Asha")
    })
    .await;
    assert!(
        heard[quiet..].contains("Asha"),
        "the join arrived on the stream that stayed open: {}",
        &heard[quiet..]
    );
}
