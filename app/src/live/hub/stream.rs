//! A browser's stream: the lease that counts it against its client's cap on every instance, and
//! the Server-Sent Events handler that feeds it the watcher's snapshots.

use super::*;

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

/// The stream a browser reads: every snapshot from the first, ending after `Ended`.
fn feed_stream(
    receiver: FeedReceiver,
    draining: watch::Receiver<bool>,
    permit: OwnedSemaphorePermit,
    lease: StreamLease,
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
        moved,
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
            let mut moved = false;
            if !state.first {
                let seat_moved = async {
                    match state.moved.as_mut() {
                        Some(moved) => moved.wait_for(|moved| *moved).await.is_ok(),
                        None => std::future::pending().await,
                    }
                };
                tokio::select! {
                    changed = state.receiver.changed() => if changed.is_err() {
                        return None;
                    },
                    _ = state.draining.wait_for(|draining| *draining) => return None,
                    told = seat_moved => if told { moved = true } else { return None },
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
        permit,
        lease,
        listening,
        moved,
    ))
    .keep_alive(KeepAlive::default())
    .into_response()
}
