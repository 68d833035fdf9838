//! Decks' keys: one partition per deck (its head and its things, apart, so that lists read the
//! small head alone), and each author's decks on GSI1.

use super::table::Key;
use crate::ids::{DeckCode, UserId};

/// A deck's partition: `DECK#<code>`.
pub fn deck_partition(code: &DeckCode) -> String {
    format!("DECK#{}", code.as_str())
}

/// The sort key of a deck's head.
pub const DECK_HEAD: &str = "META";
/// The sort key of a deck's things.
pub const DECK_THINGS: &str = "THINGS";

/// A deck's head (title, description, language, visibility, author, version, counts):
/// `DECK#<code>` / `META`. It alone carries the index keys.
pub fn deck_head(code: &DeckCode) -> Key {
    Key {
        pk: deck_partition(code),
        sk: DECK_HEAD.to_owned(),
    }
}

/// A deck's things, all of them in one item: `DECK#<code>` / `THINGS`.
pub fn deck_things(code: &DeckCode) -> Key {
    Key {
        pk: deck_partition(code),
        sk: DECK_THINGS.to_owned(),
    }
}

/// An author's decks on GSI1: `GSI1PK = DECKS#BY#<id>`.
pub fn decks_by(author: &UserId) -> String {
    format!("DECKS#BY#{}", author.as_str())
}

/// GSI1 sort key of a deck among its author's: when it was made (13 digits of epoch ms), then
/// its code, so the list runs newest first and a save does not move it.
pub fn deck_by_sort(created_ms: i64, code: &DeckCode) -> String {
    format!("{:013}#{}", created_ms.max(0), code.as_str())
}

/// A deck's form as `author` last sent it and it was refused (`ttl`: an hour), for a new deck
/// (`NEW`) or deck `code`: `DECKFORM#<author>` / `NEW` or `<code>`. Its own partition: nothing
/// that reads a player's partition reads it.
pub fn deck_form(author: &UserId, code: Option<&DeckCode>) -> Key {
    Key {
        pk: format!("DECKFORM#{}", author.as_str()),
        sk: code.map_or("NEW", DeckCode::as_str).to_owned(),
    }
}
