//! The room as one viewer sees it on a load of the room page: brought up to date (a match
//! nobody watched is resolved on the way; an away host back in time takes the room back), with
//! the finished match's receipt, the viewer's badges when they play, their counted tap, their
//! calls from the audience, and the room link's QR code.

use serde::{Deserialize, Serialize};

use crate::game::model::Room;
use crate::identity::model::UserId;
#[cfg(feature = "ssr")]
pub use read::room_view;

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
    /// The reaction time of the viewer's counted tap in the round open in `room`, from the
    /// server's copy: a page drawn again after a reload shows the tap as counted.
    #[serde(default)]
    pub my_tap: Option<u32>,
    /// When the viewer is in the room's audience: the rounds of the match they said fly (their
    /// calls, scored for them alone), bit `i` for the match's round `i` (a match has at most 30;
    /// a number decodes with the code the bundle has anyway, a list of them would not).
    #[serde(default)]
    pub along: Option<u32>,
    /// With `along`: the match's first round (index) the viewer could play from the audience,
    /// by the rule the room's own audience figure counts seats (`AudienceSeat::counts_in`: joined
    /// by the round's window end); a round before it counts only if they called it.
    #[serde(default)]
    pub along_from: u32,
    /// The host's own decks, for the lobby's choice of what to play (drawn by the server: never
    /// sent to the browser).
    #[serde(skip)]
    pub my_decks: Vec<crate::decks::model::DeckHead>,
    /// The room's suggestion box while it is open, for its players (drawn by the server: never
    /// sent to the browser).
    #[serde(skip)]
    pub suggestions: Vec<crate::suggest::model::Suggestion>,
}

/// The reads behind the page.
#[cfg(feature = "ssr")]
mod read {
    use super::*;
    use leptos::prelude::*;

    use crate::error::AppError;
    use crate::game::crowds::Crowds;
    use crate::inventory::model::Badge;
    use crate::news::announce;
    use crate::rooms::model::{Lobby, RoomCode, RoomState};
    use crate::rooms::store::RoomConflict;
    use crate::store::{epoch_millis, Db};

    /// Room `code` as `me` (or a visitor) sees it now.
    pub async fn room_view(
        db: &Db,
        code: &RoomCode,
        me: Option<UserId>,
    ) -> Result<RoomPageData, AppError> {
        let mut room = db
            .game()
            .room(code)
            .await?
            .ok_or_else(|| AppError::from(RoomConflict::NotFound))?;
        // An away host back takes the room back (see `host_on_page_load`); a match is brought
        // up to date before it is shown (on the match's receipt): nobody may be watching it.
        let now = epoch_millis();
        if host_on_page_load(db, &room.lobby, me.as_ref(), now).await? {
            announce(code);
            room = db
                .game()
                .room(code)
                .await?
                .ok_or_else(|| AppError::from(RoomConflict::NotFound))?;
        }
        let behind = room.has_work(now);
        if behind {
            let first = room.game.as_ref().map_or(0, |g| g.first_round);
            room = db
                .game()
                .billed_to_match(code, first)
                .game()
                .advance(code, room)
                .await?
                .ok_or_else(|| AppError::from(RoomConflict::NotFound))?;
            announce(code);
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
        // A player's badges (one Query); a visitor's are none of the room's business.
        let badges = match me.as_ref().filter(|me| room.player(me).is_some()) {
            Some(me) => Badge::list(&db.inventory().badges(me).await?),
            None => String::new(),
        };
        let mut my_tap = me
            .as_ref()
            .and_then(|me| room.my_open_tap(me))
            .map(|(_, ms)| ms);
        let (along, along_from) = if room.lobby.audience > 0 {
            audience(db, code, me.as_ref(), &mut room, &mut my_tap).await?
        } else {
            (None, 0)
        };
        // The host's decks, for choosing one in the lobby (one Query of GSI1).
        let my_decks = match me.as_ref() {
            Some(me) if &room.host_id == me && room.state == RoomState::Lobby => {
                db.decks().by_author(me).await?
            }
            _ => Vec::new(),
        };
        // The suggestion box, while open, for the room's players (one Query of its own).
        let suggestions = match me.as_ref() {
            Some(me) if room.lobby.suggest.is_some() && room.player(me).is_some() => {
                db.suggestions().list(&room.lobby.id).await?
            }
            _ => Vec::new(),
        };
        let mut room = room.visible_at(epoch_millis());
        if let Some(game) = room.game.as_mut() {
            game.receipt = receipt.map(Box::new);
        }
        Ok(RoomPageData {
            qr_svg: qr_svg(code),
            room,
            me,
            badges,
            my_tap,
            along,
            along_from,
            my_decks,
            suggestions,
        })
    }

    /// The room link's QR code as SVG. The link comes from the request's Host header when it has a
    /// sane one; the path alone otherwise.
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

    /// What a load of the room page does for its host, before anything is shown: the host the room
    /// was handed on from while away takes it back when [`Lobby::may_take_back`] allows. Nothing
    /// else is written: whether the host is here travels between the instances with their live
    /// streams (`live::hub`), so a page load neither notes the host as here nor judges them away
    /// (an instance not watching the room cannot know). Whether the room changed (it must be read
    /// again).
    async fn host_on_page_load(
        db: &Db,
        lobby: &Lobby,
        me: Option<&UserId>,
        now_ms: i64,
    ) -> Result<bool, AppError> {
        let Some(me) = me.filter(|me| lobby.may_take_back(me, now_ms)) else {
            return Ok(false);
        };
        let back = db.rooms().take_back(lobby, me, now_ms).await?;
        tracing::debug!(code = %lobby.code, %me, back, "the away host came back");
        Ok(back)
    }

    /// The audience: its figures as this instance counted them at the last close (one Query of the
    /// seats once per close and instance; see `Crowds`), and the viewer's own calls from their own
    /// seat (one GetItem) when they are not playing the match: their calls as bits, the first round
    /// they could call, and their call in the open round as their tap.
    async fn audience(
        db: &Db,
        code: &RoomCode,
        me: Option<&UserId>,
        room: &mut crate::game::model::Room,
        my_tap: &mut Option<u32>,
    ) -> Result<(Option<u32>, u32), AppError> {
        let crowds = use_context::<Crowds>().unwrap_or_default();
        crowds.count(db, code, room).await?;
        let plays = |me: &UserId| room.game.as_ref().is_some_and(|g| g.player(me).is_some());
        let seat = match me.filter(|me| !plays(me)) {
            Some(me) => db.game().seat(code, me).await?,
            None => None,
        };
        let Some(seat) = seat else {
            return Ok((None, 0));
        };
        let game = room.game.as_ref();
        let rounds = game.map_or(&[][..], |g| &g.rounds[..]);
        let along = rounds.iter().enumerate().fold(0, |calls, (i, r)| {
            calls | u32::from(seat.call(r.n).is_some()) << i
        });
        let along_from = seat.first_round(rounds, game.map_or(0, |g| g.window_ms)) as u32;
        if let Some(game) = game {
            let open = game.rounds.get(game.resolved as usize).map(|r| r.n);
            *my_tap = open.and_then(|n| seat.call(n));
        }
        Ok((Some(along), along_from))
    }
}
