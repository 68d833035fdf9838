//! Identity over HTTP, driven through the router in-process: the guest cookie, who-am-I, claim,
//! sign-in (by username and by email) with session rotation, sign-out, bad input, forged
//! cookies and the sign-in rate limit.

use crate::support;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use tower::ServiceExt;

use support::{app, cookie_pair, post};

async fn guest(app: &Router, name: &str) -> (String, serde_json::Value) {
    let reply = post(app, "/api/guest", &format!("name={name}&avatar=owl"), None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    let set_cookie = reply.cookie.expect("a session cookie");
    assert!(set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Lax"));
    (cookie_pair(&set_cookie), reply.json)
}

#[tokio::test]
async fn a_guest_gets_a_cookie_that_says_who_they_are() {
    let (app, _engine) = app().await;
    let (cookie, profile) = guest(&app, "Asha").await;
    assert_eq!(profile["display_name"], "Asha");
    assert_eq!(profile["avatar"], "owl");
    let me = post(&app, "/api/me", "", Some(&cookie)).await;
    assert_eq!(me.json["id"], profile["id"]);

    let nobody = post(&app, "/api/me", "", None).await;
    assert_eq!(nobody.json, serde_json::Value::Null);
    let forged = post(
        &app,
        "/api/me",
        "",
        Some(&format!("udd_session={}", "A".repeat(43))),
    )
    .await;
    assert_eq!(
        forged.json,
        serde_json::Value::Null,
        "a forged cookie is nobody"
    );
}

#[tokio::test]
async fn bad_names_are_refused_with_a_message_and_no_cookie() {
    let (app, _engine) = app().await;
    for bad in ["", "%07bell", &"x".repeat(25)] {
        let reply = post(&app, "/api/guest", &format!("name={bad}"), None).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{bad:?}");
        assert!(reply.cookie.is_none());
        assert!(
            reply.json.to_string().to_lowercase().contains("name"),
            "{}",
            reply.json
        );
    }
}

#[tokio::test]
async fn claiming_needs_a_session_and_signing_in_rotates_it() {
    let (app, _engine) = app().await;
    let anonymous = post(
        &app,
        "/api/claim",
        "username=asha&password=correct+horse",
        None,
    )
    .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);

    let (guest_cookie, profile) = guest(&app, "Asha").await;
    let claimed = post(
        &app,
        "/api/claim",
        "username=Asha&password=correct+horse&email=asha%40example.com",
        Some(&guest_cookie),
    )
    .await;
    assert_eq!(claimed.status, StatusCode::OK, "{}", claimed.json);
    assert_eq!(claimed.json["username"], "asha");

    let (other_cookie, _) = guest(&app, "Ravi").await;
    let taken = post(
        &app,
        "/api/claim",
        "username=asha&password=another+one",
        Some(&other_cookie),
    )
    .await;
    assert_eq!(taken.status, StatusCode::CONFLICT);
    assert!(taken.json.to_string().contains("taken"), "{}", taken.json);

    let signed_out = post(&app, "/api/sign-out", "", Some(&guest_cookie)).await;
    assert!(signed_out.cookie.unwrap().contains("Max-Age=0"));
    let me = post(&app, "/api/me", "", Some(&guest_cookie)).await;
    assert_eq!(
        me.json,
        serde_json::Value::Null,
        "sign-out ended the session on the server"
    );

    let wrong = post(
        &app,
        "/api/sign-in",
        "login=asha&password=wrong+horse",
        None,
    )
    .await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST);
    assert!(wrong.cookie.is_none());

    // Sign in by email, carrying another session: that one ends (rotation).
    let signed_in = post(
        &app,
        "/api/sign-in",
        "login=ASHA%40example.com&password=correct+horse",
        Some(&other_cookie),
    )
    .await;
    assert_eq!(signed_in.status, StatusCode::OK, "{}", signed_in.json);
    assert_eq!(signed_in.json["id"], profile["id"]);
    let new_cookie = cookie_pair(&signed_in.cookie.unwrap());
    assert_ne!(new_cookie, other_cookie);
    assert_eq!(
        post(&app, "/api/me", "", Some(&other_cookie)).await.json,
        serde_json::Value::Null
    );
    assert_eq!(
        post(&app, "/api/me", "", Some(&new_cookie)).await.json["id"],
        profile["id"]
    );

    let by_name = post(
        &app,
        "/api/sign-in",
        "login=asha&password=correct+horse",
        None,
    )
    .await;
    assert_eq!(by_name.status, StatusCode::OK);
}

#[tokio::test]
async fn sign_in_attempts_are_rate_limited() {
    let (app, _engine) = app().await;
    let mut statuses = Vec::new();
    for _ in 0..12 {
        statuses.push(
            post(
                &app,
                "/api/sign-in",
                "login=victim&password=guess+guess",
                None,
            )
            .await
            .status,
        );
    }
    assert!(
        statuses[..10].iter().all(|s| *s == StatusCode::BAD_REQUEST),
        "{statuses:?}"
    );
    assert!(
        statuses[10..]
            .iter()
            .all(|s| *s == StatusCode::TOO_MANY_REQUESTS),
        "{statuses:?}"
    );
}

#[tokio::test]
async fn a_huge_body_is_refused_before_anything_is_written() {
    let (app, _engine) = app().await;
    let huge = format!("name={}", "a".repeat(200 * 1024));
    // Streamed without a length: refused when read, before any handler (`http::deadline`).
    let reply = post(&app, "/api/guest", &huge, None).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(reply.cookie.is_none());
    // With its length declared, as browsers send forms: refused before it is read.
    let response = app
        .clone()
        .oneshot(
            Request::post("/api/guest")
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                .header(header::CONTENT_LENGTH, huge.len())
                .body(Body::from(huge))
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert!(response.headers().get(header::SET_COOKIE).is_none());
}

/// How many times the fifty sessions race (each time every session asks once).
const RACES: usize = 20;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_sessions_at_once_each_get_their_own_answers_and_no_request_reaches_anothers() {
    use support::{form, get_page, send};
    let (app, _engine) = app().await;
    let mut players = Vec::new();
    for i in 0..50 {
        // Fifty players from fifty addresses (one address may start only so many guests).
        let name = format!("Racer{i}");
        let started = send(
            &app,
            form("/api/guest", &format!("name={name}&avatar=owl"), None)
                .from(&format!("198.51.100.{}", 100 + i)),
        )
        .await;
        assert_eq!(started.status, StatusCode::OK, "{}", started.body);
        let id = started.json()["id"].as_str().unwrap().to_owned();
        players.push((started.cookie().expect("a session cookie"), id, name));
    }
    let crossed_before = app::identity::session::crossed_sessions();
    let mut wrong = Vec::new();
    for _ in 0..RACES {
        let mut racing = tokio::task::JoinSet::new();
        for (i, (cookie, id, name)) in players.iter().cloned().enumerate() {
            let app = app.clone();
            racing.spawn(async move {
                if i % 2 == 0 {
                    // A signed-in page: the account page asks who the caller is.
                    let page = send(&app, get_page("/me").header("cookie", &cookie)).await;
                    let shown = page
                        .body
                        .split(r#"data-testid="display-name">"#)
                        .nth(1)
                        .and_then(|rest| rest.split('<').next())
                        .unwrap_or("(none)")
                        .to_owned();
                    (shown == name)
                        .then_some(())
                        .ok_or(format!("/me for {name} showed {shown}"))
                } else {
                    // A server function answering as the caller.
                    let me = post(&app, "/api/me", "", Some(&cookie)).await;
                    (me.json["id"] == id.as_str()).then_some(()).ok_or(format!(
                        "/api/me for {name} answered {}",
                        me.json["display_name"]
                    ))
                }
            });
        }
        while let Some(answer) = racing.join_next().await {
            if let Err(err) = answer.unwrap() {
                wrong.push(err);
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} answers were another's: {wrong:?}",
        wrong.len()
    );
    let crossed = app::identity::session::crossed_sessions() - crossed_before;
    assert_eq!(
        crossed, 0,
        "requests found another request's session memo in reach {crossed} times"
    );
}

/// How many items the table holds: what a refused request must leave as it was.
async fn items(engine: &app::http::engine::Engine) -> i32 {
    engine
        .client
        .scan()
        .table_name("udd")
        .select(aws_sdk_dynamodb::types::Select::Count)
        .send()
        .await
        .unwrap()
        .count()
}

#[tokio::test]
async fn an_offensive_name_is_refused_in_the_players_language_and_nothing_is_written() {
    let (app, engine) = app().await;
    let (asha, _) = guest(&app, "Asha").await;
    let code = post(&app, "/api/rooms/create", "name=Asha", Some(&asha)).await;
    assert_eq!(code.status, StatusCode::OK, "{}", code.json);
    let code = code.json.as_str().unwrap().to_owned();
    for lang in ["en", "hi"] {
        let name_refused = crate::lang::worded(lang, "identity", &["errors", "name_refused"]);
        let username_refused =
            crate::lang::worded(lang, "identity", &["errors", "username_refused"]);
        let asha = format!("{asha}; udd_lang={lang}");
        let stranger = format!("udd_lang={lang}");
        let cases = [
            // A guest's name, in English dodged, in Devanagari, and in Hindi in Latin letters.
            (
                "/api/guest",
                "name=F.u.c.k%20Face".to_owned(),
                &stranger,
                &name_refused,
            ),
            (
                "/api/guest",
                "name=%E0%A4%9A%E0%A5%82%E0%A4%A4%E0%A4%BF%E0%A4%AF%E0%A4%BE".to_owned(),
                &stranger,
                &name_refused,
            ),
            // A nickname in a room, joining it and opening one.
            (
                "/api/rooms/join",
                format!("code={code}&name=Bh0sd1ke"),
                &stranger,
                &name_refused,
            ),
            (
                "/api/rooms/create",
                "name=Madar%20Chod".to_owned(),
                &asha,
                &name_refused,
            ),
            // A player's new name.
            (
                "/api/rename",
                "name=Chut1ya%20Raja".to_owned(),
                &asha,
                &name_refused,
            ),
            // A username, when a guest claims an account.
            (
                "/api/claim",
                "username=chutiya_07&password=correct+horse".to_owned(),
                &asha,
                &username_refused,
            ),
        ];
        for (path, body, cookie, expected) in cases {
            let before = items(&engine).await;
            let refused = post(&app, path, &body, Some(cookie)).await;
            assert_eq!(
                refused.status,
                StatusCode::BAD_REQUEST,
                "{lang} {path} {body}"
            );
            assert_eq!(
                refused.json,
                serde_json::json!({ "BadRequest": expected }),
                "{lang} {path} {body}"
            );
            assert!(refused.cookie.is_none(), "{lang} {path}: a cookie was set");
            assert_eq!(
                items(&engine).await,
                before,
                "{lang} {path}: something was written"
            );
        }
    }
    // The same forms take an ordinary name that contains a bad word.
    let dikshit = post(
        &app,
        "/api/rooms/join",
        &format!("code={code}&name=Shitij%20Dikshit"),
        None,
    )
    .await;
    assert_eq!(dikshit.status, StatusCode::OK, "{}", dikshit.json);
}
