//! A value sealed for one browser: an HMAC, under the table's shared secret (so every instance
//! checks what another sealed), of the browser it is for (its session, or its `udd_form`
//! cookie), a path, the value and when it was written; shown only to that browser and for a
//! short while. What a refused form's error and an inventory notice are carried in (see
//! `http::form_errors`).

use axum::http::{header, HeaderMap};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

use crate::identity::auth::{constant_time_eq, SessionToken};
use crate::identity::session::token_from_headers;
use crate::store::Db;

/// How long a sealed error is shown after the server wrote it.
pub const LIFETIME_MS: i64 = 60_000;
/// How far in the future a seal may be dated (another instance's clock running ahead).
pub(crate) const CLOCK_SKEW_MS: i64 = 2_000;

/// The cookie that names a browser without a session (plain HTTP, and over TLS).
pub const BROWSER_COOKIE_NAME: &str = "udd_form";
pub const SECURE_BROWSER_COOKIE_NAME: &str = "__Host-udd_form";

pub(crate) const PURPOSE: &str = "form-error";

/// The browser a sealed error is for.
#[derive(Clone, PartialEq, Eq)]
pub enum Binding {
    /// Its session cookie.
    Session(SessionToken),
    /// Its `udd_form` cookie (a browser without a session).
    Browser(String),
}

impl std::fmt::Debug for Binding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Binding::Session(_) => "Binding::Session(..)",
            Binding::Browser(_) => "Binding::Browser(..)",
        })
    }
}

impl Binding {
    fn bytes(&self) -> Vec<u8> {
        match self {
            Binding::Session(token) => [b"session:", token.as_str().as_bytes()].concat(),
            Binding::Browser(id) => [b"browser:", id.as_bytes()].concat(),
        }
    }

    /// The browser a request comes from: its session, else its `udd_form` cookie, else none.
    pub fn of_request(headers: &HeaderMap, secure: bool) -> Option<Self> {
        if let Some(token) = token_from_headers(headers, secure) {
            return Some(Binding::Session(token));
        }
        let name = browser_cookie_name(secure);
        let mut values = headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|h| h.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .filter(|(n, _)| *n == name)
            .map(|(_, v)| v);
        let first = values.next()?;
        // Two of them: one was planted; believe neither (as with the session cookie).
        (values.next().is_none() && is_browser_id(first))
            .then(|| Binding::Browser(first.to_owned()))
    }
}

pub(crate) fn browser_cookie_name(secure: bool) -> &'static str {
    if secure {
        SECURE_BROWSER_COOKIE_NAME
    } else {
        BROWSER_COOKIE_NAME
    }
}

pub(crate) fn is_browser_id(raw: &str) -> bool {
    raw.len() == 22
        && raw
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

pub(crate) fn tag_payload(binding: &Binding, path: &str, err: &str, at_ms: i64) -> Vec<u8> {
    let at = at_ms.to_string();
    let mut payload = Vec::new();
    for field in [
        &binding.bytes()[..],
        path.as_bytes(),
        err.as_bytes(),
        at.as_bytes(),
    ] {
        payload.extend_from_slice(&(field.len() as u64).to_be_bytes());
        payload.extend_from_slice(field);
    }
    payload
}

/// The `__sig` value for `err` from the server function at `path`, written at `at_ms` for
/// `binding`'s browser.
pub async fn seal(
    db: &Db,
    binding: &Binding,
    path: &str,
    err: &str,
    at_ms: i64,
) -> Result<String, crate::store::DataError> {
    let tag = db
        .secret_tag(PURPOSE, &tag_payload(binding, path, err, at_ms))
        .await?;
    Ok(format!("{at_ms}.{}", URL_SAFE_NO_PAD.encode(tag)))
}

/// Whether `sig` seals `path` and `err` for `binding`'s browser, written within the last
/// [`LIFETIME_MS`] before `now_ms`.
pub async fn is_sealed(
    db: &Db,
    binding: &Binding,
    path: &str,
    err: &str,
    sig: &str,
    now_ms: i64,
) -> bool {
    let Some((at, tag)) = sig.split_once('.') else {
        return false;
    };
    let Ok(at_ms) = at.parse::<i64>() else {
        return false;
    };
    let age = now_ms.saturating_sub(at_ms);
    if !(-CLOCK_SKEW_MS..=LIFETIME_MS).contains(&age) || at != at_ms.to_string() {
        return false;
    }
    let Ok(tag) = URL_SAFE_NO_PAD.decode(tag) else {
        return false;
    };
    match db
        .secret_tag(PURPOSE, &tag_payload(binding, path, err, at_ms))
        .await
    {
        Ok(expected) => constant_time_eq(&tag, &expected),
        Err(err) => {
            tracing::warn!(error = ?err, "could not check a form error's seal");
            false
        }
    }
}
