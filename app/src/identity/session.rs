//! The session cookie, server side: reading the caller's token, setting and clearing the cookie,
//! and resolving the signed-in player. Every server function that acts for a player starts here.

use http::header::{COOKIE, SET_COOKIE};
use http::HeaderValue;
use leptos::prelude::use_context;
use leptos_axum::ResponseOptions;

use crate::error::AppError;
use crate::identity::auth::{SessionHash, SessionToken};
use crate::identity::store::SESSION_LIFETIME_SECS;
use crate::identity::{Profile, UserId};
use crate::request::{ClientAddress, OverTls};
use crate::store::keys::Limited;
use crate::store::Db;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

/// The cookie's name on plain HTTP (a player's own machine, a party on one wifi).
pub const COOKIE_NAME: &str = "udd_session";
/// The cookie's name over TLS: the `__Host-` prefix makes the browser refuse it unless it is
/// `Secure`, for `/` and set by this very host, so a sibling subdomain cannot plant one.
pub const SECURE_COOKIE_NAME: &str = "__Host-udd_session";

fn request() -> Option<http::request::Parts> {
    use_context::<http::request::Parts>()
}

/// Whether the request reached us over TLS, as the request guard worked it out (from the
/// public origin, or from a trusted proxy's `X-Forwarded-Proto`).
fn over_tls() -> bool {
    request()
        .and_then(|parts| parts.extensions.get::<OverTls>().copied())
        .is_some_and(|tls| tls.0)
}

fn cookie_name(secure: bool) -> &'static str {
    if secure {
        SECURE_COOKIE_NAME
    } else {
        COOKIE_NAME
    }
}

/// The values of every cookie called `name` in the `Cookie` headers, in order.
fn cookie_values<'a>(headers: &'a http::HeaderMap, name: &'a str) -> impl Iterator<Item = &'a str> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|header| header.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(move |(n, _)| *n == name)
        .map(|(_, value)| value)
}

/// The session token in `Cookie` headers, if exactly one cookie of ours is there and it has our
/// shape. Two cookies of that name mean someone planted one (from a sibling subdomain, say):
/// neither is believed, so a planted session can never be the one that wins.
pub fn token_from_headers(headers: &http::HeaderMap, secure: bool) -> Option<SessionToken> {
    let mut values = cookie_values(headers, cookie_name(secure));
    let first = values.next()?;
    if values.next().is_some() {
        tracing::info!("two session cookies in one request; ignoring both");
        return None;
    }
    SessionToken::from_cookie(first)
}

/// The session token the request carries, if it has one of ours.
pub fn token_from_request() -> Option<SessionToken> {
    let parts = request()?;
    token_from_headers(&parts.headers, over_tls())
}

fn set_cookie_header(value: String) {
    if let (Some(response), Ok(header)) = (
        use_context::<ResponseOptions>(),
        HeaderValue::from_str(&value),
    ) {
        response.append_header(SET_COOKIE, header);
    }
}

/// The `Set-Cookie` value for a token: HttpOnly, SameSite=Lax; over TLS also Secure and named
/// with the `__Host-` prefix.
pub fn cookie_value(token: &SessionToken, secure: bool) -> String {
    format!(
        "{}={}; Path=/; Max-Age={SESSION_LIFETIME_SECS}; HttpOnly; SameSite=Lax{}",
        cookie_name(secure),
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
    let secure = over_tls();
    set_cookie_header(format!(
        "{}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax{}",
        cookie_name(secure),
        if secure { "; Secure" } else { "" }
    ));
}

/// The device cookie's name (plain HTTP, and over TLS): a browser that signed in to an account
/// carries a signed note of it, so its own sign-in attempts are not held up by a stranger's.
pub const DEVICE_COOKIE_NAME: &str = "udd_device";
pub const SECURE_DEVICE_COOKIE_NAME: &str = "__Host-udd_device";

/// How long a device is remembered.
const DEVICE_LIFETIME_SECS: i64 = 365 * 24 * 3600;

fn device_tag_purpose(user: &UserId) -> String {
    format!("device#{user}")
}

/// The device id in this request's device cookie, if the cookie was issued by this table's
/// servers for `user` (its tag is a MAC under the table's secret: it cannot be forged, nor
/// moved to another account).
pub async fn device_from_request(db: &Db, user: &UserId) -> Result<Option<String>, AppError> {
    let Some(parts) = request() else {
        return Ok(None);
    };
    let name = if over_tls() {
        SECURE_DEVICE_COOKIE_NAME
    } else {
        DEVICE_COOKIE_NAME
    };
    signed_value(db, &parts.headers, name, &device_tag_purpose(user)).await
}

/// Gives the browser a device cookie for `user` after a successful sign-in.
pub async fn remember_device(db: &Db, user: &UserId) -> Result<(), AppError> {
    let name = if over_tls() {
        SECURE_DEVICE_COOKIE_NAME
    } else {
        DEVICE_COOKIE_NAME
    };
    let (_, cookie) = new_signed(db, name, &device_tag_purpose(user)).await?;
    set_cookie_header(cookie);
    Ok(())
}

/// The room mark's cookie (plain HTTP, and over TLS): a browser that joined or asked to join a
/// room carries a signed random id for a year, whatever session it has, so a player the host
/// removed or turned away who comes back from the same browser as a fresh guest is known.
pub const MARK_COOKIE_NAME: &str = "udd_mark";
pub const SECURE_MARK_COOKIE_NAME: &str = "__Host-udd_mark";
const MARK_PURPOSE: &str = "room-mark";

/// A browser's room mark (see [`MARK_COOKIE_NAME`]).
pub struct RoomMark {
    pub id: String,
    /// The cookie to give the browser with the answer, for a mark made now.
    cookie: Option<String>,
}

impl RoomMark {
    /// After the join (or the ask) it went with was written: a new mark's cookie goes to the
    /// browser (a refused join sets no cookie).
    pub fn give(self) {
        if let Some(cookie) = self.cookie {
            set_cookie_header(cookie);
        }
    }
}

/// This browser's room mark: the one its cookie carries when this table's servers signed it,
/// else a new one (its cookie given by [`RoomMark::give`]).
pub async fn room_mark(db: &Db) -> Result<RoomMark, AppError> {
    let name = if over_tls() {
        SECURE_MARK_COOKIE_NAME
    } else {
        MARK_COOKIE_NAME
    };
    if let Some(parts) = request() {
        if let Some(id) = signed_value(db, &parts.headers, name, MARK_PURPOSE).await? {
            return Ok(RoomMark { id, cookie: None });
        }
    }
    let (id, cookie) = new_signed(db, name, MARK_PURPOSE).await?;
    Ok(RoomMark {
        id,
        cookie: Some(cookie),
    })
}

/// The random id in cookie `name` (`<id>.<tag>`), if its tag is this table's MAC of it for
/// `purpose`.
async fn signed_value(
    db: &Db,
    headers: &http::HeaderMap,
    name: &str,
    purpose: &str,
) -> Result<Option<String>, AppError> {
    let Some((id, tag)) = cookie_values(headers, name)
        .next()
        .and_then(|value| value.split_once('.'))
    else {
        return Ok(None);
    };
    let well_formed = id.len() == 22
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !well_formed {
        return Ok(None);
    }
    let expected = db.secret_tag(purpose, id.as_bytes()).await?;
    let matches = URL_SAFE_NO_PAD
        .decode(tag)
        .is_ok_and(|tag| crate::identity::auth::constant_time_eq(&tag, &expected));
    Ok(matches.then(|| id.to_owned()))
}

/// A new random id and cookie `name` that carries it with its MAC for `purpose`, for a year
/// (HttpOnly, SameSite=Lax, and Secure over TLS).
async fn new_signed(db: &Db, name: &str, purpose: &str) -> Result<(String, String), AppError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|_| AppError::Internal)?;
    let id = URL_SAFE_NO_PAD.encode(bytes);
    let tag = db.secret_tag(purpose, id.as_bytes()).await?;
    let cookie = format!(
        "{name}={id}.{}; Path=/; Max-Age={DEVICE_LIFETIME_SECS}; HttpOnly; SameSite=Lax{}",
        URL_SAFE_NO_PAD.encode(tag),
        if over_tls() { "; Secure" } else { "" }
    );
    Ok((id, cookie))
}

/// The session a page's request resolved, kept for the rest of that request: the top bar and
/// the page both ask who is signed in, and the session is read once. `App` provides it for
/// each page it renders; a server function called over HTTP has none and reads each time.
///
/// It remembers which session it answered for, and answers only for that one: a server
/// function's owner is made under whatever owner the worker thread last left current
/// (`Owner::new` takes it as parent), which can be another request's page, so its memo can be
/// in reach of a request with another cookie. Believed blindly, it made one player act as
/// another (a host's "Start the match" came in as a different, concurrent player).
#[derive(Clone, Default)]
pub struct SessionMemo(pub std::sync::Arc<tokio::sync::OnceCell<(SessionHash, Option<UserId>)>>);

impl SessionMemo {
    /// Who `session` is, if this memo was filled for it (and nothing for another session).
    pub fn answer_for(&self, session: &SessionHash) -> Option<Option<UserId>> {
        self.0
            .get()
            .filter(|(filled_for, _)| filled_for == session)
            .map(|(_, user)| user.clone())
    }
}

/// The signed-in player's id, or `None` (no cookie: nothing read; a forged or expired one, or
/// a revoked session): one GetItem of the session, once per page.
pub async fn current_user(db: &Db) -> Result<Option<UserId>, AppError> {
    let user = session_user(db).await?;
    if let Some(user) = &user {
        // Names the player in the server function's span (see `error::answer`).
        tracing::Span::current().record("player", tracing::field::display(user));
    }
    Ok(user)
}

async fn session_user(db: &Db) -> Result<Option<UserId>, AppError> {
    let Some(token) = token_from_request() else {
        return Ok(None);
    };
    let hash = token.hash();
    let read =
        || async { Ok::<_, AppError>(db.accounts().session(&hash).await?.map(|s| s.user_id)) };
    if let Some(memo) = use_context::<SessionMemo>() {
        memo.0
            .get_or_try_init(|| async { Ok::<_, AppError>((hash.clone(), read().await?)) })
            .await?;
        if let Some(user) = memo.answer_for(&hash) {
            return Ok(user);
        }
        // Another request's memo was in reach: an owner inherited across requests, which
        // `http::owner` exists to prevent. Answered right all the same (read below), and counted.
        CROSSED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        tracing::warn!("a session memo of another request was in reach");
    }
    read().await
}

/// The signed-in player and the round trip the server timed for their session (see
/// `game::api::server_time`), for a tap: one GetItem of the session, as [`current_user`] reads
/// it (a tap is a server function of its own, with no page's memo to share).
pub async fn current_tapper(db: &Db) -> Result<Option<(UserId, Option<u32>)>, AppError> {
    let Some(token) = token_from_request() else {
        return Ok(None);
    };
    let session = db.accounts().session(&token.hash()).await?;
    Ok(session.map(|s| {
        tracing::Span::current().record("player", tracing::field::display(&s.user_id));
        (s.user_id, s.latency_ms)
    }))
}

static CROSSED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many times, since the process started, a request found another request's session memo
/// in reach (see [`SessionMemo`]): 0 while every request runs under an owner of its own.
pub fn crossed_sessions() -> u64 {
    CROSSED.load(std::sync::atomic::Ordering::Relaxed)
}

/// The signed-in player, or `None` (no cookie, a forged or expired one, or a revoked session).
pub async fn current_player(db: &Db) -> Result<Option<Profile>, AppError> {
    let Some(user) = current_user(db).await? else {
        return Ok(None);
    };
    Ok(db.accounts().profile(&user).await?)
}

/// The signed-in player, or a 401.
pub async fn require_player(db: &Db) -> Result<Profile, AppError> {
    current_player(db).await?.ok_or(AppError::SignInRequired)
}

/// Where the request comes from, for rate limits: the client's address as the request guard
/// worked it out (a trusted proxy's forwarded address, or the connection's own).
pub fn client_address() -> String {
    request()
        .and_then(|parts| parts.extensions.get::<ClientAddress>().copied())
        .map(|client| client.0.to_string())
        .unwrap_or_else(|| "unknown".to_owned())
}

/// Counts an attempt against a rate limit; a 429 once it is spent.
pub async fn rate_limit(
    db: &Db,
    limited: Limited<'_>,
    window_secs: i64,
    max: u32,
) -> Result<(), AppError> {
    if db.hit_rate_limit(limited, window_secs, max).await? {
        Ok(())
    } else {
        Err(AppError::RateLimited)
    }
}
