//! How page data travels from the server render to the hydrating browser.
//!
//! Leptos writes each resolved resource into the page as a JavaScript string literal, using
//! Rust's `Debug` escaping: every quote and backslash of a JSON payload is escaped again, and
//! every non-ASCII character takes a slow path. Player text and the catalog are full of
//! Devanagari and emoji, so [`Base64Json`] ships the JSON as base64 instead: plain ASCII with
//! nothing to escape. The benchmark (`./udd bench`) shows the difference on `/things`.

use base64::engine::general_purpose::STANDARD_NO_PAD;
use base64::Engine;
use codee::{Decoder, Encoder};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// JSON, base64-encoded.
pub struct Base64Json;

#[derive(Debug, thiserror::Error)]
pub enum Base64JsonError {
    #[error("not base64: {0}")]
    Base64(#[from] base64::DecodeError),
    #[error("not the expected JSON: {0}")]
    Json(#[from] serde_json::Error),
}

impl<T: Serialize> Encoder<T> for Base64Json {
    type Error = Base64JsonError;
    type Encoded = String;

    fn encode(value: &T) -> Result<String, Self::Error> {
        Ok(STANDARD_NO_PAD.encode(serde_json::to_vec(value)?))
    }
}

impl<T: DeserializeOwned> Decoder<T> for Base64Json {
    type Error = Base64JsonError;
    type Encoded = str;

    fn decode(encoded: &str) -> Result<T, Self::Error> {
        Ok(serde_json::from_slice(&STANDARD_NO_PAD.decode(encoded)?)?)
    }
}
