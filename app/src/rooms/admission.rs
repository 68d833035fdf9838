//! The way into a room, one path for its players and its audience: the address's join limit,
//! then the signed-in player or a guest still to be made (for a room that exists), then the
//! player's own join limit. What the guest's making needs rides in the join's transaction, so a
//! refused join (full, removed, the nickname taken) leaves no guest and sets no cookie.

use crate::error::AppError;
use crate::identity::api::{new_guest, pending_guest, PendingGuest};
use crate::identity::model::{Avatar, DisplayName, Profile};
use crate::identity::session;
use crate::ids::RoomCode;
use crate::rooms::model::RoomSettings;
use crate::rooms::store::RoomConflict;
use crate::store::keys::Limited;
use crate::store::Db;
use aws_sdk_dynamodb::types::TransactWriteItem;

/// Joins one address may make in [`ROOM_WINDOW_SECS`]: a few guests cannot take every seat of
/// every public room.
pub const JOINS_PER_ADDRESS: u32 = 30;

/// Joins one player may make per minute.
pub const JOINS_PER_PLAYER: u32 = 10;

/// Who is let in: the player, and for a visitor the guest to make with the join.
pub struct Admission {
    pub player: Profile,
    guest: Option<PendingGuest>,
}

impl Admission {
    /// The actions that make the guest, to add to the join's transaction (none for a player
    /// who was signed in).
    pub fn guest_actions(&self) -> Vec<TransactWriteItem> {
        self.guest
            .as_ref()
            .map(|g| g.actions.clone())
            .unwrap_or_default()
    }

    /// After the join's transaction succeeded: the guest's browser gets its session.
    pub fn joined(self) {
        if let Some(guest) = self.guest {
            guest.made();
        }
    }
}

/// Lets the caller towards room `code`: limited per address and then per player; a visitor
/// becomes a guest called `name` (refused without one, as an empty name is) once the room is
/// known to exist, so an unknown room counts no guest.
pub async fn admit(
    db: &Db,
    code: &RoomCode,
    name: Option<&DisplayName>,
    avatar: Avatar,
) -> Result<Admission, AppError> {
    session::rate_limit(
        db,
        Limited::JoinsFrom(&session::client_address()),
        ROOM_WINDOW_SECS,
        JOINS_PER_ADDRESS,
    )
    .await?;
    let admission = match session::current_player(db).await? {
        Some(player) => Admission {
            player,
            guest: None,
        },
        None => {
            let name = match name {
                Some(name) => name.clone(),
                None => DisplayName::parse("")?,
            };
            if db.rooms().room_version(code).await?.is_none() {
                return Err(AppError::from(RoomConflict::NotFound));
            }
            let guest = pending_guest(db, &name, avatar).await?;
            Admission {
                player: guest.profile.clone(),
                guest: Some(guest),
            }
        }
    };
    session::rate_limit(
        db,
        Limited::Joins(&admission.player.id),
        60,
        JOINS_PER_PLAYER,
    )
    .await?;
    Ok(admission)
}

/// Rooms one player may open per minute.
pub const ROOMS_PER_MINUTE: u32 = 10;

/// Rooms one address may open in ten minutes, and how many of them public: one address cannot
/// push everyone else's rooms off the open-rooms list by making guests.
pub const ROOMS_PER_ADDRESS: u32 = 30;

pub const PUBLIC_ROOMS_PER_ADDRESS: u32 = 5;

/// The window of the limits per address.
pub const ROOM_WINDOW_SECS: i64 = 600;

/// Opens a room with the caller (or a new guest called `nickname`) as its host, under a code
/// nobody holds: limited per address (public rooms more), then per player.
pub async fn open_room(
    db: &Db,
    nickname: &DisplayName,
    avatar: Avatar,
    public: bool,
) -> Result<RoomCode, AppError> {
    let address = session::client_address();
    let mut limits = vec![(Limited::RoomsFrom(&address), ROOMS_PER_ADDRESS)];
    if public {
        limits.push((Limited::PublicRoomsFrom(&address), PUBLIC_ROOMS_PER_ADDRESS));
    }
    for (limited, max) in limits {
        session::rate_limit(db, limited, ROOM_WINDOW_SECS, max).await?;
    }
    let player = player_or_guest(db, nickname, avatar).await?;
    session::rate_limit(db, Limited::Rooms(&player.id), 60, ROOMS_PER_MINUTE).await?;
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
            .create_room_looking(&code, &player.id, nickname, avatar, player.look, settings)
            .await
        {
            Ok(_) => return Ok(code),
            Err(RoomConflict::CodeTaken) => continue,
            Err(err) => return Err(AppError::from(err)),
        }
    }
    Err(AppError::Unavailable)
}

/// The signed-in player, or a new guest called `name` (with a session cookie).
async fn player_or_guest(db: &Db, name: &DisplayName, avatar: Avatar) -> Result<Profile, AppError> {
    if let Some(player) = session::current_player(db).await? {
        return Ok(player);
    }
    new_guest(db, name, avatar).await
}
