//! Scale-in protection on Amazon ECS: while a match is in play on this task (a room with a
//! match on, followed by a stream served here), the task asks the ECS agent to protect it, so
//! that neither a scale-in nor a deployment stops it in the middle of the match.
//!
//! - The agent's endpoint is `$ECS_AGENT_URI/task-protection/v1/state` (a `PUT` of
//!   `{"ProtectionEnabled": …, "ExpiresInMinutes": …}`); the agent calls ECS's
//!   `UpdateTaskProtection` with the task's role, which grants exactly that, on its cluster's
//!   tasks (`infra/udd-service.yaml`, checked by `infra/test_service.py`).
//! - Each protection lasts [`PROTECT_MINUTES`] unless renewed (every [`RENEW_EVERY`] while a match
//!   is in play), so a task that hangs lets go by itself; it is released as soon as no match is
//!   in play.
//! - A busy task could have a match in play all day and hold a deployment back as long. So it
//!   holds protection at most [`AT_MOST`] without a break, then lets go for [`BREAK`]. A task
//!   stopped then drains: its streams end and the phones reopen them on another task, and every
//!   acknowledged tap is kept (the soak replaces tasks mid-match and loses none; `docs/soak.md`).
//! - Protection is a courtesy to players, not a correctness need: a failed request is logged and
//!   tried again at the next check; the game goes on.

use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

use crate::live::RoomHub;

/// The variable the ECS agent sets in every container of a task (agent 1.65.0 or later).
pub const AGENT_VAR: &str = "ECS_AGENT_URI";

/// How often the task looks whether a match is in play here.
pub const CHECK_EVERY: Duration = Duration::from_secs(15);

/// How long each protection lasts unless renewed (ECS's minimum is 1 minute).
pub const PROTECT_MINUTES: u32 = 2;

/// How often protection is renewed while a match is in play: well inside [`PROTECT_MINUTES`].
pub const RENEW_EVERY: Duration = Duration::from_secs(60);

/// The longest the task holds protection without a break.
pub const AT_MOST: Duration = Duration::from_secs(30 * 60);

/// How long it then lets go, whatever is in play: time for a waiting deployment or scale-in to
/// stop it.
pub const BREAK: Duration = Duration::from_secs(5 * 60);

/// What to ask the agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// Protect the task for this many minutes (from now: a renewal resets the time).
    Protect { minutes: u32 },
    /// Let go: the task may be stopped.
    Release,
}

/// When this task protects itself, as a function of time and of whether a match is in play
/// here (the decision alone, apart from the agent).
#[derive(Debug, Default)]
pub struct Protection {
    /// Since when protection has been held without a break.
    held_since: Option<Instant>,
    /// When it was last asked for (`None`: due now).
    renewed: Option<Instant>,
    /// Until when the task takes its break.
    resting_until: Option<Instant>,
}

impl Protection {
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the task holds protection now (as far as it asked).
    pub fn held(&self) -> bool {
        self.held_since.is_some()
    }

    /// What to ask the agent now, if anything, given whether a match is in play here.
    pub fn next(&mut self, in_play: bool, now: Instant) -> Option<Ask> {
        if self.resting_until.is_some_and(|until| now < until) {
            return None;
        }
        self.resting_until = None;
        match (in_play, self.held_since) {
            (true, None) => {
                self.held_since = Some(now);
                self.renewed = Some(now);
                Some(Ask::Protect {
                    minutes: PROTECT_MINUTES,
                })
            }
            (true, Some(since)) if now.duration_since(since) >= AT_MOST => {
                self.held_since = None;
                self.renewed = None;
                self.resting_until = Some(now + BREAK);
                Some(Ask::Release)
            }
            (true, Some(_)) => {
                let due = self
                    .renewed
                    .is_none_or(|at| now.duration_since(at) >= RENEW_EVERY);
                due.then(|| {
                    self.renewed = Some(now);
                    Ask::Protect {
                        minutes: PROTECT_MINUTES,
                    }
                })
            }
            (false, Some(_)) => {
                self.held_since = None;
                self.renewed = None;
                Some(Ask::Release)
            }
            (false, None) => None,
        }
    }

    /// The agent refused or could not be reached: a protection is asked again at the next
    /// check. (A release that failed is not: the protection lapses by itself.)
    pub fn failed(&mut self, ask: Ask) {
        if let Ask::Protect { .. } = ask {
            self.renewed = None;
        }
    }
}

/// The agent's endpoint for the task's protection, under `agent` (`$ECS_AGENT_URI`).
pub fn state_uri(agent: &str) -> String {
    format!("{}/task-protection/v1/state", agent.trim_end_matches('/'))
}

/// The request's body for `ask`, as the agent reads it.
pub fn body(ask: Ask) -> serde_json::Value {
    match ask {
        Ask::Protect { minutes } => {
            serde_json::json!({ "ProtectionEnabled": true, "ExpiresInMinutes": minutes })
        }
        Ask::Release => serde_json::json!({ "ProtectionEnabled": false }),
    }
}

/// Asks the agent at `agent` for `ask`. The agent answers a refusal by ECS (a missing
/// permission, a task outside a service) with a `failure` or `error` object.
pub async fn send(agent: &str, ask: Ask) -> Result<(), String> {
    let client: Client<_, Full<Bytes>> = Client::builder(TokioExecutor::new()).build_http();
    let request = hyper::Request::put(state_uri(agent))
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body(ask).to_string())))
        .map_err(|e| e.to_string())?;
    let response = tokio::time::timeout(Duration::from_secs(5), client.request(request))
        .await
        .map_err(|_| "the agent did not answer within 5 s".to_owned())?
        .map_err(|e| e.to_string())?;
    let status = response.status();
    let answer = response
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    let text = String::from_utf8_lossy(&answer);
    let refused = serde_json::from_slice::<serde_json::Value>(&answer)
        .ok()
        .is_some_and(|v| !v["failure"].is_null() || !v["error"].is_null());
    if !status.is_success() || refused {
        return Err(format!("{status}: {text}"));
    }
    Ok(())
}

/// Looks every `every` whether a match is in play through `hub` and asks the agent at `agent`
/// to protect the task or let go; runs until the task ends.
pub async fn run(hub: RoomHub, agent: String, every: Duration) {
    let mut protection = Protection::new();
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        // A draining task is being stopped already: nothing left to protect.
        let in_play = hub.matches_in_play() > 0 && !hub.draining();
        let Some(ask) = protection.next(in_play, Instant::now()) else {
            continue;
        };
        match send(&agent, ask).await {
            Ok(()) => tracing::info!(?ask, "scale-in protection"),
            Err(err) => {
                tracing::warn!(?ask, %err, "the ECS agent refused scale-in protection");
                protection.failed(ask);
            }
        }
    }
}
