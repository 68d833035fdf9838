//! Identity over HTTP: thin server functions that read the caller's session, call one data-layer
//! method and map its errors. Endpoints are fixed (`/api/guest`, ...) so forms, tests and other
//! clients can rely on them.

use leptos::prelude::*;

use crate::error::AppError;
use crate::identity::model::{Avatar, Email, NewName, Password, Profile, Username};
use crate::ids::OrBlank;
#[cfg(feature = "ssr")]
pub(crate) use ssr::*;

/// Starts playing as a guest: a name (and avatar) in, a player and a session cookie out.
#[server(endpoint = "guest")]
pub async fn start_as_guest(name: NewName, avatar: Option<Avatar>) -> Result<Profile, AppError> {
    crate::error::answer("start_as_guest", async move {
        let name = name.into_inner();
        new_guest(&db(), &name, avatar.unwrap_or_default()).await
    })
    .await
}

/// The signed-in player, if any.
#[server(endpoint = "me")]
pub async fn me() -> Result<Option<Profile>, AppError> {
    crate::error::answer("me", async move { session::current_player(&db()).await }).await
}

/// The signed-in player's name from now on, checked as every typed name is (the filter, a
/// banned name). Limited per player: a name is not a chat channel.
#[server(endpoint = "rename")]
pub async fn rename(name: NewName) -> Result<Profile, AppError> {
    crate::error::answer("rename", async move {
        let db = db();
        let player = session::require_player(&db).await?;
        let name = name.into_inner();
        if !db
            .hit_rate_limit(Limited::Renames(&player.id), 3600, RENAMES_PER_HOUR)
            .await?
        {
            return Err(AppError::RateLimited);
        }
        if !db.accounts().rename(&player.id, &name).await? {
            return Err(AppError::SignInRequired);
        }
        Ok(Profile {
            display_name: name,
            ..player
        })
    })
    .await
}

/// Turns the signed-in guest into an account with a username, password and optional email.
/// Everything that can refuse it cheaply (already claimed, the limits, a taken username or
/// email) is checked before the password is hashed; the transaction still decides a race. The
/// session is replaced in the same transaction, so a token known before the claim is worthless
/// after it.
#[server(endpoint = "claim")]
pub async fn claim_account(
    username: Username,
    password: Password,
    email: Option<OrBlank<Email>>,
) -> Result<Profile, AppError> {
    crate::error::answer("claim_account", async move {
        let db = db();
        let player = session::require_player(&db).await?;
        let email = OrBlank::value(email);
        claim(&db, &player, &username, email.as_ref(), password).await
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
        sign_in_with(&db(), &login, &password).await
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
        identity::entry::{claim, sign_in_with},
        identity::model::*,
        identity::session,
        store::keys::Limited,
        store::Db,
    };

    /// Renames one player may make in an hour.
    pub(crate) const RENAMES_PER_HOUR: u32 = 10;

    /// Guests one address may create in ten minutes (a party on one wifi shares an address).
    pub(crate) const GUESTS_PER_ADDRESS: u32 = 30;

    pub(crate) const GUEST_WINDOW_SECS: i64 = 600;

    pub(super) fn db() -> Db {
        expect_context::<Db>()
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

        /// The same guest (its session, and the address's count already taken) called `name`.
        pub fn renamed(
            self,
            db: &Db,
            name: &DisplayName,
            avatar: Avatar,
        ) -> Result<Self, AppError> {
            let (profile, actions) =
                db.accounts()
                    .guest_actions(name, avatar, &self.token.hash())?;
            Ok(Self {
                profile,
                actions,
                token: self.token,
            })
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
