//! The typed ids and key inputs every layer shares: a player's id, a room's code, a thing's id,
//! a login name, an email address, a session's hash, a board (`board`), and the error their
//! parsers share. They stand under the features and the store core alike: each feature's model
//! re-exports its own, and `store::keys` builds every key from them, so the store core depends on
//! no feature. Each constructor rejects bad input with a message a player can read; the browser
//! and the server use the same rules.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::i18n::td_string;

/// Why an input was refused, in words for the player (in the language of the request or page
/// it was refused in: see `crate::lang::locale`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{0}")]
pub struct Invalid(pub String);

pub(crate) fn invalid(message: impl Into<String>) -> Invalid {
    Invalid(message.into())
}

/// An optional field of a form: blank (or only spaces) is no value, anything else must parse
/// as a `T` (refused, while the server function's arguments are read, with `T`'s own words). A
/// plain form sends its empty fields, so a server function takes one as `Option<OrBlank<T>>`
/// and reads it with [`OrBlank::value`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrBlank<T>(pub Option<T>);

impl<T> OrBlank<T> {
    /// The value of a field that may be missing or blank.
    pub fn value(field: Option<OrBlank<T>>) -> Option<T> {
        field.and_then(|f| f.0)
    }
}

impl<T: TryFrom<String, Error = Invalid>> OrBlank<T> {
    /// A field as a form or an address carries it (`None`: not there at all).
    pub fn parse(raw: Option<String>) -> Result<Option<Self>, Invalid> {
        let Some(raw) = raw else {
            return Ok(None);
        };
        if raw.trim().is_empty() {
            return Ok(Some(Self(None)));
        }
        T::try_from(raw).map(|value| Some(Self(Some(value))))
    }
}

impl<'de, T: TryFrom<String, Error = Invalid>> Deserialize<'de> for OrBlank<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(deserializer)?;
        Self::parse(Some(raw))
            .map(Option::unwrap_or_default)
            .map_err(serde::de::Error::custom)
    }
}

impl<T> Default for OrBlank<T> {
    fn default() -> Self {
        Self(None)
    }
}

impl<T: Clone + Into<String>> Serialize for OrBlank<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let raw: String = self.0.clone().map(Into::into).unwrap_or_default();
        serializer.serialize_str(&raw)
    }
}

/// A player's id: a ULID (26 characters of Crockford base32), sortable by creation time.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct UserId(String);

impl UserId {
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        if is_ulid(raw) {
            Ok(Self(raw.to_owned()))
        } else {
            Err(invalid(
                td_string!(crate::lang::locale(), common.invalid.player_id).to_string(),
            ))
        }
    }

    /// An id no player has (all zeros: the epoch, no randomness), for reads that must cost
    /// the same whether or not a player exists.
    pub fn nobody() -> Self {
        Self("0".repeat(26))
    }

    /// A fresh id.
    #[cfg(feature = "ssr")]
    pub fn generate() -> Self {
        Self(ulid::Ulid::new().to_string())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A login name: 3 to 20 of `a-z`, `0-9` and `_`, stored lowercase.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Username(String);

impl Username {
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let name = raw.trim().to_lowercase();
        let ok = (3..=20).contains(&name.len())
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if ok {
            Ok(Self(name))
        } else {
            Err(invalid(
                td_string!(crate::lang::locale(), common.invalid.username).to_string(),
            ))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An email address, lowercased; checked for shape only (one `@`, a dot in the domain).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let email = raw.trim().to_lowercase();
        let shaped = match email.split_once('@') {
            Some((local, domain)) => {
                !local.is_empty()
                    && domain.contains('.')
                    && !domain.starts_with('.')
                    && !domain.ends_with('.')
                    && !domain.contains('@')
            }
            None => false,
        };
        if shaped
            && email.len() <= 254
            && !email.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            Ok(Self(email))
        } else {
            Err(invalid(
                td_string!(crate::lang::locale(), common.invalid.email).to_string(),
            ))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Letters and digits that cannot be mistaken for each other when read aloud or off a screen:
/// no 0/O, 1/I/L.
pub const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/// Characters in a room code: 31^5 ≈ 28.6 million codes.
pub const CODE_LEN: usize = 5;

/// A room's short code, e.g. `K7QX2`. Typed codes are upper-cased before checking.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct RoomCode(String);

impl RoomCode {
    /// What a daily flight's record names where a match's names its room: never a room's code
    /// (a code has no `I` and no `L`).
    pub fn daily() -> Self {
        Self("DAILY".to_owned())
    }

    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let code = raw.trim().to_ascii_uppercase();
        if code.len() == CODE_LEN && code.bytes().all(|b| CODE_ALPHABET.contains(&b)) {
            Ok(Self(code))
        } else {
            Err(invalid(
                td_string!(
                    crate::lang::locale(),
                    common.invalid.room_code,
                    len = CODE_LEN
                )
                .to_string(),
            ))
        }
    }

    /// A code from `CODE_LEN` random bytes (bias under 1% per character: 256 = 8·31 + 8).
    pub fn from_random(bytes: [u8; CODE_LEN]) -> Self {
        let code = bytes
            .iter()
            .map(|b| CODE_ALPHABET[usize::from(*b) % CODE_ALPHABET.len()] as char)
            .collect();
        Self(code)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What a room is for good: its code and a ULID made when the room is created
/// (`K7QX2-01KAYZ3NDEKTSV4RRFFQ69G5FA`), never issued again, where the code alone is issued again
/// once the room has expired. Everything kept past the room (its matches, their list, its
/// boards, their cards, the match seed) is keyed by it; the code in front is what pages show. A
/// room made before rooms had ids is known by its code alone (a *legacy* id), the key its kept
/// items were written under; such a room is given a full id when it next starts a match.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct RoomId(String);

impl RoomId {
    /// A room id as it appears in a link or a key: `<CODE>-<ULID>`, or a code alone (a legacy
    /// id). Exactly as written: a link with a lower-case code is not a key.
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let (code, rest) = match raw.split_once('-') {
            Some((code, ulid)) => (code, Some(ulid)),
            None => (raw, None),
        };
        let code_ok = RoomCode::parse(code).is_ok_and(|c| c.as_str() == code);
        if code_ok && rest.is_none_or(is_ulid) {
            Ok(Self(raw.to_owned()))
        } else {
            Err(invalid(
                td_string!(crate::lang::locale(), common.invalid.room_id).to_string(),
            ))
        }
    }

    /// The id of a room made before rooms had ids: its code, which its kept items use.
    pub fn legacy(code: &RoomCode) -> Self {
        Self(code.as_str().to_owned())
    }

    /// Whether this is a legacy id (a code alone) rather than a room's own.
    pub fn is_legacy(&self) -> bool {
        self.0.len() == CODE_LEN
    }

    /// The code the room had (another room may have it now).
    pub fn code(&self) -> RoomCode {
        RoomCode(self.0[..CODE_LEN].to_owned())
    }

    /// A new room's id under `code`.
    #[cfg(feature = "ssr")]
    pub fn generate(code: &RoomCode) -> Self {
        Self(format!("{}-{}", code.as_str(), ulid::Ulid::new()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A thing's id: a lowercase ASCII slug such as `flying-fish`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ThingId(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a thing id is 1 to 40 lowercase letters, digits and single dashes, like `flying-fish`")]
pub struct InvalidThingId;

impl ThingId {
    /// How the id of a deck's thing starts (`deck-<code>-<place>`): a deck's things are no
    /// catalog cards.
    pub const DECK_PREFIX: &'static str = "deck-";

    /// Whether this is a deck's thing, not one of the catalog's.
    pub fn is_deck_thing(&self) -> bool {
        self.0.starts_with(Self::DECK_PREFIX)
    }

    pub fn parse(raw: &str) -> Result<Self, InvalidThingId> {
        let ok = (1..=40).contains(&raw.len())
            && raw
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !raw.starts_with('-')
            && !raw.ends_with('-')
            && !raw.contains("--");
        if ok {
            Ok(Self(raw.to_owned()))
        } else {
            Err(InvalidThingId)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// As a server function's argument (or a field read back): refused in the player's words.
impl TryFrom<String> for ThingId {
    type Error = Invalid;
    fn try_from(raw: String) -> Result<Self, Self::Error> {
        Self::parse(&raw).map_err(|_| {
            invalid(td_string!(crate::lang::locale(), common.invalid.thing).to_string())
        })
    }
}

impl From<ThingId> for String {
    fn from(id: ThingId) -> Self {
        id.0
    }
}

impl fmt::Display for ThingId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What the table stores for a session: the token's SHA-256, hex (see `identity::auth`).
#[cfg(feature = "ssr")]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SessionHash(String);

#[cfg(feature = "ssr")]
impl SessionHash {
    /// The hash as `identity::auth` computes it from a token.
    pub fn from_hex(hex: String) -> Self {
        Self(hex)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Whether `raw` is a ULID as Udd writes them: 26 characters of Crockford's base 32, upper case
/// (no I, L, O or U).
pub(crate) fn is_ulid(raw: &str) -> bool {
    raw.len() == 26
        && raw
            .bytes()
            .all(|b| b.is_ascii_digit() || (b.is_ascii_uppercase() && !b"ILOU".contains(&b)))
}

/// `TryFrom<String>` through the type's `parse`, refused in its words: what serde reads a
/// `#[serde(try_from = "String")]` type with, so a server function's argument parses while the
/// arguments are read.
macro_rules! parsed_from_string {
    ($($ty:ty),*) => {$(
        impl TryFrom<String> for $ty {
            type Error = $crate::ids::Invalid;
            fn try_from(raw: String) -> Result<Self, Self::Error> {
                Self::parse(&raw)
            }
        }
    )*};
}
pub(crate) use parsed_from_string;

/// [`parsed_from_string`], `Into<String>` and `Display` for a string newtype, so serde can read
/// and write it as a plain string that is checked on the way in.
macro_rules! string_newtype_conversions {
    ($($ty:ident),*) => {$(
        $crate::ids::parsed_from_string!($ty);
        impl From<$ty> for String {
            fn from(value: $ty) -> Self {
                value.0
            }
        }
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    )*};
}
pub(crate) use string_newtype_conversions;

string_newtype_conversions!(UserId, Username, Email, RoomCode, RoomId);

mod board;
mod deck;
mod inventory;
pub use board::{BoardId, Day, DayText, Metric, Period, PeriodKind, Scope, SeasonId};
pub use deck::{DeckCode, DECK_CODE_LEN};
pub use inventory::{Look, OfferId, Place};
