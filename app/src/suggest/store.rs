//! Suggestion boxes in the table: each room's its own partition, keyed by the room's id.
//!
//! | pattern | how | round trips · units |
//! |---|---|---|
//! | send a suggestion | TransactWriteItems: Put `SUGGEST#<room id>` / `S#<ulid>` if new, Update the room's `META` (the box's number and the room's version, only while the box is open), ConditionCheck the sender's `PLAYER` item | 1 · 2 × (3 items, each ≤ 1 KB but META) WCU |
//! | a room's box | Query `SUGGEST#<room id>` (consistent), only while the box is open and for the room's players | 1 · ⌈box's KB / 4⌉ RCU (about 4 KB for 20 suggestions) |
//! | the host answers (accept, edit, reject, put to the vote) | TransactWriteItems: Update the suggestion if still open, Update `META` if the caller hosts and the box is open; refused: GetItem the suggestion (consistent) says why, or finds the answer was this one (an answer lost) | 1 · 2 × 2 items WCU |
//! | a player votes on a ruling | TransactWriteItems: Update the suggestion's `votes.<player>` while it is put to the vote, Update `META`, ConditionCheck the voter's `PLAYER` item | 1 · 2 × 3 items WCU |
//! | put the accepted into a deck | the room's lobby (its host), the box and the deck (consistent), then the deck's save (`decks::store`) with each suggestion's Update (`saved`, if still accepted) in its transaction | 4 · the deck's save + 2 × suggestions WCU |

use aws_sdk_dynamodb::types::AttributeValue;
use serde::{Deserialize, Serialize};

use crate::decks::model::{parse_lines, DeckProblem};
use crate::decks::store::DeckConflict;
use crate::ids::{DeckCode, RoomId, UserId};
use crate::rooms::model::RoomCode;
use crate::store::expr::{attr, Cond, Expr, Expressions, KeyCond, Update};
use crate::store::keys;
use crate::store::tx::{s, update};
use crate::store::{epoch_millis, key_map, DataError};
use crate::suggest::model::{Sent, SentProblem, Status, Suggestion, PUT_AT_ONCE};

crate::store::handle!(
    /// The access patterns of rooms' suggestion boxes.
    Suggestions,
    suggestions
);

/// Why a suggestion's write was refused (nothing written).
#[derive(Debug, thiserror::Error)]
pub enum SuggestConflict {
    #[error("The suggestion breaks a rule: {0:?}")]
    Problem(SentProblem),
    /// The box is closed (or the room is gone).
    #[error("The host is not taking suggestions now.")]
    Closed,
    #[error("Only the room's players can do that.")]
    NotPlayer,
    #[error("Only the host can do that.")]
    NotHost,
    /// The suggestion is gone, answered already, or (for a vote) not put to the vote.
    #[error("That suggestion is answered already.")]
    Answered,
    /// "Put into a deck" with nothing accepted.
    #[error("No accepted suggestion waits for a deck.")]
    NothingAccepted,
    #[error(transparent)]
    Deck(#[from] DeckConflict),
    #[error(transparent)]
    Data(#[from] DataError),
}

/// What the host does with a suggestion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Takes it, as sent or as edited (`sent`).
    Accept(Sent),
    Reject,
    /// Puts its ruling to the room's vote.
    Vote,
}

/// A suggestion as stored.
#[derive(Debug, Serialize, Deserialize)]
struct SuggestionItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    #[serde(flatten)]
    suggestion: Suggestion,
    ttl: i64,
}

/// A new suggestion's id: a ULID, later than every one this instance made before (two sent in
/// one millisecond list in the order they were sent).
fn next_id() -> String {
    use std::sync::{LazyLock, Mutex};
    static IDS: LazyLock<Mutex<ulid::Generator>> =
        LazyLock::new(|| Mutex::new(ulid::Generator::new()));
    let next = IDS.lock().ok().and_then(|mut ids| ids.generate().ok());
    // Not `unwrap_or_default`: a default ULID is the nil one, the same for everyone.
    match next {
        Some(id) => id.to_string(),
        None => ulid::Ulid::new().to_string(),
    }
}

/// A box's suggestions live as long as an idle room.
const KEPT_SECS: i64 = crate::rooms::items::ROOM_IDLE_SECS;

impl Suggestions<'_> {
    /// `by` suggests `sent` in room `code` (whose id is `room`): only while the box is open,
    /// and only a player of the room. A retry whose first try was written is told so.
    #[tracing::instrument(skip(self, sent), err(level = "debug"))]
    pub async fn send(
        self,
        code: &RoomCode,
        room: &RoomId,
        by: &UserId,
        sent: Sent,
    ) -> Result<Suggestion, SuggestConflict> {
        let sent = sent
            .tidy(crate::identity::name_filter::refuses)
            .map_err(SuggestConflict::Problem)?;
        let now = epoch_millis();
        let suggestion = Suggestion {
            id: next_id(),
            by: by.clone(),
            sent,
            status: Status::New,
            votes: Default::default(),
            deck: None,
            at_ms: now,
        };
        let key = keys::suggestion(room, &suggestion.id);
        let stored = SuggestionItem {
            pk: key.pk,
            sk: key.sk,
            suggestion: suggestion.clone(),
            ttl: now / 1000 + KEPT_SECS,
        };
        let actions = vec![
            self.put_new(serde_dynamo::to_item(&stored).map_err(DataError::from)?)?,
            self.rooms().suggest_moved(code, None, false)?,
            self.rooms().player_check(code, by)?,
        ];
        match self.transact(actions).await {
            Ok(()) => Ok(suggestion),
            Err(DataError::Conflict(conflict)) => match conflict.failed_condition() {
                // Its id is new to this call: only this call's own first try wrote it.
                Some(0) => Ok(suggestion),
                Some(1) => Err(SuggestConflict::Closed),
                Some(2) => Err(SuggestConflict::NotPlayer),
                _ => Err(DataError::Conflict(conflict).into()),
            },
            Err(err) => Err(err.into()),
        }
    }

    /// Room `room`'s box, oldest first: one consistent Query.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn list(self, room: &RoomId) -> Result<Vec<Suggestion>, DataError> {
        let items = self
            .query_all(
                self.client
                    .query()
                    .expressions(Expr::query(KeyCond::partition(
                        keys::PK,
                        s(keys::suggestions(room)),
                    )))
                    .consistent_read(true),
            )
            .await?;
        items
            .into_iter()
            .map(|item| Ok(serde_dynamo::from_item::<_, SuggestionItem>(item)?.suggestion))
            .collect()
    }

    /// One suggestion, read consistently.
    async fn one(self, room: &RoomId, id: &str) -> Result<Option<Suggestion>, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::suggestion(room, id))))
                    .consistent_read(true),
            )
            .await?;
        item.map(|item| Ok(serde_dynamo::from_item::<_, SuggestionItem>(item)?.suggestion))
            .transpose()
    }

    /// The host `host` of room `code` answers suggestion `id`: only one still open (a vote
    /// only of one not put to it yet), and only while the box is open.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn answer(
        self,
        code: &RoomCode,
        room: &RoomId,
        host: &UserId,
        id: &str,
        answer: Answer,
    ) -> Result<(), SuggestConflict> {
        let (status, change) = match &answer {
            Answer::Accept(sent) => {
                let sent = sent
                    .clone()
                    .tidy(crate::identity::name_filter::refuses)
                    .map_err(SuggestConflict::Problem)?;
                let change = Update::new()
                    .set(attr("name"), s(sent.name))
                    .set(attr("flies"), AttributeValue::Bool(sent.flies));
                let change = match sent.note {
                    Some(note) => change.set(attr("note"), s(note)),
                    None => change.remove(attr("note")),
                };
                (Status::Accepted, change)
            }
            Answer::Reject => (Status::Rejected, Update::new()),
            Answer::Vote => (Status::Vote, Update::new()),
        };
        let open = match answer {
            Answer::Vote => Cond::eq(attr("status"), s(Status::New.slug())),
            _ => Cond::eq(attr("status"), s(Status::New.slug()))
                .or(Cond::eq(attr("status"), s(Status::Vote.slug()))),
        };
        let suggestion = update(keys::suggestion(room, id)).expressions(
            Expr::update(change.set(attr("status"), s(status.slug())))
                .when(Cond::exists(attr(keys::PK)).and(open)),
        );
        let actions = vec![
            self.update_action(suggestion)?,
            self.rooms()
                .suggest_moved(code, Some(host), answer == Answer::Vote)?,
        ];
        match self.transact(actions).await {
            Ok(()) => Ok(()),
            Err(DataError::Conflict(conflict)) => match conflict.failed_condition() {
                // Answered already: by this very answer, when its first try was written.
                Some(0) => match self.one(room, id).await? {
                    Some(now) if now.status == status => Ok(()),
                    _ => Err(SuggestConflict::Answered),
                },
                Some(1) => Err(self.why_refused(code, host).await?),
                _ => Err(DataError::Conflict(conflict).into()),
            },
            Err(err) => Err(err.into()),
        }
    }

    /// Why the room refused `user`'s write as host: the box closed, or they do not host.
    async fn why_refused(
        self,
        code: &RoomCode,
        user: &UserId,
    ) -> Result<SuggestConflict, DataError> {
        Ok(match self.rooms().lobby(code).await? {
            Some(lobby) if &lobby.host_id != user => SuggestConflict::NotHost,
            _ => SuggestConflict::Closed,
        })
    }

    /// Player `voter` votes `flies` on suggestion `id`'s ruling, while it is put to the vote:
    /// one vote a player (a second replaces the first).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn vote(
        self,
        code: &RoomCode,
        room: &RoomId,
        voter: &UserId,
        id: &str,
        flies: bool,
    ) -> Result<(), SuggestConflict> {
        let vote = update(keys::suggestion(room, id)).expressions(
            Expr::update(Update::new().set(
                attr("votes").key(voter.as_str()),
                AttributeValue::Bool(flies),
            ))
            .when(Cond::eq(attr("status"), s(Status::Vote.slug()))),
        );
        let actions = vec![
            self.update_action(vote)?,
            self.rooms().suggest_moved(code, None, false)?,
            self.rooms().player_check(code, voter)?,
        ];
        match self.transact(actions).await {
            Ok(()) => Ok(()),
            Err(DataError::Conflict(conflict)) => match conflict.failed_condition() {
                Some(0) => Err(SuggestConflict::Answered),
                Some(1) => Err(SuggestConflict::Closed),
                Some(2) => Err(SuggestConflict::NotPlayer),
                _ => Err(DataError::Conflict(conflict).into()),
            },
            Err(err) => Err(err.into()),
        }
    }

    /// The host puts the accepted suggestions (the oldest [`PUT_AT_ONCE`]) into their deck
    /// `deck`, after its things, in the deck's own versioned save; each is marked in the same
    /// transaction, so none goes in twice. Returns how many went in.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn put_into(
        self,
        code: &RoomCode,
        host: &UserId,
        deck: &DeckCode,
    ) -> Result<usize, SuggestConflict> {
        let token = ulid::Ulid::new().to_string();
        for _ in 0..4 {
            let lobby = self.rooms().lobby(code).await?;
            let lobby = lobby.ok_or(SuggestConflict::Closed)?;
            if &lobby.host_id != host {
                return Err(SuggestConflict::NotHost);
            }
            // The deck before the box: a put that lands between the two reads then shows in the
            // box too (nothing left accepted) or fails this save's version, never a deck that
            // already holds what the box still calls accepted.
            let mut current = self
                .decks()
                .deck(deck, true)
                .await?
                .ok_or(DeckConflict::NotFound)?;
            if &current.author != host {
                return Err(DeckConflict::NotYours.into());
            }
            let accepted = self.accepted(&lobby.id).await?;
            if accepted.is_empty() {
                return Err(SuggestConflict::NothingAccepted);
            }
            let lines: Vec<String> = accepted.iter().map(|a| a.sent.line()).collect();
            let before = current.draft.things.len();
            let added = parse_lines(
                &lines.join("\n"),
                current.draft.lang,
                crate::decks::emoji_ok,
            )
            .map_err(|problem| DeckConflict::Problem(after(problem, before)))?;
            current.draft.things.extend(added);
            // The box need not be open: a host may close it and then keep what was accepted.
            let mut extra = Vec::with_capacity(accepted.len());
            for one in &accepted {
                let saved = update(keys::suggestion(&lobby.id, &one.id)).expressions(
                    Expr::update(
                        Update::new()
                            .set(attr("status"), s(Status::Saved.slug()))
                            .set(attr("deck"), s(current.draft.title.clone())),
                    )
                    .when(Cond::eq(attr("status"), s(Status::Accepted.slug()))),
                );
                extra.push(self.update_action(saved)?);
            }
            let (seen, draft) = (current.version, current.draft);
            match self
                .decks()
                .save_with(deck, host, seen, draft, &token, extra)
                .await
            {
                Ok(_) => return Ok(accepted.len()),
                // Refused by this box's marks or by a save meanwhile: read it all again.
                Err(DeckConflict::Stale { .. }) => continue,
                Err(err) => return Err(err.into()),
            }
        }
        Err(DataError::Unavailable("the box kept changing; try again".into()).into())
    }

    /// The accepted suggestions of room `room`'s box waiting for a deck, oldest first
    /// ([`PUT_AT_ONCE`] at most).
    pub async fn accepted(self, room: &RoomId) -> Result<Vec<Suggestion>, DataError> {
        let mut accepted: Vec<Suggestion> = (self.list(room).await?)
            .into_iter()
            .filter(|s| s.status == Status::Accepted)
            .collect();
        accepted.truncate(PUT_AT_ONCE);
        Ok(accepted)
    }
}

/// A problem of the added lines, numbered as the deck's things are (after its `before`).
fn after(problem: DeckProblem, before: usize) -> DeckProblem {
    use DeckProblem::*;
    match problem {
        NameMissing { line } => NameMissing {
            line: line + before,
        },
        NameTooLong { line } => NameTooLong {
            line: line + before,
        },
        NoteTooLong { line } => NoteTooLong {
            line: line + before,
        },
        Duplicate { line, first } => Duplicate {
            line: line + before,
            first: first + before,
        },
        Emoji { line } => Emoji {
            line: line + before,
        },
        Refused { line } => Refused {
            line: line + before,
        },
        Unreadable { line } => Unreadable {
            line: line + before,
        },
        other => other,
    }
}
