//! One simulated phone: its form posts and its live stream over HTTP, each answer counted in
//! what the players share (one client, the tally, the statuses).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::ensure;
use app::live::RoomFeed;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;

use super::tally::Tally;

type Http = Client<HttpConnector, Full<Bytes>>;

pub(super) struct Shared {
    pub(super) http: Http,
    pub(super) tally: Mutex<Tally>,
    pub(super) statuses: Mutex<BTreeMap<u16, u64>>,
    pub(super) requests: AtomicU64,
    /// In a soak, where instances are replaced under the players, a request whose connection
    /// failed is sent again to the next instance, as a load balancer sends a client on to a
    /// healthy target (the instances, in order); in a plain load it fails the room.
    pub(super) failover: Option<Vec<String>>,
}

impl Shared {
    pub(super) fn tally(&self) -> std::sync::MutexGuard<'_, Tally> {
        self.tally.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The answers' statuses so far, counted by status.
    pub(super) fn statuses(&self) -> BTreeMap<u16, u64> {
        self.statuses
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn count(&self, status: u16) {
        self.requests.fetch_add(1, Ordering::Relaxed);
        *self
            .statuses
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(status)
            .or_default() += 1;
        if status >= 500 {
            self.tally().server_errors += 1;
        }
    }
}

/// A simulated player's name: `R<room><role><i>` ("R4P3": room 4's fourth player), or
/// `Q<room><role><i>` when the name filter refuses that (read as letters, "R4P3" is a word
/// the filter must refuse). Unique in the run either way.
pub(super) fn nickname(room: u32, role: char, i: u32) -> String {
    let name = format!("R{room}{role}{i}");
    match app::identity::name_filter::refuses(&name) {
        true => format!("Q{room}{role}{i}"),
        false => name,
    }
}

/// One simulated phone: its address, its instance and its session.
pub(super) struct Phone {
    pub(super) shared: Arc<Shared>,
    pub(super) base: String,
    pub(super) address: String,
    pub(super) cookie: Option<String>,
}

impl Phone {
    /// Posts a form; in a soak, a request whose connection failed (its instance is draining,
    /// killed or not yet back) is sent again to the next instance, up to six times. A copy of
    /// a write that had applied is recognised by the server as its own (a tap is answered as
    /// counted, with its time).
    pub(super) async fn post(&mut self, path: &str, form: &str) -> anyhow::Result<(u16, String)> {
        let (status, body, _) = self.post_timed(path, form).await?;
        Ok((status, body))
    }

    /// [`Phone::post`], with what the answer's `Server-Timing` says the request cost the table:
    /// `(calls, capacity units)` (the load's instances send it).
    pub(super) async fn post_timed(
        &mut self,
        path: &str,
        form: &str,
    ) -> anyhow::Result<(u16, String, Option<(u64, f64)>)> {
        let mut tries = 0u64;
        loop {
            match self.post_once(path, form).await {
                Err(err) if tries < 6 && self.shared.failover.is_some() => {
                    tries += 1;
                    self.shared.tally().resent += 1;
                    tracing::debug!(error = %err, base = %self.base, "sending again elsewhere");
                    self.move_on();
                    tokio::time::sleep(std::time::Duration::from_millis(100 * tries)).await;
                }
                outcome => return outcome,
            }
        }
    }

    /// In a soak, moves this phone to another instance, as a load balancer spreads the
    /// clients of a target that went away over the others.
    pub(super) fn move_on(&mut self) {
        if let Some(bases) = self.shared.failover.as_ref().filter(|b| b.len() > 1) {
            let at = bases.iter().position(|b| *b == self.base).unwrap_or(0);
            let spread = rand::random_range(0..bases.len() - 1);
            self.base = bases[(at + 1 + spread) % bases.len()].clone();
        }
    }

    async fn post_once(
        &mut self,
        path: &str,
        form: &str,
    ) -> anyhow::Result<(u16, String, Option<(u64, f64)>)> {
        let mut request = http::Request::post(format!("{}{path}", self.base))
            .header("content-type", "application/x-www-form-urlencoded")
            .header("accept", "application/json")
            .header("origin", &self.base)
            .header("x-forwarded-for", &self.address);
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie);
        }
        let response = self
            .shared
            .http
            .request(request.body(Full::new(Bytes::from(form.to_owned())))?)
            .await?;
        let status = response.status().as_u16();
        self.shared.count(status);
        if let Some(set) = response.headers().get("set-cookie") {
            let pair = set.to_str()?.split(';').next().unwrap_or_default();
            self.cookie = Some(pair.to_owned());
        }
        let cost = response
            .headers()
            .get("server-timing")
            .and_then(|v| v.to_str().ok())
            .and_then(table_cost);
        let body = response.into_body().collect().await?.to_bytes();
        Ok((status, String::from_utf8_lossy(&body).into_owned(), cost))
    }

    /// Opens the room's live stream: each message is parsed and sent on. Returns whether the
    /// listening is over (the room ended, or nobody reads the feed any more) rather than the
    /// stream cut.
    pub(super) async fn listen(
        &self,
        code: &str,
        feed: &tokio::sync::mpsc::UnboundedSender<(Instant, RoomFeed)>,
    ) -> anyhow::Result<bool> {
        let mut request = http::Request::get(format!("{}/r/{code}/events", self.base))
            .header("accept", "text/event-stream")
            .header("x-forwarded-for", &self.address);
        // A browser's stream carries its session: the host's keeps them host between matches.
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie);
        }
        let request = request.body(Full::new(Bytes::new()))?;
        let response = self.shared.http.request(request).await?;
        let status = response.status().as_u16();
        self.shared.count(status);
        ensure!(status == 200, "the live stream answered {status}");
        let mut body = response.into_body();
        let mut buffer = String::new();
        while let Some(frame) = body.frame().await {
            let frame = frame?;
            let Some(data) = frame.data_ref() else {
                continue;
            };
            let at = Instant::now();
            buffer.push_str(&String::from_utf8_lossy(data));
            while let Some(end) = buffer.find("\n\n") {
                let message: String = buffer.drain(..end + 2).collect();
                let json: String = message
                    .lines()
                    .filter_map(|line| line.strip_prefix("data:"))
                    .map(str::trim_start)
                    .collect::<Vec<_>>()
                    .join("\n");
                if json.is_empty() {
                    continue;
                }
                let parsed: RoomFeed = serde_json::from_str(&json)?;
                let ended = parsed == RoomFeed::Ended;
                if feed.send((at, parsed)).is_err() || ended {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Listens to the room's live stream until the room ends or nobody reads the feed,
    /// opening it again (on the next instance if it cannot be opened) whenever it is cut, as
    /// a browser's `EventSource` does. Every reopening is counted.
    pub(super) async fn listen_on(
        mut self,
        code: &str,
        feed: tokio::sync::mpsc::UnboundedSender<(Instant, RoomFeed)>,
    ) {
        loop {
            let opened = Instant::now();
            match self.listen(code, &feed).await {
                Ok(true) => return,
                Ok(false) => {}
                Err(err) => {
                    tracing::debug!(error = %err, base = %self.base, "the live stream failed");
                    self.move_on();
                }
            }
            if feed.is_closed() {
                return;
            }
            self.shared.tally().reopened += 1;
            // A browser waits a little before reconnecting; a stream that failed at once
            // waits longer.
            let wait = if opened.elapsed() < std::time::Duration::from_secs(1) {
                1000
            } else {
                250
            };
            tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
        }
    }
}

/// One player across the room's matches: their phone, their live stream's messages, their
/// nickname and behaviour, and the first round of the last match they played.
pub(super) struct Player {
    pub(super) phone: Phone,
    pub(super) feed: tokio::sync::mpsc::UnboundedReceiver<(Instant, RoomFeed)>,
    pub(super) nickname: String,
    pub(super) rng: rand_chacha::ChaCha8Rng,
    pub(super) played: Option<u32>,
    /// The lobby's last message and when it came (only the lobby's changes use it).
    pub(super) last: Option<(Instant, RoomFeed)>,
    /// In the room's audience: taps along, and is checked against their own seat.
    pub(super) along: bool,
    /// An audience member's acknowledged calls in their last match: its first round, and the
    /// rounds called (checked against their seat once the bill is read).
    pub(super) called: (u32, Vec<u32>),
}

/// `(calls, capacity units)` from a `Server-Timing` value as the instances write it
/// (`ddb;desc="9 calls, 12.5 capacity units";dur=3.20`).
fn table_cost(timing: &str) -> Option<(u64, f64)> {
    let desc = timing.split("desc=\"").nth(1)?.split('"').next()?;
    let (calls, units) = desc.split_once(", ")?;
    let calls = calls.strip_suffix(" calls")?.parse().ok()?;
    let units = units.strip_suffix(" capacity units")?.parse().ok()?;
    Some((calls, units))
}
