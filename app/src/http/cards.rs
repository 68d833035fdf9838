//! `GET /og/…`: each shareable page's card (see `crate::share`), at its page's address behind
//! `/og`: `/og/r/<CODE>/m/<first>` (a match), `/og/p/<id>` (a profile) and
//! `/og/lb/<metric>/<period>/<scope>` (a board, the room boards included), `/og/d/<CODE>` (a
//! deck that is not private: `crate::decks::card`). `?lang=hi` draws it
//! in Hindi (a page in Hindi names its card so, so a shared link previews in the sharer's
//! language); English otherwise, and an unknown language is a 400. A malformed address is a 400,
//! an unknown match, player or operator's season a 404. A board nobody is on yet has a card
//! that says so (its name, "no players yet"): a board's page is shared before anyone plays on
//! it, and its link should preview.
//!
//! Within a budget: a card is read with the narrow read it needs (a match 1 call, a profile
//! ≤ 3, a board ≤ 3), and what the read shows is believed for [`FRESH_FOR`] (nothing to show
//! for [`NOTHING_FOR`]) without reading again. The picture is kept by what it draws (see
//! [`cache`]), so reading a card again draws it only if it changed; its digest is its `ETag`
//! (a matching `If-None-Match` is a 304). Answers that miss the cache, 404s included, spend
//! from the client's budget (see [`budget`]), and past it are a 429 with `Retry-After`; what
//! the cache answers never is. The instance's own budget bounds every client's misses together
//! (past it, a 429 with `Retry-After` too, its words "many cards are being drawn"), and one card
//! is drawn at a time per instance, off the async threads: many addresses cannot take the cores
//! from the players.

pub mod budget;
pub mod cache;

use std::future::Future;
use std::net::IpAddr;
use std::sync::OnceLock;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use sha2::{Digest as _, Sha256};

use crate::error::AppError;
use crate::game::store::detail::match_card;
use crate::identity::UserId;
use crate::lang::Locale;
use crate::leaderboards::model::BoardId;
use crate::request::ClientAddress;
use crate::rooms::model::{RoomCode, RoomId};
use crate::share::{self, ShareImage};
use crate::store::{DataError, Db, Recorder};

use crate::http::state::AppState;

pub use budget::MissBudget;
pub use cache::{CardCache, Cards, Digest};

/// How long what a card address showed is believed before it is read again.
pub const FRESH_FOR: Duration = Duration::from_secs(60);
/// How long an address with nothing to show (an unknown player or match) is believed so.
pub const NOTHING_FOR: Duration = Duration::from_secs(30);

/// Cards drawn at once, per instance (each takes a core for some milliseconds).
const DRAWING: usize = 1;

/// One card asked for: its address in the cache, how long what it shows is believed, and the
/// read that finds what it draws (`None`: nothing to show).
pub struct Source<F> {
    pub address: String,
    pub fresh_for: Duration,
    pub read: F,
}

/// What a card draws, as a digest of its SVG.
pub fn digest_of(svg: &str) -> Digest {
    Sha256::digest(svg.as_bytes()).into()
}

/// The `ETag` of a card that draws `digest` (its first 16 bytes, in hex).
pub fn etag(digest: &Digest) -> HeaderValue {
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    HeaderValue::from_str(&format!("\"{hex}\"")).expect("hex is a header value")
}

/// Whether the browser's `If-None-Match` names `tag` (or `*`).
pub fn not_modified_since(headers: &HeaderMap, tag: &HeaderValue) -> bool {
    let Ok(tag) = tag.to_str() else {
        return false;
    };
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim())
        .any(|t| t == "*" || t.strip_prefix("W/").unwrap_or(t) == tag)
}

fn cached(status: StatusCode, digest: &Digest, body: Option<Bytes>) -> Response {
    let mut response = match body {
        Some(png) => (
            [(header::CONTENT_TYPE, HeaderValue::from_static("image/png"))],
            png,
        )
            .into_response(),
        None => status.into_response(),
    };
    let headers = response.headers_mut();
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=300"),
    );
    headers.insert(header::ETAG, etag(digest));
    response
}

fn nothing() -> Response {
    let message = crate::i18n::td_string!(crate::lang::locale(), common.nothing_to_show);
    AppError::NotFound(message.to_string()).into_response()
}

fn too_many(wait: Duration) -> Response {
    retry_after(AppError::RateLimited.into_response(), wait)
}

/// The instance is past its own budget of misses: a rate limit like the client's own (a 429,
/// to try again after `wait`), said as what it is. Not a 5xx: nothing failed, and a load
/// balancer's alarm on 5xx cannot tell a card from a page.
fn busy(wait: Duration) -> Response {
    let message = crate::i18n::td_string!(crate::lang::locale(), common.cards_busy);
    retry_after(
        (StatusCode::TOO_MANY_REQUESTS, message.to_string()).into_response(),
        wait,
    )
}

fn retry_after(mut response: Response, wait: Duration) -> Response {
    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(seconds.max(1)));
    response
}

/// The card at `source`: from the cache while what its address showed is believed, else (if
/// the client's budget allows) read, and drawn unless a picture of the same is kept.
pub async fn answer<F>(
    cards: &Cards,
    client: Option<IpAddr>,
    headers: &HeaderMap,
    source: Source<F>,
) -> Response
where
    F: Future<Output = Result<Option<ShareImage>, DataError>>,
{
    let Source {
        address,
        fresh_for,
        read,
    } = source;
    match cards.cache.seen(&address) {
        Some(None) => return nothing(),
        Some(Some(digest)) => {
            if not_modified_since(headers, &etag(&digest)) {
                return cached(StatusCode::NOT_MODIFIED, &digest, None);
            }
            if let Some(png) = cards.cache.picture(&digest) {
                return cached(StatusCode::OK, &digest, Some(png));
            }
        }
        None => {}
    }
    if let Err(wait) = cards.budget.spend(client) {
        tracing::debug!("a client is past its budget of share cards");
        return too_many(wait);
    }
    if let Err(wait) = cards.instance.spend(None) {
        tracing::debug!("the instance is past its budget of share cards");
        return busy(wait);
    }
    let card = match read.await {
        Ok(Some(card)) => card,
        Ok(None) => {
            cards.cache.saw(address, None, NOTHING_FOR);
            return nothing();
        }
        Err(err) => return AppError::from(err).into_response(),
    };
    let svg = share::svg(&card);
    let digest = digest_of(&svg);
    cards.cache.saw(address, Some(digest), fresh_for);
    if not_modified_since(headers, &etag(&digest)) {
        return cached(StatusCode::NOT_MODIFIED, &digest, None);
    }
    if let Some(png) = cards.cache.picture(&digest) {
        return cached(StatusCode::OK, &digest, Some(png));
    }
    // A queue of fixed width: one card drawn at a time per instance (the budgets bound how many
    // wait).
    static DRAWERS: OnceLock<tokio::sync::Semaphore> = OnceLock::new();
    let Ok(_turn) = DRAWERS
        .get_or_init(|| tokio::sync::Semaphore::new(DRAWING))
        .acquire()
        .await
    else {
        return AppError::Unavailable.into_response();
    };
    match tokio::task::spawn_blocking(move || share::render_svg(&svg)).await {
        Ok(Ok(png)) => {
            let png = Bytes::from(png);
            cards.cache.keep(digest, png.clone());
            cached(StatusCode::OK, &digest, Some(png))
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

/// A card's address that names nothing a card is drawn for.
fn not_a_card() -> Response {
    let message = crate::i18n::td_string!(crate::lang::locale(), common.not_a_card);
    (StatusCode::BAD_REQUEST, message.to_string()).into_response()
}

/// A card asked for in a language that is not ours: said in the default one.
fn not_our_language() -> Response {
    let message = crate::i18n::td_string!(crate::lang::locale(), common.not_our_language);
    (StatusCode::BAD_REQUEST, message.to_string()).into_response()
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

/// The state's store handle, recording into the request's recorder (`Server-Timing`).
fn request_db(state: &AppState, recorder: Option<Extension<Recorder>>) -> Db {
    match recorder {
        Some(Extension(recorder)) => state.db.recording(recorder),
        None => state.db.clone(),
    }
}

/// The match card of room `room`'s match from round `first`: its place in the cache and its
/// read (one GetItem of the kept summary). A room id is never issued again and a kept match
/// never changes, so what a room id's card shows is believed for [`KEPT_FOR`]; a legacy id (a
/// code, a match kept before rooms had ids) for [`FRESH_FOR`].
fn match_source(
    db: Db,
    room: RoomId,
    first: u32,
    l: Locale,
) -> Source<impl Future<Output = Result<Option<ShareImage>, DataError>>> {
    Source {
        address: format!("m/{room}/{first}/{l}"),
        fresh_for: if room.is_legacy() {
            FRESH_FOR
        } else {
            KEPT_FOR
        },
        read: async move {
            Ok(db
                .game()
                .match_summary(&room, first)
                .await?
                .map(|summary| match_card(&summary, l)))
        },
    }
}

/// How long what a kept match's card shows is believed: the match never changes.
pub const KEPT_FOR: Duration = Duration::from_secs(24 * 3600);

/// `GET /og/m/<room id>/<first>`.
pub async fn match_image(
    State(state): State<AppState>,
    client: Option<Extension<ClientAddress>>,
    recorder: Option<Extension<Recorder>>,
    headers: HeaderMap,
    Path((room, first)): Path<(String, String)>,
    Query(query): Query<CardQuery>,
) -> Response {
    let (Ok(room), Ok(first)) = (RoomId::parse(&room), first.parse::<u32>()) else {
        return not_a_card();
    };
    let Some(l) = query.locale() else {
        return not_our_language();
    };
    let source = match_source(request_db(&state, recorder), room, first, l);
    answer(&state.cards, client.map(|c| c.0 .0), &headers, source).await
}

/// `GET /og/r/<CODE>/m/<first>`: the card of a match kept under its room's code, before rooms
/// had ids.
pub async fn legacy_match_image(
    State(state): State<AppState>,
    client: Option<Extension<ClientAddress>>,
    recorder: Option<Extension<Recorder>>,
    headers: HeaderMap,
    Path((code, first)): Path<(String, String)>,
    Query(query): Query<CardQuery>,
) -> Response {
    let (Ok(code), Ok(first)) = (RoomCode::parse(&code), first.parse::<u32>()) else {
        return not_a_card();
    };
    let Some(l) = query.locale() else {
        return not_our_language();
    };
    let source = match_source(
        request_db(&state, recorder),
        RoomId::legacy(&code),
        first,
        l,
    );
    answer(&state.cards, client.map(|c| c.0 .0), &headers, source).await
}

/// `GET /og/p/<id>`.
pub async fn profile_image(
    State(state): State<AppState>,
    client: Option<Extension<ClientAddress>>,
    recorder: Option<Extension<Recorder>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(query): Query<CardQuery>,
) -> Response {
    let Ok(id) = UserId::parse(&id) else {
        return not_a_card();
    };
    let Some(l) = query.locale() else {
        return not_our_language();
    };
    let db = request_db(&state, recorder);
    let source = Source {
        address: format!("p/{}/{l}", id.as_str()),
        fresh_for: FRESH_FOR,
        read: async move { db.profiles().profile_card(&id, l).await },
    };
    answer(&state.cards, client.map(|c| c.0 .0), &headers, source).await
}

/// `GET /og/lb/<metric>/<period>/<scope>`.
pub async fn board_image(
    State(state): State<AppState>,
    client: Option<Extension<ClientAddress>>,
    recorder: Option<Extension<Recorder>>,
    headers: HeaderMap,
    Path((metric, period, scope)): Path<(String, String, String)>,
    Query(query): Query<CardQuery>,
) -> Response {
    let Ok(board) = BoardId::parse(&metric, &period, &scope) else {
        return not_a_card();
    };
    let Some(l) = query.locale() else {
        return not_our_language();
    };
    let db = request_db(&state, recorder);
    let source = Source {
        address: format!("lb/{}/{l}", board.key()),
        fresh_for: FRESH_FOR,
        read: async move { db.boards().board_card(&board, l).await },
    };
    answer(&state.cards, client.map(|c| c.0 .0), &headers, source).await
}

/// `GET /og/d/<CODE>`: a deck's card (two reads: the deck, its author). A deck changes with a
/// save or a play, so what the address showed is believed for [`FRESH_FOR`].
pub async fn deck_image(
    State(state): State<AppState>,
    client: Option<Extension<ClientAddress>>,
    recorder: Option<Extension<Recorder>>,
    headers: HeaderMap,
    Path(code): Path<String>,
    Query(query): Query<CardQuery>,
) -> Response {
    let Ok(code) = crate::ids::DeckCode::parse(&code) else {
        return not_a_card();
    };
    let Some(l) = query.locale() else {
        return not_our_language();
    };
    let db = request_db(&state, recorder);
    let source = Source {
        address: format!("d/{code}/{l}"),
        fresh_for: FRESH_FOR,
        read: async move { db.decks().deck_card(&code, l).await },
    };
    answer(&state.cards, client.map(|c| c.0 .0), &headers, source).await
}

/// `GET /og/daily/<yyyy-mm-dd>/<id>`: a player's finished flight of that day (one GetItem). A
/// flight not finished (or not flown) has nothing to show. Its result never changes once
/// written, but a flight in the air becomes finished, so what the address showed is believed
/// for [`FRESH_FOR`].
pub async fn flight_image(
    State(state): State<AppState>,
    client: Option<Extension<ClientAddress>>,
    recorder: Option<Extension<Recorder>>,
    headers: HeaderMap,
    Path((day, id)): Path<(String, String)>,
    Query(query): Query<CardQuery>,
) -> Response {
    let (Ok(day), Ok(id)) = (crate::ids::Day::parse(&day), UserId::parse(&id)) else {
        return not_a_card();
    };
    let Some(l) = query.locale() else {
        return not_our_language();
    };
    let db = request_db(&state, recorder).counted_as(crate::daily::store::DAILY);
    let source = Source {
        address: format!("daily/{day}/{}/{l}", id.as_str()),
        fresh_for: FRESH_FOR,
        read: async move {
            let flight = db.daily().flight(&id, day).await?;
            Ok(flight.and_then(|f| crate::daily::card::flight_card(&f, l)))
        },
    };
    answer(&state.cards, client.map(|c| c.0 .0), &headers, source).await
}
