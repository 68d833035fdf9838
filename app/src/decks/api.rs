//! Decks over HTTP: make one, save it against the version read, delete it, read it. The author
//! is always the session's player, never an argument; a private deck is opened by its author
//! alone (anyone else is told there is no such deck, as for a code that names none).

// A save is its form's fields, each an argument of the server function (read from the post).
#![allow(clippy::too_many_arguments)]

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::decks::model::{Deck, DeckForm, DeckHead, DeckLang, Visibility};
use crate::error::AppError;
use crate::ids::DeckCode;
#[cfg(feature = "ssr")]
use ssr::*;

/// Decks one player may make or save in an hour.
pub const DECK_WRITES_PER_HOUR: u32 = 30;

/// A deck as its page reads it: the deck, its author's name, and whether the viewer is its
/// author (who may edit and delete it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckView {
    pub deck: Deck,
    /// Its author's name as others may see it (a hidden name as its tag).
    pub author_name: String,
    pub mine: bool,
    /// Whether the viewer is signed in (a player may report a deck that is not theirs).
    #[serde(default)]
    pub signed_in: bool,
}

/// Makes a deck of the session's player from its `lines` (one thing a line: see
/// `decks::parse_lines`). A plain form post goes on to the deck's page; a refused one comes
/// back to the form with everything typed in it (kept an hour: `Decks::keep_form`).
#[server(endpoint = "decks/create")]
pub async fn create_deck(
    title: String,
    description: Option<String>,
    lang: DeckLang,
    visibility: Visibility,
    lines: String,
) -> Result<DeckCode, AppError> {
    crate::error::answer("create_deck", async move {
        let db = expect_context::<Db>();
        let me = writer(&db).await?;
        let form = DeckForm::sent(title, description, lang, visibility, lines);
        let made = match draft(&form) {
            Ok(draft) => db
                .decks()
                .create(&me.id, draft)
                .await
                .map_err(AppError::from),
            Err(err) => Err(err),
        };
        let deck = kept(&db, &me.id, None, &form, made).await?;
        crate::ui::forms::redirect_page(&deck_path(&deck.code));
        Ok(deck.code)
    })
    .await
}

/// Saves deck `code` as the session's player, who read it at `version`: refused if it is not
/// theirs, or if someone saved it since (nothing written: the editor comes back with what was
/// typed, at the version now). `token` names this save (the editor draws one for each page): a
/// save sent again after its answer was lost is told it was written.
#[server(endpoint = "decks/save")]
pub async fn save_deck(
    code: DeckCode,
    version: u64,
    token: String,
    title: String,
    description: Option<String>,
    lang: DeckLang,
    visibility: Visibility,
    lines: String,
) -> Result<u64, AppError> {
    crate::error::answer("save_deck", async move {
        let db = expect_context::<Db>();
        let me = writer(&db).await?;
        let form = DeckForm::sent(title, description, lang, visibility, lines);
        let saved = match draft(&form) {
            Ok(draft) => (db
                .decks()
                .save(&code, &me.id, version, draft, token.trim())
                .await)
                .map_err(AppError::from),
            Err(err) => Err(err),
        };
        let saved = kept(&db, &me.id, Some(&code), &form, saved).await?;
        crate::ui::forms::redirect_page(&deck_path(&code));
        Ok(saved)
    })
    .await
}

/// "Make a copy": a new private deck of the session's player with deck `code`'s things (any
/// deck they may open), titled as a copy; goes on to its editor.
#[server(endpoint = "decks/copy")]
pub async fn copy_deck(code: DeckCode) -> Result<DeckCode, AppError> {
    crate::error::answer("copy_deck", async move {
        let db = expect_context::<Db>();
        let me = writer(&db).await?;
        let deck = db.decks().deck(&code, false).await?;
        let deck = deck
            .filter(|deck| deck.draft.visibility != Visibility::Private || deck.author == me.id)
            .ok_or(DeckConflict::NotFound)?;
        let mut draft = deck.draft;
        let title = td_string!(
            crate::lang::locale(),
            decks.pages.copy_of,
            title = draft.title.as_str()
        );
        draft.title = title
            .to_string()
            .chars()
            .take(crate::decks::TITLE_MAX)
            .collect();
        draft.visibility = Visibility::Private;
        let copy = db.decks().create(&me.id, draft).await?;
        crate::ui::forms::redirect_page(&format!("{}/edit", deck_path(&copy.code)));
        Ok(copy.code)
    })
    .await
}

/// Deletes deck `code`, the session player's. A plain form post goes on to their decks.
#[server(endpoint = "decks/delete")]
pub async fn delete_deck(code: DeckCode) -> Result<(), AppError> {
    crate::error::answer("delete_deck", async move {
        let db = expect_context::<Db>();
        let me = session::require_player(&db).await?;
        db.decks().delete(&code, &me.id).await?;
        crate::ui::forms::redirect_page("/decks");
        Ok(())
    })
    .await
}

/// Deck `code` with its things, for its page: a private deck for its author alone.
#[server(endpoint = "decks/read")]
pub async fn read_deck(code: DeckCode) -> Result<DeckView, AppError> {
    crate::error::answer("read_deck", async move {
        let db = expect_context::<Db>();
        let (deck, me) = tokio::try_join!(
            async { db.decks().deck(&code, false).await.map_err(AppError::from) },
            session::current_player(&db)
        )?;
        let mine = |deck: &Deck| me.as_ref().is_some_and(|me| me.id == deck.author);
        let deck = deck
            .filter(|deck| deck.draft.visibility != Visibility::Private || mine(deck))
            .ok_or(DeckConflict::NotFound)?;
        let author = db.accounts().profile(&deck.author).await?;
        let author_name = author.map_or_else(String::new, |p| {
            crate::identity::hidden::shown(&p.id, &p.display_name).to_string()
        });
        Ok(DeckView {
            mine: mine(&deck),
            signed_in: me.is_some(),
            author_name,
            deck,
        })
    })
    .await
}

/// What a deck's form starts from: a deck as its author reads it, else an empty form; or the
/// form as it was sent, kept by its refusal, in place of either.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckFormData {
    pub code: Option<DeckCode>,
    /// The version a save is sent against: the deck's as read now.
    pub version: u64,
    /// The deck's title as saved (the editor's heading).
    pub saved_title: String,
    pub form: DeckForm,
}

/// A deck's form for the session's player: deck `code`'s (theirs alone) or a new one's, and
/// the form they sent when the page came back with its refusal (`refused`).
#[server(endpoint = "decks/form")]
pub async fn read_deck_form(
    code: Option<DeckCode>,
    refused: bool,
) -> Result<DeckFormData, AppError> {
    crate::error::answer("read_deck_form", async move {
        let db = expect_context::<Db>();
        let me = session::require_player(&db).await?;
        let (deck, kept) = tokio::try_join!(
            async {
                match &code {
                    Some(code) => db.decks().deck(code, true).await.map_err(AppError::from),
                    None => Ok(None),
                }
            },
            async {
                match refused {
                    true => {
                        (db.decks().kept_form(&me.id, code.as_ref()).await).map_err(AppError::from)
                    }
                    false => Ok(None),
                }
            }
        )?;
        form_data(code, deck, kept, &me.id)
    })
    .await
}

/// The session player's decks, newest first (none for a visitor).
#[server(endpoint = "decks/mine")]
pub async fn my_decks() -> Result<Vec<DeckHead>, AppError> {
    crate::error::answer("my_decks", async move {
        let db = expect_context::<Db>();
        match session::current_player(&db).await? {
            Some(me) => Ok(db.decks().by_author(&me.id).await?),
            None => Ok(Vec::new()),
        }
    })
    .await
}

/// A deck's page: `/d/<CODE>`.
pub fn deck_path(code: &DeckCode) -> String {
    format!("/d/{code}")
}

#[cfg(feature = "ssr")]
mod ssr {
    use super::DeckFormData;
    use crate::decks::model::{Deck, DeckDraft, DeckForm, DeckLang, DeckProblem, Visibility};
    pub use crate::decks::store::DeckConflict;
    use crate::decks::{DESCRIPTION_MAX, MAX_THINGS, MIN_THINGS, NAME_MAX, NOTE_MAX, TITLE_MAX};
    use crate::error::AppError;
    pub use crate::i18n::td_string;
    use crate::identity::model::Profile;
    pub use crate::identity::session;
    use crate::ids::{DeckCode, UserId};
    use crate::store::keys::Limited;
    pub use crate::store::Db;

    /// The session's player, within their hourly decks' writes.
    pub async fn writer(db: &Db) -> Result<Profile, AppError> {
        let me = session::require_player(db).await?;
        if !db
            .hit_rate_limit(Limited::Decks(&me.id), 3600, super::DECK_WRITES_PER_HOUR)
            .await?
        {
            return Err(AppError::RateLimited);
        }
        Ok(me)
    }

    /// The draft a form sent: its lines read in the deck's language.
    pub fn draft(form: &DeckForm) -> Result<DeckDraft, AppError> {
        Ok(form
            .draft(crate::decks::emoji_ok)
            .map_err(DeckConflict::Problem)?)
    }

    /// `result`, after keeping `form` when it was refused for what it says or for a save
    /// meanwhile (what was typed comes back with the form; a failure to keep it is logged, and
    /// the refusal still answered).
    pub async fn kept<T>(
        db: &Db,
        author: &UserId,
        code: Option<&DeckCode>,
        form: &DeckForm,
        result: Result<T, AppError>,
    ) -> Result<T, AppError> {
        if matches!(result, Err(AppError::BadRequest(_) | AppError::Conflict(_))) {
            if let Err(err) = db.decks().keep_form(author, code, form).await {
                tracing::warn!(error = %err, "a refused deck form was not kept");
            }
        }
        result
    }

    /// The form's data for `author` from deck `code` as read and the form `kept`.
    pub fn form_data(
        code: Option<DeckCode>,
        deck: Option<Deck>,
        kept: Option<DeckForm>,
        author: &UserId,
    ) -> Result<DeckFormData, AppError> {
        let (version, saved_title, form) = match (&code, deck) {
            (None, _) => (0, String::new(), None),
            (Some(_), Some(deck)) if &deck.author == author => (
                deck.version,
                deck.draft.title.clone(),
                Some(DeckForm::of(&deck.draft)),
            ),
            (Some(_), Some(deck)) if deck.draft.visibility != Visibility::Private => {
                return Err(DeckConflict::NotYours.into())
            }
            (Some(_), _) => return Err(DeckConflict::NotFound.into()),
        };
        let empty = || DeckForm {
            title: String::new(),
            description: String::new(),
            lang: DeckLang::En,
            visibility: Visibility::Unlisted,
            lines: String::new(),
        };
        Ok(DeckFormData {
            code,
            version,
            saved_title,
            form: kept.or(form).unwrap_or_else(empty),
        })
    }

    impl From<DeckConflict> for AppError {
        fn from(conflict: DeckConflict) -> Self {
            let l = crate::lang::locale();
            match conflict {
                DeckConflict::Problem(problem) => AppError::BadRequest(problem_message(&problem)),
                DeckConflict::NotFound => {
                    AppError::NotFound(td_string!(l, decks.errors.not_found).to_string())
                }
                DeckConflict::NotYours => {
                    AppError::Forbidden(td_string!(l, decks.errors.not_yours).to_string())
                }
                DeckConflict::Stale { current } => AppError::Conflict(
                    td_string!(l, decks.errors.stale, version = current).to_string(),
                ),
                DeckConflict::UnderReview => {
                    AppError::Conflict(td_string!(l, decks.errors.under_review).to_string())
                }
                DeckConflict::Barred => {
                    AppError::Forbidden(td_string!(l, decks.errors.barred).to_string())
                }
                DeckConflict::Data(err) => err.into(),
            }
        }
    }

    /// What is wrong with a draft, in the request's language, never repeating a refused word.
    pub fn problem_message(problem: &DeckProblem) -> String {
        let l = crate::lang::locale();
        match *problem {
            DeckProblem::TitleMissing => td_string!(l, decks.errors.title_missing).to_string(),
            DeckProblem::TitleTooLong => {
                td_string!(l, decks.errors.title_too_long, max = TITLE_MAX).to_string()
            }
            DeckProblem::DescriptionTooLong => {
                td_string!(l, decks.errors.description_too_long, max = DESCRIPTION_MAX).to_string()
            }
            DeckProblem::TooFew => {
                td_string!(l, decks.errors.too_few, min = MIN_THINGS).to_string()
            }
            DeckProblem::TooMany => {
                td_string!(l, decks.errors.too_many, max = MAX_THINGS).to_string()
            }
            DeckProblem::TooLarge => td_string!(l, decks.errors.too_large).to_string(),
            DeckProblem::NameMissing { line } => {
                td_string!(l, decks.errors.name_missing, line = line).to_string()
            }
            DeckProblem::NameTooLong { line } => {
                td_string!(l, decks.errors.name_too_long, line = line, max = NAME_MAX).to_string()
            }
            DeckProblem::NoteTooLong { line } => {
                td_string!(l, decks.errors.note_too_long, line = line, max = NOTE_MAX).to_string()
            }
            DeckProblem::Duplicate { line, first } => {
                td_string!(l, decks.errors.duplicate, line = line, first = first).to_string()
            }
            DeckProblem::Emoji { line } => {
                td_string!(l, decks.errors.emoji, line = line).to_string()
            }
            DeckProblem::Refused { line: 0 } => {
                td_string!(l, decks.errors.refused_title).to_string()
            }
            DeckProblem::Refused { line } => {
                td_string!(l, decks.errors.refused, line = line).to_string()
            }
            DeckProblem::Unreadable { line: 0 } => {
                td_string!(l, decks.errors.unreadable_title).to_string()
            }
            DeckProblem::Unreadable { line } => {
                td_string!(l, decks.errors.unreadable, line = line).to_string()
            }
        }
    }
}
