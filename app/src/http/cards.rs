//! `GET /og/…`: each shareable page's card (see `crate::share`), at its page's address behind
//! `/og`: `/og/r/<CODE>/m/<first>` (a match), `/og/p/<id>` (a profile) and
//! `/og/lb/<metric>/<period>/<scope>` (a board, the room boards included). A card is drawn from
//! the same reads as its page, off the async threads, two at a time at most, and kept in memory
//! for a while (a finished match's for good: it never changes). A malformed address is a 400,
//! an unknown match, player or empty board a 404. `?lang=hi` draws it in Hindi (a page in Hindi
//! names its card so, so a shared link previews in the sharer's language); English otherwise,
//! and an unknown language is a 400.

use std::future::Future;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::error::AppError;
use crate::game::detail::match_card;
use crate::identity::UserId;
use crate::lang::Locale;
use crate::leaderboards::model::BoardId;
use crate::profiles::store::profile_card;
use crate::rooms::model::{RoomCode, RoomId};
use crate::share::{self, Card, FRESH_FOR};
use crate::store::DataError;

use crate::http::state::AppState;

/// Cards drawn at once, per instance (each takes a core for some milliseconds).
const DRAWING: usize = 2;

/// A finished match's card never changes.
const FOR_GOOD: Duration = Duration::from_secs(365 * 24 * 3600);

fn png(bytes: Arc<[u8]>) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("image/png")),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=300"),
            ),
        ],
        bytes.to_vec(),
    )
        .into_response()
}

/// The card at `key`: from memory while fresh, else read (`card`), drawn and kept.
async fn answer(
    state: &AppState,
    key: String,
    fresh: Duration,
    card: impl Future<Output = Result<Option<Card>, DataError>>,
) -> Response {
    if let Some(bytes) = state.cards.get(&key, fresh) {
        return png(bytes);
    }
    let card = match card.await {
        Ok(Some(card)) => card,
        Ok(None) => return AppError::NotFound("Nothing to show here.".into()).into_response(),
        Err(err) => return AppError::from(err).into_response(),
    };
    static DRAWERS: OnceLock<tokio::sync::Semaphore> = OnceLock::new();
    let Ok(_turn) = DRAWERS
        .get_or_init(|| tokio::sync::Semaphore::new(DRAWING))
        .acquire()
        .await
    else {
        return AppError::Unavailable.into_response();
    };
    match tokio::task::spawn_blocking(move || share::render(&card)).await {
        Ok(Ok(bytes)) => {
            let bytes: Arc<[u8]> = bytes.into();
            state.cards.put(key, Arc::clone(&bytes));
            png(bytes)
        }
        Ok(Err(err)) => {
            tracing::error!(%err, "a share card failed to draw");
            AppError::Internal.into_response()
        }
        Err(err) => {
            tracing::error!(%err, "a share card's drawing task failed");
            AppError::Internal.into_response()
        }
    }
}

fn bad(message: &str) -> Response {
    (StatusCode::BAD_REQUEST, message.to_owned()).into_response()
}

/// A card's query: the language to draw it in.
#[derive(serde::Deserialize)]
pub struct CardQuery {
    lang: Option<String>,
}

impl CardQuery {
    /// The language asked for (English when none was); `None` for one we don't have.
    fn locale(&self) -> Option<Locale> {
        self.lang
            .as_deref()
            .map_or(Some(Locale::en), crate::lang::parse)
    }
}

/// `GET /og/m/<room id>/<first>`.
pub async fn match_image(
    State(state): State<AppState>,
    Path((room, first)): Path<(String, String)>,
    Query(query): Query<CardQuery>,
) -> Response {
    let (Ok(room), Ok(first)) = (RoomId::parse(&room), first.parse::<u32>()) else {
        return bad("Not a match's address.");
    };
    match_card_answer(state, room, first, query).await
}

/// `GET /og/r/<CODE>/m/<first>`: the card of a match kept under its room's code, before rooms
/// had ids.
pub async fn legacy_match_image(
    State(state): State<AppState>,
    Path((code, first)): Path<(String, String)>,
    Query(query): Query<CardQuery>,
) -> Response {
    let (Ok(code), Ok(first)) = (RoomCode::parse(&code), first.parse::<u32>()) else {
        return bad("Not a match's address.");
    };
    match_card_answer(state, RoomId::legacy(&code), first, query).await
}

/// A match's card, kept for good under the match's own key (the room's id and its first round).
async fn match_card_answer(
    state: AppState,
    room: RoomId,
    first: u32,
    query: CardQuery,
) -> Response {
    let Some(l) = query.locale() else {
        return bad("Not a language of ours.");
    };
    let key = format!("m/{room}/{first}/{l}");
    let db = state.db.clone();
    answer(&state, key, FOR_GOOD, async move {
        Ok(db
            .match_detail(&room, first)
            .await?
            .map(|d| match_card(&d, l)))
    })
    .await
}

/// `GET /og/p/<id>`.
pub async fn profile_image(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<CardQuery>,
) -> Response {
    let Ok(id) = UserId::parse(&id) else {
        return bad("Not a player's address.");
    };
    let Some(l) = query.locale() else {
        return bad("Not a language of ours.");
    };
    let key = format!("p/{}/{l}", id.as_str());
    let db = state.db.clone();
    answer(&state, key, FRESH_FOR, async move {
        Ok(db
            .profile_page(&id, None, None, l)
            .await?
            .map(|p| profile_card(&p, l)))
    })
    .await
}

/// `GET /og/lb/<metric>/<period>/<scope>`.
pub async fn board_image(
    State(state): State<AppState>,
    Path((metric, period, scope)): Path<(String, String, String)>,
    Query(query): Query<CardQuery>,
) -> Response {
    let Ok(board) = BoardId::parse(&metric, &period, &scope) else {
        return bad("Not a board's address.");
    };
    let Some(l) = query.locale() else {
        return bad("Not a language of ours.");
    };
    let key = format!("lb/{}/{l}", board.key());
    let db = state.db.clone();
    answer(&state, key, FRESH_FOR, async move {
        db.board_card(&board, l).await
    })
    .await
}
