//! The ways into an account: signing in by username or email (limited per address, per login
//! and per device, with a wrong login's words the same whatever was wrong), and a guest claiming
//! their account (everything that can refuse it cheaply before the password is hashed).

use crate::error::{fail, AppError};
use crate::i18n::td_string;
use crate::identity::model::*;
use crate::identity::session;
use crate::identity::store::ClaimConflict;
use crate::store::keys::Limited;
use crate::store::Db;

/// Sign-in attempts one address may make in a window, whatever the logins: checked first, so an
/// address over it spends nobody's per-login allowance.
pub const SIGN_IN_FROM_ADDRESS: u32 = 30;

/// Attempts at one login from one address (or from one device that signed in to it before).
pub const SIGN_IN_PER_LOGIN_AND_CLIENT: u32 = 10;

/// Attempts at one login from every address without a device cookie for it, together: slows a
/// password guesser spread over many addresses. It cannot lock the owner out on a device they
/// signed in on before (that device has its own allowance).
pub const SIGN_IN_PER_LOGIN: u32 = 50;

pub const SIGN_IN_WINDOW_SECS: i64 = 15 * 60;

/// Claims one player may attempt, and one address, per hour (each costs an argon2 hash).
pub const CLAIMS_PER_PLAYER: u32 = 5;

pub const CLAIMS_PER_ADDRESS: u32 = 20;

pub const CLAIM_WINDOW_SECS: i64 = 3600;

/// Signs in with `login` (a username or an email) and `password`: the old session (if any)
/// ends, a new one starts (its cookie set) and the device is remembered for the account.
pub async fn sign_in_with(db: &Db, login: &str, password: &str) -> Result<Profile, AppError> {
    let wrong = || {
        AppError::BadRequest(
            td_string!(crate::lang::locale(), identity.errors.wrong_login).to_string(),
        )
    };
    let address = session::client_address();
    session::rate_limit(
        db,
        Limited::SignInsFrom(&address),
        SIGN_IN_WINDOW_SECS,
        SIGN_IN_FROM_ADDRESS,
    )
    .await?;
    // Only a well-formed login becomes a key (a 2 KB "login" is refused here, not by the table).
    let login = Login::parse(login).map_err(|_| wrong())?;
    let password = Password::parse(password).map_err(|_| wrong())?;
    let credentials = match &login {
        Login::Email(email) => db.accounts().credentials_by_email(email).await,
        Login::Username(username) => db.accounts().credentials_by_username(username).await,
    }?;
    let device = match &credentials {
        Some(found) => session::device_from_request(db, &found.user_id).await?,
        None => None,
    };
    let per_login: &[(Limited, u32)] = match (&device, &credentials) {
        (Some(device), Some(found)) => &[(
            Limited::SignInsOnDevice(&found.user_id, device),
            SIGN_IN_PER_LOGIN_AND_CLIENT,
        )],
        _ => &[
            (
                Limited::SignInsOfLoginFrom(login.as_str(), &address),
                SIGN_IN_PER_LOGIN_AND_CLIENT,
            ),
            (Limited::SignInsOfLogin(login.as_str()), SIGN_IN_PER_LOGIN),
        ],
    };
    for (limited, max) in per_login {
        session::rate_limit(db, *limited, SIGN_IN_WINDOW_SECS, *max).await?;
    }
    // An unknown login is verified against a dummy hash: it takes as long as a wrong password.
    let stored = credentials.as_ref().map(|c| c.password_hash.clone());
    if !crate::identity::auth::verify_password_limited(password, stored).await {
        return Err(wrong());
    }
    let Some(credentials) = credentials else {
        return Err(wrong());
    };
    let token = crate::identity::auth::SessionToken::generate();
    let old = session::token_from_request().map(|t| t.hash());
    db.accounts()
        .start_session(&credentials.user_id, &token.hash(), old.as_ref())
        .await?;
    session::set_cookie(&token);
    session::remember_device(db, &credentials.user_id).await?;
    db.accounts()
        .profile(&credentials.user_id)
        .await?
        .ok_or(AppError::Internal)
}

/// Turns the guest `player` into an account called `username` with `password` (and `email`):
/// the session is replaced in the same transaction, so a token known before the claim is
/// worthless after it.
pub async fn claim(
    db: &Db,
    player: &Profile,
    username: &Username,
    email: Option<&Email>,
    password: Password,
) -> Result<Profile, AppError> {
    if !player.is_guest() {
        return Err(claim_refused(ClaimConflict::AlreadyClaimed));
    }
    if crate::identity::name_filter::refuses(username.as_str()) {
        let l = crate::lang::locale();
        return Err(AppError::BadRequest(
            td_string!(l, identity.errors.username_refused).to_string(),
        ));
    }
    session::rate_limit(
        db,
        Limited::Claims(&player.id),
        CLAIM_WINDOW_SECS,
        CLAIMS_PER_PLAYER,
    )
    .await?;
    session::rate_limit(
        db,
        Limited::ClaimsFrom(&session::client_address()),
        CLAIM_WINDOW_SECS,
        CLAIMS_PER_ADDRESS,
    )
    .await?;
    if db.accounts().username_taken(username).await? {
        return Err(claim_refused(ClaimConflict::UsernameTaken));
    }
    if let Some(email) = &email {
        if db.accounts().email_taken(email).await? {
            return Err(claim_refused(ClaimConflict::EmailTaken));
        }
    }
    let hash = crate::identity::auth::hash_password_limited(password)
        .await
        .ok_or(AppError::Internal)?;
    let token = crate::identity::auth::SessionToken::generate();
    let old = session::token_from_request().map(|t| t.hash());
    let profile = db
        .accounts()
        .claim_account(
            &player.id,
            username,
            email,
            &hash,
            (&token.hash(), old.as_ref()),
        )
        .await
        .map_err(claim_refused)?;
    session::set_cookie(&token);
    Ok(profile)
}

/// A refused claim as the player reads it, in the request's language (the conflict's `Display`
/// stays English, for logs).
pub fn claim_refused(conflict: ClaimConflict) -> AppError {
    let l = crate::lang::locale();
    let message = match conflict {
        ClaimConflict::Data(err) => return fail(err),
        ClaimConflict::UsernameTaken => td_string!(l, identity.errors.username_taken),
        ClaimConflict::EmailTaken => td_string!(l, identity.errors.email_taken),
        ClaimConflict::AlreadyClaimed => td_string!(l, identity.errors.already_claimed),
        ClaimConflict::NoSuchPlayer => td_string!(l, identity.errors.no_such_player),
    };
    fail(AppError::Conflict(message.to_string()))
}
