//! The embedded engine's HTTP front: DynamoDB's JSON protocol on a loopback port, in front of
//! dynoxide's database, answering only clients that present the engine's key.
//!
//! dynoxide's own server accepts any signature and answers browsers' CORS preflights, so any
//! local process, or a web page the player visits (by guessing the port), could read or change
//! the table. This front serves the same operations from the same database, but refuses:
//!
//! - a request whose SigV4 `Credential` is not the engine's key (the embedded engine makes a
//!   random one each start and gives it to its own SDK client; `udd-server engine` takes
//!   `UDD_ENGINE_KEY` and every instance that shares it uses the same);
//! - any request a browser made (`Origin` or `Sec-Fetch-*` headers), so a web page can never
//!   reach it even with the key.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use dynoxide::Database;
use serde::{de::DeserializeOwned, Serialize};

const CONTENT_TYPE: &str = "application/x-amz-json-1.0";

#[derive(Clone)]
struct Front {
    db: Database,
    key: Arc<str>,
}

/// A random engine key: 32 letters and digits (DynamoDB Local, and so every SDK client set up
/// for local engines, accepts only those in an access key id).
pub fn random_key() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the OS has randomness");
    bytes
        .iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect()
}

/// Whether `key` can be an engine key (what `UDD_ENGINE_KEY` must look like).
pub fn valid_key(key: &str) -> bool {
    (16..=128).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The router that serves `db` to holders of `key`.
pub fn router(db: Database, key: &str) -> Router {
    Router::new().route("/", post(handle)).with_state(Front {
        db,
        key: key.into(),
    })
}

/// The access key id of a SigV4 `Authorization` header.
pub fn credential(headers: &HeaderMap) -> Option<&str> {
    let auth = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let rest = &auth[auth.find("Credential=")? + "Credential=".len()..];
    rest.split('/').next()
}

fn error(status: StatusCode, kind: &str, message: &str) -> Response {
    let body = serde_json::json!({
        "__type": format!("com.amazon.coral.service#{kind}"),
        "message": message,
    });
    (
        status,
        [(header::CONTENT_TYPE, CONTENT_TYPE)],
        body.to_string(),
    )
        .into_response()
}

async fn handle(State(front): State<Front>, headers: HeaderMap, body: Bytes) -> Response {
    let from_browser = headers.contains_key(header::ORIGIN)
        || headers.contains_key("sec-fetch-mode")
        || headers.contains_key("sec-fetch-site");
    if from_browser {
        return error(
            StatusCode::FORBIDDEN,
            "AccessDeniedException",
            "The engine does not answer browsers.",
        );
    }
    let authorised = credential(&headers).is_some_and(|key| {
        crate::identity::auth::constant_time_eq(key.as_bytes(), front.key.as_bytes())
    });
    if !authorised {
        return error(
            StatusCode::BAD_REQUEST,
            "UnrecognizedClientException",
            "The security token included in the request is invalid.",
        );
    }
    let Some(operation) = headers
        .get("x-amz-target")
        .and_then(|t| t.to_str().ok())
        .and_then(|t| t.rsplit_once('.'))
        .map(|(_, op)| op.to_owned())
    else {
        return error(StatusCode::BAD_REQUEST, "UnknownOperationException", "");
    };
    match dispatch(&front.db, &operation, &body) {
        Ok(json) => (StatusCode::OK, [(header::CONTENT_TYPE, CONTENT_TYPE)], json).into_response(),
        Err(err) => (
            StatusCode::from_u16(err.status_code()).unwrap_or(StatusCode::BAD_REQUEST),
            [(header::CONTENT_TYPE, CONTENT_TYPE)],
            err.to_json(),
        )
            .into_response(),
    }
}

fn run<Req: DeserializeOwned, Resp: Serialize>(
    body: &[u8],
    op: impl FnOnce(Req) -> dynoxide::Result<Resp>,
) -> dynoxide::Result<String> {
    let request = serde_json::from_slice(body)
        .map_err(|e| dynoxide::DynoxideError::SerializationException(e.to_string()))?;
    let response = op(request)?;
    serde_json::to_string(&response)
        .map_err(|e| dynoxide::DynoxideError::InternalServerError(e.to_string()))
}

/// The operations Udd uses (and the stream reads a projector needs), each to the database
/// method of the same name. The database runs the operation to completion on this thread, as
/// dynoxide's own server does.
fn dispatch(db: &Database, operation: &str, body: &[u8]) -> dynoxide::Result<String> {
    match operation {
        "CreateTable" => run(body, |r| db.create_table(r)),
        "DeleteTable" => run(body, |r| db.delete_table(r)),
        "DescribeTable" => run(body, |r| db.describe_table(r)),
        "UpdateTable" => run(body, |r| db.update_table(r)),
        "ListTables" => run(body, |r| db.list_tables(r)),
        "PutItem" => run(body, |r| db.put_item(r)),
        "GetItem" => run(body, |r| db.get_item(r)),
        "DeleteItem" => run(body, |r| db.delete_item(r)),
        "UpdateItem" => run(body, |r| db.update_item(r)),
        "Query" => run(body, |r| db.query(r)),
        "Scan" => run(body, |r| db.scan(r)),
        "BatchGetItem" => run(body, |r| db.batch_get_item(r)),
        "BatchWriteItem" => run(body, |r| db.batch_write_item(r)),
        "TransactWriteItems" => run(body, |r| db.transact_write_items(r)),
        "TransactGetItems" => run(body, |r| db.transact_get_items(r)),
        "UpdateTimeToLive" => run(body, |r| db.update_time_to_live(r)),
        "DescribeTimeToLive" => run(body, |r| db.describe_time_to_live(r)),
        "ListStreams" => run(body, |r| db.list_streams(r)),
        "DescribeStream" => run(body, |r| db.describe_stream(r)),
        "GetShardIterator" => run(body, |r| db.get_shard_iterator(r)),
        "GetRecords" => run(body, |r| db.get_records(r)),
        other => Err(dynoxide::DynoxideError::ValidationException(format!(
            "Unsupported operation: {other}"
        ))),
    }
}
