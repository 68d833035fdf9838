//! Identity over HTTP: thin server functions that read the caller's session, call one data-layer
//! method and map its errors. Endpoints are fixed (`/api/guest`, ...) so forms, tests and other
//! clients can rely on them.

use leptos::prelude::*;

use crate::error::AppError;
use crate::identity::model::{Avatar, Profile};
#[cfg(feature = "ssr")]
pub(crate) use ssr::*;

/// Starts playing as a guest: a name (and avatar) in, a player and a session cookie out.
#[server(endpoint = "guest")]
pub async fn start_as_guest(name: String, avatar: Option<Avatar>) -> Result<Profile, AppError> {
    crate::error::answer("start_as_guest", async move {
        let db = db();
        let name = DisplayName::parse(&name)?;
        new_guest(&db, &name, avatar.unwrap_or_default()).await
    })
    .await
}

/// The signed-in player, if any.
#[server(endpoint = "me")]
pub async fn me() -> Result<Option<Profile>, AppError> {
    crate::error::answer("me", async move { session::current_player(&db()).await }).await
}

/// Turns the signed-in guest into an account with a username, password and optional email.
/// Everything that can refuse it cheaply (already claimed, the limits, a taken username or
/// email) is checked before the password is hashed; the transaction still decides a race. The
/// session is replaced in the same transaction, so a token known before the claim is worthless
/// after it.
#[server(endpoint = "claim")]
pub async fn claim_account(
    username: String,
    password: String,
    email: Option<String>,
) -> Result<Profile, AppError> {
    crate::error::answer("claim_account", async move {
        let db = db();
        let l = crate::lang::locale();
        let username = Username::parse(&username).map_err(|_| {
            AppError::BadRequest(td_string!(l, identity.errors.username_invalid).to_string())
        })?;
        let password = Password::parse(&password)?;
        let email = email
            .filter(|e| !e.trim().is_empty())
            .map(|e| Email::parse(&e))
            .transpose()
            .map_err(|_| {
                AppError::BadRequest(td_string!(l, identity.errors.email_invalid).to_string())
            })?;
        let player = session::require_player(&db).await?;
        if !player.is_guest() {
            return Err(claim_refused(ClaimConflict::AlreadyClaimed));
        }
        session::rate_limit(
            &db,
            Limited::Claims(&player.id),
            CLAIM_WINDOW_SECS,
            CLAIMS_PER_PLAYER,
        )
        .await?;
        session::rate_limit(
            &db,
            Limited::ClaimsFrom(&session::client_address()),
            CLAIM_WINDOW_SECS,
            CLAIMS_PER_ADDRESS,
        )
        .await?;
        if db.accounts().username_taken(&username).await? {
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
                &username,
                email.as_ref(),
                &hash,
                (&token.hash(), old.as_ref()),
            )
            .await
            .map_err(claim_refused)?;
        session::set_cookie(&token);
        Ok(profile)
    })
    .await
}

/// Signs in by username or email. The old session (if any) ends and a new one starts.
///
/// Limits, in order: the address's own (an address over it spends nothing else); then either
/// this device's allowance for the account (a browser that signed in to it before carries a
/// signed device cookie) or both the login-from-this-address allowance and the login's shared
/// one. A stranger can exhaust the shared one, but never the owner's device's.
#[server(endpoint = "sign-in")]
pub async fn sign_in(login: String, password: String) -> Result<Profile, AppError> {
    crate::error::answer("sign_in", async move {
        let db = db();
        let wrong = || {
            AppError::BadRequest(
                td_string!(crate::lang::locale(), identity.errors.wrong_login).to_string(),
            )
        };
        let address = session::client_address();
        session::rate_limit(
            &db,
            Limited::SignInsFrom(&address),
            SIGN_IN_WINDOW_SECS,
            SIGN_IN_FROM_ADDRESS,
        )
        .await?;
        // Only a well-formed login becomes a key (a 2 KB "login" is refused here, not by the table).
        let login = Login::parse(&login).map_err(|_| wrong())?;
        let password = Password::parse(&password).map_err(|_| wrong())?;
        let credentials = match &login {
            Login::Email(email) => db.accounts().credentials_by_email(email).await,
            Login::Username(username) => db.accounts().credentials_by_username(username).await,
        }?;
        let device = match &credentials {
            Some(found) => session::device_from_request(&db, &found.user_id).await?,
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
            session::rate_limit(&db, *limited, SIGN_IN_WINDOW_SECS, *max).await?;
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
        session::remember_device(&db, &credentials.user_id).await?;
        db.accounts()
            .profile(&credentials.user_id)
            .await?
            .ok_or(AppError::Internal)
    })
    .await
}

/// Signs out: the session ends on the server and the cookie is cleared. Every room the player
/// hosts passes at once to its longest-present other player (the rooms feature's
/// `Rooms::step_down`: one GSI1 Query, then a hand-over per room): a host who left does not hold
/// the room up until the away-host check notices.
#[server(endpoint = "sign-out")]
pub async fn sign_out() -> Result<(), AppError> {
    crate::error::answer("sign_out", async move {
        let db = db();
        if let Some(token) = session::token_from_request() {
            let user = db
                .accounts()
                .session(&token.hash())
                .await?
                .map(|s| s.user_id);
            db.accounts().end_session(&token.hash()).await?;
            if let Some(user) = user {
                match db.rooms().step_down(&user).await {
                    Ok(rooms) => rooms.iter().for_each(crate::news::announce),
                    // Signed out all the same: the away-host check hands those rooms on shortly.
                    Err(err) => {
                        tracing::warn!(error = ?err, "handing on a signed-out host's rooms failed")
                    }
                }
            }
        }
        session::clear_cookie();
        Ok(())
    })
    .await
}

/// What only the server needs: the server functions' helpers and limits.
#[cfg(feature = "ssr")]
mod ssr {
    use super::*;
    pub(super) use crate::{
        error::fail, i18n::td_string, identity::model::*, identity::session,
        identity::store::ClaimConflict, store::keys::Limited, store::Db,
    };

    /// Sign-in attempts one address may make in a window, whatever the logins: checked first, so
    /// an address over it spends nobody's per-login allowance.
    pub(super) const SIGN_IN_FROM_ADDRESS: u32 = 30;

    /// Attempts at one login from one address (or from one device that signed in to it before).
    pub(super) const SIGN_IN_PER_LOGIN_AND_CLIENT: u32 = 10;

    /// Attempts at one login from every address without a device cookie for it, together: slows a
    /// password guesser spread over many addresses. It cannot lock the owner out on a device they
    /// signed in on before (that device has its own allowance).
    pub(super) const SIGN_IN_PER_LOGIN: u32 = 50;

    pub(super) const SIGN_IN_WINDOW_SECS: i64 = 15 * 60;

    /// Guests one address may create in ten minutes (a party on one wifi shares an address).
    pub(crate) const GUESTS_PER_ADDRESS: u32 = 30;

    pub(crate) const GUEST_WINDOW_SECS: i64 = 600;

    /// Claims one player may attempt, and one address, per hour (each costs an argon2 hash).
    pub(super) const CLAIMS_PER_PLAYER: u32 = 5;

    pub(super) const CLAIMS_PER_ADDRESS: u32 = 20;

    pub(super) const CLAIM_WINDOW_SECS: i64 = 3600;

    pub(super) fn db() -> Db {
        expect_context::<Db>()
    }

    /// A refused claim as the player reads it, in the request's language (the conflict's `Display`
    /// stays English, for logs).
    pub(super) fn claim_refused(conflict: ClaimConflict) -> AppError {
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

    /// A new guest called `name`, with a session cookie (limited per address).
    pub(crate) async fn new_guest(
        db: &Db,
        name: &DisplayName,
        avatar: Avatar,
    ) -> Result<Profile, AppError> {
        let guest = pending_guest(db, name, avatar).await?;
        db.transact(guest.actions.clone()).await?;
        Ok(guest.made())
    }

    /// A guest still to be made: its profile, the actions that make it (to ride in the transaction
    /// of what it is made for), and the session cookie to set once that transaction succeeded.
    pub(crate) struct PendingGuest {
        pub profile: Profile,
        pub actions: Vec<aws_sdk_dynamodb::types::TransactWriteItem>,
        token: crate::identity::auth::SessionToken,
    }

    impl PendingGuest {
        /// After the transaction that made the guest: the browser gets its session.
        pub fn made(self) -> Profile {
            session::set_cookie(&self.token);
            self.profile
        }
    }

    /// A guest for `name`, counted against the address's guest limit, but not yet written.
    pub(crate) async fn pending_guest(
        db: &Db,
        name: &DisplayName,
        avatar: Avatar,
    ) -> Result<PendingGuest, AppError> {
        session::rate_limit(
            db,
            Limited::GuestsFrom(&session::client_address()),
            GUEST_WINDOW_SECS,
            GUESTS_PER_ADDRESS,
        )
        .await?;
        let token = crate::identity::auth::SessionToken::generate();
        let (profile, actions) = db.accounts().guest_actions(name, avatar, &token.hash())?;
        Ok(PendingGuest {
            profile,
            actions,
            token,
        })
    }
}
