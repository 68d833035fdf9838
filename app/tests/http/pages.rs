//! The server's HTTP surface, driven in-process through the axum router: the health check, the
//! server-rendered catalog page (as a browser without JavaScript sees it), the JSON catalog API
//! and the per-request DynamoDB report.

use app::http::engine::{endpoint_client, Engine};
use app::http::{router, AppState, SecurityConfig};
use app::store::Db;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use leptos::prelude::LeptosOptions;
use tower::ServiceExt;

use crate::support;

/// `Server-Timing` on, as an operator turns it on (these tests read it).
fn timed() -> SecurityConfig {
    SecurityConfig {
        server_timing: true,
        ..SecurityConfig::default()
    }
}

/// One instance on a fresh table holding the catalog.
async fn app() -> (Router, Engine) {
    let (mut apps, engine) = support::instances(true, 1, timed()).await;
    (apps.remove(0), engine)
}

/// The app on an engine endpoint where nothing listens.
async fn unreachable_app() -> Router {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let db = Db::new(endpoint_client(&url).await, "udd");
    let state = AppState::new(
        LeptosOptions::builder().output_name("udd").build(),
        db,
        "endpoint",
    );
    router(state.with_security(timed()))
}

struct Reply {
    status: StatusCode,
    nosniff: bool,
    server_timing: Option<String>,
    body: String,
}

async fn get(app: &Router, uri: &str) -> Reply {
    let response = app
        .clone()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let nosniff = response.headers().get("x-content-type-options")
        == Some(&axum::http::HeaderValue::from_static("nosniff"));
    let server_timing = response
        .headers()
        .get("server-timing")
        .map(|v| v.to_str().unwrap().to_owned());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Reply {
        status,
        nosniff,
        server_timing,
        body: String::from_utf8(bytes.to_vec()).unwrap(),
    }
}

#[tokio::test]
async fn healthz_is_200_with_engine_and_table_status() {
    let (app, _engine) = app().await;
    let reply = get(&app, "/healthz").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let json: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
    assert_eq!(json["status"], "ok");
    assert_eq!(json["engine"], "embedded");
    assert_eq!(json["table_status"], "ACTIVE");
    assert!(json["probe_ms"].as_f64().is_some());
}

#[tokio::test]
async fn healthz_is_503_when_the_engine_is_unreachable() {
    let app = unreachable_app().await;
    let reply = get(&app, "/healthz").await;
    assert_eq!(
        reply.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        reply.body
    );
    let json: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
    assert_eq!(json["status"], "unavailable");
    assert!(
        !reply.body.contains("127.0.0.1"),
        "internals leak: {}",
        reply.body
    );
}

/// The load balancer's check: the process serves, whatever the table does.
#[tokio::test]
async fn livez_is_200_while_the_engine_is_unreachable_and_healthz_is_503() {
    let app = unreachable_app().await;
    let live = get(&app, "/livez").await;
    assert_eq!((live.status, live.body.as_str()), (StatusCode::OK, "ok"));
    assert_eq!(
        get(&app, "/healthz").await.status,
        StatusCode::SERVICE_UNAVAILABLE
    );
}

/// However many ask at once, the table is probed once a second per instance: every answer
/// within a second is that probe's.
#[tokio::test]
async fn healthz_shares_one_probe_among_everyone_who_asks_within_a_second() {
    let (app, _engine) = app().await;
    let probed_at = |reply: &Reply| {
        let json: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
        json["probed_at_ms"].as_i64().expect("probed_at_ms")
    };
    let replies = futures::future::join_all((0..16).map(|_| get(&app, "/healthz"))).await;
    assert!(replies.iter().all(|r| r.status == StatusCode::OK));
    let first = probed_at(&replies[0]);
    assert!(
        replies.iter().all(|r| probed_at(r) == first),
        "{:?}",
        replies.iter().map(probed_at).collect::<Vec<_>>()
    );
    tokio::time::sleep(app::http::health::HEALTH_FRESH + std::time::Duration::from_millis(50))
        .await;
    let later = probed_at(&get(&app, "/healthz").await);
    assert!(
        later > first,
        "a new probe after a second: {first} then {later}"
    );
}

#[tokio::test]
async fn things_page_renders_every_thing_on_the_server_in_one_query() {
    let (app, _engine) = app().await;
    let reply = get(&app, "/things").await;
    assert_eq!(reply.status, StatusCode::OK);
    let cards = reply.body.matches(r#"data-testid="thing""#).count();
    assert!(cards >= 150, "{cards} things rendered");
    assert!(reply.body.contains("Kauwa") || reply.body.contains("कौआ"));
    assert!(reply.nosniff, "security headers are set");
    assert_eq!(
        reply
            .server_timing
            .as_deref()
            .map(|t| t.contains("\"1 calls")),
        Some(true),
        "{:?}",
        reply.server_timing
    );
}

#[tokio::test]
async fn things_page_filters_by_query_string_without_javascript() {
    let (app, _engine) = app().await;
    let flyers = get(&app, "/things?flies=yes").await.body;
    let grounded = get(&app, "/things?flies=no").await.body;
    assert!(flyers.contains(r#"data-flies="true""#));
    assert!(!flyers.contains(r#"data-flies="false""#));
    assert!(grounded.contains(r#"data-flies="false""#));
    assert!(!grounded.contains(r#"data-flies="true""#));
    let searched = get(&app, "/things?flies=all&q=elephant").await.body;
    assert_eq!(searched.matches(r#"data-testid="thing""#).count(), 1);
}

#[tokio::test]
async fn player_text_in_the_query_is_escaped() {
    let (app, _engine) = app().await;
    let reply = get(&app, "/things?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(!reply.body.contains("<script>alert(1)</script>"));
}

#[tokio::test]
async fn unknown_pages_are_404() {
    let (app, _engine) = app().await;
    assert_eq!(
        get(&app, "/no-such-page").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn the_json_api_pages_through_the_catalog_and_rejects_forged_cursors() {
    let (app, _engine) = app().await;
    let first: serde_json::Value =
        serde_json::from_str(&get(&app, "/api/things?flies=no&limit=10").await.body).unwrap();
    assert_eq!(first["items"].as_array().unwrap().len(), 10);
    assert!(first["items"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["flies"] == false));
    let cursor = first["next"].as_str().expect("a next cursor");
    let second: serde_json::Value = serde_json::from_str(
        &get(
            &app,
            &format!("/api/things?flies=no&limit=10&cursor={cursor}"),
        )
        .await
        .body,
    )
    .unwrap();
    assert_ne!(first["items"][0]["id"], second["items"][0]["id"]);

    let forged = get(&app, "/api/things?flies=no&cursor=eyJQSyI6Ik9CSiN6In0.AAAA").await;
    assert_eq!(forged.status, StatusCode::BAD_REQUEST);
    assert!(
        forged.body.contains("page link is invalid"),
        "{}",
        forged.body
    );
}
