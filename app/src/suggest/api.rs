//! The suggestion box over HTTP: plain form posts from the room page, each coming back to it.

use leptos::prelude::*;

use crate::error::AppError;
use crate::ids::RoomCode;
use crate::suggest::model::{AnswerKind, PutInto, SuggestionId};

/// The host opens (`open`) or closes room `code`'s suggestion box.
#[server(endpoint = "suggest/open")]
pub async fn open_suggestions(code: RoomCode, open: bool) -> Result<(), AppError> {
    crate::error::answer("open_suggestions", async move {
        let db = expect_context::<crate::store::Db>();
        let host = crate::identity::session::require_player(&db).await?;
        db.rooms().set_suggestions(&code, &host.id, open).await?;
        crate::news::announce(&code);
        crate::ui::forms::redirect_page(&format!("/r/{code}#suggest"));
        Ok(())
    })
    .await
}

/// A player of room `code` suggests a thing: its name (as a deck's line starts), whether it
/// flies, and why (optional). Limited per player, with their votes.
#[server(endpoint = "suggest/send")]
pub async fn suggest_thing(
    code: RoomCode,
    name: String,
    flies: bool,
    note: Option<String>,
) -> Result<(), AppError> {
    crate::error::answer("suggest_thing", async move {
        let (db, me, room) = ssr::player_in(&code).await?;
        let sent = crate::suggest::model::Sent { name, flies, note };
        db.suggestions().send(&code, &room, &me, sent).await?;
        crate::news::announce(&code);
        crate::ui::forms::redirect_page(&format!("/r/{code}?sent=suggestion#suggest"));
        Ok(())
    })
    .await
}

/// The host answers suggestion `id` of room `code`: `accept` (with the `name`, `flies` and
/// `note` of the form, as sent or edited), `reject`, or `vote` (put its ruling to the room).
#[server(endpoint = "suggest/answer")]
pub async fn answer_suggestion(
    code: RoomCode,
    id: SuggestionId,
    answer: AnswerKind,
    name: Option<String>,
    flies: Option<bool>,
    note: Option<String>,
) -> Result<(), AppError> {
    crate::error::answer("answer_suggestion", async move {
        let db = expect_context::<crate::store::Db>();
        let host = crate::identity::session::require_player(&db).await?;
        let answer = ssr::answer_of(answer, name, flies, note)?;
        let room = db.rooms().room_id_of(&code).await?;
        db.suggestions()
            .answer(&code, &room, &host.id, id.as_str(), answer)
            .await?;
        crate::news::announce(&code);
        crate::ui::forms::redirect_page(&format!("/r/{code}#suggest"));
        Ok(())
    })
    .await
}

/// A player of room `code` votes on the ruling of suggestion `id`: `flies` or not.
#[server(endpoint = "suggest/vote")]
pub async fn vote_ruling(code: RoomCode, id: SuggestionId, flies: bool) -> Result<(), AppError> {
    crate::error::answer("vote_ruling", async move {
        let (db, me, room) = ssr::player_in(&code).await?;
        db.suggestions()
            .vote(&code, &room, &me, id.as_str(), flies)
            .await?;
        crate::news::announce(&code);
        crate::ui::forms::redirect_page(&format!("/r/{code}?sent=vote#suggest"));
        Ok(())
    })
    .await
}

/// The host puts the accepted suggestions of room `code` into a deck: `into` one of theirs
/// (its code), or `new`: the deck editor opens with them as its first lines.
#[server(endpoint = "suggest/put")]
pub async fn put_suggestions(code: RoomCode, into: PutInto) -> Result<usize, AppError> {
    crate::error::answer("put_suggestions", async move {
        let db = expect_context::<crate::store::Db>();
        let host = crate::identity::session::require_player(&db).await?;
        let deck = match into {
            PutInto::New => return ssr::into_new_deck(&db, &code, &host.id).await,
            PutInto::Deck(deck) => deck,
        };
        let put = db.suggestions().put_into(&code, &host.id, &deck).await?;
        crate::news::announce(&code);
        crate::ui::forms::redirect_page(&format!("/r/{code}?put={put}#suggest"));
        Ok(put)
    })
    .await
}

#[cfg(feature = "ssr")]
mod ssr {
    use crate::error::AppError;
    use crate::i18n::td_string;
    use crate::ids::{RoomCode, RoomId, UserId};
    use crate::store::keys::Limited;
    use crate::store::Db;
    use crate::suggest::model::{AnswerKind, Sent, SentProblem, NAME_MAX, PER_MINUTE};
    use crate::suggest::store::{Answer, SuggestConflict};
    use leptos::prelude::*;

    /// The table, the session's player and room `code`'s id, within the player's limit of
    /// suggestions and votes.
    pub async fn player_in(code: &RoomCode) -> Result<(Db, UserId, RoomId), AppError> {
        let db = expect_context::<Db>();
        let me = crate::identity::session::require_player(&db).await?;
        if !db
            .hit_rate_limit(Limited::Suggestions(&me.id), 60, PER_MINUTE)
            .await?
        {
            return Err(AppError::RateLimited);
        }
        let room = db.rooms().room_id_of(code).await?;
        Ok((db, me.id, room))
    }

    /// The host's answer as the form says it.
    pub fn answer_of(
        answer: AnswerKind,
        name: Option<String>,
        flies: Option<bool>,
        note: Option<String>,
    ) -> Result<Answer, AppError> {
        let l = crate::lang::locale();
        let bad = || AppError::BadRequest(td_string!(l, suggest.errors.unreadable).to_string());
        match answer {
            AnswerKind::Accept => Ok(Answer::Accept(Sent {
                name: name.ok_or_else(bad)?,
                flies: flies.ok_or_else(bad)?,
                note,
            })),
            AnswerKind::Reject => Ok(Answer::Reject),
            AnswerKind::Vote => Ok(Answer::Vote),
        }
    }

    /// "Put into a new deck": the accepted suggestions become the first lines of the deck
    /// editor's form (kept as a refused form is), and the editor opens with them.
    pub async fn into_new_deck(db: &Db, code: &RoomCode, host: &UserId) -> Result<usize, AppError> {
        let lobby = db.rooms().lobby(code).await?;
        let lobby = lobby.ok_or(SuggestConflict::Closed)?;
        if &lobby.host_id != host {
            return Err(SuggestConflict::NotHost.into());
        }
        let accepted = db.suggestions().accepted(&lobby.id).await?;
        if accepted.is_empty() {
            return Err(SuggestConflict::NothingAccepted.into());
        }
        let l = crate::lang::locale();
        let lines: Vec<String> = accepted.iter().map(|a| a.sent.line()).collect();
        let form = crate::decks::model::DeckForm {
            title: td_string!(l, suggest.new_title, code = code.as_str()).to_string(),
            description: String::new(),
            lang: crate::decks::model::DeckLang::En,
            visibility: crate::decks::model::Visibility::Unlisted,
            lines: lines.join("\n"),
        };
        db.decks().keep_form(host, None, &form).await?;
        crate::ui::forms::redirect_page("/decks/new?from=suggestions");
        Ok(accepted.len())
    }

    impl From<SuggestConflict> for AppError {
        fn from(conflict: SuggestConflict) -> Self {
            let l = crate::lang::locale();
            let say = |s: &str| s.to_string();
            match conflict {
                SuggestConflict::Problem(problem) => AppError::BadRequest(match problem {
                    SentProblem::NameMissing => say(td_string!(l, suggest.errors.name_missing)),
                    SentProblem::NameTooLong => {
                        td_string!(l, suggest.errors.name_too_long, max = NAME_MAX).to_string()
                    }
                    SentProblem::NoteTooLong => td_string!(
                        l,
                        suggest.errors.note_too_long,
                        max = crate::decks::model::NOTE_MAX
                    )
                    .to_string(),
                    SentProblem::Unreadable => say(td_string!(l, suggest.errors.unreadable)),
                    SentProblem::Refused => say(td_string!(l, suggest.errors.refused)),
                }),
                SuggestConflict::Closed => {
                    AppError::Conflict(say(td_string!(l, suggest.errors.closed)))
                }
                SuggestConflict::NotPlayer => {
                    AppError::Forbidden(say(td_string!(l, suggest.errors.not_player)))
                }
                SuggestConflict::NotHost => {
                    AppError::Forbidden(say(td_string!(l, suggest.errors.not_host)))
                }
                SuggestConflict::Answered => {
                    AppError::Conflict(say(td_string!(l, suggest.errors.answered)))
                }
                SuggestConflict::NothingAccepted => {
                    AppError::Conflict(say(td_string!(l, suggest.errors.nothing_accepted)))
                }
                SuggestConflict::Deck(err) => err.into(),
                SuggestConflict::Data(err) => err.into(),
            }
        }
    }
}
