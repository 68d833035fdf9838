//! The way into a room, one path for its players and its audience: the address's join limit,
//! the room's rules for strangers (one read, which also says the room exists), the name (drawn
//! for them in a room with friendly names, typed otherwise), then the signed-in player or a guest
//! still to be made, then the player's own join limit. What the guest's making needs rides in the
//! join's (or the ask's) transaction, so a refused join (full, removed, the nickname taken)
//! leaves no guest and sets no cookie.

use crate::error::AppError;
use crate::identity::api::{new_guest, pending_guest, PendingGuest};
use crate::identity::model::{Avatar, DisplayName, Profile};
use crate::identity::session;
use crate::ids::RoomCode;
use crate::rooms::model::{RoomRules, RoomSettings};
use crate::rooms::store::asks::Asked;
use crate::rooms::store::{Joiner, RoomConflict};
use crate::store::keys::Limited;
use crate::store::Db;
use aws_sdk_dynamodb::types::TransactWriteItem;

/// Joins one address may make in [`ROOM_WINDOW_SECS`]: a few guests cannot take every seat of
/// every public room.
pub const JOINS_PER_ADDRESS: u32 = 30;

/// Joins one player may make per minute.
pub const JOINS_PER_PLAYER: u32 = 10;

/// Who is let in: the player, and for a visitor the guest to make with the join; the name and
/// avatar they join with, and the room's rules.
pub struct Admission {
    pub player: Profile,
    guest: Option<PendingGuest>,
    pub nickname: DisplayName,
    pub avatar: Avatar,
    pub rules: RoomRules,
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

    /// Takes a place in room `code`: joins it, or, when its host approves each join, asks to
    /// (the ask waits in the room's queue). In a room with friendly names, a name someone else
    /// took meanwhile is drawn again (a guest made for the join renamed with it). The browser's
    /// room mark goes with the join, so a removal keeps the browser out too.
    pub async fn take_place(mut self, db: &Db, code: &RoomCode) -> Result<(), AppError> {
        let mark = session::room_mark(db).await?;
        for _ in 0..4 {
            let joiner = Joiner {
                user: self.player.id.clone(),
                nickname: self.nickname.clone(),
                avatar: self.avatar,
                look: self.player.look,
                mark: Some(mark.id.clone()),
            };
            let asked = if self.rules.approve {
                db.rooms()
                    .ask_to_join(code, &joiner, self.guest_actions())
                    .await
            } else {
                Ok(Asked::NotNeeded)
            };
            let placed = match asked {
                Ok(Asked::NotNeeded) => db
                    .rooms()
                    .join_room_looking(code, &joiner, self.guest_actions())
                    .await
                    .map(|_| ()),
                Ok(Asked::Waiting | Asked::AlreadyIn) => Ok(()),
                Err(err) => Err(err),
            };
            match placed {
                Ok(()) => {
                    self.joined();
                    mark.give();
                    return Ok(());
                }
                Err(RoomConflict::NicknameTaken) if self.rules.friendly => {
                    self.nickname =
                        crate::rooms::friendly::draw(crate::lang::locale(), &[&self.nickname])
                            .ok_or(RoomConflict::NicknameTaken)?;
                    if let Some(guest) = self.guest.take() {
                        let guest = guest.renamed(db, &self.nickname, self.avatar)?;
                        self.player = guest.profile.clone();
                        self.guest = Some(guest);
                    }
                }
                Err(err) => return Err(err.into()),
            }
        }
        Err(RoomConflict::NicknameTaken.into())
    }
}

/// Lets the caller towards room `code`: limited per address, the room's rules read (an unknown
/// room counts no guest), the name chosen (drawn in the page's language in a room with friendly
/// names, whatever was typed; else the one typed, or a signed-in player's own; a visitor
/// without one is refused as an empty name is), then a visitor becomes a guest called by it,
/// and the player's own limit.
pub async fn admit(
    db: &Db,
    code: &RoomCode,
    typed: Option<&DisplayName>,
    avatar: Avatar,
) -> Result<Admission, AppError> {
    session::rate_limit(
        db,
        Limited::JoinsFrom(&session::client_address()),
        ROOM_WINDOW_SECS,
        JOINS_PER_ADDRESS,
    )
    .await?;
    let rules = db
        .rooms()
        .rules(code)
        .await?
        .ok_or_else(|| AppError::from(RoomConflict::NotFound))?;
    let current = session::current_player(db).await?;
    let nickname = match (rules.friendly, typed, &current) {
        (true, _, _) => crate::rooms::friendly::draw(crate::lang::locale(), &[])
            .ok_or_else(|| AppError::from(RoomConflict::NicknameTaken))?,
        (false, Some(name), _) => name.clone(),
        (false, None, Some(player)) => player.display_name.clone(),
        (false, None, None) => DisplayName::parse("")?,
    };
    let (player, guest) = match current {
        Some(player) => (player, None),
        None => {
            let guest = pending_guest(db, &nickname, avatar).await?;
            (guest.profile.clone(), Some(guest))
        }
    };
    session::rate_limit(db, Limited::Joins(&player.id), 60, JOINS_PER_PLAYER).await?;
    Ok(Admission {
        player,
        guest,
        nickname,
        avatar,
        rules,
    })
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
    rules: RoomRules,
    deck: Option<crate::rooms::model::RoomDeck>,
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
        let host = Joiner {
            look: player.look,
            ..Joiner::new(&player.id, nickname, avatar)
        };
        match db
            .rooms()
            .create_room_looking(&code, &host, settings, rules, deck.clone())
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
