//! The game over HTTP: the host starts a match, players tap, browsers read the server's clock.
//! The acting player comes from the session cookie.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;
use crate::game::sheet::{MatchDetail, MatchList};
use crate::identity::model::NewName;
use crate::ids::{RoomCode, RoomId};

#[cfg(feature = "ssr")]
use crate::{
    game::store::{audience::AUDIENCE, GameConflict, Tapped},
    game::throttle::TapThrottle,
    game::timing::Received,
    i18n::td_string,
    identity::model::{Avatar, UserId},
    identity::session,
    news::announce,
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
            GameConflict::AudienceFull => {
                AppError::Conflict(td_string!(l, game.errors.audience_full).to_string())
            }
            GameConflict::NotInAudience => {
                AppError::Forbidden(td_string!(l, game.errors.not_in_audience).to_string())
            }
            GameConflict::InTheMatch => {
                AppError::Conflict(td_string!(l, game.errors.in_the_match).to_string())
            }
            GameConflict::Locked => {
                AppError::Forbidden(td_string!(l, rooms.errors.locked).to_string())
            }
            GameConflict::Removed => {
                AppError::Forbidden(td_string!(l, rooms.errors.removed).to_string())
            }
            GameConflict::Tap(rejected) => AppError::BadRequest(rejected.words(l)),
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
pub async fn start_match(code: RoomCode, seed: Option<String>) -> Result<(), AppError> {
    crate::error::answer("start_match", async move {
        let db = expect_context::<Db>();
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

/// A tap as the browser timed it: in round `round`, which it was shown at `reveal_ms` (server
/// clock) with a window of `window_ms`, after `reaction_ms` by the browser's measure. The server
/// checks all of it against its own clock and the stored round. The island sends it and the
/// server functions [`tap`] and [`tap_along`] take it, one type for both ends.
///
/// On the wire its fields stand beside the room's code (`code=..&round=..&reveal_ms=..`, the
/// server functions take it flattened), as taps were always sent: a page loaded before a deploy
/// still taps on the instances after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TapTiming {
    #[serde(deserialize_with = "number")]
    pub round: u32,
    #[serde(deserialize_with = "number")]
    pub reveal_ms: i64,
    #[serde(deserialize_with = "number")]
    pub window_ms: u32,
    #[serde(deserialize_with = "number")]
    pub reaction_ms: u32,
}

/// A number sent as a form field's text (a flattened argument's fields reach serde as text) or
/// as a number.
fn number<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: std::str::FromStr + Deserialize<'de>,
    T::Err: std::fmt::Display,
{
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Sent<T> {
        Number(T),
        Text(String),
    }
    match Sent::<T>::deserialize(deserializer)? {
        Sent::Number(n) => Ok(n),
        Sent::Text(text) => text.trim().parse().map_err(serde::de::Error::custom),
    }
}

impl TapTiming {
    /// The form fields of a tap in room `code`, as [`tap`] and [`tap_along`] read them (a
    /// field renamed on either side fails to compile here, or a test that decodes them as the
    /// server does).
    pub fn fields(self, code: &RoomCode) -> [(&'static str, String); 5] {
        let Tap { code, timing } = Tap {
            code: code.clone(),
            timing: self,
        };
        let TapTiming {
            round,
            reveal_ms,
            window_ms,
            reaction_ms,
        } = timing;
        [
            ("code", code.to_string()),
            ("round", round.to_string()),
            ("reveal_ms", reveal_ms.to_string()),
            ("window_ms", window_ms.to_string()),
            ("reaction_ms", reaction_ms.to_string()),
        ]
    }
}

/// A player's tap in room `code` (see [`TapTiming`]).
#[server(endpoint = "rooms/tap")]
pub async fn tap(code: RoomCode, #[server(flatten)] timing: TapTiming) -> Result<TapAck, AppError> {
    crate::error::answer("tap", tap_as(Taps::Player, code, timing)).await
}

/// A member of the room's audience taps along in a round (see
/// [`crate::game::store::audience`]): timed and limited as a player's tap, written into their
/// own seat, never into the players' round. Answered as a player's tap is.
#[server(endpoint = "rooms/tap-along")]
pub async fn tap_along(
    code: RoomCode,
    #[server(flatten)] timing: TapTiming,
) -> Result<TapAck, AppError> {
    crate::error::answer("tap_along", tap_as(Taps::Audience, code, timing)).await
}

/// Who a tap is by.
#[cfg(feature = "ssr")]
#[derive(Clone, Copy, PartialEq, Eq)]
enum Taps {
    Player,
    Audience,
}

/// A tap by a player or by an audience member (everything an audience member's call asks of
/// the table is the audience's work), billed to the round's match.
#[cfg(feature = "ssr")]
async fn tap_as(by: Taps, code: RoomCode, timing: TapTiming) -> Result<TapAck, AppError> {
    // The receive time is taken before anything else.
    let received = epoch_millis();
    let db = match by {
        Taps::Player => expect_context::<Db>(),
        Taps::Audience => expect_context::<Db>().counted_as(AUDIENCE),
    };
    let (db, code, (who, latency)) = tapper(&code, db).await?;
    let TapTiming {
        round,
        reveal_ms,
        window_ms,
        reaction_ms,
    } = timing;
    let received = Received::at(received, latency);
    let billed = db.game().billed_to_match_of_round(&code, round);
    let game = billed.game();
    let tapped = match by {
        Taps::Player => {
            game.tap(
                &code,
                &who,
                round,
                reveal_ms,
                window_ms,
                reaction_ms,
                received,
            )
            .await
        }
        Taps::Audience => {
            game.tap_along(
                &code,
                &who,
                round,
                reveal_ms,
                window_ms,
                reaction_ms,
                received,
            )
            .await
        }
    };
    acknowledge(tapped)
}

/// Who taps, in which room: a flood of taps is turned away before it costs the table anything
/// (the session's own tap limit, counted in memory), then the session is read (one GetItem: a
/// tap needs the player's id and the round trip the server timed for the session, not their
/// profile).
#[cfg(feature = "ssr")]
async fn tapper(
    code: &RoomCode,
    db: Db,
) -> Result<(Db, RoomCode, (crate::identity::model::UserId, Option<u32>)), AppError> {
    let code = code.clone();
    let token = session::token_from_request().ok_or(AppError::SignInRequired)?;
    let allowed =
        use_context::<TapThrottle>().is_none_or(|taps| taps.0.allow(token.hash().as_str()));
    if !allowed {
        metrics::counter!(crate::store::metrics::series::TAPS, "outcome" => "limited").increment(1);
        return Err(AppError::RateLimited);
    }
    let player = session::current_tapper(&db)
        .await?
        .ok_or(AppError::SignInRequired)?;
    Ok((db, code, player))
}

/// A tap's answer, counted in the taps' metrics by how it ended.
#[cfg(feature = "ssr")]
fn acknowledge(tapped: Result<Tapped, GameConflict>) -> Result<TapAck, AppError> {
    let taps = crate::store::metrics::series::TAPS;
    let tapped =
        tapped.inspect_err(|_| metrics::counter!(taps, "outcome" => "refused").increment(1))?;
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
}

/// Refuses a player of the match in play in room `code`: they tap as a player, not from the
/// audience.
#[cfg(feature = "ssr")]
async fn not_in_the_match(db: &Db, code: &RoomCode, user: &UserId) -> Result<(), AppError> {
    let room = db.game().room(code).await?.ok_or(GameConflict::NotFound)?;
    if room
        .game
        .is_some_and(|g| !g.is_finished() && g.player(user).is_some())
    {
        return Err(GameConflict::InTheMatch.into());
    }
    Ok(())
}

/// Joins the room's audience (a visitor who has no session becomes a guest called `name` in the
/// same transaction), and goes back to the room, where they tap along from the next round on.
#[server(endpoint = "rooms/audience")]
pub async fn join_audience(code: RoomCode, name: Option<NewName>) -> Result<(), AppError> {
    crate::error::answer("join_audience", async move {
        let db = expect_context::<Db>().counted_as(AUDIENCE);
        let name = name.map(NewName::into_inner);
        let admission =
            crate::rooms::admission::admit(&db, &code, name.as_ref(), Avatar::default()).await?;
        let member = &admission.player;
        not_in_the_match(&db, &code, &member.id).await?;
        let mark = session::room_mark(&db).await?;
        db.game()
            .join_audience(
                &code,
                &member.id,
                &member.display_name,
                member.avatar,
                Some(&mark.id),
                admission.guest_actions(),
            )
            .await?;
        admission.joined();
        mark.give();
        announce(&code);
        leptos_axum::redirect(&format!("/r/{code}"));
        Ok(())
    })
    .await
}

/// The server's clock (epoch milliseconds): browsers estimate their offset from it.
///
/// It is also the server's own measure of the session's round trip. A page asks three times in
/// a row, each time sending back (`echo`) the time the answer before said: the gap between that
/// answer and this request, on the server's clock alone, is the way down, the page's turn and
/// the way back up. It is kept on the session (see `Accounts::time_session`), and a tap's
/// reaction figure is believed only that far under the server's measure, capped (see
/// `game::timing`). A page that answers slowly (or sends an old time) only raises its own
/// figure to the cap. Nothing is kept for a visitor, an echo from the future, or a session
/// pinging faster than the tap throttle allows.
#[server(endpoint = "time")]
pub async fn server_time(echo: Option<i64>) -> Result<i64, AppError> {
    crate::error::answer("server_time", async move {
        let now = epoch_millis();
        let latency = echo
            .and_then(|then| now.checked_sub(then))
            .filter(|ms| (0..=i64::from(crate::game::timing::LATENCY_KEPT_MAX_MS)).contains(ms));
        if let (Some(ms), Some(token)) = (latency, session::token_from_request()) {
            let hash = token.hash();
            let allowed = use_context::<TapThrottle>()
                .is_none_or(|t| t.0.allow(&format!("time:{}", hash.as_str())));
            if allowed {
                let db = expect_context::<Db>();
                db.accounts().time_session(&hash, ms as u32).await?;
            }
        }
        Ok(now)
    })
    .await
}

/// A finished match: its players, every round and what it cost (the page at
/// `/m/<room id>/<first round>`; `room` may be a code alone, a match kept before rooms had ids).
#[server(endpoint = "matches/detail")]
pub async fn read_match(room: RoomId, first: u32) -> Result<MatchDetail, AppError> {
    crate::error::answer("read_match", async move {
        let db = expect_context::<Db>();
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
