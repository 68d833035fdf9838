//! A suggestion: a thing and its ruling sent from a player's phone to the host's box, what the
//! host did with it, and the room's votes on its ruling.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::ids::UserId;

/// A suggested name: room for both languages' names (`Bat / चमगादड़`) and an emoji.
pub const NAME_MAX: usize = 60;

/// Suggestions and votes one player may send in a minute.
pub const PER_MINUTE: u32 = 10;

/// The accepted suggestions put into a deck at once (one transaction with the deck's save).
pub const PUT_AT_ONCE: usize = 50;

/// What became of a suggestion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Sent; the host has not answered.
    New,
    /// Its ruling is put to the room's vote.
    Vote,
    /// The host took it (as sent or edited): the next "put into a deck" adds it.
    Accepted,
    Rejected,
    /// In a deck of the host's (`Suggestion::deck` names it).
    Saved,
}

impl Status {
    /// Whether the host may still answer it.
    pub fn open(self) -> bool {
        matches!(self, Status::New | Status::Vote)
    }

    pub fn slug(self) -> &'static str {
        match self {
            Status::New => "new",
            Status::Vote => "vote",
            Status::Accepted => "accepted",
            Status::Rejected => "rejected",
            Status::Saved => "saved",
        }
    }
}

/// A thing as a player suggests it (or the host edits it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sent {
    /// As a deck's line starts: a name, optionally an emoji before it, optionally
    /// `English / हिन्दी`.
    pub name: String,
    pub flies: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What is wrong with a suggestion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SentProblem {
    NameMissing,
    NameTooLong,
    NoteTooLong,
    /// Control characters, or a comma in the name (a deck's line is `name, yes/no, note`).
    Unreadable,
    /// A word the name filter refuses.
    Refused,
}

impl Sent {
    /// The suggestion as kept: without spaces at its ends, a blank note none; refused when it
    /// breaks a rule of a deck's thing or `refuses` (the name filter) refuses a word of it.
    pub fn tidy(mut self, refuses: impl Fn(&str) -> bool) -> Result<Sent, SentProblem> {
        self.name = self.name.trim().to_owned();
        self.note = self
            .note
            .map(|n| n.trim().to_owned())
            .filter(|n| !n.is_empty());
        let note = self.note.as_deref().unwrap_or_default();
        if self.name.is_empty() {
            return Err(SentProblem::NameMissing);
        }
        if self.name.chars().count() > NAME_MAX {
            return Err(SentProblem::NameTooLong);
        }
        if note.chars().count() > crate::decks::model::NOTE_MAX {
            return Err(SentProblem::NoteTooLong);
        }
        let control = |t: &str| t.chars().any(char::is_control);
        if control(&self.name) || control(note) || self.name.contains(',') {
            return Err(SentProblem::Unreadable);
        }
        if refuses(&self.name) || refuses(note) {
            return Err(SentProblem::Refused);
        }
        Ok(self)
    }

    /// As a deck's line: `name, yes/no, note`.
    pub fn line(&self) -> String {
        let ruling = if self.flies { "yes" } else { "no" };
        match &self.note {
            Some(note) => format!("{}, {ruling}, {note}", self.name),
            None => format!("{}, {ruling}", self.name),
        }
    }
}

/// A suggestion in a room's box.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suggestion {
    /// A ULID: the box lists them oldest first.
    pub id: String,
    /// Who sent it (the room's lobby names them).
    pub by: UserId,
    #[serde(flatten)]
    pub sent: Sent,
    pub status: Status,
    /// The room's votes on its ruling: each voter's `flies`.
    #[serde(default)]
    pub votes: BTreeMap<UserId, bool>,
    /// The deck it went into, by title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<String>,
    pub at_ms: i64,
}

impl Suggestion {
    /// The room's votes: (flies, does not fly).
    pub fn tally(&self) -> (usize, usize) {
        let flies = self.votes.values().filter(|f| **f).count();
        (flies, self.votes.len() - flies)
    }

    /// The room's ruling, when the votes have one: the majority (a tie has none).
    pub fn room_ruling(&self) -> Option<bool> {
        let (yes, no) = self.tally();
        (yes != no).then_some(yes > no)
    }
}

/// A suggestion's id as a form sends it: a ULID, refused otherwise before any read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct SuggestionId(String);

impl SuggestionId {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for SuggestionId {
    type Error = String;

    fn try_from(raw: String) -> Result<Self, Self::Error> {
        // 26 characters of Crockford's base32, the first at most 7 (ULIDs as the ulid crate
        // writes them, which the browser's build does not carry).
        const ALPHABET: &str = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
        let id = raw.trim().to_ascii_uppercase();
        let ulid =
            id.len() == 26 && id.chars().all(|c| ALPHABET.contains(c)) && id.as_bytes()[0] <= b'7';
        match ulid {
            true => Ok(SuggestionId(id)),
            false => Err("not a suggestion's id".to_owned()),
        }
    }
}

impl From<SuggestionId> for String {
    fn from(id: SuggestionId) -> Self {
        id.0
    }
}

/// What the host's answer form says: its button pressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AnswerKind {
    Accept,
    Reject,
    Vote,
}

/// Where "put into a deck" puts the accepted: a new deck (the editor opens with them) or one
/// of the host's, by its code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum PutInto {
    New,
    Deck(crate::ids::DeckCode),
}

impl TryFrom<String> for PutInto {
    type Error = String;

    fn try_from(raw: String) -> Result<Self, Self::Error> {
        match raw.trim() {
            "new" => Ok(PutInto::New),
            code => crate::ids::DeckCode::parse(code)
                .map(PutInto::Deck)
                .map_err(|e| e.to_string()),
        }
    }
}

impl From<PutInto> for String {
    fn from(into: PutInto) -> Self {
        match into {
            PutInto::New => "new".to_owned(),
            PutInto::Deck(code) => code.to_string(),
        }
    }
}
