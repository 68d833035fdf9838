//! The room page's one server function: the room as played, brought up to date (a match
//! nobody watched is resolved on the way, a room whose host is away is handed on), with who is
//! asking, their badges and the room link's QR code.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;
use crate::game::model::Room;
use crate::identity::model::UserId;

#[cfg(feature = "ssr")]
use crate::{
    identity::session,
    inventory::model::Badge,
    news::announce,
    rooms::model::{RoomCode, RoomState},
    rooms::store::RoomConflict,
    store::{epoch_millis, Db},
};

/// What the room page needs: the room as played, who is asking, and the QR code of the room's
/// link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomPageData {
    /// Named on the wire as it always was.
    #[serde(rename = "lobby")]
    pub room: Room,
    pub me: Option<UserId>,
    /// An SVG of the room link's QR code, made on the server (the browser bundle carries no
    /// QR encoder).
    pub qr_svg: String,
    /// The viewer's badges with when each was first earned (epoch ms), when they play in this
    /// room: the podium announces a badge a match earns only if it is new to them. Written
    /// `first-win@<ms>;…` ([`crate::inventory::model::Badge::list`]): a string decodes with
    /// the code the bundle has anyway.
    #[serde(default)]
    pub badges: String,
}

/// The room link's QR code as SVG. The link comes from the request's Host header when it has a
/// sane one; the path alone otherwise.
#[cfg(feature = "ssr")]
fn qr_svg(code: &RoomCode) -> String {
    use qrcode::render::svg;
    let host = use_context::<http::request::Parts>()
        .and_then(|parts| parts.headers.get(http::header::HOST).cloned())
        .and_then(|h| h.to_str().ok().map(str::to_owned))
        .filter(|h| {
            h.len() < 256
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b".:-[]".contains(&b))
        });
    let link = match host {
        Some(host) => format!("http://{host}/r/{code}"),
        None => format!("/r/{code}"),
    };
    let Ok(qr) = qrcode::QrCode::new(link.as_bytes()) else {
        return String::new();
    };
    let document = qr
        .render::<svg::Color>()
        .min_dimensions(160, 160)
        .dark_color(svg::Color("#1d3557"))
        .light_color(svg::Color("#ffffff"))
        .build();
    // Inline in HTML: drop the XML declaration.
    document
        .find("<svg")
        .map(|start| document[start..].to_owned())
        .unwrap_or_default()
}

/// A room as anyone with the code sees it now, and who is asking.
#[server(endpoint = "rooms/lobby")]
pub async fn room_page(code: String) -> Result<RoomPageData, AppError> {
    crate::error::answer("room_page", async move {
        let db = expect_context::<Db>();
        let code = RoomCode::parse(&code)?;
        let mut room = db
            .game()
            .room(&code)
            .await?
            .ok_or_else(|| AppError::from(RoomConflict::NotFound))?;
        // Nobody may be watching the room: hand it on if its host is away, and bring a match up to
        // date before showing it (on the match's receipt).
        let now = epoch_millis();
        if let Some(next) = db.rooms().hand_over_if_host_away(&room.lobby, now).await? {
            tracing::debug!(%code, %next, "the host was away; handed the room on");
            announce(&code);
            room = db
                .game()
                .room(&code)
                .await?
                .ok_or_else(|| AppError::from(RoomConflict::NotFound))?;
        }
        let behind = room.has_work(now);
        if behind {
            let first = room.game.as_ref().map_or(0, |g| g.first_round);
            room = db
                .game()
                .for_match(&code, first)
                .game()
                .advance(&code, room)
                .await?
                .ok_or_else(|| AppError::from(RoomConflict::NotFound))?;
            announce(&code);
        }
        // A match that is over shows what it cost.
        let over = room
            .game
            .as_ref()
            .filter(|g| room.state != RoomState::Playing && g.is_finished())
            .map(|g| g.first_round);
        let receipt = match over {
            Some(first) => db.game().match_receipt(&room.id, first).await?,
            None => None,
        };
        let me = session::current_user(&db).await?;
        // A player's badges (one Query); a visitor's are none of the room's business.
        let badges = match me.as_ref().filter(|me| room.player(me).is_some()) {
            Some(me) => Badge::list(&db.inventory().badges(me).await?),
            None => String::new(),
        };
        let mut room = room.visible_at(epoch_millis());
        if let Some(game) = room.game.as_mut() {
            game.receipt = receipt.map(Box::new);
        }
        Ok(RoomPageData {
            qr_svg: qr_svg(&code),
            room,
            me,
            badges,
        })
    })
    .await
}
