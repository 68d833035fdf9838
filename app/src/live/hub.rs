//! The server side of the live channel: one watcher per watched room on this instance, and the
//! SSE handler that streams a watcher's snapshots to a browser.
//!
//! A watcher hears of changes three ways. A write made through this instance pokes it: it
//! reads the room (one Query) and passes the room on to the other instances (`peers`). News
//! from another instance carries the room: the watcher takes it without reading. And, as a
//! safety net for news lost with a dying instance, it asks the table for the room's version
//! every poll interval while no match is in play (one eventually consistent GetItem; 30 s by
//! default), reading the room only if the version moved. In play, the rounds' closes are the
//! safety net: a watcher that has not heard of a close by its turn reads the room. The match's
//! clock (reveals, closes) needs no read at all otherwise.
//!
//! A watcher also looks after its room's host: while the host has a stream open here it notes
//! so on the room every [`HOST_BEAT_MS`] and tells the other instances; a host unseen for
//! longer than the grace is handed on by the first watcher (on any instance) to see it.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
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
use crate::live::peers::{PeerLink, PeerNews, Refused};
use crate::live::streams::{stream_window, STREAM_WINDOW_SECS};
use crate::request::ClientAddress;
use crate::rooms::model::{RoomCode, RoomState, HOST_BEAT_MS};
use crate::store::{epoch_millis, epoch_seconds, DataError, Db};

/// How often a watcher asks the table whether its room changed, while no match is in play: the
/// safety net for news lost on the way between instances (a change made through another
/// instance normally arrives as that instance's news, in milliseconds), such as a change made
/// through an instance that died before it could tell the others.
pub const DEFAULT_POLL: Duration = Duration::from_secs(30);

/// After a failed read a watcher tries again this soon, doubling while it keeps failing (up to
/// the poll interval).
const RETRY_AFTER: Duration = Duration::from_millis(400);

/// The work the rooms' watchers are counted as in the process's usage (see `Usage`).
pub const WATCHERS: &str = "watchers";

/// The work the instances' announcements to each other are counted as.
pub const PEERS: &str = "peers";

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

/// How much later each next instance in a room's order (see `PeerLink::rank`) tries to close
/// a round that fell due: the first in the order that watches the room closes it at once and
/// sends the result; the next would try only this much later, by which time the news has
/// arrived, so one instance pays for each close rather than every watching one. Should the
/// first be gone, the next closes it one step later.
const CLOSE_STEP_MS: i64 = 100;

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

/// What a watcher shows of the last match's receipt: the match, and the receipt as last
/// learnt (read, added to here, or heard from another instance).
#[derive(Default)]
struct ReceiptView {
    first: u32,
    receipt: Option<MatchReceipt>,
    /// The match this watcher saw in play (its first round; 0 for none).
    played: u32,
}

/// What woke a watcher: a write made through this instance, news from others, the poll's time.
struct Wake {
    written: bool,
    heard: Option<PeerNews>,
    poll: bool,
}

/// What a watcher did for its room's host.
enum HostCare {
    Nothing,
    /// Noted that the host is here, at this time.
    Beat(i64),
    /// Handed the room on: it changed.
    HandedOn,
}

/// A room's current snapshot (`None` until the first read), the bell that wakes its watcher,
/// what woke it (a write through this instance; news from another), and who listens here (open
/// streams per signed-in player): while the host is among them, the watcher tells the table
/// the host is here.
struct Watcher {
    feed: watch::Sender<Option<RoomFeed>>,
    wake: Notify,
    /// A write to the room was made through this instance: read it, and tell the others.
    written: AtomicBool,
    /// News from other instances not taken in yet, folded together.
    heard: Mutex<Option<PeerNews>>,
    listeners: Mutex<HashMap<UserId, usize>>,
}

impl Watcher {
    fn new(feed: watch::Sender<Option<RoomFeed>>) -> Self {
        Self {
            feed,
            wake: Notify::new(),
            written: AtomicBool::new(false),
            heard: Mutex::new(None),
            listeners: Mutex::new(HashMap::new()),
        }
    }

    fn take_heard(&self) -> Option<PeerNews> {
        self.heard
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }

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
    /// The other instances, once this one has joined them (see [`RoomHub::join_peers`]).
    peers: OnceLock<Arc<PeerLink>>,
    /// Each next instance's wait in a room's order before it closes a round (ms; see
    /// [`CLOSE_STEP_MS`]).
    close_step: std::sync::atomic::AtomicI64,
    /// Set once, on shutdown: open streams end (their browsers reconnect, through the load
    /// balancer, to another instance) and new ones are refused.
    draining: watch::Sender<bool>,
    /// Told the board projector's shards another instance let go of on its shutdown (see
    /// [`RoomHub::on_leases_released`]).
    on_released: OnceLock<LeasesReleased>,
}

/// What the hub calls with the shards another instance's projector let go of.
type LeasesReleased = Box<dyn Fn(&[String]) + Send + Sync>;

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
                peers: OnceLock::new(),
                close_step: std::sync::atomic::AtomicI64::new(CLOSE_STEP_MS),
                draining: watch::Sender::new(false),
                on_released: OnceLock::new(),
            }),
        };
        // Tallies of matches this instance served but never saw end reach their receipts too.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let db = hub.inner.db.clone();
            let weak = Arc::downgrade(&hub.inner);
            runtime.spawn(async move {
                loop {
                    tokio::time::sleep(crate::game::receipts::QUIET / 2).await;
                    let Some(inner) = weak.upgrade() else { return };
                    let hub = RoomHub { inner };
                    match db
                        .add_quiet_receipts(|code| hub.rooms().contains_key(code))
                        .await
                    {
                        Ok(added) => {
                            for (code, first, receipt) in added {
                                hub.tell(PeerNews {
                                    receipt: Some((first, receipt)),
                                    ..PeerNews::of(&code)
                                });
                            }
                        }
                        Err(err) => {
                            tracing::debug!(error = ?err, "adding quiet tallies to receipts failed")
                        }
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
                let watcher = Arc::new(Watcher::new(feed));
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

    /// Called after every write to a room made through this instance: the room's watcher here
    /// reads it and passes it on to the other instances; with no watcher here, the room is
    /// read once for them.
    pub fn poke(&self, code: &RoomCode) {
        let watcher = self.rooms().get(code).cloned();
        match watcher {
            Some(watcher) => {
                watcher.written.store(true, Ordering::Release);
                watcher.wake.notify_one();
            }
            None if self.inner.peers.get().is_some_and(|p| p.has_others()) => {
                let (hub, code) = (self.clone(), code.clone());
                tokio::spawn(async move {
                    match hub.inner.watchers.room(&code).await {
                        Ok(Some(room)) => hub.tell(PeerNews::room(&room)),
                        Ok(None) => hub.tell(PeerNews {
                            ended: true,
                            ..PeerNews::of(&code)
                        }),
                        Err(err) => {
                            tracing::debug!(%code, error = ?err, "reading a room for the other instances failed")
                        }
                    }
                });
            }
            None => {}
        }
    }

    /// Joins the other instances on the table as `id`, reachable at `address`
    /// (`http://host:port`, served by this instance's router): from now on this instance tells
    /// them of its rooms' changes and hears theirs. Once; later calls do nothing.
    pub fn join_peers(&self, id: String, address: String) {
        self.join_peers_through(self.inner.db.counted_as(PEERS), id, address);
    }

    /// [`RoomHub::join_peers`], announcing and signing through `db` (a handle on the same
    /// table: a test counts the announcements apart from the watchers' calls).
    pub fn join_peers_through(&self, db: Db, id: String, address: String) {
        let _ = self.inner.peers.set(PeerLink::join(db, id, address));
    }

    /// This instance's place among its peers, once joined.
    pub fn peers(&self) -> Option<&Arc<PeerLink>> {
        self.inner.peers.get()
    }

    /// Leaves the other instances (on shutdown): takes this instance off the table's list, so
    /// they stop sending it news at once rather than when it goes quiet.
    pub async fn leave_peers(&self) {
        if let Some(peers) = self.inner.peers.get() {
            if let Err(err) = self.inner.db.retire_instance(peers.id()).await {
                tracing::debug!(error = ?err, "leaving the instances' list failed; it lapses");
            }
        }
    }

    /// Takes in a batch of news from another instance (the body of `POST /internal/pokes` and
    /// its tag header): checked (see `peers::open`), the sender noted as live, each room's news
    /// handed to its watcher here. How many rooms' news the batch carried.
    pub async fn take_pokes(&self, tag: Option<&str>, body: &[u8]) -> Result<usize, Refused> {
        // Checked through the peers' handle once joined (counted as their work).
        let db = self
            .inner
            .peers
            .get()
            .map_or(&self.inner.db, |link| link.db());
        let pokes = crate::live::peers::open(db, tag, body).await?;
        if let Some(link) = self.inner.peers.get() {
            link.heard_from(&pokes.from, &pokes.address);
        }
        if !pokes.released.is_empty() {
            if let Some(on_released) = self.inner.on_released.get() {
                on_released(&pokes.released);
            }
        }
        let rooms = pokes.news.len();
        for news in pokes.news {
            self.hear(news);
        }
        Ok(rooms)
    }

    /// Calls `released` with the stream shards another instance's board projector let go of
    /// on its shutdown (the news says so at once), so that this instance's projector takes
    /// them now instead of when their leases run out. Once; later calls do nothing.
    pub fn on_leases_released(&self, released: impl Fn(&[String]) + Send + Sync + 'static) {
        let _ = self.inner.on_released.set(Box::new(released));
    }

    /// Tells the other instances that this one's projector let go of `shards` (on shutdown),
    /// and waits until each has answered (or a second has passed).
    pub async fn tell_released(&self, shards: Vec<String>) {
        if let Some(peers) = self.inner.peers.get() {
            if !shards.is_empty() {
                peers.tell_released(shards).await;
            }
        }
    }

    /// Starts the shutdown: every open stream ends, so its browser
    /// reconnects, through the load balancer, to another instance; new streams are refused
    /// with 503 (the browser tries again).
    pub fn drain(&self) {
        self.inner.draining.send_replace(true);
    }

    /// Whether [`RoomHub::drain`] was called.
    pub fn draining(&self) -> bool {
        *self.inner.draining.borrow()
    }

    /// Takes in news from another instance: handed to the room's watcher, if this instance
    /// watches the room (else there is nobody here to tell).
    pub fn hear(&self, news: PeerNews) {
        let Some(watcher) = self.rooms().get(&news.code).cloned() else {
            return;
        };
        {
            let mut heard = watcher.heard.lock().unwrap_or_else(PoisonError::into_inner);
            match heard.as_mut() {
                Some(known) => known.merge(news),
                None => *heard = Some(news),
            }
        }
        watcher.wake.notify_one();
    }

    /// Passes news of a room to the other instances (nothing before joining them).
    fn tell(&self, news: PeerNews) {
        if let Some(peers) = self.inner.peers.get() {
            peers.tell(news);
        }
    }

    /// How long after a round of `code` falls due this instance closes it: at once when it is
    /// alone or first in the room's order among the live instances, else one
    /// [`CLOSE_STEP_MS`] per instance before it.
    fn close_after(&self, code: &RoomCode) -> i64 {
        let step = self.inner.close_step.load(Ordering::Relaxed);
        self.inner
            .peers
            .get()
            .map_or(0, |peers| peers.rank(code.as_str()) as i64 * step)
    }

    /// Sets each next instance's wait in a room's order before it closes a round (default
    /// [`CLOSE_STEP_MS`]): longer on an engine slow enough that a close and its news take more
    /// than 100 ms (a test on DynamoDB Local), so that only the first closes.
    pub fn set_close_step(&self, step: Duration) {
        self.inner
            .close_step
            .store(step.as_millis() as i64, Ordering::Relaxed);
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
        // When the safety-net poll is next due (the first pass reads the room).
        let mut poll_at = i64::MIN;
        loop {
            let now = epoch_millis();
            // While a match is in play, each round's close is the safety net instead: every
            // watcher that has not heard of the close by its turn reads the room then.
            let in_play = room.as_ref().is_some_and(|r| r.state == RoomState::Playing);
            let wake = Wake {
                written: watcher.written.swap(false, Ordering::AcqRel),
                heard: watcher.take_heard(),
                poll: now >= poll_at && !in_play,
            };
            let written = wake.written;
            if wake.poll {
                poll_at = now + self.inner.poll.as_millis() as i64;
            }
            match self
                .refresh(&code, &watcher, wake, &mut room, &mut receipt, &mut beat_ms)
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
                    // Try again soon (backing off), and still pass on a write made here.
                    let retry = RETRY_AFTER * 2u32.pow(failures.min(4));
                    poll_at = now + retry.min(self.inner.poll).as_millis() as i64;
                    if written {
                        watcher.written.store(true, Ordering::Release);
                    }
                }
            }
            let now = epoch_millis();
            let mut pause = Duration::from_millis((poll_at - now).max(25) as u64);
            // While failing, still wake for the next reveal (one attempt each, so no spin): a
            // transient error must not push this instance's reveal back by a whole backoff.
            let event = room.as_ref().and_then(|room| match failures {
                0 => next_event(room, now, self.close_after(&code)),
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

    /// Brings `room` up to date (from news, or reading it after a write here, or when the
    /// safety-net poll finds its version moved), looks after its host (a heartbeat while the
    /// host listens here; else hands the room on if the host is away), resolves what is due,
    /// tells the other instances what changed through this one, and returns what browsers may
    /// see now.
    async fn refresh(
        &self,
        code: &RoomCode,
        watcher: &Watcher,
        wake: Wake,
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
        let version = |room: &Option<Room>| room.as_ref().map(|room| room.version);
        let progress = |room: &Option<Room>| room.as_ref().map(crate::live::peers::progress);
        let mut read = wake.written || (wake.poll && room.is_none());
        if let Some(heard) = wake.heard {
            if heard.ended {
                // Another instance saw the room end: one read, and this stream ends too.
                read = true;
            }
            match heard.room {
                Some(theirs) if progress(room).is_none_or(|p| theirs.progress() > p) => {
                    let seen = room.as_ref().and_then(|r| r.lobby.host_seen_ms);
                    let mut theirs = theirs.into_room();
                    theirs.lobby.host_seen_ms = theirs.lobby.host_seen_ms.max(seen);
                    *room = Some(theirs);
                }
                // Too big to carry: read it.
                None if progress(room).is_some_and(|p| heard.progress() > p) => read = true,
                _ => {}
            }
            if let (Some(room), Some(seen)) = (room.as_mut(), heard.host_seen_ms) {
                room.lobby.host_seen_ms = room.lobby.host_seen_ms.max(Some(seen));
            }
            if let Some((first, theirs)) = heard.receipt {
                let newer = receipt.first != first
                    || receipt.receipt.is_none_or(|mine| theirs.calls > mine.calls);
                if newer {
                    receipt.first = first;
                    receipt.receipt = Some(theirs);
                }
            }
        }
        let before = version(room);
        if read {
            *room = db.room(code).await?;
        } else if wake.poll {
            // The safety net: a version a second stale is caught by the next poll.
            match db.room_pulse_eventually(code).await? {
                None => *room = db.room(code).await?,
                Some(pulse) => {
                    if version(room).is_none_or(|v| pulse.version > v) {
                        *room = db.room(code).await?;
                    }
                    if let Some(room) = room.as_mut().filter(|room| room.host_id == pulse.host_id) {
                        // Heartbeats move `host_seen` without a new version. (A stale read
                        // may set it back a moment: a hand-over is conditioned on the table's
                        // own value, so that costs at most a refused write.)
                        room.lobby.host_seen_ms = pulse.host_seen_ms;
                    }
                }
            }
        }
        // What changed through this instance, the others hear of.
        let mut tell = wake.written;
        match self
            .look_after_host(code, watcher, room.as_ref(), beat_ms)
            .await
        {
            HostCare::Nothing => {}
            HostCare::Beat(seen) => self.tell(PeerNews {
                host_seen_ms: Some(seen),
                ..PeerNews::of(code)
            }),
            HostCare::HandedOn => {
                *room = db.room(code).await?;
                tell = true;
            }
        }
        let now = epoch_millis();
        let work = room
            .as_ref()
            .is_some_and(|room| room.has_work(now - self.close_after(code)));
        if work {
            if let Some(now) = room.take() {
                let was = crate::live::peers::progress(&now);
                *room = db.advance(code, now).await?;
                tell |= progress(room) != Some(was);
            }
        }
        if tell {
            self.tell(match room.as_ref() {
                Some(room) => PeerNews::room(room),
                None => PeerNews {
                    ended: true,
                    ..PeerNews::of(code)
                },
            });
        } else if before.is_some() && room.is_none() {
            tracing::debug!(%code, "the room ended");
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
    /// across instances: the write's condition decides).
    async fn look_after_host(
        &self,
        code: &RoomCode,
        watcher: &Watcher,
        room: Option<&Room>,
        beat_ms: &mut i64,
    ) -> HostCare {
        let Some(room) = room else {
            return HostCare::Nothing;
        };
        let db = &self.inner.watchers;
        let now = epoch_millis();
        if watcher.hears(&room.host_id) {
            if now - *beat_ms >= HOST_BEAT_MS {
                match db.host_beat(code, &room.host_id).await {
                    Ok(_) => {
                        *beat_ms = now;
                        return HostCare::Beat(now);
                    }
                    Err(err) => tracing::debug!(%code, error = ?err, "host heartbeat failed"),
                }
            }
            return HostCare::Nothing;
        }
        match db.hand_over_if_host_away(&room.lobby, now).await {
            Ok(Some(next)) => {
                tracing::debug!(%code, %next, "the host was away; handed the room on");
                HostCare::HandedOn
            }
            Ok(None) => HostCare::Nothing,
            Err(err) => {
                tracing::debug!(%code, error = ?err, "handing on an away host's room failed");
                HostCare::Nothing
            }
        }
    }

    /// Once the room's match is over: adds this instance's tally to its receipt (the sum so far
    /// comes back with the write, and goes to the other instances). With nothing to add, it
    /// waits for the others' news of the receipt if it saw the match in play (the instance that
    /// closed the last round always has something to add, and tells); a watcher that first saw
    /// the match over reads the receipt once.
    async fn follow_receipt(&self, code: &RoomCode, room: &Room, view: &mut ReceiptView) {
        let Some(game) = room.game.as_ref() else {
            return;
        };
        if room.state == RoomState::Playing {
            view.played = game.first_round;
            return;
        }
        if !game.is_finished() {
            return;
        }
        let first = game.first_round;
        let db = &self.inner.watchers;
        match db.add_to_receipt(&room.id, first).await {
            Ok(Some(receipt)) => {
                if view.first != first || view.receipt.is_none_or(|r| receipt.calls > r.calls) {
                    view.first = first;
                    view.receipt = Some(receipt);
                }
                self.tell(PeerNews {
                    receipt: Some((first, receipt)),
                    ..PeerNews::of(code)
                });
                return;
            }
            Ok(None) => {}
            Err(err) => tracing::debug!(%code, error = ?err, "adding to the receipt failed; later"),
        }
        if view.first == first || view.played == first {
            return;
        }
        match db.match_receipt(&room.id, first).await {
            Ok(receipt) => {
                view.first = first;
                view.receipt = receipt;
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
    draining: watch::Receiver<bool>,
    permit: OwnedSemaphorePermit,
    lease: StreamLease,
    listening: Option<Listening>,
) -> impl Stream<Item = Result<Event, Infallible>> {
    /// Counts the stream among those open while it lives.
    struct Open;
    impl Drop for Open {
        fn drop(&mut self) {
            metrics::gauge!(crate::store::metrics::series::STREAMS_OPEN).decrement(1.0);
        }
    }
    metrics::gauge!(crate::store::metrics::series::STREAMS_OPEN).increment(1.0);
    struct State {
        receiver: watch::Receiver<Option<RoomFeed>>,
        draining: watch::Receiver<bool>,
        ended: bool,
        first: bool,
        _open: Open,
        _permit: OwnedSemaphorePermit,
        _lease: StreamLease,
        _listening: Option<Listening>,
    }
    let state = State {
        receiver,
        draining,
        ended: false,
        first: true,
        _open: Open,
        _permit: permit,
        _lease: lease,
        _listening: listening,
    };
    futures::stream::unfold(state, |mut state| async move {
        if state.ended {
            return None;
        }
        loop {
            if *state.draining.borrow() {
                return None;
            }
            if !state.first {
                tokio::select! {
                    changed = state.receiver.changed() => if changed.is_err() {
                        return None;
                    },
                    _ = state.draining.wait_for(|draining| *draining) => return None,
                }
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
    if hub.draining() {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [(axum::http::header::RETRY_AFTER, "1")],
            "This server is shutting down; retrying.",
        )
            .into_response();
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
    Sse::new(feed_stream(
        receiver,
        hub.inner.draining.subscribe(),
        permit,
        lease,
        listening,
    ))
    .keep_alive(KeepAlive::default())
    .into_response()
}
