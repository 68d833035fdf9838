//! The last deep health probe an instance made, shared by every `/healthz` within
//! [`HEALTH_FRESH`] of it (kept in the router's state).

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::StatusCode;

/// How long one deep probe's answer is given to every `/healthz` that asks: a flood of checks
/// costs DynamoDB at most two calls a second per instance.
pub const HEALTH_FRESH: Duration = Duration::from_secs(1);

/// The last deep probe's answer, and when it was made; one probe at a time.
#[derive(Clone, Debug, Default)]
pub struct HealthCheck(
    pub(super) Arc<tokio::sync::Mutex<Option<(Instant, StatusCode, serde_json::Value)>>>,
);
