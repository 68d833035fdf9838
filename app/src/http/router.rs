//! The axum router around the Leptos routes: `/healthz`, the JSON catalog API, the room's live
//! events, the layers every response passes (compression, headers, limits, the guard, the seal
//! on form errors), and the layer that reports each request's DynamoDB calls.

use axum::extract::{Path, Query, Request, State};
use axum::http::{header, HeaderValue, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures::future::BoxFuture;
use leptos::prelude::*;
use leptos_axum::{generate_route_list, LeptosRoutes};
use serde::Deserialize;
use tower_http::compression::CompressionLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::RequestBodyTimeoutLayer;
use tower_http::trace::TraceLayer;

use crate::catalog::model::FlyFilter;
use crate::http::state::AppState;
use crate::http::{cards, deadline, form_errors, guard, health, serve};
use crate::live::hub::stream::room_events;
use crate::live::peers;
use crate::news::RoomNews;
use crate::request::{ClientAddress, CspNonce, OverTls};
use crate::store::{Db, Recorder};
use crate::{shell, App};

/// The largest request body the server reads; nothing in the game needs more.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// The whole application as an axum router.
pub fn router(state: AppState) -> Router {
    // The name filter's lists, folded once here rather than on the first name a player types.
    crate::identity::name_filter::warm();
    crate::identity::auth::prepare();
    let routes = generate_route_list(App);
    let db = state.db.clone();
    let hub = state.hub.clone();
    let redraw = hub.clone();
    crate::identity::hidden::on_change(move || redraw.redraw_all());
    keep_checking_hidden_names(&db);
    let news = RoomNews::new(move |code| hub.poke(code));
    let taps = state.taps.clone();
    let room_loads = state.room_loads.clone();
    let crowds = state.hub.crowds();
    let daily = state.daily.clone();
    let draws = state.draws.clone();
    let operators = state.operators.clone();
    let options = state.leptos_options.clone();
    let fallback_db = db.clone();
    Router::new()
        .route("/livez", get(health::livez))
        .route("/healthz", get(health::healthz))
        .route("/healthz/usage", get(usage))
        .route("/api/things", get(api_things))
        .route("/r/{code}/events", get(live_events))
        .route(peers::POKES_PATH, post(peer_pokes))
        .route("/og/m/{room}/{first}", get(cards::match_image))
        .route("/og/r/{code}/m/{first}", get(cards::legacy_match_image))
        .route("/og/p/{id}", get(cards::profile_image))
        .route("/og/lb/{metric}/{period}/{scope}", get(cards::board_image))
        .route("/og/daily/{day}/{id}", get(cards::flight_image))
        .route("/og/d/{code}", get(cards::deck_image))
        .leptos_routes_with_context(
            &state,
            routes,
            move || {
                provide_request_context(&db);
                provide_context(news.clone());
                provide_context(taps.clone());
                provide_context(room_loads.clone());
                provide_context(crowds.clone());
                provide_context(daily.clone());
                provide_context(draws.clone());
                provide_context(operators.clone());
            },
            move || shell(options.clone()),
        )
        .fallback(quiet_about_long_names(
            leptos_axum::file_and_error_handler_with_context::<AppState, _>(
                move || provide_request_context(&fallback_db),
                shell,
            ),
        ))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            report_dynamodb_calls,
        ))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            keep_hidden_names_fresh,
        ))
        .layer(middleware::from_fn(keep_hashed_files))
        // A server function's owner is its own request's (see `owner`).
        .layer(middleware::from_fn(crate::http::owner::own_root))
        // Inside the guard: it reads whether the request came over TLS, and the guard then
        // keeps the sealed redirect on our origin.
        .layer(middleware::from_fn_with_state(
            state.clone(),
            form_errors::form_errors,
        ))
        .layer(CompressionLayer::new())
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            HeaderValue::from_static("strict-origin-when-cross-origin"),
        ))
        // Inside the size limit (what it reads is at most that) and the wait's timeout.
        .layer(middleware::from_fn_with_state(
            state.clone(),
            deadline::whole_body,
        ))
        .layer(RequestBodyLimitLayer::new(MAX_BODY_BYTES))
        .layer(RequestBodyTimeoutLayer::new(serve::BODY_READ_TIMEOUT))
        .layer(middleware::from_fn_with_state(
            state.security.clone(),
            guard::guard,
        ))
        .layer(TraceLayer::new_for_http())
        .layer(middleware::from_fn(crate::http::metrics::track))
        .with_state(state)
}

/// Reads this instance's copy of the hidden set (`identity::hidden`) before the first request
/// is answered; [`keep_checking_hidden_names`] keeps it fresh after.
async fn keep_hidden_names_fresh(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    if crate::identity::hidden::current().version < 0 {
        state.db.accounts().refresh_hidden_if_due().await;
    }
    next.run(request).await
}

/// Checks the hidden set's version every few seconds, whether or not requests arrive: a live
/// room watched here is drawn again when it changes (a big screen nobody touches included).
fn keep_checking_hidden_names(db: &Db) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    let db = db.clone();
    runtime.spawn(async move {
        let every = std::time::Duration::from_millis(
            crate::identity::hidden::CHECK_EVERY_MS.unsigned_abs(),
        );
        loop {
            tokio::time::sleep(every).await;
            db.accounts().refresh_hidden_if_due().await;
        }
    });
}

/// The longest file name the disk takes (`NAME_MAX`), and a path length no file we serve comes
/// near (`PATH_MAX` is 4,096).
const LONGEST_NAME: usize = 255;
const LONGEST_PATH: usize = 1024;

/// The fallback (files, then the not-found page), but a path no file could have (a segment
/// longer than a file name, or a path longer than [`LONGEST_PATH`]) is a plain 404 at once:
/// the file server would ask the disk, get "File name too long" and log it as an ERROR.
fn quiet_about_long_names<F, Fut>(
    files_and_errors: F,
) -> impl Fn(Uri, State<AppState>, Request) -> BoxFuture<'static, Response> + Clone + Send + 'static
where
    F: Fn(Uri, State<AppState>, Request) -> Fut + Clone + Send + 'static,
    Fut: std::future::Future<Output = Response> + Send + 'static,
{
    move |uri: Uri, state: State<AppState>, request: Request| {
        let path = uri.path();
        if path.len() > LONGEST_PATH || path.split('/').any(|name| name.len() > LONGEST_NAME) {
            return Box::pin(std::future::ready(StatusCode::NOT_FOUND.into_response()));
        }
        Box::pin(files_and_errors(uri, state, request))
    }
}

/// A bundle file named after its contents (`/pkg/udd.<16 hex>.wasm`, see [`crate::bundle`]) never
/// changes, so browsers keep it for a year without asking again. Another static file (the
/// big screen's and the room's stylesheets, the icons) may change with any build under the same
/// name: kept, but asked about each time (`no-cache`, answered 304 while its `Last-Modified` is
/// the one the browser names). Everything
/// else keeps its own caching (pages are `no-store`, see the guard; share cards their own).
async fn keep_hashed_files(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let cache = if is_hashed_bundle_file(path) {
        Some("public, max-age=31536000, immutable")
    } else if is_static_file(path) {
        Some("no-cache")
    } else {
        None
    };
    // The file server behind Leptos's fallback is not told the request's conditions: asked
    // whether a file changed since the time it last said, the answer is here.
    let since = request.headers().get(header::IF_MODIFIED_SINCE).cloned();
    let mut response = next.run(request).await;
    let unchanged = cache == Some("no-cache")
        && response.status() == StatusCode::OK
        && since.is_some()
        && response.headers().get(header::LAST_MODIFIED) == since.as_ref();
    if unchanged {
        let mut not_modified = StatusCode::NOT_MODIFIED.into_response();
        for name in [header::LAST_MODIFIED, header::VARY, header::ETAG] {
            if let Some(value) = response.headers().get(&name) {
                not_modified.headers_mut().insert(name, value.clone());
            }
        }
        response = not_modified;
    }
    let served = matches!(response.status(), StatusCode::OK | StatusCode::NOT_MODIFIED);
    if let Some(cache) = cache.filter(|_| served) {
        let headers = response.headers_mut();
        if !headers.contains_key(header::CACHE_CONTROL) || cache.contains("immutable") {
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
        }
    }
    response
}

/// A path the site's files answer: a name with a static file's extension, outside the pages'
/// and the server functions' addresses.
pub fn is_static_file(path: &str) -> bool {
    const EXTENSIONS: [&str; 6] = ["css", "js", "wasm", "svg", "ico", "txt"];
    let name = path.rsplit('/').next().unwrap_or_default();
    !path.starts_with("/api/")
        && name
            .rsplit_once('.')
            .is_some_and(|(stem, extension)| !stem.is_empty() && EXTENSIONS.contains(&extension))
}

/// `/pkg/<stem>.<16 lowercase hex>.<extension>`, as `./udd build` names bundle files.
pub fn is_hashed_bundle_file(path: &str) -> bool {
    let Some(name) = path.strip_prefix("/pkg/") else {
        return false;
    };
    let mut parts = name.rsplitn(3, '.');
    let (Some(extension), Some(hash), Some(stem)) = (parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    !stem.is_empty()
        && !stem.contains('/')
        && !extension.is_empty()
        && hash.len() == 16
        && hash
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// `POST /internal/pokes`: news of rooms from another instance on the table (see
/// `live/peers.rs`): 204 when taken in, 403 when not signed under the table's secret or not sent
/// now, 400 when signed but not a batch. Nothing else is done for the sender.
async fn peer_pokes(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let tag = headers.get(peers::TAG_HEADER).and_then(|v| v.to_str().ok());
    match state.hub.take_pokes(tag, &body).await {
        Ok(_) => StatusCode::NO_CONTENT.into_response(),
        Err(peers::Refused::Malformed) => {
            (StatusCode::BAD_REQUEST, "Not a batch of room news.").into_response()
        }
        Err(peers::Refused::Forged) => (
            StatusCode::FORBIDDEN,
            "Not signed by an instance on this table, or not sent now.",
        )
            .into_response(),
    }
}

/// `GET /r/<CODE>/events`: the room's live stream (see [`room_events`]), told the session
/// cookie the request carries (who listens: the host's stream keeps them host), unless it is
/// opened for nobody (`?nobody`: the big screen, whose stream must not move the seat of whoever
/// is signed in on the TV).
async fn live_events(
    State(state): State<AppState>,
    client: Option<axum::Extension<ClientAddress>>,
    tls: Option<axum::Extension<OverTls>>,
    headers: axum::http::HeaderMap,
    Path(code): Path<String>,
    axum::extract::RawQuery(query): axum::extract::RawQuery,
) -> Response {
    let secure = tls.is_some_and(|tls| tls.0 .0);
    let for_nobody = query.as_deref() == Some(crate::live::feed::FOR_NOBODY);
    let session =
        crate::identity::session::token_from_headers(&headers, secure).filter(|_| !for_nobody);
    room_events(
        &state.hub,
        state.security.streams_per_client,
        client.map(|c| c.0),
        session,
        &code,
    )
    .await
}

/// Gives pages and server functions a `Db` that records into this request's recorder, and the
/// script nonce the guard chose for this request (the CSP header names the same one).
fn provide_request_context(db: &Db) {
    let parts = use_context::<http::request::Parts>();
    let recorder = parts
        .as_ref()
        .and_then(|parts| parts.extensions.get::<Recorder>().cloned());
    provide_context(match recorder {
        Some(recorder) => db.recording(recorder),
        None => db.clone(),
    });
    if let Some(nonce) = parts.and_then(|parts| parts.extensions.get::<CspNonce>().cloned()) {
        provide_context(leptos::nonce::Nonce::from_value(nonce.0));
    }
}

/// Attaches a recorder to each request. Operators who turn it on (`UDD_SERVER_TIMING`) see it
/// as a `Server-Timing` header: how many DynamoDB calls and how much capacity a page cost. It
/// is off by default because it tells a stranger how much work a request did (whether an
/// account exists, for one).
async fn report_dynamodb_calls(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let recorder = Recorder::new();
    request.extensions_mut().insert(recorder.clone());
    let mut response = next.run(request).await;
    if state.security.server_timing {
        if let Ok(value) = HeaderValue::from_str(&recorder.server_timing()) {
            response.headers_mut().append("server-timing", value);
        }
    }
    response
}

fn request_db(state: &AppState, request_recorder: Option<&Recorder>) -> Db {
    match request_recorder {
        Some(recorder) => state.db.recording(recorder.clone()),
        None => state.db.clone(),
    }
}

/// `GET /healthz/usage`: the DynamoDB calls and capacity units this process has used since it
/// started, by operation (what the load generator divides by the work done). Answered only to a
/// client on this machine (a 404 to anyone else, also through a proxy on this machine: any
/// header a proxy adds refuses it).
async fn usage(State(state): State<AppState>, request: Request) -> Response {
    let peer = request
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>();
    let local =
        peer.is_some_and(|p| p.0.ip().is_loopback()) && !came_through_a_proxy(request.headers());
    if !local {
        return StatusCode::NOT_FOUND.into_response();
    }
    Json(state.db.usage().report()).into_response()
}

/// Whether a request carries any header a proxy adds to say whom it forwards (the standard
/// `Forwarded` and `Via`, every `X-Forwarded-*`, and the client-address headers of common
/// proxies and CDNs: `X-Real-IP`, `True-Client-IP`, `CF-Connecting-IP`, …).
fn came_through_a_proxy(headers: &axum::http::HeaderMap) -> bool {
    headers.keys().any(|name| {
        let name = name.as_str(); // lower case
        matches!(
            name,
            "forwarded" | "forwarded-for" | "via" | "client-ip" | "x-forwarded" | "x-proxyuser-ip"
        ) || name.starts_with("x-forwarded-")
            || name.starts_with("x-original-forwarded")
            || name.ends_with("-client-ip")
            || name.ends_with("-real-ip")
            || name.ends_with("-connecting-ip")
            || name.ends_with("-forwarded-for")
            || name.ends_with("-user-ip")
            || name.ends_with("-external-address")
    })
}

#[derive(Debug, Deserialize)]
struct ThingsQuery {
    flies: Option<String>,
    limit: Option<u8>,
    cursor: Option<String>,
}

/// `GET /api/things?flies=yes|no|all&limit=1..100&cursor=…`: one page of the catalog as JSON.
async fn api_things(
    State(state): State<AppState>,
    recorder: Option<axum::Extension<Recorder>>,
    Query(query): Query<ThingsQuery>,
) -> Response {
    let db = request_db(&state, recorder.as_deref());
    let filter = FlyFilter::from_query(query.flies.as_deref());
    let limit = i32::from(query.limit.unwrap_or(50).clamp(1, 100));
    match db
        .catalog()
        .things_page(filter, limit, query.cursor.as_deref())
        .await
    {
        Ok(page) => {
            Json(serde_json::json!({ "items": page.items, "next": page.next })).into_response()
        }
        Err(err) => {
            let err = crate::error::AppError::from(err);
            (
                err.status(),
                Json(serde_json::json!({ "error": err.to_string() })),
            )
                .into_response()
        }
    }
}
