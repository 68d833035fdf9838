//! What the HTTP test binaries share: an app on a fresh embedded engine, and form posts to
//! server functions as a browser sends them.

#![allow(dead_code)] // each test binary uses its own part of this

use app::data::Db;
use app::engine::{Engine, EngineConfig};
use app::http::{router, AppState};
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use leptos::prelude::LeptosOptions;
use tower::ServiceExt;

pub async fn app() -> (Router, Engine) {
    app_on(false).await
}

/// An app whose table holds the seed catalog (what a match draws from).
pub async fn app_with_catalog() -> (Router, Engine) {
    app_on(true).await
}

async fn app_on(catalog: bool) -> (Router, Engine) {
    let engine = Engine::start(EngineConfig::Embedded { data_dir: None })
        .await
        .unwrap();
    let db = Db::new(engine.client.clone(), "udd");
    db.ensure_table().await.unwrap();
    if catalog {
        let things = app::catalog::validate(app::catalog::seed::SEED).unwrap();
        db.seed_catalog(&things).await.unwrap();
    }
    let state = AppState::new(
        LeptosOptions::builder().output_name("udd").build(),
        db,
        "embedded",
    );
    (router(state), engine)
}

pub struct Reply {
    pub status: StatusCode,
    pub cookie: Option<String>,
    pub json: serde_json::Value,
}

/// POSTs a form to a server function, as a browser form or the hydrated app does.
pub async fn post(app: &Router, path: &str, form: &str, cookie: Option<&str>) -> Reply {
    let mut request = Request::post(path)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::ACCEPT, "application/json");
    if let Some(cookie) = cookie {
        request = request.header(header::COOKIE, cookie);
    }
    let response = app
        .clone()
        .oneshot(request.body(Body::from(form.to_owned())).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let cookie = response
        .headers()
        .get(header::SET_COOKIE)
        .map(|v| v.to_str().unwrap().to_owned());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let json = serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null);
    Reply {
        status,
        cookie,
        json,
    }
}

/// The `name=value` pair a browser sends back from a `Set-Cookie` header.
pub fn cookie_pair(set_cookie: &str) -> String {
    set_cookie.split(';').next().unwrap().to_owned()
}
