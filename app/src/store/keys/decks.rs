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

/// The sort key of a deck's play count.
pub const DECK_PLAYS: &str = "PLAYS";

/// How many matches played a deck, counted by the projector from the stream (each match once):
/// `DECK#<code>` / `PLAYS`. Apart from the head, so that the projector's writes never meet an
/// author's save.
pub fn deck_plays(code: &DeckCode) -> Key {
    Key {
        pk: deck_partition(code),
        sk: DECK_PLAYS.to_owned(),
    }
}

/// The sort key of a public deck's title, for the gallery's search.
pub const DECK_TITLE: &str = "TITLE";

/// A public deck's title as the gallery searches it: `DECK#<code>` / `TITLE`, on GSI1 under
/// [`gallery_title`] (absent while the deck is not public).
pub fn deck_title(code: &DeckCode) -> Key {
    Key {
        pk: deck_partition(code),
        sk: DECK_TITLE.to_owned(),
    }
}

/// GSI2 partition of the public decks in `lang` (`en`, `hi`, `both`), newest first by
/// [`deck_by_sort`]: set on a deck's head while it is public.
pub fn gallery_new(lang: &str) -> String {
    format!("DECKS#NEW#{lang}")
}

/// GSI1 partition of the public decks in `lang` by plays of all time: set on a deck's `PLAYS`
/// item while it is public, sorted by [`plays_sort`].
pub fn gallery_plays(lang: &str) -> String {
    format!("DECKS#PLAYS#{lang}")
}

/// GSI2 partition of the public decks in `lang` played in ISO week `week` (`2026-W48`), by
/// plays that week ([`plays_sort`]): set on a deck's `PLAYS` item by the projector.
pub fn gallery_week(week: &str, lang: &str) -> String {
    format!("DECKS#WEEK#{week}#{lang}")
}

/// A sort key by a count, most last (Query descending for most first): the count in ten
/// digits, then the code.
pub fn plays_sort(plays: u64, code: &DeckCode) -> String {
    format!("{:010}#{}", plays.min(9_999_999_999), code.as_str())
}

/// GSI1 partition of the public decks whose searched title starts with `first` (one character).
pub fn gallery_title(first: char) -> String {
    format!("DECKS#TITLE#{first}")
}

/// GSI1 sort key of a deck's searched title: the title as searched, then the code.
pub fn title_sort(searched: &str, code: &DeckCode) -> String {
    format!("{searched}#{}", code.as_str())
}

/// The deck whose partition `pk` is, if it is a deck's.
pub fn deck_of_partition(pk: &str) -> Option<DeckCode> {
    pk.strip_prefix("DECK#")
        .and_then(|code| DeckCode::parse(code).ok())
}

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

/// One player's report of a deck: `DECKREPORT#<code>` / `BY#<reporter>` (apart from the
/// deck's partition, which its page reads whole), kept [`crate::decks::moderation::REPORT_DAYS`].
pub fn deck_report(code: &DeckCode, reporter: &UserId) -> Key {
    Key {
        pk: format!("DECKREPORT#{}", code.as_str()),
        sk: format!("BY#{}", reporter.as_str()),
    }
}

/// A deck hidden by its reports, waiting for an operator: `DECKS#HIDDEN` / `<code>` (the
/// operators' list, read with one Query).
pub fn deck_hidden(code: &DeckCode) -> Key {
    Key {
        pk: DECKS_HIDDEN.to_owned(),
        sk: code.as_str().to_owned(),
    }
}

/// The partition of the decks waiting for an operator.
pub const DECKS_HIDDEN: &str = "DECKS#HIDDEN";

/// How many of an author's decks their reports hid: `DECKAUTHOR#<author>` / `HIDDEN` (past
/// [`crate::decks::moderation::HIDES_TO_BAR`], they publish no more until an operator lifts it).
pub fn deck_author(author: &UserId) -> Key {
    Key {
        pk: format!("DECKAUTHOR#{}", author.as_str()),
        sk: "HIDDEN".to_owned(),
    }
}
