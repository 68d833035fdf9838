//! Rooms over HTTP: thin server functions for creating, joining, leaving and running a room.
//! The acting player always comes from the session cookie, never from an argument, so nobody
//! can act with another player's id. Creating or joining starts a guest session when the
//! browser has none, so "here's the code, join us" is one step.

use leptos::prelude::*;

use crate::error::AppError;
use crate::identity::model::{Avatar, UserId};
use crate::rooms::model::{Lobby, OpenRoom, RoomCode, RoomSettings};
#[cfg(feature = "ssr")]
use ssr::*;

/// Opens a room with the caller as host, and goes to its lobby.
#[server(endpoint = "rooms/create")]
pub async fn create_room(
    name: String,
    avatar: Option<Avatar>,
    public: Option<bool>,
) -> Result<RoomCode, AppError> {
    crate::error::answer("create_room", async move {
        let db = expect_context::<Db>();
        let nickname = DisplayName::parse(&name)?;
        let avatar = avatar.unwrap_or_default();
        let public = public.unwrap_or(false);
        let address = session::client_address();
        session::rate_limit(
            &db,
            Limited::RoomsFrom(&address),
            ROOM_WINDOW_SECS,
            ROOMS_PER_ADDRESS,
        )
        .await?;
        if public {
            session::rate_limit(
                &db,
                Limited::PublicRoomsFrom(&address),
                ROOM_WINDOW_SECS,
                PUBLIC_ROOMS_PER_ADDRESS,
            )
            .await?;
        }
        let player = player_or_guest(&db, &nickname, avatar).await?;
        session::rate_limit(&db, Limited::Rooms(&player.id), 60, ROOMS_PER_MINUTE).await?;
        let settings = RoomSettings {
            public,
            ..RoomSettings::default()
        };
        for _ in 0..8 {
            let mut bytes = [0u8; crate::rooms::model::CODE_LEN];
            getrandom::fill(&mut bytes).map_err(|_| AppError::Internal)?;
            let code = RoomCode::from_random(bytes);
            match db
                .rooms()
                .create_room_looking(&code, &player.id, &nickname, avatar, player.look, settings)
                .await
            {
                Ok(_) => {
                    leptos_axum::redirect(&format!("/r/{code}"));
                    return Ok(code);
                }
                Err(RoomConflict::CodeTaken) => continue,
                Err(err) => return Err(AppError::from(err)),
            }
        }
        Err(AppError::Unavailable)
    })
    .await
}

/// Joins a room by code (twice is the same as once), and goes to its lobby.
#[server(endpoint = "rooms/join")]
pub async fn join_room(
    code: String,
    name: String,
    avatar: Option<Avatar>,
) -> Result<RoomCode, AppError> {
    crate::error::answer("join_room", async move {
        let db = expect_context::<Db>();
        let code = RoomCode::parse(&code)?;
        let nickname = DisplayName::parse(&name)?;
        let avatar = avatar.unwrap_or_default();
        session::rate_limit(
            &db,
            Limited::JoinsFrom(&session::client_address()),
            ROOM_WINDOW_SECS,
            JOINS_PER_ADDRESS,
        )
        .await?;
        // A visitor becomes a guest in the join's own transaction: a refused join (full, removed,
        // the nickname taken) leaves no guest and sets no cookie.
        let (player, guest) = match session::current_player(&db).await? {
            Some(player) => (player, None),
            None => {
                // An unknown room is refused before a guest is counted for it.
                if db.rooms().room_version(&code).await?.is_none() {
                    return Err(AppError::from(RoomConflict::NotFound));
                }
                let guest = pending_guest(&db, &nickname, avatar).await?;
                (guest.profile.clone(), Some(guest))
            }
        };
        session::rate_limit(&db, Limited::Joins(&player.id), 60, JOINS_PER_PLAYER).await?;
        let extra = guest
            .as_ref()
            .map(|g| g.actions.clone())
            .unwrap_or_default();
        db.rooms()
            .join_room_looking(&code, &player.id, &nickname, avatar, player.look, extra)
            .await?;
        if let Some(guest) = guest {
            guest.made();
        }
        announce(&code);
        leptos_axum::redirect(&format!("/r/{code}"));
        Ok(code)
    })
    .await
}

/// Leaves a room.
#[server(endpoint = "rooms/leave")]
pub async fn leave_room(code: String) -> Result<(), AppError> {
    crate::error::answer("leave_room", async move {
        let db = expect_context::<Db>();
        let code = RoomCode::parse(&code)?;
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
pub async fn kick_player(code: String, player: UserId) -> Result<(), AppError> {
    crate::error::answer("kick_player", async move {
        let db = expect_context::<Db>();
        let code = RoomCode::parse(&code)?;
        let host = session::require_player(&db).await?;
        db.rooms().kick(&code, &host.id, &player).await?;
        announce(&code);
        Ok(())
    })
    .await
}

/// The host changes the room's settings.
#[server(endpoint = "rooms/settings")]
pub async fn change_settings(code: String, settings: RoomSettings) -> Result<Lobby, AppError> {
    crate::error::answer("change_settings", async move {
        let db = expect_context::<Db>();
        let code = RoomCode::parse(&code)?;
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
pub async fn lock_room(code: String, locked: bool) -> Result<(), AppError> {
    crate::error::answer("lock_room", async move {
        let db = expect_context::<Db>();
        let code = RoomCode::parse(&code)?;
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
pub async fn hand_over(code: String, player: UserId) -> Result<(), AppError> {
    crate::error::answer("hand_over", async move {
        let db = expect_context::<Db>();
        let code = RoomCode::parse(&code)?;
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
        identity::api::{new_guest, pending_guest},
        identity::model::{DisplayName, Profile},
        identity::session,
        news::announce,
        rooms::store::RoomConflict,
        store::keys::Limited,
        store::Db,
    };

    /// Rooms one player may open per minute.
    pub(super) const ROOMS_PER_MINUTE: u32 = 10;

    /// Rooms one address may open in ten minutes, and how many of them public: one address cannot
    /// push everyone else's rooms off the open-rooms list by making guests.
    pub(super) const ROOMS_PER_ADDRESS: u32 = 30;

    pub(super) const PUBLIC_ROOMS_PER_ADDRESS: u32 = 5;

    pub(crate) const ROOM_WINDOW_SECS: i64 = 600;

    /// Joins one player may make per minute, and one address in ten minutes: a few guests cannot
    /// take every seat of every public room.
    pub(crate) const JOINS_PER_PLAYER: u32 = 10;

    pub(crate) const JOINS_PER_ADDRESS: u32 = 30;

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

    /// The signed-in player, or a new guest called `name` (with a session cookie).
    pub(super) async fn player_or_guest(
        db: &Db,
        name: &DisplayName,
        avatar: Avatar,
    ) -> Result<Profile, AppError> {
        if let Some(player) = session::current_player(db).await? {
            return Ok(player);
        }
        new_guest(db, name, avatar).await
    }
}
