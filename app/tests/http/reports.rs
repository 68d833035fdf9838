//! Reports over HTTP: one per reporter, never yourself, a flood refused past its limit with
//! nothing written; three reporters hide a player's name from their page; the review and its
//! acts refused to everyone but an operator.

use crate::support;

use axum::http::StatusCode;
use axum::Router;

use support::{app, app_with_operators, cookie_pair, get_page, post, send};

async fn guest(app: &Router, name: &str) -> (String, String) {
    let reply = post(app, "/api/guest", &format!("name={name}&avatar=owl"), None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    let cookie = cookie_pair(&reply.cookie.expect("a session cookie"));
    let id = reply.json["id"].as_str().unwrap().to_owned();
    (cookie, id)
}

async fn report(app: &Router, cookie: Option<&str>, player: &str, reason: &str) -> support::Reply {
    post(
        app,
        "/api/reports/report",
        &format!("player={player}&reason={reason}"),
        cookie,
    )
    .await
}

/// The items of partition `pk`, read raw.
async fn partition(engine: &app::http::engine::Engine, pk: &str) -> usize {
    engine
        .client
        .query()
        .table_name("udd")
        .key_condition_expression("PK = :pk")
        .expression_attribute_values(
            ":pk",
            aws_sdk_dynamodb::types::AttributeValue::S(pk.to_owned()),
        )
        .consistent_read(true)
        .send()
        .await
        .unwrap()
        .count() as usize
}

#[tokio::test]
async fn a_report_counts_once_per_reporter_and_a_flood_is_refused_past_its_limit() {
    let (app, engine) = app().await;
    let (me, my_id) = guest(&app, "Asha").await;
    let mut targets = Vec::new();
    for i in 0..10 {
        targets.push(guest(&app, &format!("Player{i}")).await.1);
    }

    let nobody = report(&app, None, &targets[0], "name").await;
    assert_eq!(nobody.status, StatusCode::UNAUTHORIZED);
    for lang in ["en", "hi"] {
        let cookie = format!("{me}; udd_lang={lang}");
        let yourself = report(&app, Some(&cookie), &my_id, "abuse").await;
        assert_eq!(yourself.status, StatusCode::BAD_REQUEST);
        let expected = crate::lang::worded(lang, "reports", &["not_yourself"]);
        assert_eq!(yourself.json, serde_json::json!({ "BadRequest": expected }));
    }
    assert_eq!(partition(&engine, &format!("REPORT#{my_id}")).await, 0);
    let bad_reason = report(&app, Some(&me), &targets[0], "boring").await;
    assert_eq!(bad_reason.status, StatusCode::BAD_REQUEST);

    let first = report(&app, Some(&me), &targets[0], "name").await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.json);
    assert_eq!(
        first.json,
        serde_json::json!({ "counted": { "hidden": false } })
    );
    let again = report(&app, Some(&me), &targets[0], "abuse").await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.json);
    assert_eq!(again.json, serde_json::json!("again"));
    assert_eq!(
        partition(&engine, &format!("REPORT#{}", targets[0])).await,
        1
    );

    // Ten reports an hour (the two above among them); the eleventh is refused and writes nothing.
    for target in &targets[1..9] {
        let reply = report(&app, Some(&me), target, "other").await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    }
    let flood = report(&app, Some(&me), &targets[9], "other").await;
    assert_eq!(
        flood.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        flood.json
    );
    assert_eq!(
        partition(&engine, &format!("REPORT#{}", targets[9])).await,
        0
    );
    // Another reporter is not held up by the first one's limit.
    let (other, _) = guest(&app, "Bilal").await;
    let reply = report(&app, Some(&other), &targets[9], "other").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
}

#[tokio::test]
async fn three_reporters_hide_a_name_and_only_an_operator_reviews_and_clears_it() {
    let (app, engine) = app_with_operators(&["opal"]).await;
    let (_, target) = guest(&app, "Zed%20Target").await;
    let profile = format!("/p/{target}");
    let page = send(&app, get_page(&profile)).await;
    assert!(page.body.contains("Zed Target"));
    let tag = format!("\u{1F464}\u{B7}{}", &target[target.len() - 3..]);

    let mut outcomes = Vec::new();
    for name in ["Asha", "Bilal", "Chitra"] {
        let (cookie, _) = guest(&app, name).await;
        let reply = report(&app, Some(&cookie), &target, "name").await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
        outcomes.push(reply.json);
    }
    assert_eq!(
        outcomes,
        vec![
            serde_json::json!({ "counted": { "hidden": false } }),
            serde_json::json!({ "counted": { "hidden": false } }),
            serde_json::json!({ "counted": { "hidden": true } }),
        ]
    );
    let page = send(&app, get_page(&profile)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(!page.body.contains("Zed Target"), "the name is hidden");
    assert!(page.body.contains(&tag), "drawn as its tag");

    // A player who is not an operator: refused at the page, the review and each act.
    let (stranger, _) = guest(&app, "Dev").await;
    let review = post(&app, "/api/operator/review", "", Some(&stranger)).await;
    assert_eq!(review.status, StatusCode::FORBIDDEN, "{}", review.json);
    let anonymous = post(&app, "/api/operator/review", "", None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let page = send(&app, get_page("/operator").header("cookie", &stranger)).await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    assert!(!page.body.contains("review-reports"));
    let act = post(
        &app,
        "/api/operator/act",
        &format!("act=clear&player={target}"),
        Some(&stranger),
    )
    .await;
    assert_eq!(act.status, StatusCode::FORBIDDEN);
    assert_eq!(partition(&engine, &format!("REPORT#{target}")).await, 3);
    // A guest cannot be an operator by their name: an operator is a claimed username.
    let (opal_guest, _) = guest(&app, "opal").await;
    let review = post(&app, "/api/operator/review", "", Some(&opal_guest)).await;
    assert_eq!(review.status, StatusCode::FORBIDDEN);

    // The operator: a claimed account with the configured username.
    let claimed = post(
        &app,
        "/api/claim",
        "username=opal&password=correct+horse",
        Some(&opal_guest),
    )
    .await;
    assert_eq!(claimed.status, StatusCode::OK, "{}", claimed.json);
    let operator = cookie_pair(&claimed.cookie.expect("a new session"));
    let review = post(&app, "/api/operator/review", "", Some(&operator)).await;
    assert_eq!(review.status, StatusCode::OK, "{}", review.json);
    assert_eq!(review.json["reports"][0]["user"], target.as_str());
    assert_eq!(review.json["reports"][0]["count"], 3);
    assert_eq!(review.json["reports"][0]["hidden"], true);
    assert_eq!(review.json["hidden"][0]["by"], "reports");
    let page = send(&app, get_page("/operator").header("cookie", &operator)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("review-reports") && page.body.contains("Zed Target"));

    let cleared = post(
        &app,
        "/api/operator/act",
        &format!("act=clear&player={target}"),
        Some(&operator),
    )
    .await;
    assert_eq!(cleared.status, StatusCode::OK, "{}", cleared.json);
    assert_eq!(cleared.json, serde_json::json!(true));
    assert_eq!(partition(&engine, &format!("REPORT#{target}")).await, 0);
    let page = send(&app, get_page(&profile)).await;
    assert!(page.body.contains("Zed Target"), "shown again");
}
