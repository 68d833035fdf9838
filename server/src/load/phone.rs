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
}

impl Shared {
    pub(super) fn tally(&self) -> std::sync::MutexGuard<'_, Tally> {
        self.tally.lock().unwrap_or_else(|e| e.into_inner())
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

/// One simulated phone: its address, its instance and its session.
pub(super) struct Phone {
    pub(super) shared: Arc<Shared>,
    pub(super) base: String,
    pub(super) address: String,
    pub(super) cookie: Option<String>,
}

impl Phone {
    pub(super) async fn post(&mut self, path: &str, form: &str) -> anyhow::Result<(u16, String)> {
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
        let body = response.into_body().collect().await?.to_bytes();
        Ok((status, String::from_utf8_lossy(&body).into_owned()))
    }

    /// Opens the room's live stream: each message is parsed and sent on.
    pub(super) async fn listen(
        &self,
        code: &str,
        feed: tokio::sync::mpsc::UnboundedSender<(Instant, RoomFeed)>,
    ) -> anyhow::Result<()> {
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
                    return Ok(());
                }
            }
        }
        Ok(())
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
}
