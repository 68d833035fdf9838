//! The game over HTTP: the host starts a match, players tap, browsers read the server's clock.
//! The acting player comes from the session cookie.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;
use crate::game::sheet::{MatchDetail, MatchList};

#[cfg(feature = "ssr")]
use crate::{
    game::store::{GameConflict, Tapped},
    game::throttle::TapThrottle,
    game::timing::TapRejected,
    i18n::td_string,
    identity::session,
    news::announce,
    rooms::model::{RoomCode, RoomId},
    store::{epoch_millis, Db},
};

#[cfg(feature = "ssr")]
impl From<GameConflict> for AppError {
    /// The refusal in the request's language (the conflict's `Display` stays English, for logs).
    fn from(conflict: GameConflict) -> Self {
        let l = crate::lang::locale();
        match conflict {
            GameConflict::Data(err) => err.into(),
            GameConflict::NotFound => {
                AppError::NotFound(td_string!(l, game.errors.no_room).to_string())
            }
            GameConflict::NotHost => {
                AppError::Forbidden(td_string!(l, game.errors.not_host).to_string())
            }
            GameConflict::Spectating => {
                AppError::Forbidden(td_string!(l, game.board.spectating).to_string())
            }
            GameConflict::Tap(rejected) => AppError::BadRequest(
                match rejected {
                    TapRejected::TooEarly => td_string!(l, game.errors.too_early),
                    TapRejected::TooLate => td_string!(l, game.errors.too_late),
                    TapRejected::TooFast => td_string!(l, game.errors.too_fast),
                }
                .to_string(),
            ),
            GameConflict::NoThings => AppError::Internal,
            GameConflict::AlreadyPlaying => {
                AppError::Conflict(td_string!(l, game.errors.already_playing).to_string())
            }
            GameConflict::RoundClosed => {
                AppError::Conflict(td_string!(l, game.errors.round_closed).to_string())
            }
        }
    }
}

/// The host starts a match with everyone in the room. `seed`, when given, fixes the order of
/// things (for tests and replays).
#[server(endpoint = "rooms/start")]
pub async fn start_match(code: String, seed: Option<String>) -> Result<(), AppError> {
    crate::error::answer("start_match", async move {
        let db = expect_context::<Db>();
        let code = RoomCode::parse(&code)?;
        let seed = match seed.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            None => None,
            Some(raw) => Some(raw.parse::<u64>().map_err(|_| {
                AppError::BadRequest(
                    td_string!(crate::lang::locale(), game.errors.seed).to_string(),
                )
            })?),
        };
        let host = session::require_player(&db).await?;
        db.game().start_match(&code, &host.id, seed).await?;
        announce(&code);
        leptos_axum::redirect(&format!("/r/{code}"));
        Ok(())
    })
    .await
}

/// What the server made of a tap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TapAck {
    /// The reaction time that counts.
    pub reaction_ms: Option<u32>,
    /// `false` when an earlier tap in the round already counted.
    pub first: bool,
}

/// A tap in round `round`, which the browser was shown at `reveal_ms` (server clock) with a
/// window of `window_ms`, after `reaction_ms` by the browser's measure. The server checks all
/// of it against its own clock and the stored round.
#[server(endpoint = "rooms/tap")]
pub async fn tap(
    code: String,
    round: u32,
    reveal_ms: i64,
    window_ms: u32,
    reaction_ms: u32,
) -> Result<TapAck, AppError> {
    crate::error::answer("tap", async move {
        // The receive time is taken before anything else.
        let received_ms = epoch_millis();
        let db = expect_context::<Db>();
        let code = RoomCode::parse(&code)?;
        // A flood of taps is turned away before it costs the table anything.
        let token = session::token_from_request().ok_or(AppError::SignInRequired)?;
        let allowed =
            use_context::<TapThrottle>().is_none_or(|taps| taps.0.allow(token.hash().as_str()));
        let taps = crate::store::metrics::series::TAPS;
        if !allowed {
            metrics::counter!(taps, "outcome" => "limited").increment(1);
            return Err(AppError::RateLimited);
        }
        let player = session::require_player(&db).await?;
        let tapped = db
            .game()
            .for_round(&code, round)
            .game()
            .tap(
                &code,
                &player.id,
                round,
                reveal_ms,
                window_ms,
                reaction_ms,
                received_ms,
            )
            .await
            .inspect_err(|_| metrics::counter!(taps, "outcome" => "refused").increment(1))?;
        let outcome = match tapped {
            Tapped::Counted { .. } => "counted",
            Tapped::AlreadyCounted => "repeat",
        };
        metrics::counter!(taps, "outcome" => outcome).increment(1);
        Ok(match tapped {
            Tapped::Counted { reaction_ms } => TapAck {
                reaction_ms: Some(reaction_ms),
                first: true,
            },
            Tapped::AlreadyCounted => TapAck {
                reaction_ms: None,
                first: false,
            },
        })
    })
    .await
}

/// The server's clock (epoch milliseconds): browsers estimate their offset from it.
#[server(endpoint = "time")]
pub async fn server_time() -> Result<i64, AppError> {
    crate::error::answer("server_time", async move { Ok(epoch_millis()) }).await
}

/// A finished match: its players, every round and what it cost (the page at
/// `/m/<room id>/<first round>`; `room` may be a code alone, a match kept before rooms had ids).
#[server(endpoint = "matches/detail")]
pub async fn read_match(room: String, first: u32) -> Result<MatchDetail, AppError> {
    crate::error::answer("read_match", async move {
        let db = expect_context::<Db>();
        let room = RoomId::parse(&room)?;
        db.game().match_detail(&room, first).await?.ok_or_else(|| {
            AppError::NotFound(td_string!(crate::lang::locale(), game.errors.no_match).to_string())
        })
    })
    .await
}

/// Finished matches, newest first, a page at a time: everyone's, or one room's when `room` is
/// given (the page at `/matches`): a room's id, or a code (the room that has it now, else the
/// matches kept under the code before rooms had ids).
#[server(endpoint = "matches/recent")]
pub async fn list_matches(
    room: Option<String>,
    after: Option<String>,
) -> Result<MatchList, AppError> {
    crate::error::answer("list_matches", async move {
        const PAGE: i32 = 20;
        let db = expect_context::<Db>();
        let page = match room.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
            Some(room) => {
                let room = match RoomId::parse(room) {
                    Ok(id) if !id.is_legacy() => id,
                    _ => {
                        let code = RoomCode::parse(room)?;
                        db.rooms().room_id_of(&code).await?
                    }
                };
                db.game().room_matches(&room, PAGE, after.as_deref()).await
            }
            None => db.game().recent_matches(PAGE, after.as_deref()).await,
        }?;
        Ok(MatchList {
            matches: page.items,
            next: page.next,
        })
    })
    .await
}
