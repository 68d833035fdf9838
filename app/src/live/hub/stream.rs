//! A browser's stream: the lease that counts it against its client's cap on every instance, and
//! the Server-Sent Events handler that feeds it the watcher's snapshots.

use super::*;

/// How long the browser waits before reconnecting a dropped stream.
const RECONNECT_AFTER: Duration = Duration::from_millis(1000);

/// How long a stream lives before it ends itself, at a quiet moment, with the server's own last
/// event ([`BYE`]); its browser reconnects, to whichever instance the load balancer picks then.
///
/// Behind a load balancer a task being stopped is first taken out of its target group, and sent
/// SIGTERM only once its connections have closed or the group's deregistration delay is over;
/// at the end of the delay the balancer cuts what is still open, an end a browser cannot tell
/// from a fault. Streams that end themselves within the delay all end cleanly, and the task
/// stops as soon as the last one has. It also spreads a busy task's streams over the tasks
/// that scaling adds, within one life. Each stream's own life is drawn between three quarters
/// of this and all of it, so a room's streams, opened together, do not all come back together.
/// A reconnect costs what an open does (see `docs/operating.md`).
pub const STREAM_LIFE: Duration = Duration::from_secs(240);

/// A stream whose life is over ends only when no reveal falls within this long (a reconnect
/// takes [`RECONNECT_AFTER`] and a request): otherwise after that round closes.
pub const QUIET_GAP_MS: i64 = 3000;

/// The longest a stream outlives its life: a reveal just inside [`QUIET_GAP_MS`], then the
/// longest window and the grace before that round closes. The load balancer's deregistration
/// delay is at least the life and this (`infra/test_service.py` checks the template's).
pub const LONGEST_PAST_LIFE_MS: i64 = QUIET_GAP_MS
    + *crate::rooms::model::RoomSettings::WINDOW_MS.end() as i64
    + crate::game::timing::GRACE_MS as i64;

/// The name of a stream's last event when the server ends it (its life is over, or the instance
/// is stopping). Not a `message`, so a page's `onmessage` never sees it: the browser reconnects.
pub const BYE: &str = "bye";

impl RoomHub {
    /// How long each stream opened from now on lives, at most (see [`STREAM_LIFE`]).
    pub fn set_stream_life(&self, life: Duration) {
        self.inner
            .stream_life
            .store(life.as_millis() as i64, Ordering::Relaxed);
    }

    /// A new stream's own life: between three quarters of the set life and all of it.
    fn draw_stream_life(&self) -> Duration {
        let life = self.inner.stream_life.load(Ordering::Relaxed).max(4) as u64;
        let spread = life / 4;
        let drawn = (ulid::Ulid::new().random() % u128::from(spread + 1)) as u64;
        Duration::from_millis(life - spread + drawn)
    }
}

/// When a stream whose life is over may end, by the room it shows: now, unless a reveal is near.
fn quiet_from(snapshot: Option<&Snapshot>, now_ms: i64) -> i64 {
    match snapshot.map(|s| &s.feed) {
        Some(RoomFeed::Room(room)) if room.state == RoomState::Playing => room
            .game
            .as_ref()
            .map_or(now_ms, |game| game.quiet_from(now_ms, QUIET_GAP_MS)),
        _ => now_ms,
    }
}

/// One open stream's place in its client's count across instances (see
/// `live/store/streams.rs`): renewed in each next window while the stream lives, released when it
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
        let Some(last) = db.live().count_stream(&client, max).await? else {
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
                    match db.live().renew_stream(&client, counted + 1).await {
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
                if let Err(err) = db.live().release_stream(&client, from, last).await {
                    tracing::debug!(error = ?err, "stream release failed; it lapses by itself");
                }
            });
        }
    }
}

/// The stream a browser reads: every snapshot from the first, ending after `Ended` or `Moved`,
/// or with [`BYE`] when its `life` is over (at a quiet moment) or the instance is stopping.
fn feed_stream(
    receiver: FeedReceiver,
    draining: watch::Receiver<bool>,
    life: Duration,
    held: (OwnedSemaphorePermit, StreamLease),
    listening: Option<Listening>,
    moved: Option<watch::Receiver<bool>>,
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
        receiver: FeedReceiver,
        draining: watch::Receiver<bool>,
        /// Told when this stream's player opens the room on another device.
        moved: Option<watch::Receiver<bool>>,
        /// When to look whether the stream may end (its life, then each quiet moment ahead).
        ends: std::pin::Pin<Box<tokio::time::Sleep>>,
        ended: bool,
        first: bool,
        _open: Open,
        _held: (OwnedSemaphorePermit, StreamLease),
        _listening: Option<Listening>,
    }
    let state = State {
        receiver,
        draining,
        moved,
        ends: Box::pin(tokio::time::sleep(life)),
        ended: false,
        first: true,
        _open: Open,
        _held: held,
        _listening: listening,
    };
    let bye = || Event::default().event(BYE).data("reconnect");
    futures::stream::unfold(state, move |mut state| async move {
        if state.ended {
            return None;
        }
        loop {
            if *state.draining.borrow() {
                state.ended = true;
                return Some((Ok(bye()), state));
            }
            let mut moved = false;
            if !state.first {
                let seat_moved = async {
                    match state.moved.as_mut() {
                        Some(moved) => moved.wait_for(|moved| *moved).await.is_ok(),
                        None => std::future::pending().await,
                    }
                };
                let life_over = tokio::select! {
                    changed = state.receiver.changed() => if changed.is_err() {
                        return None;
                    } else { false },
                    _ = state.draining.wait_for(|draining| *draining) => continue,
                    told = seat_moved => if told { moved = true; false } else { return None },
                    () = state.ends.as_mut() => true,
                };
                if life_over {
                    let now = epoch_millis();
                    let at = quiet_from(state.receiver.borrow().as_deref(), now);
                    if at <= now {
                        state.ended = true;
                        return Some((Ok(bye()), state));
                    }
                    let wait = Duration::from_millis((at - now) as u64);
                    state
                        .ends
                        .as_mut()
                        .reset(tokio::time::Instant::now() + wait);
                    continue;
                }
            }
            let snapshot = if moved {
                Some(Snapshot::new(RoomFeed::Moved))
            } else {
                state.receiver.borrow_and_update().clone()
            };
            let first = std::mem::take(&mut state.first);
            let Some(snapshot) = snapshot else { continue };
            state.ended = matches!(snapshot.feed, RoomFeed::Ended | RoomFeed::Moved);
            // The watcher's JSON, shared by every stream of the room (one line: no newline
            // to split).
            let event = Event::default().data(snapshot.json());
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
///
/// The cap is counted per player for the room's players (its host known from the room's pulse,
/// read anyway; anyone else by one GetItem of their PLAYER item), and per address for everyone
/// else (visitors, the audience, the big screen): a party or a school shares one public
/// address, and nobody on it can take the room's streams from its players, or its host's from
/// the host (a host refused streams would be judged away and the room handed on).
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
    let pulse = match db.rooms().room_pulse(&code).await {
        Ok(Some(pulse)) => pulse,
        Ok(None) => {
            let l = crate::lang::locale();
            let message = crate::i18n::td_string!(l, game.errors.no_room).to_string();
            return AppError::NotFound(message).into_response();
        }
        Err(err) => return AppError::from(err).into_response(),
    };
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
    let listener = match session {
        Some(token) => match db.accounts().session(&token.hash()).await {
            // The device: a digest of the session (never the session itself), to tell one
            // device's streams from another's.
            Ok(session) => session.map(|s| (s.user_id, token.hash().as_str()[..16].to_owned())),
            Err(err) => {
                // The stream still serves; only the news that the host is here waits for the next one.
                tracing::debug!(error = ?err, "reading a live stream's session failed");
                None
            }
        },
        None => None,
    };
    let player = match &listener {
        Some((user, _)) if *user == pulse.host_id => Some(user.clone()),
        Some((user, _)) => match db.rooms().is_player(&code, user).await {
            Ok(true) => Some(user.clone()),
            Ok(false) => None,
            Err(err) => return AppError::from(err).into_response(),
        },
        None => None,
    };
    let counted_as = match (&player, client) {
        (Some(user), _) => format!("player:{user}"),
        (None, Some(address)) => address.0.to_string(),
        (None, None) => "unknown".to_owned(),
    };
    let lease = match StreamLease::acquire(db, counted_as, streams_per_client).await {
        Ok(Some(lease)) => lease,
        Ok(None) => {
            tracing::debug!(
                player = player.is_some(),
                "a client is at its cap of live streams"
            );
            return (
                StatusCode::TOO_MANY_REQUESTS,
                "Too many live streams from your address; retrying.",
            )
                .into_response();
        }
        Err(err) => return AppError::from(err).into_response(),
    };
    let (receiver, listening, moved) = match listener {
        Some((user, device)) => {
            let (receiver, listening, moved) = hub.subscribe_from(&code, user, device);
            (receiver, Some(listening), Some(moved))
        }
        None => (hub.subscribe(&code), None, None),
    };
    Sse::new(feed_stream(
        receiver,
        hub.inner.draining.subscribe(),
        hub.draw_stream_life(),
        (permit, lease),
        listening,
        moved,
    ))
    .keep_alive(KeepAlive::default())
    .into_response()
}
