//! The server instances sharing the table, and the news of rooms they pass each other: an
//! instance through which a room changed tells the others at once, with the room as it now is,
//! so an instance watching the room neither polls it often nor reads it on a change.
//!
//! **Who is there.** Each instance announces itself every [`ANNOUNCE_EVERY_MS`]:
//! `INSTANCES` / `I#<id>` holds the address its peers reach it at and when it last announced
//! (`seen_ms`), and expires by TTL. An instance reads the partition (one consistent Query) as
//! often, and takes as live the instances seen within [`LIVE_FOR_MS`]; one it has not heard of
//! before gets an empty batch at once (a hello), so two instances starting together know each
//! other after the first round of announcements whichever read first. Leaving, an instance
//! deletes its item. An instance that dies drops out of its peers' lists within
//! [`LIVE_FOR_MS`]; until then news sent to it fails quickly and is dropped (the watchers' slow
//! poll is the safety net).
//!
//! **News.** `POST /internal/pokes`, a JSON [`Pokes`] batch: the sender, when it sent, and one
//! [`PeerNews`] per room (its version, the room itself with the fields the browsers' wire
//! leaves out, that it ended, when its host was last seen, its match's receipt). Batches are
//! signed with HMAC-SHA256 under the table's shared secret (`Db::secret_tag`; every instance on
//! the table has it, nobody else does): a batch whose tag does not check, or sent more than
//! [`FRESH_FOR_MS`] from now, is refused with 403 and changes nothing; a malformed one gets 400.
//! A room too big to carry in a batch is sent as its version alone, and the receivers read it.
//! The news is sent on the instances' own network in the clear (signed, not encrypted): run
//! instances on a private network, as the table's traffic is.
//!
//! Cost: per instance, one write and one Query (a few small items: 1 RCU) every
//! [`ANNOUNCE_EVERY_MS`], whatever the number of rooms. The news itself costs no table calls.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::body::Bytes;
use http_body_util::Full;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use crate::game::model::{MatchReceipt, Room};
use crate::rooms::model::RoomCode;
use crate::store::{epoch_millis, DataError, Db};

/// Where instances send each other news.
pub const POKES_PATH: &str = "/internal/pokes";

/// The header that carries a batch's tag (hex).
pub const TAG_HEADER: &str = "x-udd-peer-tag";

/// What the batches' tags are computed for (keeps them apart from every other use of the
/// table's secret).
const TAG_PURPOSE: &str = "peer-pokes";

/// A batch sent further than this from the receiver's clock is refused (a replay, or a clock
/// far off).
pub const FRESH_FOR_MS: i64 = 30_000;

/// The largest batch body sent; a room whose news alone is bigger goes as its version only.
pub const MAX_BATCH_BYTES: usize = 48 * 1024;

/// Each try to post a batch to a peer: the pause before it, and how long it may take. A busy
/// peer (CI's two cores under three browsers once) can take longer than a second to answer, and
/// news given up waits for the slow poll (30 s by default): so three tries, each longer, about
/// 8 s in all. News that arrives twice is taken once (each room's news carries its progress).
const SEND_TRIES: [(Duration, Duration); 3] = [
    (Duration::ZERO, Duration::from_secs(1)),
    (Duration::from_millis(200), Duration::from_secs(2)),
    (Duration::from_secs(1), Duration::from_secs(4)),
];

/// How long a shutdown waits for its peers to hear that its projector let go.
const RELEASE_WAIT: Duration = Duration::from_millis(1500);

/// News queued for sending at most; beyond it news is dropped (the slow poll catches up).
const OUTBOX: usize = 8192;

/// How often an instance announces itself and reads its peers.
pub const ANNOUNCE_EVERY_MS: i64 = 5_000;

/// An instance not seen for this long is taken as gone.
pub const LIVE_FOR_MS: i64 = 3 * ANNOUNCE_EVERY_MS;

/// Another instance, as it announced itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Peer {
    pub id: String,
    /// Where peers reach it (`http://host:port`).
    pub address: String,
    pub seen_ms: i64,
}

/// A room as one instance hands it to another: the stored room (things not yet shown, the
/// seed and all: the receiver redacts for its browsers by its own clock) and the server-side
/// fields the browsers' wire leaves out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeerRoom {
    room: Room,
    host_seen_ms: Option<i64>,
    #[serde(default)]
    away_host: Option<crate::identity::model::UserId>,
    #[serde(default)]
    away_until_ms: Option<i64>,
    #[serde(default)]
    audience: u32,
    planned: u32,
    /// Each round's tap count and close time, in order.
    rounds: Vec<(u32, Option<i64>)>,
}

impl PeerRoom {
    pub fn of(room: &Room) -> Self {
        let game = room.game.as_ref();
        Self {
            room: room.clone(),
            host_seen_ms: room.lobby.host_seen_ms,
            away_host: room.lobby.away_host.clone(),
            away_until_ms: room.lobby.away_until_ms,
            audience: room.lobby.audience,
            planned: game.map_or(0, |g| g.planned),
            rounds: game.map_or_else(Vec::new, |g| {
                g.rounds
                    .iter()
                    .map(|r| (r.tap_count, r.closed_at_ms))
                    .collect()
            }),
        }
    }

    /// How far the room has come (see [`progress`]).
    pub fn progress(&self) -> (u64, u32) {
        progress(&self.room)
    }

    pub fn into_room(self) -> Room {
        let mut room = self.room;
        room.lobby.host_seen_ms = self.host_seen_ms;
        room.lobby.away_host = self.away_host;
        room.lobby.away_until_ms = self.away_until_ms;
        room.lobby.audience = self.audience;
        if let Some(game) = room.game.as_mut() {
            game.planned = self.planned;
            for (round, (taps, closed)) in game.rounds.iter_mut().zip(self.rounds) {
                round.tap_count = taps;
                round.closed_at_ms = closed;
            }
        }
        room
    }
}

/// How far a room has come: its version, then the rounds of its match resolved. A round's close
/// writes its round, not the room's version (the results are read from the taps), so two reads
/// of one version are told apart by the rounds resolved.
pub fn progress(room: &Room) -> (u64, u32) {
    (room.version, room.game.as_ref().map_or(0, |g| g.resolved))
}

/// What one instance tells the others of a room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeerNews {
    pub code: RoomCode,
    /// The room's version after the change (0 when only the host's presence or the receipt is
    /// news).
    #[serde(default)]
    pub version: u64,
    /// Its match's rounds resolved by then.
    #[serde(default)]
    pub resolved: u32,
    /// The room at `version`; absent when it was too big to carry (the receiver reads it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<PeerRoom>,
    /// The room is gone.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ended: bool,
    /// When the host was last seen listening on the sending instance (news only: never written, and it moves no version).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_seen_ms: Option<i64>,
    /// The receipt of the match that starts at round `.0`, as added up so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receipt: Option<(u32, MatchReceipt)>,
    /// The players listening to the room on the sending instance (every beat while any do;
    /// news only, never written): how the others tell who is away.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub here: Vec<crate::identity::model::UserId>,
    /// Players who just opened the room on a device (the session it is, as a short digest),
    /// and when: their streams from other devices, on any instance, are told their seat moved.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opened: Vec<(crate::identity::model::UserId, String, i64)>,
}

impl PeerNews {
    /// News of nothing yet about `code`.
    pub fn of(code: &RoomCode) -> Self {
        Self {
            code: code.clone(),
            version: 0,
            resolved: 0,
            room: None,
            ended: false,
            host_seen_ms: None,
            receipt: None,
            here: Vec::new(),
            opened: Vec::new(),
        }
    }

    /// The room as it now is.
    pub fn room(room: &Room) -> Self {
        let (version, resolved) = progress(room);
        Self {
            version,
            resolved,
            room: Some(PeerRoom::of(room)),
            ..Self::of(&room.code)
        }
    }

    /// How far the room had come.
    pub fn progress(&self) -> (u64, u32) {
        (self.version, self.resolved)
    }

    /// Folds later news of the same room into this: the newest room, the latest sighting of the
    /// host, the receipt that has added up the most.
    pub fn merge(&mut self, later: PeerNews) {
        let (mine, theirs) = (self.progress(), later.progress());
        if theirs > mine || (theirs == mine && self.room.is_none()) {
            (self.version, self.resolved) = theirs;
            self.room = later.room.or(self.room.take());
        }
        self.ended |= later.ended;
        self.host_seen_ms = self.host_seen_ms.max(later.host_seen_ms);
        for user in later.here {
            if !self.here.contains(&user) {
                self.here.push(user);
            }
        }
        self.opened.extend(later.opened);
        self.receipt = match (self.receipt, later.receipt) {
            (Some(a), Some(b)) => Some(if (b.0, b.1.calls) >= (a.0, a.1.calls) {
                b
            } else {
                a
            }),
            (a, b) => a.or(b),
        };
    }
}

/// One batch of news, as sent to `POST /internal/pokes`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pokes {
    /// The sender's instance id and address (a receiver that had not heard of it adds it).
    pub from: String,
    pub address: String,
    pub sent_ms: i64,
    pub news: Vec<PeerNews>,
    /// Stream shards the sender's board projector let go of as it shuts down: the receiver's
    /// projector takes them now, not when their leases would have run out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub released: Vec<String>,
}

/// Why a batch was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// 400: not a batch.
    Malformed,
    /// 403: not signed under the table's secret, or not sent now.
    Forged,
}

/// The tag a batch's body carries, hex.
pub async fn tag(db: &Db, body: &[u8]) -> Result<String, DataError> {
    let tag = db.secret_tag(TAG_PURPOSE, body).await?;
    Ok(tag.iter().map(|b| format!("{b:02x}")).collect())
}

/// Checks a received batch: its tag under the table's secret, then its freshness.
pub async fn open(db: &Db, tag_hex: Option<&str>, body: &[u8]) -> Result<Pokes, Refused> {
    let given = tag_hex
        .filter(|t| t.len() == 64)
        .and_then(|t| {
            (0..32)
                .map(|i| u8::from_str_radix(t.get(2 * i..2 * i + 2)?, 16).ok())
                .collect::<Option<Vec<u8>>>()
        })
        .ok_or(Refused::Forged)?;
    let expected = db
        .secret_tag(TAG_PURPOSE, body)
        .await
        .map_err(|_| Refused::Forged)?;
    if !crate::identity::auth::constant_time_eq(&given, &expected) {
        return Err(Refused::Forged);
    }
    let pokes: Pokes = serde_json::from_slice(body).map_err(|_| Refused::Malformed)?;
    if (epoch_millis() - pokes.sent_ms).abs() > FRESH_FOR_MS {
        return Err(Refused::Forged);
    }
    Ok(pokes)
}

/// This instance's place among its peers: who it is, whom it knows, and the news waiting to go.
#[derive(Debug)]
pub struct PeerLink {
    /// Announces, signs and checks (counted as the `peers` work).
    pub db: Db,
    pub id: String,
    pub address: String,
    pub peers: Mutex<HashMap<String, Peer>>,
    pub outbox: mpsc::Sender<PeerNews>,
}

impl PeerLink {
    /// Joins the instances on `db`'s table as `id`, reachable at `address`
    /// (`http://host:port`): announces itself every [`ANNOUNCE_EVERY_MS`], reads who else is
    /// there, and sends queued news. Call inside a Tokio runtime.
    pub fn join(db: Db, id: String, address: String) -> Arc<Self> {
        let (outbox, queued) = mpsc::channel(OUTBOX);
        let link = Arc::new(Self {
            db: db.clone(),
            id,
            address,
            peers: Mutex::new(HashMap::new()),
            outbox,
        });
        let client: Client<HttpConnector, Full<Bytes>> =
            Client::builder(TokioExecutor::new()).build_http();
        tokio::spawn(Arc::clone(&link).announce(db.clone(), client.clone()));
        tokio::spawn(Arc::clone(&link).send(db, client, queued));
        link
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    /// The handle news is signed and checked through.
    pub fn db(&self) -> &Db {
        &self.db
    }

    fn peers(&self) -> std::sync::MutexGuard<'_, HashMap<String, Peer>> {
        self.peers.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The other instances taken as live now.
    pub fn others(&self) -> Vec<Peer> {
        let now = epoch_millis();
        self.peers()
            .values()
            .filter(|p| now - p.seen_ms <= LIVE_FOR_MS)
            .cloned()
            .collect()
    }

    /// Whether any other instance is live.
    pub fn has_others(&self) -> bool {
        !self.others().is_empty()
    }

    /// This instance's place (0 first) in `key`'s order of the live instances: each instance
    /// ranked by a hash of the key and its id (rendezvous hashing), so that every instance
    /// computes the same order from the same list, and each room's order is its own (the first
    /// place, where a room's rounds are closed, is spread over the instances).
    pub fn rank(&self, key: &str) -> usize {
        let mine = rendezvous(key, &self.id);
        self.others()
            .iter()
            .filter(|peer| (rendezvous(key, &peer.id), peer.id.as_str()) > (mine, self.id.as_str()))
            .count()
    }

    /// Queues news for every other instance; dropped when the outbox is full.
    pub fn tell(&self, news: PeerNews) {
        if self.outbox.try_send(news).is_err() {
            tracing::debug!("peer outbox full; the slow poll will catch up");
        }
    }

    /// Tells every other live instance, now, that this one's projector let go of `shards`;
    /// returns when each has answered or its tries have timed out (a shutdown waits for it).
    pub async fn tell_released(&self, shards: Vec<String>) {
        let client: Client<HttpConnector, Full<Bytes>> =
            Client::builder(TokioExecutor::new()).build_http();
        let Some(body) = self.batch(&self.db, Vec::new(), shards).await else {
            return;
        };
        // A shutdown waits for this: at most the first try's time and a little.
        let all = futures::future::join_all(
            self.others()
                .into_iter()
                .map(|peer| post(client.clone(), peer, body.clone())),
        );
        let _ = tokio::time::timeout(RELEASE_WAIT, all).await;
    }

    /// Notes that `from` (at `address`) is live: a batch from it just checked.
    pub fn heard_from(&self, from: &str, address: &str) {
        if from == self.id {
            return;
        }
        self.peers().insert(
            from.to_owned(),
            Peer {
                id: from.to_owned(),
                address: address.to_owned(),
                seen_ms: epoch_millis(),
            },
        );
    }

    async fn announce(self: Arc<Self>, db: Db, client: Client<HttpConnector, Full<Bytes>>) {
        loop {
            if let Err(err) = db.live().announce_instance(&self.id, &self.address).await {
                tracing::debug!(error = ?err, "announcing this instance failed; next time");
            }
            match db.live().live_instances().await {
                Ok(live) => {
                    let mut new = Vec::new();
                    {
                        let mut peers = self.peers();
                        for peer in live.into_iter().filter(|p| p.id != self.id) {
                            let known = peers.get(&peer.id).map_or(i64::MIN, |p| p.seen_ms);
                            if !peers.contains_key(&peer.id) {
                                new.push(peer.clone());
                            }
                            if peer.seen_ms > known {
                                peers.insert(peer.id.clone(), peer);
                            }
                        }
                        let now = epoch_millis();
                        peers.retain(|_, p| now - p.seen_ms <= LIVE_FOR_MS);
                    }
                    // A hello to each newcomer, so it knows of this instance now.
                    if !new.is_empty() {
                        if let Some(body) = self.batch(&db, Vec::new(), Vec::new()).await {
                            for peer in new {
                                tokio::spawn(post(client.clone(), peer, body.clone()));
                            }
                        }
                    }
                }
                Err(err) => tracing::debug!(error = ?err, "reading the live instances failed"),
            }
            tokio::time::sleep(Duration::from_millis(ANNOUNCE_EVERY_MS as u64)).await;
        }
    }

    /// Sends queued news: whatever has queued since the last batch goes in the next, to every
    /// live peer at once.
    async fn send(
        self: Arc<Self>,
        db: Db,
        client: Client<HttpConnector, Full<Bytes>>,
        mut queued: mpsc::Receiver<PeerNews>,
    ) {
        while let Some(first) = queued.recv().await {
            let mut by_room: HashMap<RoomCode, PeerNews> = HashMap::new();
            let mut add = |news: PeerNews| match by_room.get_mut(&news.code) {
                Some(known) => known.merge(news),
                None => {
                    by_room.insert(news.code.clone(), news);
                }
            };
            add(first);
            while let Ok(news) = queued.try_recv() {
                add(news);
            }
            let peers = self.others();
            if peers.is_empty() {
                continue;
            }
            for news in chunks(by_room.into_values().collect()) {
                let Some(body) = self.batch(&db, news, Vec::new()).await else {
                    continue;
                };
                for peer in &peers {
                    tokio::spawn(post(client.clone(), peer.clone(), body.clone()));
                }
            }
        }
    }

    /// A signed batch of `news` from this instance: the body and its tag.
    async fn batch(
        &self,
        db: &Db,
        news: Vec<PeerNews>,
        released: Vec<String>,
    ) -> Option<(Bytes, String)> {
        let pokes = Pokes {
            from: self.id.clone(),
            address: self.address.clone(),
            sent_ms: epoch_millis(),
            news,
            released,
        };
        let body = serde_json::to_vec(&pokes).ok()?;
        match tag(db, &body).await {
            Ok(tag) => Some((Bytes::from(body), tag)),
            Err(err) => {
                tracing::debug!(error = ?err, "signing news failed; the slow poll catches up");
                None
            }
        }
    }
}

/// The weight of instance `id` for `key` (FNV-1a, 64 bits, over both, then MurmurHash3's
/// finaliser, without which ids that differ in their last letter weigh alike in the high bits):
/// the same on every instance and in every release.
fn rendezvous(key: &str, id: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in key.bytes().chain([0]).chain(id.bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    hash ^ (hash >> 33)
}

/// Splits news into batches of at most [`MAX_BATCH_BYTES`]; a room too big alone goes as its
/// version only.
pub fn chunks(news: Vec<PeerNews>) -> Vec<Vec<PeerNews>> {
    let mut batches = Vec::new();
    let (mut batch, mut size) = (Vec::new(), 0);
    for mut item in news {
        let mut len = serde_json::to_vec(&item).map_or(usize::MAX, |b| b.len());
        if len > MAX_BATCH_BYTES / 2 {
            item.room = None;
            len = serde_json::to_vec(&item).map_or(0, |b| b.len());
        }
        if size + len > MAX_BATCH_BYTES && !batch.is_empty() {
            batches.push(std::mem::take(&mut batch));
            size = 0;
        }
        size += len + 1;
        batch.push(item);
    }
    if !batch.is_empty() {
        batches.push(batch);
    }
    batches
}

/// Posts one batch to one peer; tries again, as [`SEND_TRIES`] says, while it does not arrive (a
/// peer that refused it is not asked again).
async fn post(
    client: Client<HttpConnector, Full<Bytes>>,
    peer: Peer,
    (body, tag): (Bytes, String),
) {
    for (pause, timeout) in SEND_TRIES {
        tokio::time::sleep(pause).await;
        let request = axum::http::Request::post(format!("{}{POKES_PATH}", peer.address))
            .header(axum::http::header::CONTENT_TYPE, "application/json")
            .header(TAG_HEADER, &tag)
            .body(Full::new(body.clone()));
        let Ok(request) = request else {
            tracing::debug!(address = %peer.address, "a peer's address is not a URL");
            return;
        };
        match tokio::time::timeout(timeout, client.request(request)).await {
            Ok(Ok(response)) if response.status().is_success() => return,
            Ok(Ok(response)) => {
                tracing::warn!(peer = %peer.id, status = %response.status(), "a peer refused news");
                return;
            }
            Ok(Err(err)) => {
                tracing::debug!(peer = %peer.id, error = %err, "news did not reach a peer")
            }
            Err(_) => tracing::debug!(peer = %peer.id, "news to a peer timed out"),
        }
    }
}
