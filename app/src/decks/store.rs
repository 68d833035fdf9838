//! Decks in the table.
//!
//! | pattern | how | round trips · units |
//! |---|---|---|
//! | make a deck | TransactWriteItems: Put `DECK#<code>` / `META` (with `GSI1PK = DECKS#BY#<author>`) and `THINGS`, each only if new (a code in use: another code), and its gallery listing (`PLAYS`, `TITLE`: `gallery`) | 1 · 2 × (3 + things' KB) WCU |
//! | save a deck | TransactWriteItems: Update `META` (`version + 1`) if the author's and still at the version the editor read, Put `THINGS`, and its gallery listing; refused: GetItem `META` (consistent) says why, or finds the save was this one (an answer lost) | 1 · 2 × (3 + things' KB) WCU; refused +1 · 1 RCU |
//! | a deck with its things | Query `DECK#<code>` (head and things) | 1 · things' KB / 4 RCU (/ 8 eventually consistent) |
//! | a deck's head | GetItem `META` | 1 · 0.5 RCU |
//! | a deck's things, to start a match | GetItem `THINGS` (eventually consistent) | 1 · ⌈things' KB / 4⌉ / 2 RCU |
//! | an author's decks, newest first | Query GSI1 `DECKS#BY#<author>` (heads only) | 1 a page of 50 · under 1 RCU |
//! | keep a refused form (an hour) | PutItem `DECKFORM#<author>` / `NEW` or `<code>` | 1 · the form's KB WCU |
//! | the form kept, when a page comes back with its refusal | GetItem (consistent) | 1 · the form's KB / 4 RCU |
//! | count plays, the gallery, search | see `gallery` | |
//! | delete a deck | TransactWriteItems: Delete `META` if the author's, Delete `THINGS` and `PLAYS` | 1 · 2 × (3 WCU + things' KB) |

use aws_sdk_dynamodb::types::{Put, TransactWriteItem};
use serde::{Deserialize, Serialize};

use crate::decks::model::{
    Deck, DeckDraft, DeckForm, DeckHead, DeckLang, DeckPlays, DeckProblem, DeckThing, Visibility,
    MAX_THINGS_BYTES,
};
use crate::ids::{DeckCode, UserId};
use crate::store::expr::{attr, Cond, Expr, Expressions, Operand, Update};
use crate::store::keys::{self, Keyed};
use crate::store::tx::{internal, n, s, update};
use crate::store::{epoch_millis, epoch_seconds, key_map, Conflict, DataError, Item};

crate::store::handle!(
    /// The access patterns of decks.
    Decks,
    decks
);

mod gallery;
mod moderation;
pub use gallery::GALLERY_PAGE;

/// Why a deck's write was refused.
#[derive(Debug, thiserror::Error)]
pub enum DeckConflict {
    #[error("The deck breaks a rule: {0:?}")]
    Problem(DeckProblem),
    #[error("There is no such deck.")]
    NotFound,
    #[error("That deck is someone else's.")]
    NotYours,
    /// Someone saved the deck since the editor read it (at `current` now): nothing was written.
    #[error("The deck was saved by someone else meanwhile.")]
    Stale { current: u64 },
    /// A deck its reports hid may not be made public until an operator restores it.
    #[error("The deck is out of the gallery until its reports are reviewed.")]
    UnderReview,
    /// The author has [`crate::decks::moderation::HIDES_TO_BAR`] decks hidden: no public deck.
    #[error("The author may not publish decks for now.")]
    Barred,
    #[error(transparent)]
    Data(#[from] DataError),
}

/// A deck's head as stored.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct HeadItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    #[serde(rename = "GSI1PK")]
    gsi1pk: String,
    #[serde(rename = "GSI1SK")]
    gsi1sk: String,
    /// The gallery's newest, while public: `DECKS#NEW#<lang>`.
    #[serde(rename = "GSI2PK", default, skip_serializing_if = "Option::is_none")]
    gsi2pk: Option<String>,
    #[serde(rename = "GSI2SK", default)]
    gsi2sk: String,
    code: DeckCode,
    author: UserId,
    title: String,
    description: String,
    lang: DeckLang,
    visibility: Visibility,
    count: u32,
    version: u64,
    created_ms: i64,
    updated_ms: i64,
    /// The token of the save that wrote this version: a save whose answer was lost finds its
    /// own token here and knows it was written.
    save: String,
    /// Distinct players who reported it (see `moderation`).
    #[serde(default)]
    reports: u32,
    /// When its reports hid it, until an operator restores it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hidden_ms: Option<i64>,
}

/// A deck's things as stored.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct ThingsItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    /// The head's version these things were saved with.
    version: u64,
    things: Vec<DeckThing>,
}

impl From<HeadItem> for DeckHead {
    fn from(head: HeadItem) -> Self {
        DeckHead {
            code: head.code,
            author: head.author,
            title: head.title,
            lang: head.lang,
            visibility: head.visibility,
            count: head.count,
            version: head.version,
            updated_ms: head.updated_ms,
        }
    }
}

/// The draft as every deck is kept: title, description and texts without spaces at their ends.
fn tidy(mut draft: DeckDraft) -> Result<DeckDraft, DeckConflict> {
    let trim = |text: &mut String| *text = text.trim().to_owned();
    trim(&mut draft.title);
    trim(&mut draft.description);
    for thing in &mut draft.things {
        for text in [
            &mut thing.en,
            &mut thing.hi,
            &mut thing.hi_latin,
            &mut thing.note,
        ] {
            if let Some(t) = text.as_mut() {
                trim(t);
            }
            if text.as_deref() == Some("") {
                *text = None;
            }
        }
    }
    draft
        .check(
            crate::decks::emoji_ok,
            crate::identity::name_filter::refuses,
        )
        .map_err(DeckConflict::Problem)?;
    Ok(draft)
}

fn item<T: Serialize>(value: &T) -> Result<Item, DataError> {
    Ok(serde_dynamo::to_item(value)?)
}

impl Decks<'_> {
    /// Makes a deck of `draft` for `author` under a new code (drawn again if in use).
    #[tracing::instrument(skip(self, draft), err(level = "debug"))]
    pub async fn create(self, author: &UserId, draft: DeckDraft) -> Result<Deck, DeckConflict> {
        let draft = tidy(draft)?;
        let now = epoch_millis();
        for _ in 0..4 {
            let mut bytes = [0u8; crate::ids::DECK_CODE_LEN];
            getrandom::fill(&mut bytes).map_err(|e| DataError::Internal(Box::new(e)))?;
            let code = DeckCode::from_random(bytes);
            let deck = Deck {
                code: code.clone(),
                author: author.clone(),
                plays: 0,
                hidden: false,
                version: 1,
                created_ms: now,
                updated_ms: now,
                draft: draft.clone(),
            };
            let mut actions = vec![
                self.put_new(item(&head_item(&deck, ulid::Ulid::new().to_string()))?)?,
                self.put_new(item(&things_item(&deck))?)?,
            ];
            actions.extend(self.listing_actions(&code, &deck.draft)?);
            // A public deck: its author may publish (the check is the last action).
            let public = deck.draft.visibility == Visibility::Public;
            if public {
                actions.push(self.may_publish_action(author)?);
            }
            let barred = public.then_some(actions.len() - 1);
            match self.transact(actions).await {
                Ok(()) => return Ok(deck),
                Err(DataError::Conflict(conflict))
                    if barred.is_some() && conflict.failed_condition() == barred =>
                {
                    return Err(DeckConflict::Barred)
                }
                Err(DataError::Conflict(Conflict::TransactionCanceled { .. })) => continue,
                Err(err) => return Err(err.into()),
            }
        }
        Err(DataError::Internal("no free deck code in four draws".into()).into())
    }

    /// Saves `draft` over deck `code` for `editor`, who read it at version `seen`: written only
    /// if it is theirs and nobody saved it since (else [`DeckConflict::Stale`], nothing
    /// written). `token` names this save: a retry after an answer lost on the way back is told
    /// it was written.
    pub async fn save(
        self,
        code: &DeckCode,
        editor: &UserId,
        seen: u64,
        draft: DeckDraft,
        token: &str,
    ) -> Result<u64, DeckConflict> {
        self.save_with(code, editor, seen, draft, token, Vec::new())
            .await
    }

    /// [`Decks::save`], with `extra` actions of another feature's in the same transaction (a
    /// suggestion box marks what it put in the deck): one of them refused is
    /// [`DeckConflict::Stale`] at the version read (`current == seen`), nothing written.
    #[tracing::instrument(skip(self, draft, token, extra), err(level = "debug"))]
    pub async fn save_with(
        self,
        code: &DeckCode,
        editor: &UserId,
        seen: u64,
        draft: DeckDraft,
        token: &str,
        extra: Vec<TransactWriteItem>,
    ) -> Result<u64, DeckConflict> {
        let draft = tidy(draft)?;
        let now = epoch_millis();
        let listed = Update::new();
        let listed = match draft.visibility {
            Visibility::Public => listed.set(
                attr(keys::GSI2PK),
                s(keys::gallery_new(draft.lang.as_str())),
            ),
            _ => listed.remove(attr(keys::GSI2PK)),
        };
        let listing = self.listing_actions(code, &draft)?;
        let public = draft.visibility == Visibility::Public;
        // A public save: not of a deck its reports hid.
        let shown = match public {
            true => Cond::not_exists(attr("hidden_ms")),
            false => Cond::exists(attr(keys::PK)),
        };
        let head = update(keys::deck_head(code)).expressions(
            Expr::update(
                listed
                    .set(attr("title"), s(draft.title.clone()))
                    .set(attr("description"), s(draft.description.clone()))
                    .set(attr("lang"), s(draft.lang.as_str()))
                    .set(attr("visibility"), s(draft.visibility.as_str()))
                    .set(attr("count"), n(draft.things.len()))
                    .set(attr("updated_ms"), n(now))
                    .set(attr("save"), s(token))
                    .set(attr("version"), Operand::Plus(attr("version"), n(1))),
            )
            .when(
                Cond::eq(attr("author"), s(editor.as_str()))
                    .and(Cond::eq(attr("version"), n(seen)))
                    .and(shown),
            ),
        );
        let things = ThingsItem {
            pk: keys::deck_partition(code),
            sk: keys::deck_things(code).sk,
            version: seen + 1,
            things: draft.things,
        };
        let put = Put::builder()
            .table_name(self.table_name())
            .set_item(Some(item(&things)?))
            .build()
            .map_err(internal)?;
        let mut actions = vec![
            self.update_action(head)?,
            TransactWriteItem::builder().put(put).build(),
        ];
        actions.extend(listing);
        actions.extend(extra);
        if public {
            actions.push(self.may_publish_action(editor)?);
        }
        let barred = public.then_some(actions.len() - 1);
        match self.transact(actions).await {
            Ok(()) => Ok(seen + 1),
            Err(DataError::Conflict(conflict @ Conflict::TransactionCanceled { .. })) => {
                let Some(head) = self.head_item(code, true).await? else {
                    return Err(DeckConflict::NotFound);
                };
                if &head.author != editor {
                    Err(DeckConflict::NotYours)
                } else if head.save == token && head.version == seen + 1 {
                    Ok(head.version)
                } else if barred.is_some() && conflict.failed_condition() == barred {
                    Err(DeckConflict::Barred)
                } else if public && head.version == seen && head.hidden_ms.is_some() {
                    Err(DeckConflict::UnderReview)
                } else {
                    Err(DeckConflict::Stale {
                        current: head.version,
                    })
                }
            }
            Err(err) => Err(err.into()),
        }
    }

    /// Deck `code` with its things (one Query of its partition), `None` if there is none.
    /// `consistent` for an editor, who saves against the version read.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn deck(self, code: &DeckCode, consistent: bool) -> Result<Option<Deck>, DataError> {
        let items = self
            .query_all(
                self.query_partition(Keyed::Table, keys::deck_partition(code))
                    .consistent_read(consistent),
            )
            .await?;
        let (mut head, mut things, mut plays) = (None, None, DeckPlays::default());
        for item in items {
            let sk = item.get(keys::SK).and_then(|v| v.as_s().ok());
            if sk.is_some_and(|sk| sk == keys::DECK_HEAD) {
                head = Some(serde_dynamo::from_item::<_, HeadItem>(item)?);
            } else if sk.is_some_and(|sk| sk == keys::DECK_THINGS) {
                things = Some(serde_dynamo::from_item::<_, ThingsItem>(item)?);
            } else if sk.is_some_and(|sk| sk == keys::DECK_PLAYS) {
                plays = serde_dynamo::from_item(item)?;
            }
        }
        let (Some(head), Some(things)) = (head, things) else {
            return Ok(None);
        };
        Ok(Some(Deck {
            plays: plays.plays,
            hidden: head.hidden_ms.is_some(),
            code: head.code,
            author: head.author,
            version: head.version,
            created_ms: head.created_ms,
            updated_ms: head.updated_ms,
            draft: DeckDraft {
                title: head.title,
                description: head.description,
                lang: head.lang,
                visibility: head.visibility,
                things: things.things,
            },
        }))
    }

    /// Deck `code`'s things alone, as a match draws them (one GetItem, eventually
    /// consistent: a save a moment ago may not be seen yet), `None` if there is no deck.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn things(self, code: &DeckCode) -> Result<Option<Vec<DeckThing>>, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::deck_things(code)))),
            )
            .await?;
        Ok(item
            .map(serde_dynamo::from_item::<_, ThingsItem>)
            .transpose()?
            .map(|kept| kept.things))
    }

    /// Deck `code`'s head alone (one GetItem), `None` if there is none.
    pub async fn head(self, code: &DeckCode) -> Result<Option<DeckHead>, DataError> {
        Ok(self.head_item(code, false).await?.map(DeckHead::from))
    }

    async fn head_item(
        self,
        code: &DeckCode,
        consistent: bool,
    ) -> Result<Option<HeadItem>, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::deck_head(code))))
                    .consistent_read(consistent),
            )
            .await?;
        Ok(item.map(serde_dynamo::from_item).transpose()?)
    }

    /// `author`'s decks, newest first (one Query of GSI1: the heads, never the things).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn by_author(self, author: &UserId) -> Result<Vec<DeckHead>, DataError> {
        let (items, _) = self
            .query_page(
                self.query_partition(Keyed::Gsi1, keys::decks_by(author))
                    .scan_index_forward(false)
                    .limit(50),
                None,
            )
            .await?;
        items
            .into_iter()
            .map(|item| Ok(serde_dynamo::from_item::<_, HeadItem>(item)?.into()))
            .collect()
    }

    /// Deletes deck `code` if it is `author`'s (its head and its things, in one transaction).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn delete(self, code: &DeckCode, author: &UserId) -> Result<(), DeckConflict> {
        let actions = vec![
            self.delete_action_when(
                keys::deck_head(code),
                Cond::eq(attr("author"), s(author.as_str())),
            )?,
            self.delete_action(keys::deck_things(code))?,
            self.delete_action(keys::deck_plays(code))?,
            self.delete_action(keys::deck_title(code))?,
        ];
        match self.transact(actions).await {
            Ok(()) => Ok(()),
            Err(DataError::Conflict(Conflict::TransactionCanceled { .. })) => {
                match self.head_item(code, true).await? {
                    None => Err(DeckConflict::NotFound),
                    Some(_) => Err(DeckConflict::NotYours),
                }
            }
            Err(err) => Err(err.into()),
        }
    }
}

/// A refused form as kept.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct FormItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    #[serde(flatten)]
    form: DeckForm,
    ttl: i64,
}

/// How long a refused form is kept, in seconds.
const FORM_KEPT_SECS: i64 = 3600;

impl Decks<'_> {
    /// Keeps `form`, which `author` sent for a new deck or deck `code` and was refused, for an
    /// hour: the page it comes back to fills it in again. Lines past what a deck may hold are
    /// not kept (the refusal says to shorten them).
    pub async fn keep_form(
        self,
        author: &UserId,
        code: Option<&DeckCode>,
        form: &DeckForm,
    ) -> Result<(), DataError> {
        if form.lines.len() + form.title.len() + form.description.len() > MAX_THINGS_BYTES {
            return Ok(());
        }
        let key = keys::deck_form(author, code);
        let kept = FormItem {
            pk: key.pk,
            sk: key.sk,
            form: form.clone(),
            ttl: epoch_seconds() + FORM_KEPT_SECS,
        };
        self.put(self.client.put_item().set_item(Some(item(&kept)?)))
            .await
    }

    /// The form `author` last sent for a new deck or deck `code` and was refused, if kept.
    pub async fn kept_form(
        self,
        author: &UserId,
        code: Option<&DeckCode>,
    ) -> Result<Option<DeckForm>, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::deck_form(author, code))))
                    .consistent_read(true),
            )
            .await?;
        Ok(item
            .map(serde_dynamo::from_item::<_, FormItem>)
            .transpose()?
            .map(|kept| kept.form))
    }
}

fn head_item(deck: &Deck, save: String) -> HeadItem {
    let key = keys::deck_head(&deck.code);
    HeadItem {
        pk: key.pk,
        sk: key.sk,
        gsi1pk: keys::decks_by(&deck.author),
        gsi1sk: keys::deck_by_sort(deck.created_ms, &deck.code),
        gsi2pk: (deck.draft.visibility == Visibility::Public)
            .then(|| keys::gallery_new(deck.draft.lang.as_str())),
        gsi2sk: keys::deck_by_sort(deck.created_ms, &deck.code),
        code: deck.code.clone(),
        author: deck.author.clone(),
        title: deck.draft.title.clone(),
        description: deck.draft.description.clone(),
        lang: deck.draft.lang,
        visibility: deck.draft.visibility,
        count: deck.draft.things.len() as u32,
        version: deck.version,
        created_ms: deck.created_ms,
        updated_ms: deck.updated_ms,
        save,
        reports: 0,
        hidden_ms: None,
    }
}

fn things_item(deck: &Deck) -> ThingsItem {
    let key = keys::deck_things(&deck.code);
    ThingsItem {
        pk: key.pk,
        sk: key.sk,
        version: deck.version,
        things: deck.draft.things.clone(),
    }
}
