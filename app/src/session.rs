//! The session cookie, server side: reading the caller's token, setting and clearing the cookie,
//! and resolving the signed-in player. Every server function that acts for a player starts here.

use http::header::{COOKIE, SET_COOKIE};
use http::HeaderValue;
use leptos::prelude::use_context;
use leptos_axum::ResponseOptions;

use crate::auth::SessionToken;
use crate::data::{Db, SESSION_LIFETIME_SECS};
use crate::error::AppError;
use crate::players::Profile;

/// The cookie's name.
pub const COOKIE_NAME: &str = "udd_session";

fn request() -> Option<http::request::Parts> {
    use_context::<http::request::Parts>()
}

/// The session token the request carries, if it has one of our shape.
pub fn token_from_request() -> Option<SessionToken> {
    let parts = request()?;
    parts
        .headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|header| header.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE_NAME)
        .and_then(|(_, value)| SessionToken::from_cookie(value))
}

/// Whether the request reached us over TLS (directly or through a proxy that says so).
fn over_tls() -> bool {
    request().is_some_and(|parts| {
        parts.uri.scheme_str() == Some("https")
            || parts
                .headers
                .get("x-forwarded-proto")
                .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"https"))
    })
}

fn set_cookie_header(value: String) {
    if let (Some(response), Ok(header)) = (
        use_context::<ResponseOptions>(),
        HeaderValue::from_str(&value),
    ) {
        response.append_header(SET_COOKIE, header);
    }
}

/// The `Set-Cookie` value for a token: HttpOnly, SameSite=Lax, Secure over TLS.
pub fn cookie_value(token: &SessionToken, secure: bool) -> String {
    format!(
        "{COOKIE_NAME}={}; Path=/; Max-Age={SESSION_LIFETIME_SECS}; HttpOnly; SameSite=Lax{}",
        token.as_str(),
        if secure { "; Secure" } else { "" }
    )
}

/// Gives the browser this session.
pub fn set_cookie(token: &SessionToken) {
    set_cookie_header(cookie_value(token, over_tls()));
}

/// Tells the browser to forget its session.
pub fn clear_cookie() {
    set_cookie_header(format!(
        "{COOKIE_NAME}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax{}",
        if over_tls() { "; Secure" } else { "" }
    ));
}

/// The signed-in player, or `None` (no cookie, a forged or expired one, or a revoked session).
pub async fn current_player(db: &Db) -> Result<Option<Profile>, AppError> {
    let Some(token) = token_from_request() else {
        return Ok(None);
    };
    let Some(session) = db.session(&token.hash()).await? else {
        return Ok(None);
    };
    Ok(db.profile(&session.user_id).await?)
}

/// The signed-in player, or a 401.
pub async fn require_player(db: &Db) -> Result<Profile, AppError> {
    current_player(db).await?.ok_or(AppError::SignInRequired)
}

/// Where the request comes from, for rate limits: the connection's address when the server
/// knows it.
pub fn client_address() -> String {
    request()
        .and_then(|parts| {
            parts
                .extensions
                .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
                .map(|info| info.0.ip().to_string())
        })
        .unwrap_or_else(|| "unknown".to_owned())
}

/// Counts an attempt against a rate limit; a 429 once it is spent.
pub async fn rate_limit(db: &Db, key: &str, window_secs: i64, max: u32) -> Result<(), AppError> {
    if db.hit_rate_limit(key, window_secs, max).await? {
        Ok(())
    } else {
        Err(AppError::RateLimited)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cookie_is_http_only_and_same_site() {
        let token = SessionToken::generate();
        let plain = cookie_value(&token, false);
        assert!(plain.starts_with(&format!("{COOKIE_NAME}={}", token.as_str())));
        assert!(plain.contains("HttpOnly") && plain.contains("SameSite=Lax"));
        assert!(!plain.contains("Secure"));
        assert!(cookie_value(&token, true).ends_with("; Secure"));
    }
}
