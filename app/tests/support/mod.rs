//! What the HTTP test binaries share: an app on a fresh embedded engine, and form posts to
//! server functions as a browser sends them.

#![allow(dead_code)] // each test binary uses its own part of this

pub mod faults;

use app::http::engine::{Engine, EngineConfig};
use app::http::{router, AppState, SecurityConfig};
use app::store::Db;
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
    let (mut apps, engine) = instances(catalog, 1, SecurityConfig::default()).await;
    (apps.remove(0), engine)
}

/// `count` instances (each its own state and live hub) on one table, with these settings.
pub async fn instances(
    catalog: bool,
    count: usize,
    security: SecurityConfig,
) -> (Vec<Router>, Engine) {
    let (db, engine) = fresh_table(catalog).await;
    let apps = (0..count)
        .map(|_| {
            router(
                AppState::new(
                    LeptosOptions::builder().output_name("udd").build(),
                    db.clone(),
                    "embedded",
                )
                .with_security(security.clone()),
            )
        })
        .collect();
    (apps, engine)
}

/// A fresh embedded engine's table (holding the seed catalog when `catalog`).
async fn fresh_table(catalog: bool) -> (Db, Engine) {
    let engine = Engine::start(EngineConfig::Embedded { data_dir: None })
        .await
        .unwrap();
    let db = Db::new(engine.client.clone(), "udd");
    db.ensure_table().await.unwrap();
    if catalog {
        let things = app::catalog::validate(app::catalog::seed::SEED).unwrap();
        db.catalog().seed_catalog(&things).await.unwrap();
    }
    (db, engine)
}

/// An instance's state on `db`, with the default security settings.
fn state_on(db: Db) -> AppState {
    AppState::new(
        LeptosOptions::builder().output_name("udd").build(),
        db,
        "embedded",
    )
    .with_security(SecurityConfig::default())
}

/// An app with the seed catalog whose live streams each live about `life` (see
/// `RoomHub::set_stream_life`).
pub async fn app_with_stream_life(life: std::time::Duration) -> (Router, Engine) {
    let (db, engine) = fresh_table(true).await;
    let state = state_on(db);
    state.hub.set_stream_life(life);
    (router(state), engine)
}

/// An app with the seed catalog whose daily clock the test sets.
pub async fn app_with_clock() -> (Router, Engine, app::daily::clock::DailyClock) {
    let (db, engine) = fresh_table(true).await;
    let state = state_on(db);
    let clock = state.daily.clone();
    (router(state), engine, clock)
}

/// An instance whose operators are the claimed accounts called `usernames`.
pub async fn app_with_operators(usernames: &[&str]) -> (Router, Engine) {
    let (db, engine) = fresh_table(false).await;
    let operators = usernames
        .iter()
        .map(|name| app::identity::Username::parse(name).unwrap())
        .collect();
    let state = state_on(db).with_operators(app::reports::Operators::new(operators));
    (router(state), engine)
}

pub fn router_on(db: Db) -> Router {
    router(
        AppState::new(
            LeptosOptions::builder().output_name("udd").build(),
            db,
            "embedded",
        )
        .with_security(SecurityConfig::default()),
    )
}

/// A request under construction: a form post as a browser's plain form or the hydrated app
/// sends it ([`form`]), or a GET ([`get_page`]); add headers or the client's address, then
/// [`send`] it.
pub struct Call {
    request: axum::http::request::Builder,
    body: String,
}

impl Call {
    /// Sets a header (replacing one the request already has, such as `Accept`).
    pub fn header(mut self, name: &str, value: &str) -> Self {
        if let Some(headers) = self.request.headers_mut() {
            headers.remove(name);
        }
        Self {
            request: self.request.header(name, value),
            ..self
        }
    }

    /// From this client address, as the server would see a connection from it.
    pub fn from(self, address: &str) -> Self {
        let peer = std::net::SocketAddr::new(address.parse().unwrap(), 40_000);
        Self {
            request: self.request.extension(axum::extract::ConnectInfo(peer)),
            ..self
        }
    }
}

pub fn form(path: &str, body: &str, cookie: Option<&str>) -> Call {
    let mut request = Request::post(path)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::ACCEPT, "application/json");
    if let Some(cookie) = cookie {
        request = request.header(header::COOKIE, cookie);
    }
    Call {
        request,
        body: body.to_owned(),
    }
}

pub fn get_page(path: &str) -> Call {
    Call {
        request: Request::get(path),
        body: String::new(),
    }
}

pub struct Answer {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: String,
}

impl Answer {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or(serde_json::Value::Null)
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The `name=value` of the session cookie this answer sets, if any.
    pub fn cookie(&self) -> Option<String> {
        self.headers
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|v| v.starts_with("udd_session=") || v.starts_with("__Host-udd_session="))
            .map(cookie_pair)
    }
}

/// Sends the request and reads the whole answer.
pub async fn send(app: &Router, call: Call) -> Answer {
    let response = app
        .clone()
        .oneshot(call.request.body(Body::from(call.body)).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Answer {
        status,
        headers,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    }
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

/// Plays `code`'s running match to its end at once: closes each round as the watchers would
/// once it is due. The finished match.
pub async fn finish_match(db: &Db, code: &str) -> app::game::model::Match {
    let code = app::rooms::RoomCode::parse(code).unwrap();
    loop {
        let room = db.game().room(&code).await.unwrap().unwrap();
        let game = room.game.as_ref().unwrap();
        if game.is_finished() {
            return game.clone();
        }
        let close = game.closes_at(game.resolved as usize).unwrap();
        db.game().resolve_due(&room, close).await.unwrap();
    }
}
