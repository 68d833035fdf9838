//! A deck's short code: what its link (`/d/<CODE>`) and a room's settings name it by.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{invalid, Invalid, CODE_ALPHABET};
use crate::i18n::td_string;

/// Characters in a deck's code: 31^7 ≈ 27.5 billion codes, read aloud as easily as a room's.
pub const DECK_CODE_LEN: usize = 7;

/// A deck's code, e.g. `K7QX2MP`, from the room codes' alphabet (no 0/O, 1/I/L). Typed codes
/// are upper-cased before checking.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct DeckCode(String);

impl DeckCode {
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let code = raw.trim().to_ascii_uppercase();
        if code.len() == DECK_CODE_LEN && code.bytes().all(|b| CODE_ALPHABET.contains(&b)) {
            Ok(Self(code))
        } else {
            Err(invalid(
                td_string!(
                    crate::lang::locale(),
                    common.invalid.deck_code,
                    len = DECK_CODE_LEN
                )
                .to_string(),
            ))
        }
    }

    /// A code from `DECK_CODE_LEN` random bytes (bias under 1% per character, as a room's).
    pub fn from_random(bytes: [u8; DECK_CODE_LEN]) -> Self {
        Self(
            bytes
                .iter()
                .map(|b| CODE_ALPHABET[usize::from(*b) % CODE_ALPHABET.len()] as char)
                .collect(),
        )
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

super::string_newtype_conversions!(DeckCode);
