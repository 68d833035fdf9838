//! The health checks: `/livez`, that the process serves (the load balancer's: no DynamoDB call,
//! so a slow table or one being altered never takes every task out at once), and `/healthz`,
//! that the table answers (operators' and alarms': a DescribeTable and a one-item Scan, probed
//! at most once per [`HEALTH_FRESH`] per instance however many ask, the answer shared).

use std::time::Instant;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::http::state::AppState;
use crate::store::{epoch_millis, Recorder};

pub mod check;

pub use check::{HealthCheck, HEALTH_FRESH};

/// `GET /livez`: 200 while the process serves. No DynamoDB call.
pub async fn livez() -> Response {
    (StatusCode::OK, "ok").into_response()
}

/// `GET /healthz`: engine, table status and a one-item Scan round trip; 503 when unhealthy.
/// `probed_at_ms` says when the probe answered was made (within [`HEALTH_FRESH`]).
pub async fn healthz(
    State(state): State<AppState>,
    recorder: Option<axum::Extension<Recorder>>,
) -> Response {
    let mut last = state.health.0.lock().await;
    if let Some((_, status, body)) = last.as_ref().filter(|(at, ..)| at.elapsed() < HEALTH_FRESH) {
        return (*status, Json(body.clone())).into_response();
    }
    let db = match recorder {
        Some(recorder) => state.db.recording(recorder.0),
        None => state.db.clone(),
    };
    let (status, body) = match db.health_probe().await {
        Ok(health) => {
            let healthy = health.status == "ACTIVE";
            (
                if healthy {
                    StatusCode::OK
                } else {
                    StatusCode::SERVICE_UNAVAILABLE
                },
                serde_json::json!({
                    "status": if healthy { "ok" } else { "unavailable" },
                    "engine": state.engine,
                    "table": db.table_name(),
                    "table_status": health.status,
                    "probe_ms": health.probe_ms,
                    "probed_at_ms": epoch_millis(),
                }),
            )
        }
        Err(err) => {
            tracing::warn!(error = ?err, "health probe failed");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                serde_json::json!({
                    "status": "unavailable",
                    "engine": state.engine,
                    "table": db.table_name(),
                    "error": err.to_string(),
                    "probed_at_ms": epoch_millis(),
                }),
            )
        }
    };
    *last = Some((Instant::now(), status, body.clone()));
    (status, Json(body)).into_response()
}
