//! A request's whole body within a deadline. The body layer in `router` limits each wait for
//! the next piece of a body ([`crate::http::serve::BODY_READ_TIMEOUT`]), which a client that
//! sends one byte every few seconds never trips; this layer reads the whole body (at most
//! [`crate::http::MAX_BODY_BYTES`], the limit layer's) within [`AppState::body_deadline`] of
//! the request's head, before any handler runs, and answers 408 and closes the connection if it
//! has not arrived by then. A body past the size limit is a 413, one that fails otherwise a 400.

use axum::body::Body;
use axum::body::HttpBody as _;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;

use crate::http::state::AppState;

/// Reads the request's whole body within the deadline, then hands it on.
pub async fn whole_body(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if request.body().is_end_stream() {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let l = crate::lang::of_request(&parts.headers);
    let read = tokio::time::timeout(state.body_deadline, body.collect()).await;
    let refusal = match read {
        Ok(Ok(body)) => {
            let request = Request::from_parts(parts, Body::from(body.to_bytes()));
            return next.run(request).await;
        }
        Ok(Err(err)) if caused_by::<http_body_util::LengthLimitError>(&err) => (
            StatusCode::PAYLOAD_TOO_LARGE,
            crate::i18n::td_string!(l, common.body_too_large).to_string(),
        ),
        Ok(Err(err)) if !caused_by::<tower_http::timeout::TimeoutError>(&err) => {
            tracing::debug!(%err, "a request's body failed to arrive");
            (
                StatusCode::BAD_REQUEST,
                crate::i18n::td_string!(l, common.unreadable_request).to_string(),
            )
        }
        Ok(Err(_)) | Err(_) => {
            tracing::debug!(path = parts.uri.path(), "a request's body was too slow");
            (
                StatusCode::REQUEST_TIMEOUT,
                crate::i18n::td_string!(l, common.body_too_slow).to_string(),
            )
        }
    };
    // The rest of the body is not read: the connection cannot carry another request.
    let mut response = refusal.into_response();
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// Whether `err` or anything in its chain of causes is an `E`.
fn caused_by<E: std::error::Error + 'static>(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(err);
    while let Some(err) = cause {
        if err.is::<E>() {
            return true;
        }
        cause = err.source();
    }
    false
}
