//! Operators' figures in the Prometheus text format: what the code records through the `metrics`
//! facade (requests here; DynamoDB calls in `store::db`; live streams in `live::hub`; taps in
//! `game::store::taps`; the projector in `leaderboards::projector`), rendered by
//! `metrics-exporter-prometheus` for `GET /metrics` on an address of the operator's choosing
//! (loopback by default: the figures tell a stranger how busy the game is).
//!
//! Labels are bounded: a request is labelled with its route's template (`/r/{code}`, never the
//! code), its method and its status; a DynamoDB call with its operation and which part of the
//! server made it. Without [`install`] (tests, the other commands) every record is a no-op.

use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request};
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::store::metrics::series::*;

/// The label of a request no route matched (files, 404s): one value, not the path.
const UNMATCHED: &str = "unmatched";

/// Installs the recorder every `metrics` macro in the process records into, once; the handle
/// renders them. A second call returns `None` (a recorder is set already).
pub fn install() -> Option<PrometheusHandle> {
    let latency = [
        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
    ];
    let lag = [0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0];
    let units = [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0];
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Full(REQUEST_SECONDS.into()), &latency)
        .and_then(|b| b.set_buckets_for_metric(Matcher::Full(DYNAMODB_SECONDS.into()), &latency))
        .and_then(|b| b.set_buckets_for_metric(Matcher::Full(PROJECTOR_LAG_SECONDS.into()), &lag))
        .and_then(|b| b.set_buckets_for_metric(Matcher::Full(DYNAMODB_UNITS.into()), &units))
        .ok()?
        .install_recorder()
        .ok()?;
    describe();
    // Throttles and conflicts are rare: their series exist from the start, at zero, so that an
    // alarm on their rate has something to read before the first one.
    for op in [
        "GetItem",
        "PutItem",
        "UpdateItem",
        "DeleteItem",
        "Query",
        "TransactWriteItems",
        "BatchWriteItem",
        "BatchGetItem",
    ] {
        for kind in ["throttled", "conflict"] {
            metrics::counter!(DYNAMODB_ERRORS, "op" => op, "kind" => kind).absolute(0);
        }
    }
    metrics::counter!(PROJECTOR_LATE).absolute(0);
    // Histograms keep their recent samples until rendered; drain them now and then even when
    // nobody scrapes.
    let upkeep = handle.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(5)).await;
            upkeep.run_upkeep();
        }
    });
    Some(handle)
}

fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_counter!(
        REQUESTS,
        "Requests answered, by route template, method and status."
    );
    describe_histogram!(
        REQUEST_SECONDS,
        Unit::Seconds,
        "Time to answer a request (to its headers), by route template."
    );
    describe_counter!(
        SLOW_REQUESTS,
        "Requests slower than 250 ms to answer (to their headers), by route template."
    );
    describe_gauge!(STREAMS_OPEN, "Live room streams open on this instance.");
    describe_counter!(TAPS, "Taps answered, by outcome.");
    describe_histogram!(
        DYNAMODB_SECONDS,
        Unit::Seconds,
        "DynamoDB call latency, by operation and the part of the server that called."
    );
    describe_histogram!(
        DYNAMODB_UNITS,
        "Capacity units per DynamoDB call (sum: units; count: calls), by operation and work."
    );
    describe_counter!(
        DYNAMODB_ERRORS,
        "DynamoDB calls that failed, by operation and kind."
    );
    describe_histogram!(
        PROJECTOR_LAG_SECONDS,
        Unit::Seconds,
        "From a match's end to its results counted on the boards."
    );
    describe_counter!(
        PROJECTOR_LATE,
        "Results counted on the boards more than 60 s after their match ended."
    );
    describe_counter!(
        PROJECTOR_BATCHES,
        "Stream batches read by the board projector."
    );
    describe_counter!(
        PROJECTOR_RECORDS,
        "Stream records read by the board projector."
    );
    describe_gauge!(
        PROJECTOR_SHARDS,
        "Stream shards this instance's projector holds."
    );
}

/// The router of the metrics address: `GET /metrics`, nothing else.
pub fn router(handle: PrometheusHandle) -> Router {
    Router::new().route(
        "/metrics",
        get(move || {
            let handle = handle.clone();
            async move {
                (
                    [(
                        header::CONTENT_TYPE,
                        HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
                    )],
                    handle.render(),
                )
                    .into_response()
            }
        }),
    )
}

/// Middleware counting and timing every request of the game's router by its route's template
/// (added with `Router::layer`, so it runs after routing and sees the template).
pub async fn track(request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| UNMATCHED.to_owned(), |p| p.as_str().to_owned());
    let method = method_label(request.method());
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status();
    metrics::counter!(REQUESTS, "route" => route.clone(), "method" => method, "status" => status.as_str().to_owned())
        .increment(1);
    let took = started.elapsed();
    if took > SLOW_REQUEST {
        metrics::counter!(SLOW_REQUESTS, "route" => route.clone()).increment(1);
    }
    metrics::histogram!(REQUEST_SECONDS, "route" => route).record(took.as_secs_f64());
    response
}

/// The method as a label: the few the game answers, anything else as one value.
pub fn method_label(method: &axum::http::Method) -> &'static str {
    match method.as_str() {
        "GET" => "GET",
        "HEAD" => "HEAD",
        "POST" => "POST",
        _ => "other",
    }
}
