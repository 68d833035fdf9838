//! The boards over HTTP: anyone reads a room's leaderboard (no session needed).

use leptos::prelude::*;

use crate::error::AppError;
use crate::leaderboards::model::RoomBoard;

#[cfg(feature = "ssr")]
use crate::{error::fail, leaderboards::model::BOARD_SIZE, rooms::model::RoomCode, store::Db};

/// A room's leaderboard: its best scores, highest first. It outlives the room.
#[server(endpoint = "rooms/board")]
pub async fn room_leaderboard(code: String) -> Result<RoomBoard, AppError> {
    let db = expect_context::<Db>();
    let code = RoomCode::parse(&code).map_err(fail)?;
    let entries = db.room_board(&code, BOARD_SIZE).await.map_err(fail)?;
    Ok(RoomBoard { code, entries })
}
