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
    // Streamed without a length: refused when read.
    let reply = post(&app, "/api/guest", &huge, None).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
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
