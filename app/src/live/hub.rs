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
//! A watcher also looks after its room's host: while the host has a stream open here it tells
//! the other instances so every [`HOST_BEAT_MS`] (news only: presence is never written to the
//! table); a host unseen for longer than the grace, by what a watcher has heard and seen since it
//! began, is handed on by the first watcher (on any instance) to see it, once (the hand-over's
//! condition on the table decides).

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
use crate::live::store::streams::{stream_window, STREAM_WINDOW_SECS};
use crate::request::ClientAddress;
use crate::rooms::model::{RoomCode, RoomState, HOST_AWAY_MS, HOST_BEAT_MS};
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

/// Open streams one client address may hold across every instance, for everyone who is not one
/// of the room's players (visitors, the audience, the big screen): sized for a venue behind one
/// public address, a school or a hall with a full audience of 1,000 (`AUDIENCE_LIMIT`) and its
/// screens. A room's players are counted per player instead, with the same cap, so nobody on
/// a shared address can take their streams (see `hub::stream::room_events`). It was 64, and a
/// player on the host's wifi could fill it and have the host judged away.
pub const STREAMS_PER_CLIENT: u32 = 1_100;

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
    // A match with an audience is counted once more a moment after its last close.
    let settle = game
        .rounds
        .last()
        .and_then(|r| r.closed_at_ms)
        .filter(|_| room.lobby.audience > 0 && game.is_finished())
        .map(|closed| closed + crate::game::model::AUDIENCE_SETTLE_MS + 1)
        .filter(|at| *at > now);
    reveal.into_iter().chain(due).chain(settle).min()
}

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
    /// The host listens here, at this time: to be told to the other instances.
    Beat(i64),
    /// Handed the room on: it changed.
    HandedOn,
}

/// A watcher's clock for its room's host: when it last told the others the host listens here,
/// and when it began (a watcher judges a host away only after a whole grace of its own: until
/// then, the host may be listening on an instance whose news it has not had time to hear).
struct HostClock {
    beat_ms: i64,
    since_ms: i64,
    /// When this watcher last told the others who listens here (the host's beat carries it too).
    told_ms: i64,
    /// When each player was last heard listening, here or (by news) on another instance.
    seen: HashMap<UserId, i64>,
}

/// A snapshot as every stream of the room on this instance sends it: made once by the room's
/// watcher and its JSON written once, then shared (a stream clones a pointer, not the room, and
/// serialises nothing: a room with hundreds of listeners costs one serialisation a change).
#[derive(Debug)]
pub struct Snapshot {
    pub feed: RoomFeed,
    json: String,
}

impl Snapshot {
    pub fn new(feed: RoomFeed) -> Arc<Self> {
        // A feed is plain data (strings, numbers, lists): it always serialises.
        let json = serde_json::to_string(&feed).unwrap_or_default();
        Arc::new(Self { feed, json })
    }

    /// The feed as the stream's message carries it.
    pub fn json(&self) -> &str {
        &self.json
    }
}

/// What a listener holds: the room's latest snapshot (`None` until the first read), told of
/// each new one.
pub type FeedReceiver = watch::Receiver<Option<Arc<Snapshot>>>;

/// A room's current snapshot (`None` until the first read), the bell that wakes its watcher,
/// what woke it (a write through this instance; news from another), and who listens here (open
/// streams per signed-in player): while the host is among them, the watcher tells the other
/// instances the host is here.
struct Watcher {
    feed: watch::Sender<Option<Arc<Snapshot>>>,
    wake: Notify,
    /// A write to the room was made through this instance: read it, and tell the others.
    written: AtomicBool,
    /// News from other instances not taken in yet, folded together.
    heard: Mutex<Option<PeerNews>>,
    listeners: Mutex<HashMap<UserId, usize>>,
    /// Each signed-in player's streams here by device: the stream's number, its session's
    /// digest, when it opened, and how it is told its seat moved to another device.
    devices: Mutex<Vec<presence::Device>>,
}

impl Watcher {
    fn new(feed: watch::Sender<Option<Arc<Snapshot>>>) -> Self {
        Self {
            feed,
            wake: Notify::new(),
            written: AtomicBool::new(false),
            heard: Mutex::new(None),
            listeners: Mutex::new(HashMap::new()),
            devices: Mutex::new(Vec::new()),
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
    /// The stream's number among its room's devices, when its device is known.
    stream: Option<u64>,
}

impl Drop for Listening {
    fn drop(&mut self) {
        if let Some(stream) = self.stream {
            self.watcher
                .devices()
                .retain(|device| device.stream != stream);
        }
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
    /// For the watchers: their calls (polls, reads, closes, away hosts' hand-overs) count as
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
    /// How long a host goes unseen before a watcher here hands their room on (ms;
    /// [`HOST_AWAY_MS`] but in tests).
    host_away: std::sync::atomic::AtomicI64,
    /// Set once, on shutdown: open streams end (their browsers reconnect, through the load
    /// balancer, to another instance) and new ones are refused.
    draining: watch::Sender<bool>,
    /// How long a stream lives at most (ms; [`stream::STREAM_LIFE`] but as set).
    stream_life: std::sync::atomic::AtomicI64,
    /// Told the board projector's shards another instance let go of on its shutdown (see
    /// [`RoomHub::on_leases_released`]).
    on_released: OnceLock<LeasesReleased>,
    /// The rooms' audience figures as counted here, shared with the page loads.
    crowds: crate::game::crowds::Crowds,
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
                host_away: std::sync::atomic::AtomicI64::new(HOST_AWAY_MS),
                draining: watch::Sender::new(false),
                stream_life: std::sync::atomic::AtomicI64::new(
                    stream::STREAM_LIFE.as_millis() as i64
                ),
                on_released: OnceLock::new(),
                crowds: Default::default(),
            }),
        };
        // Tallies of matches this instance served but never saw end reach their receipts too.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let db = hub.inner.db.clone();
            let weak = Arc::downgrade(&hub.inner);
            runtime.spawn(async move {
                loop {
                    tokio::time::sleep(crate::game::store::receipts::QUIET / 2).await;
                    let Some(inner) = weak.upgrade() else { return };
                    let hub = RoomHub { inner };
                    match db
                        .game()
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
    pub fn subscribe(&self, code: &RoomCode) -> FeedReceiver {
        self.subscribe_as(code, None).0
    }

    /// [`RoomHub::subscribe`] for a player (`None`: a visitor): while the returned [`Listening`]
    /// lives, the room's watcher counts them among its listeners, and if they host the room it
    /// tells the other instances so every [`HOST_BEAT_MS`].
    pub fn subscribe_as(
        &self,
        code: &RoomCode,
        user: Option<UserId>,
    ) -> (FeedReceiver, Option<Listening>) {
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
            Listening {
                watcher,
                user,
                stream: None,
            }
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
                    match hub.inner.watchers.game().room(&code).await {
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
            if let Err(err) = self.inner.db.live().retire_instance(peers.id()).await {
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
    /// and waits until each has answered (or 1.5 s has passed).
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
        // A player's seat moving to another device is told to their streams here at once.
        if !news.opened.is_empty() {
            if let Some(watcher) = self.rooms().get(&news.code).cloned() {
                for (user, session, at) in &news.opened {
                    watcher.moved_to(user, session, *at);
                }
            }
        }
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

    /// How long a host goes unseen before a watcher here hands their room on; the news that a
    /// host listens here go every third of it (at most every [`HOST_BEAT_MS`]). For tests: it
    /// is [`HOST_AWAY_MS`] otherwise.
    pub fn set_host_away(&self, after: Duration) {
        self.inner
            .host_away
            .store(after.as_millis() as i64, Ordering::Relaxed);
    }

    fn host_away_ms(&self) -> i64 {
        self.inner.host_away.load(Ordering::Relaxed)
    }

    fn host_beat_ms(&self) -> i64 {
        (self.host_away_ms() / 3).min(HOST_BEAT_MS)
    }

    /// How long a player goes unheard before they are shown away: two beats
    /// ([`crate::rooms::model::PRESENCE_AWAY_MS`], but in tests).
    fn presence_away_ms(&self) -> i64 {
        (self.host_away_ms() * 2 / 3).min(crate::rooms::model::PRESENCE_AWAY_MS)
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

    /// The rooms' audience figures as this instance counts them (its watchers and its page
    /// loads share them).
    pub fn crowds(&self) -> crate::game::crowds::Crowds {
        self.inner.crowds.clone()
    }

    /// Rooms this instance is watching.
    pub fn watched_rooms(&self) -> usize {
        self.rooms().len()
    }

    /// Rooms with a match in play that someone follows through this instance (an open stream
    /// here): what stopping this instance now would interrupt (see `http::ecs::protection`).
    pub fn matches_in_play(&self) -> usize {
        self.rooms()
            .values()
            .filter(|watcher| watcher.feed.receiver_count() > 0)
            .filter(|watcher| {
                matches!(watcher.feed.borrow().as_deref().map(|s| &s.feed),
                    Some(RoomFeed::Room(room)) if room.game.as_ref().is_some_and(|g| !g.is_finished()))
            })
            .count()
    }

    /// Polls while the room has listeners here; publishes a snapshot whenever it changed. It
    /// also wakes on the match's clock: at each reveal (to show the thing, never earlier) and
    /// when a round's window and grace are over, when it tries to resolve the round. Watchers
    /// on every instance may try at once; the table lets exactly one of them apply it.
    fn stream_permit(&self) -> Option<OwnedSemaphorePermit> {
        Arc::clone(&self.inner.streams).try_acquire_owned().ok()
    }
}

mod presence;
pub mod stream;
mod watcher;
