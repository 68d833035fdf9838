//! Identity over HTTP: thin server functions that read the caller's session, call one data-layer
//! method and map its errors. Endpoints are fixed (`/api/guest`, ...) so forms, tests and other
//! clients can rely on them.

use leptos::prelude::*;

use crate::error::AppError;
use crate::players::{Avatar, Profile};

#[cfg(feature = "ssr")]
use crate::{data::ClaimConflict, data::Db, players::*, session};

/// Sign-in attempts allowed per login name, and per address, in one window.
#[cfg(feature = "ssr")]
const SIGN_IN_ATTEMPTS: u32 = 10;
#[cfg(feature = "ssr")]
const SIGN_IN_WINDOW_SECS: i64 = 15 * 60;
/// Guests one address may create per minute.
#[cfg(feature = "ssr")]
const GUESTS_PER_MINUTE: u32 = 30;

#[cfg(feature = "ssr")]
fn db() -> Db {
    expect_context::<Db>()
}

#[cfg(feature = "ssr")]
fn fail(err: impl Into<AppError>) -> AppError {
    err.into().with_status()
}

/// Starts playing as a guest: a name (and avatar) in, a player and a session cookie out.
#[server(endpoint = "guest")]
pub async fn start_as_guest(name: String, avatar: Option<Avatar>) -> Result<Profile, AppError> {
    let db = db();
    let name = DisplayName::parse(&name).map_err(fail)?;
    let address = session::client_address();
    session::rate_limit(&db, &format!("guest#{address}"), 60, GUESTS_PER_MINUTE)
        .await
        .map_err(fail)?;
    let token = crate::auth::SessionToken::generate();
    let profile = db
        .create_guest(&name, avatar.unwrap_or_default(), &token.hash())
        .await
        .map_err(fail)?;
    session::set_cookie(&token);
    Ok(profile)
}

/// The signed-in player, if any.
#[server(endpoint = "me")]
pub async fn me() -> Result<Option<Profile>, AppError> {
    session::current_player(&db()).await.map_err(fail)
}

/// Turns the signed-in guest into an account with a username, password and optional email.
#[server(endpoint = "claim")]
pub async fn claim_account(
    username: String,
    password: String,
    email: Option<String>,
) -> Result<Profile, AppError> {
    let db = db();
    let username = Username::parse(&username).map_err(fail)?;
    let password = Password::parse(&password).map_err(fail)?;
    let email = email
        .filter(|e| !e.trim().is_empty())
        .map(|e| Email::parse(&e))
        .transpose()
        .map_err(fail)?;
    let player = session::require_player(&db).await.map_err(fail)?;
    let hash = tokio::task::spawn_blocking(move || crate::auth::hash_password(&password))
        .await
        .map_err(|_| fail(AppError::Internal))?
        .map_err(|_| fail(AppError::Internal))?;
    db.claim_account(&player.id, &username, email.as_ref(), &hash)
        .await
        .map_err(|err| match err {
            ClaimConflict::Data(err) => fail(err),
            conflict => fail(AppError::Conflict(conflict.to_string())),
        })
}

/// Signs in by username or email. The old session (if any) ends and a new one starts.
#[server(endpoint = "sign-in")]
pub async fn sign_in(login: String, password: String) -> Result<Profile, AppError> {
    let db = db();
    let wrong = || {
        fail(AppError::BadRequest(
            "Wrong username, email or password.".into(),
        ))
    };
    let login = login.trim().to_lowercase();
    session::rate_limit(
        &db,
        &format!("sign-in#{login}"),
        SIGN_IN_WINDOW_SECS,
        SIGN_IN_ATTEMPTS,
    )
    .await
    .map_err(fail)?;
    session::rate_limit(
        &db,
        &format!("sign-in-from#{}", session::client_address()),
        SIGN_IN_WINDOW_SECS,
        SIGN_IN_ATTEMPTS * 3,
    )
    .await
    .map_err(fail)?;
    let password = Password::parse(&password).map_err(|_| wrong())?;
    let credentials = if login.contains('@') {
        let email = Email::parse(&login).map_err(|_| wrong())?;
        db.credentials_by_email(&email).await.map_err(fail)?
    } else {
        let username = Username::parse(&login).map_err(|_| wrong())?;
        db.credentials_by_username(&username).await.map_err(fail)?
    };
    let Some(credentials) = credentials else {
        return Err(wrong());
    };
    let stored = credentials.password_hash.clone();
    let ok = tokio::task::spawn_blocking(move || crate::auth::verify_password(&password, &stored))
        .await
        .map_err(|_| fail(AppError::Internal))?;
    if !ok {
        return Err(wrong());
    }
    let token = crate::auth::SessionToken::generate();
    let old = session::token_from_request().map(|t| t.hash());
    db.start_session(&credentials.user_id, &token.hash(), old.as_ref())
        .await
        .map_err(fail)?;
    session::set_cookie(&token);
    db.profile(&credentials.user_id)
        .await
        .map_err(fail)?
        .ok_or_else(|| fail(AppError::Internal))
}

/// Signs out: the session ends on the server and the cookie is cleared.
#[server(endpoint = "sign-out")]
pub async fn sign_out() -> Result<(), AppError> {
    if let Some(token) = session::token_from_request() {
        db().end_session(&token.hash()).await.map_err(fail)?;
    }
    session::clear_cookie();
    Ok(())
}
