//! The game over HTTP, in-process: who may start a match and tap, what a bad tap is told, and
//! that no page or answer shows a thing before its reveal.

use crate::support;

use axum::http::StatusCode;
use axum::Router;

use support::{app_with_catalog, cookie_pair, post};

async fn room_with_friend(app: &Router) -> (String, String, String) {
    let created = post(app, "/api/rooms/create", "name=Host", None).await;
    let host = cookie_pair(&created.cookie.expect("a guest session"));
    let code = created.json.as_str().unwrap().to_owned();
    let joined = post(
        app,
        "/api/rooms/join",
        &format!("code={code}&name=Asha"),
        None,
    )
    .await;
    let friend = cookie_pair(&joined.cookie.expect("a guest session"));
    (code, host, friend)
}

#[tokio::test]
async fn only_the_host_starts_and_a_seed_must_be_a_number() {
    let (app, _engine) = app_with_catalog().await;
    let (code, host, friend) = room_with_friend(&app).await;
    let by_friend = post(
        &app,
        "/api/rooms/start",
        &format!("code={code}"),
        Some(&friend),
    )
    .await;
    assert_eq!(
        by_friend.status,
        StatusCode::FORBIDDEN,
        "{}",
        by_friend.json
    );
    let anonymous = post(&app, "/api/rooms/start", &format!("code={code}"), None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let bad_seed = post(
        &app,
        "/api/rooms/start",
        &format!("code={code}&seed=abc"),
        Some(&host),
    )
    .await;
    assert_eq!(bad_seed.status, StatusCode::BAD_REQUEST);
    assert!(bad_seed.json.to_string().contains("whole number"));
    let started = post(
        &app,
        "/api/rooms/start",
        &format!("code={code}&seed=7"),
        Some(&host),
    )
    .await;
    assert!(
        started.status.is_success(),
        "{:?} {}",
        started.status,
        started.json
    );
    let again = post(
        &app,
        "/api/rooms/start",
        &format!("code={code}"),
        Some(&host),
    )
    .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.json);
}

#[tokio::test]
async fn the_room_never_shows_a_thing_before_its_reveal_and_early_taps_are_refused() {
    let (app, _engine) = app_with_catalog().await;
    let (code, host, friend) = room_with_friend(&app).await;
    post(
        &app,
        "/api/rooms/start",
        &format!("code={code}&seed=7"),
        Some(&host),
    )
    .await;
    let lobby = post(
        &app,
        "/api/rooms/lobby",
        &format!("code={code}"),
        Some(&friend),
    )
    .await;
    let game = &lobby.json["lobby"]["game"];
    let rounds = game["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), 10);
    assert!(
        rounds
            .iter()
            .all(|r| r["thing"].is_null() && r["flies"].is_null()),
        "nothing is revealed during the countdown: {rounds:?}"
    );
    let round = &rounds[0];
    let tap = |cookie: Option<String>, reaction: u32| {
        let form = format!(
            "code={code}&round={}&reveal_ms={}&window_ms={}&reaction_ms={reaction}",
            round["n"], round["reveal_ms"], game["window_ms"]
        );
        let app = app.clone();
        async move { post(&app, "/api/rooms/tap", &form, cookie.as_deref()).await }
    };
    let early = tap(Some(friend.clone()), 300).await;
    assert_eq!(early.status, StatusCode::BAD_REQUEST);
    assert!(
        early.json.to_string().contains("not shown"),
        "{}",
        early.json
    );
    let anonymous = tap(None, 300).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let garbage = post(
        &app,
        "/api/rooms/tap",
        &format!("code={code}&round=x"),
        Some(&friend),
    )
    .await;
    assert_eq!(garbage.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_leaderboard_page_renders_on_the_server_with_its_preview_tags() {
    let (app, _engine) = app_with_catalog().await;
    let (code, _, _) = room_with_friend(&app).await;
    let response = tower::ServiceExt::oneshot(
        app.clone(),
        axum::http::Request::get(format!("/r/{code}/lb"))
            .body(axum::body::Body::empty())
            .unwrap(),
    )
    .await
    .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body = http_body_util::BodyExt::collect(response.into_body())
        .await
        .unwrap()
        .to_bytes();
    let html = String::from_utf8(body.to_vec()).unwrap();
    assert!(html.contains(&format!(
        r#"<meta property="og:title" content="Udd leaderboard: Best match · all time · room {code}""#
    )));
    assert!(html.contains("Nobody is on this board yet."), "{html}");
}

#[tokio::test]
async fn a_finished_match_has_its_page_and_is_listed_and_each_player_has_a_profile_without_javascript(
) {
    use app::catalog::seed::SEED;
    use app::store::Db;
    use support::{get_page, send};

    let (app, engine) = app_with_catalog().await;
    let db = Db::new(engine.client.clone(), "udd");
    let (code, host, _) = room_with_friend(&app).await;
    let started = post(
        &app,
        "/api/rooms/start",
        &format!("code={code}&seed=9"),
        Some(&host),
    )
    .await;
    assert_eq!(started.status, StatusCode::OK, "{}", started.json);
    let game = support::finish_match(&db, &code).await;
    // The match is the room's (by its id), not its code's.
    let id = db
        .rooms()
        .room_id_of(&app::rooms::RoomCode::parse(&code).unwrap())
        .await
        .unwrap();
    assert!(!id.is_legacy() && id.code().as_str() == code);
    let page = |path: String| {
        let app = app.clone();
        async move { send(&app, get_page(&path)).await }
    };

    let detail = page(format!("/m/{id}/{}", game.first_round)).await;
    assert_eq!(detail.status, StatusCode::OK, "{}", detail.body);
    let html = &detail.body;
    assert_eq!(
        html.matches(r#"data-testid="match-round""#).count(),
        game.rounds.len(),
        "a row per round"
    );
    assert_eq!(html.matches(r#"data-testid="match-player""#).count(), 2);
    assert_eq!(
        html.matches(r#"data-testid="play""#).count(),
        2 * game.rounds.len(),
        "a cell per player per round"
    );
    for thing in game.rounds.iter().filter_map(|r| r.thing.as_ref()) {
        assert!(html.contains(&thing.en), "{} is shown", thing.en);
    }
    // Each round's catalog note, as the catalog ships it, beside its ruling (the rounds do not
    // copy it).
    let notes: Vec<&str> = game
        .rounds
        .iter()
        .filter_map(|r| r.thing.as_ref())
        .filter_map(|t| SEED.iter().find(|s| s.id == t.id.as_str())?.note)
        .collect();
    assert!(!notes.is_empty(), "this seed draws a thing with a note");
    assert_eq!(
        html.matches(r#"data-testid="round-note""#).count(),
        notes.len()
    );
    for note in notes {
        let shown = note
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        assert!(html.contains(&shown), "{note}");
    }
    assert!(html.contains(r#"<meta property="og:title" content="Match in room "#));
    // The heading's moment is a moment like every other (the reader's time with JavaScript).
    let heading = html
        .split("<h1>")
        .nth(1)
        .and_then(|rest| rest.split("</h1>").next())
        .expect("a heading");
    assert!(
        heading.starts_with(&format!("Match in room {code}, <time datetime=")),
        "{heading}"
    );
    assert!(!html.contains("<leptos-island"), "no island, so no wasm");
    let host_id = game.standings()[0].1.user_id.clone();
    let profile_link = format!("/p/{}", host_id.as_str());
    assert!(html.contains(&profile_link), "names link to profiles");

    let match_link = format!("/m/{id}/{}", game.first_round);
    for list in [
        "/matches".to_owned(),
        format!("/matches?room={code}"),
        format!("/r/{code}/lb"),
    ] {
        let answer = page(list.clone()).await;
        assert_eq!(answer.status, StatusCode::OK, "{list}");
        assert!(
            answer.body.contains(&match_link),
            "{list} links to the match"
        );
    }

    let profile = page(profile_link).await;
    assert_eq!(profile.status, StatusCode::OK, "{}", profile.body);
    // When they joined is a moment like every other (the reader's time with JavaScript).
    let joined = profile
        .body
        .split(r#"data-testid="profile-joined""#)
        .nth(1)
        .and_then(|rest| rest.split("</p>").next())
        .expect("when they joined");
    assert!(joined.contains("joined <time datetime="), "{joined}");
    assert!(joined.contains("data-local"), "{joined}");
    assert!(
        profile.body.contains(&match_link),
        "the profile links to the match"
    );
    // No projector runs here, so no boards yet: the page says so with an empty table.
    assert!(profile.body.contains(r#"data-testid="profile-boards""#));

    // Share cards: each page names its own (absolute, from the request's host), a 1200 × 630 PNG.
    let with_host = send(
        &app,
        get_page(&format!("/m/{id}/{}", game.first_round)).header("host", "udd.test"),
    )
    .await;
    let card = format!("/og/m/{id}/{}", game.first_round);
    assert!(
        with_host.body.contains(&format!(
            r#"<meta property="og:image" content="http://udd.test{card}""#
        )),
        "{}",
        with_host.body
    );
    assert!(with_host
        .body
        .contains(r#"<meta name="twitter:card" content="summary_large_image""#));
    for path in [card.clone(), format!("/og/p/{}", host_id.as_str())] {
        let image = page(path.clone()).await;
        assert_eq!(image.status, StatusCode::OK, "{path}: {}", image.body);
        assert_eq!(image.header("content-type"), Some("image/png"), "{path}");
        assert_eq!(
            image.header("cache-control"),
            Some("public, max-age=300"),
            "{path}"
        );
    }
    let raw = tower::ServiceExt::oneshot(
        app.clone(),
        axum::http::Request::get(&card)
            .body(axum::body::Body::empty())
            .unwrap(),
    )
    .await
    .unwrap();
    let png = http_body_util::BodyExt::collect(raw.into_body())
        .await
        .unwrap()
        .to_bytes();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let word = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    assert_eq!((word(16), word(20)), (1200, 630));
    for (path, status) in [
        (
            format!("/og/m/{id}/{}", game.first_round + 32),
            StatusCode::NOT_FOUND,
        ),
        (format!("/og/m/{id}/nope"), StatusCode::BAD_REQUEST),
        // The code's address is a match kept under the code, before rooms had ids: not this.
        (
            format!("/og/r/{code}/m/{}", game.first_round),
            StatusCode::NOT_FOUND,
        ),
        (format!("/og/r/{code}/m/nope"), StatusCode::BAD_REQUEST),
        ("/og/m/k7qx2-x/1".to_owned(), StatusCode::BAD_REQUEST),
        ("/og/p/nope".to_owned(), StatusCode::BAD_REQUEST),
        (
            "/og/p/01ARZ3NDEKTSV4RRFFQ69G5FAV".to_owned(),
            StatusCode::NOT_FOUND,
        ),
        // No projector here: the board is empty, and its card says so.
        ("/og/lb/best/all/global".to_owned(), StatusCode::OK),
        (
            "/og/lb/worst/all/global".to_owned(),
            StatusCode::BAD_REQUEST,
        ),
    ] {
        assert_eq!(page(path.clone()).await.status, status, "{path}");
    }

    for (path, status) in [
        (
            format!("/m/{id}/{}", game.first_round + 32),
            StatusCode::NOT_FOUND,
        ),
        (format!("/m/{id}/nope"), StatusCode::NOT_FOUND),
        (
            format!("/r/{code}/m/{}", game.first_round),
            StatusCode::NOT_FOUND,
        ),
        ("/matches?room=bad!".to_owned(), StatusCode::BAD_REQUEST),
        ("/matches?after=forged".to_owned(), StatusCode::BAD_REQUEST),
        (
            "/p/01ARZ3NDEKTSV4RRFFQ69G5FAV".to_owned(),
            StatusCode::NOT_FOUND,
        ),
        ("/p/not-an-id".to_owned(), StatusCode::NOT_FOUND),
        (
            format!("/p/{}?after=forged", host_id.as_str()),
            StatusCode::BAD_REQUEST,
        ),
    ] {
        assert_eq!(page(path.clone()).await.status, status, "{path}");
    }
}

/// The round's fields a tap sends, as `code=..&round=..&reveal_ms=..&window_ms=..`.
fn round_form(code: &str, lobby: &serde_json::Value, index: usize) -> (String, i64) {
    let game = &lobby["lobby"]["game"];
    let round = &game["rounds"][index];
    let reveal = round["reveal_ms"].as_i64().unwrap();
    (
        format!(
            "code={code}&round={}&reveal_ms={reveal}&window_ms={}",
            round["n"], game["window_ms"]
        ),
        reveal,
    )
}

#[tokio::test]
async fn the_audience_joins_by_form_taps_along_once_and_every_bad_call_is_a_clear_refusal() {
    let (app, engine) = app_with_catalog().await;
    let (code, host, friend) = room_with_friend(&app).await;
    post(
        &app,
        "/api/rooms/start",
        &format!("code={code}&seed=7"),
        Some(&host),
    )
    .await;

    // A visitor without a name is refused, and becomes nobody.
    let nameless = post(&app, "/api/rooms/audience", &format!("code={code}"), None).await;
    assert_eq!(
        nameless.status,
        StatusCode::BAD_REQUEST,
        "{}",
        nameless.json
    );
    assert!(nameless.cookie.is_none());
    // A visitor with a name joins, as a guest.
    let joined = post(
        &app,
        "/api/rooms/audience",
        &format!("code={code}&name=Fan"),
        None,
    )
    .await;
    assert!(
        joined.status.is_success(),
        "{:?} {}",
        joined.status,
        joined.json
    );
    let fan = cookie_pair(&joined.cookie.expect("a guest session"));
    let again = post(
        &app,
        "/api/rooms/audience",
        &format!("code={code}"),
        Some(&fan),
    )
    .await;
    assert!(
        again.status.is_success(),
        "joining twice is joining once: {}",
        again.json
    );
    // A player of the match in play is a player, not audience.
    let player = post(
        &app,
        "/api/rooms/audience",
        &format!("code={code}"),
        Some(&host),
    )
    .await;
    assert_eq!(player.status, StatusCode::CONFLICT, "{}", player.json);
    // An unknown room.
    let unknown = post(&app, "/api/rooms/audience", "code=ZZZZZ&name=Fan", None).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND, "{}", unknown.json);

    // The page tells the audience member they are in it (no calls yet), and nobody else.
    let page = |cookie: String| {
        let app = app.clone();
        let code = code.clone();
        async move {
            post(
                &app,
                "/api/rooms/lobby",
                &format!("code={code}"),
                Some(&cookie),
            )
            .await
        }
    };
    let fans_page = page(fan.clone()).await;
    assert_eq!(
        fans_page.json["along"],
        serde_json::json!(0),
        "{}",
        fans_page.json
    );
    assert!(page(friend.clone()).await.json["along"].is_null());

    let (round, reveal) = round_form(&code, &fans_page.json, 0);
    let tap = |path: &'static str, cookie: Option<String>, fields: String| {
        let app = app.clone();
        async move { post(&app, path, &fields, cookie.as_deref()).await }
    };
    // Before the reveal.
    let early = tap(
        "/api/rooms/tap-along",
        Some(fan.clone()),
        format!("{round}&reaction_ms=300"),
    )
    .await;
    assert_eq!(early.status, StatusCode::BAD_REQUEST, "{}", early.json);
    // A forged reveal time: refused, not an overflow.
    let forged = tap(
        "/api/rooms/tap-along",
        Some(fan.clone()),
        format!(
            "code={code}&round=1&reveal_ms={}&window_ms=3000&reaction_ms=300",
            i64::MIN
        ),
    )
    .await;
    assert_eq!(forged.status, StatusCode::BAD_REQUEST, "{}", forged.json);
    let anonymous = tap(
        "/api/rooms/tap-along",
        None,
        format!("{round}&reaction_ms=300"),
    )
    .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);

    // Once the round shows: a stranger (a player of another room) is not in this audience, a
    // player taps as a player, and a reveal the round does not have is refused.
    let other = post(&app, "/api/rooms/create", "name=Stranger", None).await;
    let stranger = cookie_pair(&other.cookie.unwrap());
    let wait = reveal + 400 - app::store::epoch_millis();
    tokio::time::sleep(std::time::Duration::from_millis(wait.max(0) as u64)).await;
    let outsider = tap(
        "/api/rooms/tap-along",
        Some(stranger),
        format!("{round}&reaction_ms=300"),
    )
    .await;
    assert_eq!(outsider.status, StatusCode::FORBIDDEN, "{}", outsider.json);
    let by_player = tap(
        "/api/rooms/tap-along",
        Some(host.clone()),
        format!("{round}&reaction_ms=300"),
    )
    .await;
    assert_eq!(by_player.status, StatusCode::CONFLICT, "{}", by_player.json);
    let shifted = round.replace(
        &format!("reveal_ms={reveal}"),
        &format!("reveal_ms={}", reveal - 50),
    );
    let wrong_reveal = tap(
        "/api/rooms/tap-along",
        Some(fan.clone()),
        format!("{shifted}&reaction_ms=300"),
    )
    .await;
    assert_eq!(
        wrong_reveal.status,
        StatusCode::CONFLICT,
        "{}",
        wrong_reveal.json
    );
    // The audience member's tap as a player's: they are not in the match.
    let as_player = tap(
        "/api/rooms/tap",
        Some(fan.clone()),
        format!("{round}&reaction_ms=300"),
    )
    .await;
    assert_eq!(
        as_player.status,
        StatusCode::FORBIDDEN,
        "{}",
        as_player.json
    );

    // Their call counts, once.
    let first = tap(
        "/api/rooms/tap-along",
        Some(fan.clone()),
        format!("{round}&reaction_ms=320"),
    )
    .await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.json);
    assert_eq!(first.json["first"], serde_json::json!(true));
    let second = tap(
        "/api/rooms/tap-along",
        Some(fan.clone()),
        format!("{round}&reaction_ms=500"),
    )
    .await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.json);
    assert_eq!(second.json["first"], serde_json::json!(false));
    assert_eq!(
        page(fan.clone()).await.json["along"],
        serde_json::json!(1),
        "bit 0: round 1 called"
    );

    // The audience past its limit (the count set in the table, as a thousand joins would leave
    // it): a clear refusal, and the refused visitor becomes nobody.
    engine
        .client
        .update_item()
        .table_name("udd")
        .key(
            "PK",
            aws_sdk_dynamodb::types::AttributeValue::S(format!("ROOM#{code}")),
        )
        .key(
            "SK",
            aws_sdk_dynamodb::types::AttributeValue::S("META".into()),
        )
        .update_expression("SET audience = :limit")
        .expression_attribute_values(
            ":limit",
            aws_sdk_dynamodb::types::AttributeValue::N(
                app::rooms::model::AUDIENCE_LIMIT.to_string(),
            ),
        )
        .send()
        .await
        .unwrap();
    let full = post(
        &app,
        "/api/rooms/audience",
        &format!("code={code}&name=Late"),
        None,
    )
    .await;
    assert_eq!(full.status, StatusCode::CONFLICT, "{}", full.json);
    assert!(
        full.json.to_string().contains("audience is full"),
        "{}",
        full.json
    );
    assert!(full.cookie.is_none(), "a refused join makes no guest");
}
