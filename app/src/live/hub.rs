//! The server side of the live channel: one watcher per watched room on this instance, and the
//! SSE handler that streams a watcher's snapshots to a browser. A watcher also looks after its
//! room's host: while the host has a stream open here it notes so on the room every
//! [`HOST_BEAT_MS`]; a host unseen for longer than the grace is handed on by the first watcher
//! (on any instance) to see it, from the version poll it makes anyway.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures::Stream;
use tokio::sync::{watch, Notify, OwnedSemaphorePermit, Semaphore};

use crate::error::AppError;
use crate::game::model::{MatchReceipt, Room};
use crate::identity::auth::SessionToken;
use crate::identity::model::UserId;
use crate::live::feed::RoomFeed;
use crate::live::streams::{stream_window, STREAM_WINDOW_SECS};
use crate::request::ClientAddress;
use crate::rooms::model::{RoomCode, RoomState, HOST_BEAT_MS};
use crate::store::{epoch_millis, epoch_seconds, DataError, Db};

/// How often a watcher asks the table whether its room changed. Changes made through another
/// instance reach this instance's listeners within this interval (plus one round trip).
pub const DEFAULT_POLL: Duration = Duration::from_millis(400);

/// The work the rooms' watchers are counted as in the process's usage (see `Usage`).
pub const WATCHERS: &str = "watchers";

/// Open streams one instance serves at most; more get 503 and the browser retries.
pub const MAX_STREAMS: usize = 4096;

/// Open streams one client address may hold across every instance (a party on one wifi shares
/// an address: a dozen phones, each with a room page open and reconnecting now and then).
pub const STREAMS_PER_CLIENT: u32 = 64;

/// One open stream's place in its client's count across instances (see
/// `live/streams.rs`): renewed in each next window while the stream lives, released when it
/// is dropped.
pub struct StreamLease {
    renewal: tokio::task::JoinHandle<()>,
    db: Db,
    client: String,
    first: i64,
    last: Arc<std::sync::atomic::AtomicI64>,
}

impl StreamLease {
    /// Counts a new stream for `client`; `None` when the client is at its cap.
    pub async fn acquire(db: &Db, client: String, max: u32) -> Result<Option<Self>, DataError> {
        use std::sync::atomic::{AtomicI64, Ordering};
        // The streams' bookkeeping is its own line in the process's usage.
        let db = &db.counted_as("streams");
        let Some(last) = db.count_stream(&client, max).await? else {
            return Ok(None);
        };
        let first = stream_window(epoch_seconds());
        let last = Arc::new(AtomicI64::new(last));
        let renewal = {
            let (db, client, last) = (db.clone(), client.clone(), Arc::clone(&last));
            tokio::spawn(async move {
                loop {
                    // At the middle of the last window counted in, count the next one.
                    let counted = last.load(Ordering::Acquire);
                    let at = counted * STREAM_WINDOW_SECS + STREAM_WINDOW_SECS / 2;
                    let wait = (at * 1000 - epoch_millis()).max(0) as u64;
                    tokio::time::sleep(Duration::from_millis(wait)).await;
                    match db.renew_stream(&client, counted + 1).await {
                        Ok(()) => last.store(counted + 1, Ordering::Release),
                        Err(err) => {
                            tracing::debug!(error = ?err, "stream renewal failed; retrying");
                            tokio::time::sleep(Duration::from_secs(1)).await;
                        }
                    }
                }
            })
        };
        Ok(Some(Self {
            renewal,
            db: db.clone(),
            client,
            first,
            last,
        }))
    }
}

impl Drop for StreamLease {
    fn drop(&mut self) {
        self.renewal.abort();
        let (db, client) = (self.db.clone(), std::mem::take(&mut self.client));
        let last = self.last.load(std::sync::atomic::Ordering::Acquire);
        let from = self.first.max(stream_window(epoch_seconds()));
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                if let Err(err) = db.release_stream(&client, from, last).await {
                    tracing::debug!(error = ?err, "stream release failed; it lapses by itself");
                }
            });
        }
    }
}

/// The most this instance waits after a round falls due before it closes it itself (each
/// instance picks its own wait in `0..=CLOSE_SPREAD_MS`): the instances' watchers do not all
/// try at the same moment, so the later ones find the round closed by one read, and do not pay
/// for a refused write.
const CLOSE_SPREAD_MS: i64 = 120;

/// The next moment the room changes by the clock alone: a reveal, or a round falling due (for
/// this instance, `close_after` ms after it does).
fn next_event(room: &Room, now: i64, close_after: i64) -> Option<i64> {
    let game = room.game.as_ref()?;
    let reveal = game.next_reveal_after(now);
    let due = game
        .closes_at(game.resolved as usize)
        .map(|at| (at + close_after).max(now));
    reveal.into_iter().chain(due).min()
}

/// How long the browser waits before reconnecting a dropped stream.
const RECONNECT_AFTER: Duration = Duration::from_millis(1000);

/// What a watcher shows of the last match's receipt: the match, the receipt as last read, and
/// when it was read.
#[derive(Default)]
struct ReceiptView {
    first: u32,
    receipt: Option<MatchReceipt>,
    read_ms: i64,
}

/// After a match ends, its receipt grows for a few seconds as instances report in: a watcher
/// reads it this often, for this long.
const RECEIPT_READ_EVERY_MS: i64 = 1500;
const RECEIPT_READ_FOR_MS: i64 = 6000;

/// A room's current snapshot (`None` until the first read), the bell that makes its watcher
/// read now, and who listens here (open streams per signed-in player): while the host is among
/// them, the watcher tells the table the host is here.
struct Watcher {
    feed: watch::Sender<Option<RoomFeed>>,
    wake: Notify,
    listeners: Mutex<HashMap<UserId, usize>>,
}

impl Watcher {
    fn listeners(&self) -> std::sync::MutexGuard<'_, HashMap<UserId, usize>> {
        self.listeners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether `user` has a stream of this room open on this instance.
    fn hears(&self, user: &UserId) -> bool {
        self.listeners().get(user).is_some_and(|n| *n > 0)
    }
}

/// One signed-in player's open stream, counted on its room's watcher until dropped.
pub struct Listening {
    watcher: Arc<Watcher>,
    user: UserId,
}

impl Drop for Listening {
    fn drop(&mut self) {
        let mut listeners = self.watcher.listeners();
        if let Some(n) = listeners.get_mut(&self.user) {
            *n -= 1;
            if *n == 0 {
                listeners.remove(&self.user);
            }
        }
    }
}

struct Inner {
    /// For the requests that open streams.
    db: Db,
    /// For the watchers: their calls (polls, reads, closes, host heartbeats) count as
    /// [`WATCHERS`] in the process's usage.
    watchers: Db,
    poll: Duration,
    rooms: Mutex<HashMap<RoomCode, Arc<Watcher>>>,
    streams: Arc<Semaphore>,
    /// This instance's wait after a round falls due (see [`CLOSE_SPREAD_MS`]).
    close_after: i64,
}

/// This instance's watchers, one per room with listeners here. Cheap to clone.
#[derive(Clone)]
pub struct RoomHub {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for RoomHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RoomHub")
            .field("poll", &self.inner.poll)
            .field("watched_rooms", &self.watched_rooms())
            .finish()
    }
}

impl RoomHub {
    pub fn new(db: Db, poll: Duration, max_streams: usize) -> Self {
        let hub = Self {
            inner: Arc::new(Inner {
                watchers: db.counted_as(WATCHERS),
                db,
                poll,
                rooms: Mutex::new(HashMap::new()),
                streams: Arc::new(Semaphore::new(max_streams)),
                close_after: {
                    let mut byte = [0u8; 1];
                    let _ = getrandom::fill(&mut byte);
                    i64::from(byte[0]) * CLOSE_SPREAD_MS / 255
                },
            }),
        };
        // Tallies of matches this instance served but never saw end reach their receipts too.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let db = hub.inner.db.clone();
            runtime.spawn(async move {
                loop {
                    tokio::time::sleep(crate::game::receipts::QUIET / 2).await;
                    if let Err(err) = db.add_quiet_receipts().await {
                        tracing::debug!(error = ?err, "adding quiet tallies to receipts failed");
                    }
                }
            });
        }
        hub
    }

    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<RoomCode, Arc<Watcher>>> {
        // The map is never left half-changed, so a panic elsewhere does not spoil it.
        self.inner
            .rooms
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Listens to a room: the receiver holds the latest snapshot and is told of each new one.
    /// Starts the room's watcher if this instance had none. Call inside a Tokio runtime.
    pub fn subscribe(&self, code: &RoomCode) -> watch::Receiver<Option<RoomFeed>> {
        self.subscribe_as(code, None).0
    }

    /// [`RoomHub::subscribe`] for a player (`None`: a visitor): while the returned [`Listening`]
    /// lives, the room's watcher counts them among its listeners, and if they host the room it
    /// says so to the table every [`HOST_BEAT_MS`].
    pub fn subscribe_as(
        &self,
        code: &RoomCode,
        user: Option<UserId>,
    ) -> (watch::Receiver<Option<RoomFeed>>, Option<Listening>) {
        let mut rooms = self.rooms();
        let (watcher, receiver) = match rooms.get(code) {
            Some(watcher) => (Arc::clone(watcher), watcher.feed.subscribe()),
            None => {
                let (feed, receiver) = watch::channel(None);
                let watcher = Arc::new(Watcher {
                    feed,
                    wake: Notify::new(),
                    listeners: Mutex::new(HashMap::new()),
                });
                rooms.insert(code.clone(), Arc::clone(&watcher));
                tokio::spawn(self.clone().watch(code.clone(), Arc::clone(&watcher)));
                (watcher, receiver)
            }
        };
        let listening = user.map(|user| {
            *watcher.listeners().entry(user.clone()).or_insert(0) += 1;
            // A host arriving is noted at once, not at the next beat.
            watcher.wake.notify_one();
            Listening { watcher, user }
        });
        (receiver, listening)
    }

    /// Tells the room's watcher (if this instance has one) to read the room now: called after
    /// every write to a room made through this instance.
    pub fn poke(&self, code: &RoomCode) {
        if let Some(watcher) = self.rooms().get(code) {
            watcher.wake.notify_one();
        }
    }

    /// Rooms this instance is watching.
    pub fn watched_rooms(&self) -> usize {
        self.rooms().len()
    }

    /// Polls while the room has listeners here; publishes a snapshot whenever it changed. It
    /// also wakes on the match's clock: at each reveal (to show the thing, never earlier) and
    /// when a round's window and grace are over, when it tries to resolve the round. Watchers
    /// on every instance may try at once; the table lets exactly one of them apply it.
    async fn watch(self, code: RoomCode, watcher: Arc<Watcher>) {
        let mut room: Option<Room> = None;
        let mut receipt = ReceiptView::default();
        let mut failures = 0u32;
        // When this watcher last told the table the host is here.
        let mut beat_ms = i64::MIN / 2;
        loop {
            match self
                .refresh(&code, &watcher, &mut room, &mut receipt, &mut beat_ms)
                .await
            {
                Ok(feed) => {
                    failures = 0;
                    let news = watcher.feed.borrow().as_ref() != Some(&feed);
                    if news {
                        watcher.feed.send_replace(Some(feed));
                    }
                }
                Err(err) => {
                    failures += 1;
                    tracing::warn!(%code, error = ?err, failures, "room watcher read failed");
                }
            }
            // Back off while the table is failing; listeners keep the last snapshot.
            let mut pause = self.inner.poll * 2u32.pow(failures.min(4));
            let now = epoch_millis();
            // While failing, still wake for the next reveal (one attempt each, so no spin): a
            // transient error must not push this instance's reveal back by a whole backoff.
            let event = room.as_ref().and_then(|room| match failures {
                0 => next_event(room, now, self.inner.close_after),
                _ => room.game.as_ref().and_then(|g| g.next_reveal_after(now)),
            });
            if let Some(at) = event {
                // Never spin: a round still due after an attempt waits a little.
                let until = Duration::from_millis((at - now).max(25) as u64);
                pause = pause.min(until);
            }
            // The host's next heartbeat, when they listen here (the poll is far shorter anyway).
            if room
                .as_ref()
                .is_some_and(|room| watcher.hears(&room.host_id))
            {
                let until = Duration::from_millis((beat_ms + HOST_BEAT_MS - now).max(25) as u64);
                pause = pause.min(until);
            }
            tokio::select! {
                () = tokio::time::sleep(pause) => {}
                () = watcher.wake.notified() => {}
                () = watcher.feed.closed() => {}
            }
            let mut rooms = self.rooms();
            if watcher.feed.receiver_count() == 0 {
                if rooms
                    .get(&code)
                    .is_some_and(|current| Arc::ptr_eq(current, &watcher))
                {
                    rooms.remove(&code);
                }
                return;
            }
        }
    }

    /// Brings `room` up to date (reading it only when its version moved), looks after its host
    /// (a heartbeat while the host listens here; else hands the room on if the host is away),
    /// resolves what is due, and returns what browsers may see now.
    async fn refresh(
        &self,
        code: &RoomCode,
        watcher: &Watcher,
        room: &mut Option<Room>,
        receipt: &mut ReceiptView,
        beat_ms: &mut i64,
    ) -> Result<RoomFeed, DataError> {
        // What the watcher does for a match in play is on that match's receipt.
        let in_play = room
            .as_ref()
            .filter(|room| room.state == RoomState::Playing)
            .and_then(|room| room.game.as_ref())
            .map(|game| game.first_round);
        let db = &match in_play {
            Some(first) => self.inner.watchers.for_match(code, first),
            None => self.inner.watchers.clone(),
        };
        let Some(pulse) = db.room_pulse(code).await? else {
            *room = None;
            return Ok(RoomFeed::Ended);
        };
        if room.as_ref().map(|room| room.version) != Some(pulse.version) {
            *room = db.room(code).await?;
        }
        if let Some(room) = room.as_mut().filter(|room| room.host_id == pulse.host_id) {
            // Heartbeats move `host_seen` without a new version: the poll has the latest.
            room.lobby.host_seen_ms = pulse.host_seen_ms;
        }
        if self
            .look_after_host(code, watcher, room.as_ref(), beat_ms)
            .await
        {
            *room = db.room(code).await?;
        }
        let now = epoch_millis();
        let work = room
            .as_ref()
            .is_some_and(|room| room.has_work(now - self.inner.close_after));
        if work {
            if let Some(now) = room.take() {
                *room = db.advance(code, now).await?;
            }
        }
        if let Some(room) = room.as_ref() {
            self.follow_receipt(code, room, receipt).await;
        }
        Ok(match room {
            Some(room) => {
                let mut shown = room.visible_at(epoch_millis());
                if let Some(game) = shown.game.as_mut() {
                    if game.first_round == receipt.first {
                        game.receipt = receipt.receipt.map(Box::new);
                    }
                }
                RoomFeed::Room(shown)
            }
            None => RoomFeed::Ended,
        })
    }

    /// While the host listens on this instance, notes every [`HOST_BEAT_MS`] that they are here;
    /// otherwise, if they have been away longer than the grace, hands the room on (exactly once
    /// across instances: the write's condition decides). Whether the room changed hands.
    async fn look_after_host(
        &self,
        code: &RoomCode,
        watcher: &Watcher,
        room: Option<&Room>,
        beat_ms: &mut i64,
    ) -> bool {
        let Some(room) = room else {
            return false;
        };
        let db = &self.inner.watchers;
        let now = epoch_millis();
        if watcher.hears(&room.host_id) {
            if now - *beat_ms >= HOST_BEAT_MS {
                match db.host_beat(code, &room.host_id).await {
                    Ok(_) => *beat_ms = now,
                    Err(err) => tracing::debug!(%code, error = ?err, "host heartbeat failed"),
                }
            }
            return false;
        }
        match db.hand_over_if_host_away(&room.lobby, now).await {
            Ok(Some(next)) => {
                tracing::debug!(%code, %next, "the host was away; handed the room on");
                true
            }
            Ok(None) => false,
            Err(err) => {
                tracing::debug!(%code, error = ?err, "handing on an away host's room failed");
                false
            }
        }
    }

    /// Once the room's match is over: adds this instance's tally to its receipt, and reads the
    /// receipt now and then while the other instances report in.
    async fn follow_receipt(&self, code: &RoomCode, room: &Room, view: &mut ReceiptView) {
        let Some(game) = room.game.as_ref() else {
            return;
        };
        if room.state == RoomState::Playing || !game.is_finished() {
            return;
        }
        let db = &self.inner.watchers;
        if let Err(err) = db.add_to_receipt(&room.id, game.first_round).await {
            tracing::debug!(%code, error = ?err, "adding to the receipt failed; later");
        }
        let now = epoch_millis();
        let ended = game
            .rounds
            .last()
            .and_then(|r| r.closed_at_ms)
            .unwrap_or(now);
        let due = view.first != game.first_round
            || (now - view.read_ms >= RECEIPT_READ_EVERY_MS && now <= ended + RECEIPT_READ_FOR_MS);
        if !due {
            return;
        }
        match db.match_receipt(&room.id, game.first_round).await {
            Ok(receipt) => {
                *view = ReceiptView {
                    first: game.first_round,
                    receipt,
                    read_ms: now,
                }
            }
            Err(err) => tracing::debug!(%code, error = ?err, "reading the receipt failed"),
        }
    }

    fn stream_permit(&self) -> Option<OwnedSemaphorePermit> {
        Arc::clone(&self.inner.streams).try_acquire_owned().ok()
    }
}

/// The stream a browser reads: every snapshot from the first, ending after `Ended`.
fn feed_stream(
    receiver: watch::Receiver<Option<RoomFeed>>,
    permit: OwnedSemaphorePermit,
    lease: StreamLease,
    listening: Option<Listening>,
) -> impl Stream<Item = Result<Event, Infallible>> {
    struct State {
        receiver: watch::Receiver<Option<RoomFeed>>,
        ended: bool,
        first: bool,
        _permit: OwnedSemaphorePermit,
        _lease: StreamLease,
        _listening: Option<Listening>,
    }
    let state = State {
        receiver,
        ended: false,
        first: true,
        _permit: permit,
        _lease: lease,
        _listening: listening,
    };
    futures::stream::unfold(state, |mut state| async move {
        if state.ended {
            return None;
        }
        loop {
            if !state.first && state.receiver.changed().await.is_err() {
                return None;
            }
            let feed = state.receiver.borrow_and_update().clone();
            let first = std::mem::take(&mut state.first);
            let Some(feed) = feed else { continue };
            state.ended = feed == RoomFeed::Ended;
            let event = match Event::default().json_data(&feed) {
                Ok(event) => event,
                Err(err) => {
                    tracing::error!(error = ?err, "room snapshot did not serialise");
                    return None;
                }
            };
            let event = if first {
                event.retry(RECONNECT_AFTER)
            } else {
                event
            };
            return Some((Ok(event), state));
        }
    })
}

/// `GET /r/<CODE>/events`: the room's Server-Sent Events. 400 for a malformed code, 404 for an
/// unknown or ended room (the browser stops trying), 429 when the client holds its cap of
/// streams across every instance, 503 when this instance is at its own limit (the browser
/// tries again for both). `session`, the request's session cookie, says who listens (one
/// GetItem of the session when the stream opens): the host's open stream keeps them host.
pub async fn room_events(
    hub: &RoomHub,
    streams_per_client: u32,
    client: Option<ClientAddress>,
    session: Option<SessionToken>,
    code: &str,
) -> Response {
    let db = &hub.inner.db;
    let code = match RoomCode::parse(code) {
        Ok(code) => code,
        Err(err) => return AppError::from(err).into_response(),
    };
    match db.room_version(&code).await {
        Ok(Some(_)) => {}
        Ok(None) => {
            return AppError::NotFound("There is no open room with that code.".into())
                .into_response()
        }
        Err(err) => return AppError::from(err).into_response(),
    }
    let Some(permit) = hub.stream_permit() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "Too many live streams; retrying.",
        )
            .into_response();
    };
    let client = client.map_or_else(|| "unknown".to_owned(), |c| c.0.to_string());
    let lease = match StreamLease::acquire(db, client, streams_per_client).await {
        Ok(Some(lease)) => lease,
        Ok(None) => {
            tracing::debug!("a client is at its cap of live streams");
            return (
                StatusCode::TOO_MANY_REQUESTS,
                "Too many live streams from your address; retrying.",
            )
                .into_response();
        }
        Err(err) => return AppError::from(err).into_response(),
    };
    let listener = match session {
        Some(token) => match db.session(&token.hash()).await {
            Ok(session) => session.map(|s| s.user_id),
            Err(err) => {
                // The stream still serves; only the host's heartbeat waits for the next one.
                tracing::debug!(error = ?err, "reading a live stream's session failed");
                None
            }
        },
        None => None,
    };
    let (receiver, listening) = hub.subscribe_as(&code, listener);
    Sse::new(feed_stream(receiver, permit, lease, listening))
        .keep_alive(KeepAlive::default())
        .into_response()
}
