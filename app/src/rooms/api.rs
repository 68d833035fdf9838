//! Rooms over HTTP: thin server functions for creating, joining, leaving and running a room.
//! The acting player always comes from the session cookie, never from an argument, so nobody
//! can act with another player's id. Creating or joining starts a guest session when the
//! browser has none, so "here's the code, join us" is one step.

use leptos::prelude::*;

use crate::error::AppError;
use crate::identity::model::{Avatar, NewName, UserId};
use crate::rooms::model::{Lobby, OpenRoom, RoomCode, RoomSettings};
#[cfg(feature = "ssr")]
use ssr::*;

/// Opens a room with the caller as host, and goes to its lobby.
#[server(endpoint = "rooms/create")]
pub async fn create_room(
    name: NewName,
    avatar: Option<Avatar>,
    public: Option<bool>,
) -> Result<RoomCode, AppError> {
    crate::error::answer("create_room", async move {
        let db = expect_context::<Db>();
        let nickname = name.into_inner();
        let avatar = avatar.unwrap_or_default();
        let public = public.unwrap_or(false);
        let code = open_room(&db, &nickname, avatar, public).await?;
        leptos_axum::redirect(&format!("/r/{code}"));
        Ok(code)
    })
    .await
}

/// Joins a room by code (twice is the same as once), and goes to its lobby.
#[server(endpoint = "rooms/join")]
pub async fn join_room(
    code: RoomCode,
    name: NewName,
    avatar: Option<Avatar>,
) -> Result<RoomCode, AppError> {
    crate::error::answer("join_room", async move {
        let db = expect_context::<Db>();
        let (nickname, avatar) = (name.into_inner(), avatar.unwrap_or_default());
        let admission = admit(&db, &code, Some(&nickname), avatar).await?;
        let player = &admission.player;
        db.rooms()
            .join_room_looking(
                &code,
                &player.id,
                &nickname,
                avatar,
                player.look,
                admission.guest_actions(),
            )
            .await?;
        admission.joined();
        announce(&code);
        leptos_axum::redirect(&format!("/r/{code}"));
        Ok(code)
    })
    .await
}

/// Leaves a room.
#[server(endpoint = "rooms/leave")]
pub async fn leave_room(code: RoomCode) -> Result<(), AppError> {
    crate::error::answer("leave_room", async move {
        let db = expect_context::<Db>();
        let player = session::require_player(&db).await?;
        db.rooms().leave_room(&code, &player.id).await?;
        announce(&code);
        leptos_axum::redirect("/");
        Ok(())
    })
    .await
}

/// The host removes a player.
#[server(endpoint = "rooms/kick")]
pub async fn kick_player(code: RoomCode, player: UserId) -> Result<(), AppError> {
    crate::error::answer("kick_player", async move {
        let db = expect_context::<Db>();
        let host = session::require_player(&db).await?;
        db.rooms().kick(&code, &host.id, &player).await?;
        announce(&code);
        Ok(())
    })
    .await
}

/// The host changes the room's settings.
#[server(endpoint = "rooms/settings")]
pub async fn change_settings(code: RoomCode, settings: RoomSettings) -> Result<Lobby, AppError> {
    crate::error::answer("change_settings", async move {
        let db = expect_context::<Db>();
        let settings = settings.validate()?;
        let host = session::require_player(&db).await?;
        let lobby = db
            .rooms()
            .update_settings(&code, &host.id, settings)
            .await?;
        announce(&code);
        // Back to the room, which confirms what was saved.
        leptos_axum::redirect(&format!("/r/{code}?saved=settings"));
        Ok(lobby)
    })
    .await
}

/// The host locks the room (nobody new may join) or unlocks it, and goes back to the room.
#[server(endpoint = "rooms/lock")]
pub async fn lock_room(code: RoomCode, locked: bool) -> Result<(), AppError> {
    crate::error::answer("lock_room", async move {
        let db = expect_context::<Db>();
        let host = session::require_player(&db).await?;
        db.rooms().set_locked(&code, &host.id, locked).await?;
        announce(&code);
        leptos_axum::redirect(&format!("/r/{code}"));
        Ok(())
    })
    .await
}

/// The host makes another player in the room the host, and goes back to the room.
#[server(endpoint = "rooms/host")]
pub async fn hand_over(code: RoomCode, player: UserId) -> Result<(), AppError> {
    crate::error::answer("hand_over", async move {
        let db = expect_context::<Db>();
        let host = session::require_player(&db).await?;
        db.rooms()
            .hand_over(&code, &host.id, &player)
            .await
            .map_err(|conflict| match conflict {
                // The player named is not there to host: a 404, as for the room.
                RoomConflict::NotInRoom => AppError::NotFound(conflict_message(&conflict)),
                other => AppError::from(other),
            })?;
        announce(&code);
        leptos_axum::redirect(&format!("/r/{code}"));
        Ok(())
    })
    .await
}

/// Public rooms with free seats, newest first.
#[server(endpoint = "rooms/open")]
pub async fn open_rooms() -> Result<Vec<OpenRoom>, AppError> {
    crate::error::answer("open_rooms", async move {
        let db = expect_context::<Db>();
        Ok(db.rooms().open_rooms(20, None).await?.items)
    })
    .await
}

/// What only the server needs: the server functions' helpers and limits.
#[cfg(feature = "ssr")]
pub(crate) mod ssr {
    use super::*;
    pub(super) use crate::{
        identity::session,
        news::announce,
        rooms::admission::{admit, open_room},
        rooms::store::RoomConflict,
        store::Db,
    };

    impl From<RoomConflict> for AppError {
        fn from(conflict: RoomConflict) -> Self {
            match conflict {
                RoomConflict::Data(err) => err.into(),
                RoomConflict::NotFound => AppError::NotFound(conflict_message(&conflict)),
                RoomConflict::NotHost | RoomConflict::Locked => {
                    AppError::Forbidden(conflict_message(&conflict))
                }
                other => AppError::Conflict(conflict_message(&other)),
            }
        }
    }

    /// A refused room action in the request's language (the `Display` of [`RoomConflict`] stays
    /// English, for logs).
    pub(super) fn conflict_message(conflict: &RoomConflict) -> String {
        use crate::i18n::td_string;
        let l = crate::lang::locale();
        match conflict {
            RoomConflict::CodeTaken => td_string!(l, rooms.errors.code_taken).to_string(),
            RoomConflict::NotFound => td_string!(l, rooms.errors.not_found).to_string(),
            RoomConflict::Full => td_string!(l, rooms.errors.full).to_string(),
            RoomConflict::NicknameTaken => td_string!(l, rooms.errors.nickname_taken).to_string(),
            RoomConflict::Started => td_string!(l, rooms.errors.started).to_string(),
            RoomConflict::NotHost => td_string!(l, rooms.errors.not_host).to_string(),
            RoomConflict::Removed => td_string!(l, rooms.errors.removed).to_string(),
            RoomConflict::NotInRoom => td_string!(l, rooms.errors.not_in_room).to_string(),
            RoomConflict::TooManyForSettings => {
                td_string!(l, rooms.errors.too_many_for_settings).to_string()
            }
            RoomConflict::Locked => td_string!(l, rooms.errors.locked).to_string(),
            RoomConflict::Data(err) => err.to_string(),
        }
    }
}
