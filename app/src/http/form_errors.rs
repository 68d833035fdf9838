//! Errors only the server wrote. A plain form post the server refuses comes back to its page
//! with the refusal in the URL (`?__path=<server function>&__err=<base64>`: server_fn's
//! redirect), and the page shows it. Anyone can write such a URL, so the server seals the ones
//! it writes and shows only those:
//!
//! - On the way out, a redirect carrying `__path`/`__err` gets `__sig=<ms>.<mac>`: an HMAC,
//!   under the table's shared secret (`Db::secret_tag`, so every instance checks what another
//!   sealed), of the browser it is for, the path, the error and the time.
//! - On the way in, a request whose query mentions an error keeps `__path`/`__err` only when
//!   the seal is this browser's and at most [`LIFETIME_MS`] old; otherwise they are taken out of
//!   the request before the page reads them, so Leptos provides no `ServerActionError`. The
//!   page's `FormError` also shows only the error this layer checked ([`CheckedFormError`]).
//!
//! "This browser" is its session cookie when it has one (after the refused request: a refusal
//! that started or ended a session counts the new state). A visitor without a session gets a
//! random `udd_form` cookie with the redirect (HttpOnly, SameSite=Lax, for [`LIFETIME_MS`]),
//! and the seal names it: another browser, which cannot read that cookie, cannot show the error,
//! and an attacker's link carries no cookie at all.

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Uri};
use axum::middleware::Next;
use axum::response::Response;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

use crate::http::state::AppState;
use crate::identity::auth::SessionToken;
use crate::identity::sealed::*;
use crate::identity::session::{COOKIE_NAME, SECURE_COOKIE_NAME};
pub use crate::request::CheckedFormError;
use crate::request::OverTls;
use crate::store::{epoch_millis, Db};

const PATH: &str = "__path";
const ERR: &str = "__err";
const SIG: &str = "__sig";

/// A query string split into what belongs to a form error and the rest.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Query {
    others: Vec<(String, String)>,
    pub paths: Vec<String>,
    pub errs: Vec<String>,
    sigs: Vec<String>,
}

impl Query {
    pub fn parse(raw: &str) -> Self {
        let mut query = Query::default();
        for (key, value) in form_urlencoded::parse(raw.as_bytes()) {
            let value = value.into_owned();
            match &*key {
                PATH => query.paths.push(value),
                ERR => query.errs.push(value),
                SIG => query.sigs.push(value),
                _ => query.others.push((key.into_owned(), value)),
            }
        }
        query
    }

    fn mentions_error(raw: &str) -> bool {
        raw.contains(PATH) || raw.contains(ERR) || raw.contains(SIG)
    }

    /// The one path, error and seal it carries; `None` when any is missing or repeated.
    pub fn single(&self) -> Option<(&str, &str, &str)> {
        match (&self.paths[..], &self.errs[..], &self.sigs[..]) {
            ([path], [err], [sig]) => Some((path, err, sig)),
            _ => None,
        }
    }

    /// The query with `error` (path, error and, when given, seal) as its only form error.
    pub fn with(&self, error: Option<(&str, &str, Option<&str>)>) -> String {
        let mut out = form_urlencoded::Serializer::new(String::new());
        for (key, value) in &self.others {
            out.append_pair(key, value);
        }
        if let Some((path, err, sig)) = error {
            out.append_pair(PATH, path);
            out.append_pair(ERR, err);
            if let Some(sig) = sig {
                out.append_pair(SIG, sig);
            }
        }
        out.finish()
    }
}

/// `uri` with `query` (none when empty).
fn with_query(uri: &Uri, query: &str) -> Option<Uri> {
    let path = uri.path();
    let path_and_query = if query.is_empty() {
        path.to_owned()
    } else {
        format!("{path}?{query}")
    };
    let mut parts = uri.clone().into_parts();
    parts.path_and_query = Some(path_and_query.parse().ok()?);
    Uri::from_parts(parts).ok()
}

/// A `Location` split around its query: before `?`, the query, and the `#…` after it.
pub fn split_location(location: &str) -> (&str, &str, &str) {
    let (rest, fragment) = match location.find('#') {
        Some(i) => location.split_at(i),
        None => (location, ""),
    };
    match rest.split_once('?') {
        Some((base, query)) => (base, query, fragment),
        None => (rest, "", fragment),
    }
}

pub fn join_location(base: &str, query: &str, fragment: &str) -> String {
    if query.is_empty() {
        format!("{base}{fragment}")
    } else {
        format!("{base}?{query}{fragment}")
    }
}

/// What a response leaves the browser's session as: `Some(token)` when it sets one,
/// `Some(None)` when it clears it, `None` when it does not touch it.
pub fn session_after(headers: &HeaderMap, secure: bool) -> Option<Option<SessionToken>> {
    let name = if secure {
        SECURE_COOKIE_NAME
    } else {
        COOKIE_NAME
    };
    headers
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next()?.trim().split_once('='))
        .filter(|(n, _)| *n == name)
        .map(|(_, value)| SessionToken::from_cookie(value))
        .next_back()
}

fn new_browser_id() -> Option<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).ok()?;
    Some(URL_SAFE_NO_PAD.encode(bytes))
}

/// The layer (an axum middleware inside the request guard, which tells it whether the request
/// came over TLS and afterwards keeps the sealed redirect on our origin).
pub async fn form_errors(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let secure = request
        .extensions()
        .get::<OverTls>()
        .is_some_and(|tls| tls.0);
    let binding = Binding::of_request(request.headers(), secure);
    let now = epoch_millis();

    if let Some(raw) = request.uri().query().filter(|q| Query::mentions_error(q)) {
        let query = Query::parse(raw);
        let checked = match (query.single(), &binding) {
            (Some((path, err, sig)), Some(binding)) => {
                is_sealed(&state.db, binding, path, err, sig, now).await
            }
            _ => false,
        };
        let kept = query
            .single()
            .filter(|_| checked)
            .map(|(path, err, _)| (path, err, None));
        if let Some(uri) = with_query(request.uri(), &query.with(kept)) {
            *request.uri_mut() = uri;
        }
        if let Some((path, err, _)) = kept {
            request.extensions_mut().insert(CheckedFormError {
                path: path.into(),
                err: err.into(),
            });
        } else {
            tracing::debug!("dropped a form error this server did not seal for this browser");
        }
    }

    let mut response = next.run(request).await;
    if response.status().is_redirection() {
        seal_location(&state.db, &mut response, binding, secure, now).await;
    }
    response
}

/// Seals the form error a redirect carries (server_fn appends `__path`/`__err` to the page's
/// address, after any the page already had: the last pair is this refusal), or strips a stale
/// seal from one that carries none.
async fn seal_location(
    db: &Db,
    response: &mut Response,
    request_binding: Option<Binding>,
    secure: bool,
    now: i64,
) {
    let Some(location) = response
        .headers()
        .get(header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
    else {
        return;
    };
    let (base, raw, fragment) = split_location(&location);
    if !Query::mentions_error(raw) {
        return;
    }
    let query = Query::parse(raw);
    let error = query.paths.last().zip(query.errs.last());
    let mut browser_cookie = None;
    let sealed = match error {
        None => None,
        Some((path, err)) => {
            let binding = match session_after(response.headers(), secure) {
                Some(after) => after.map(Binding::Session),
                None => request_binding.filter(|b| matches!(b, Binding::Session(_))),
            }
            .or_else(|| {
                let id = new_browser_id()?;
                browser_cookie = Some(id.clone());
                Some(Binding::Browser(id))
            });
            match binding {
                Some(binding) => match seal(db, &binding, path, err, now).await {
                    Ok(sig) => Some((path.as_str(), err.as_str(), sig)),
                    Err(err) => {
                        tracing::warn!(error = ?err, "could not seal a form error");
                        None
                    }
                },
                None => None,
            }
        }
    };
    let query = query.with(
        sealed
            .as_ref()
            .map(|(path, err, sig)| (*path, *err, Some(sig.as_str()))),
    );
    let headers = response.headers_mut();
    match HeaderValue::from_str(&join_location(base, &query, fragment)) {
        Ok(value) => {
            headers.insert(header::LOCATION, value);
        }
        Err(_) => {
            headers.insert(header::LOCATION, HeaderValue::from_static("/"));
        }
    }
    if let (Some(id), Some(_)) = (browser_cookie, sealed) {
        let cookie = format!(
            "{}={id}; Path=/; Max-Age={}; HttpOnly; SameSite=Lax{}",
            browser_cookie_name(secure),
            LIFETIME_MS / 1000,
            if secure { "; Secure" } else { "" }
        );
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            headers.append(header::SET_COOKIE, value);
        }
    }
}
