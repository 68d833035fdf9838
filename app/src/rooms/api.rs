//! Rooms over HTTP: thin server functions for creating, joining, leaving and running a room.
//! The acting player always comes from the session cookie, never from an argument, so nobody
//! can act with another player's id. Creating or joining starts a guest session when the
//! browser has none, so "here's the code, join us" is one step.

use leptos::prelude::*;

use crate::error::AppError;
use crate::identity::model::{Avatar, NewName, UserId};
use crate::rooms::model::{Lobby, OpenRoom, RoomCode, RoomRule, RoomSettings};
#[cfg(feature = "ssr")]
use ssr::*;

/// Opens a room with the caller as host (with friendly names and approved joins if asked for),
/// and goes to its lobby.
#[server(endpoint = "rooms/create")]
pub async fn create_room(
    name: NewName,
    avatar: Option<Avatar>,
    public: Option<bool>,
    friendly: Option<bool>,
    approve: Option<bool>,
) -> Result<RoomCode, AppError> {
    crate::error::answer("create_room", async move {
        let db = expect_context::<Db>();
        let nickname = name.into_inner();
        let avatar = avatar.unwrap_or_default();
        let public = public.unwrap_or(false);
        let rules = RoomRules {
            friendly: friendly.unwrap_or(false),
            approve: approve.unwrap_or(false),
        };
        let code = open_room(&db, &nickname, avatar, public, rules, None).await?;
        leptos_axum::redirect(&format!("/r/{code}"));
        Ok(code)
    })
    .await
}

/// Joins a room by code (twice is the same as once), or asks to when its host approves each
/// join, and goes to its lobby. In a room with friendly names the name is drawn, not typed.
#[server(endpoint = "rooms/join")]
pub async fn join_room(
    code: RoomCode,
    name: Option<NewName>,
    avatar: Option<Avatar>,
) -> Result<RoomCode, AppError> {
    crate::error::answer("join_room", async move {
        let db = expect_context::<Db>();
        let typed = name.map(NewName::into_inner);
        let admission = admit(&db, &code, typed.as_ref(), avatar.unwrap_or_default()).await?;
        admission.take_place(&db, &code).await?;
        announce(&code);
        leptos_axum::redirect(&format!("/r/{code}"));
        Ok(code)
    })
    .await
}

/// The host turns one of the room's rules for strangers on or off, and goes back to the room.
#[server(endpoint = "rooms/rule")]
pub async fn set_room_rule(code: RoomCode, rule: RoomRule, on: bool) -> Result<(), AppError> {
    crate::error::answer("set_room_rule", async move {
        let db = expect_context::<Db>();
        let host = session::require_player(&db).await?;
        db.rooms().set_rule(&code, &host.id, rule, on).await?;
        announce(&code);
        leptos_axum::redirect(&format!("/r/{code}"));
        Ok(())
    })
    .await
}

/// The host lets a player waiting to join in, or turns them away, and goes back to the room.
#[server(endpoint = "rooms/answer")]
pub async fn answer_ask(code: RoomCode, player: UserId, let_in: bool) -> Result<(), AppError> {
    crate::error::answer("answer_ask", async move {
        let db = expect_context::<Db>();
        let host = session::require_player(&db).await?;
        db.rooms()
            .answer_ask(&code, &host.id, &player, let_in)
            .await?;
        announce(&code);
        leptos_axum::redirect(&format!("/r/{code}"));
        Ok(())
    })
    .await
}

/// A player of a room with friendly names draws another name (a few times at most), and goes
/// back to the room.
#[server(endpoint = "rooms/another-name")]
pub async fn another_name(code: RoomCode) -> Result<(), AppError> {
    crate::error::answer("another_name", async move {
        let db = expect_context::<Db>();
        let player = session::require_player(&db).await?;
        db.rooms()
            .draw_another_name(&code, &player.id, crate::lang::locale())
            .await?;
        announce(&code);
        leptos_axum::redirect(&format!("/r/{code}"));
        Ok(())
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
        rooms::model::RoomRules,
        rooms::store::RoomConflict,
        store::Db,
    };

    impl From<RoomConflict> for AppError {
        fn from(conflict: RoomConflict) -> Self {
            match conflict {
                RoomConflict::Data(err) => err.into(),
                RoomConflict::NotFound | RoomConflict::NotAsking => {
                    AppError::NotFound(conflict_message(&conflict))
                }
                RoomConflict::NotHost | RoomConflict::Locked | RoomConflict::TurnedAway => {
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
            RoomConflict::TooFewThings { things } => {
                td_string!(l, decks.errors.too_few_things, things = *things).to_string()
            }
            RoomConflict::TurnedAway => td_string!(l, strangers.err_turned_away).to_string(),
            RoomConflict::NoMoreNames => td_string!(l, strangers.err_no_more_names).to_string(),
            RoomConflict::NotAsking => td_string!(l, strangers.err_not_asking).to_string(),
            RoomConflict::Data(err) => err.to_string(),
        }
    }
}
