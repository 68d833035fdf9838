//! Reports of decks: any signed-in player but its author may report a deck they can open, with
//! a reason from a short list. Each reporter counts once per deck; once [`REPORTS_TO_HIDE`]
//! players reported it (the same threshold as a player's), the deck leaves the gallery at once
//! and waits for an operator (`/operator`): restored, it is listed again; kept hidden, it stays
//! out. Its link still opens it: a hide takes a deck out of strangers' way, it does not take it
//! from the room that made it. An author with [`HIDES_TO_BAR`] decks hidden publishes no more
//! (unlisted and private decks are still theirs to make) until an operator lets them again.
//! See `docs/decks.md`.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;
use crate::i18n::td_string;
use crate::ids::{DeckCode, UserId};
use crate::lang::Locale;

/// Reports from this many distinct players hide a deck (as a player's names:
/// `reports::REPORTS_TO_HIDE`).
pub const REPORTS_TO_HIDE: u32 = 3;

/// An author with this many decks hidden by reports may not publish until an operator lifts it.
pub const HIDES_TO_BAR: u32 = 2;

/// How long a report of a deck is kept, in days (as a player's).
pub const REPORT_DAYS: i64 = 30;

/// Why a deck is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DeckReason {
    /// Offensive words in its title, description, things or notes.
    Words,
    /// Spam or advertising.
    Spam,
    /// Something else.
    Other,
}

impl DeckReason {
    pub const ALL: [DeckReason; 3] = [DeckReason::Words, DeckReason::Spam, DeckReason::Other];

    pub fn slug(self) -> &'static str {
        match self {
            DeckReason::Words => "words",
            DeckReason::Spam => "spam",
            DeckReason::Other => "other",
        }
    }

    pub fn label(self, l: Locale) -> String {
        match self {
            DeckReason::Words => td_string!(l, decks.report.words),
            DeckReason::Spam => td_string!(l, decks.report.spam),
            DeckReason::Other => td_string!(l, decks.report.other),
        }
        .to_string()
    }
}

/// What became of a deck's report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DeckReported {
    /// Counted; `hidden` when it was the report that hid the deck.
    Counted { hidden: bool },
    /// This reporter reported this deck already: counted once.
    Again,
}

impl DeckReported {
    /// As the deck's page is told it (`?reported=`).
    pub fn slug(self) -> &'static str {
        match self {
            DeckReported::Counted { .. } => "counted",
            DeckReported::Again => "again",
        }
    }
}

/// A deck its reports hid, as an operator reviews it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HiddenDeck {
    pub code: DeckCode,
    pub title: String,
    pub author: UserId,
    pub reports: u32,
    pub hidden_ms: i64,
}

/// Reports deck `code` for `reason`, as the session's player (not its author; a private deck
/// is no deck to a stranger). A plain form post goes back to the deck's page, which says so.
#[server(endpoint = "decks/report")]
pub async fn report_deck(code: DeckCode, reason: DeckReason) -> Result<DeckReported, AppError> {
    crate::error::answer("report_deck", async move {
        use crate::decks::model::Visibility;
        use crate::store::keys::Limited;
        let db = expect_context::<crate::store::Db>();
        let me = crate::identity::session::require_player(&db).await?;
        // A private deck is no deck to anyone who may report it (its author may not).
        let head = db.decks().head(&code).await?;
        let head = head
            .filter(|h| h.visibility != Visibility::Private)
            .ok_or(crate::decks::store::DeckConflict::NotFound)?;
        if head.author == me.id {
            let l = crate::lang::locale();
            return Err(AppError::BadRequest(
                td_string!(l, decks.report.own).to_string(),
            ));
        }
        if !db
            .hit_rate_limit(Limited::Reports(&me.id), 3600, REPORTS_PER_HOUR)
            .await?
        {
            return Err(AppError::RateLimited);
        }
        let outcome = db.decks().report(&code, &me.id, reason).await?;
        let (back, sent) = (crate::decks::api::deck_path(&code), outcome.slug());
        crate::ui::forms::redirect_page(&format!("{back}?reported={sent}"));
        Ok(outcome)
    })
    .await
}

/// Reports one player may make in an hour, of players and decks together (as
/// `reports::REPORTS_PER_HOUR`, the same limit's key).
pub const REPORTS_PER_HOUR: u32 = 10;

/// What became of a report sent from a deck's page (`reported`: `counted` or `again`), or
/// why it was refused: at the top of the page the post comes back to.
#[component]
pub fn ReportedNotice(reported: Option<String>, l: Locale) -> impl IntoView {
    use leptos::server_fn::ServerFn;
    let status = match reported.as_deref() {
        Some("counted") => Some(td_string!(l, decks.report.counted).to_string()),
        Some("again") => Some(td_string!(l, decks.report.again).to_string()),
        _ => None,
    };
    view! {
        {status.map(|s| view! { <p class="notice ok" role="status" data-testid="deck-reported">{s}</p> })}
        <crate::ui::forms::FormError paths=&[ReportDeck::PATH] />
    }
}

/// The deck page's report: a disclosure with the reasons, for a signed-in player who is not
/// its author.
#[component]
pub fn ReportDeckForm(code: DeckCode, l: Locale) -> impl IntoView {
    use leptos::server_fn::ServerFn;
    let how = td_string!(l, decks.report.how, count = REPORTS_TO_HIDE).to_string();
    view! {
        <details class="rule" data-testid="report-deck">
            <summary>{td_string!(l, decks.report.open).to_string()}</summary>
            <form method="post" action=ReportDeck::PATH>
                <input type="hidden" name="code" value=code.to_string() />
                <fieldset class="choices">
                    <legend>{td_string!(l, decks.report.why).to_string()}</legend>
                    {DeckReason::ALL.into_iter().enumerate().map(|(i, reason)| view! {
                        <label class="check">
                            <input type="radio" name="reason" value=reason.slug() required=i == 0 />
                            " " {reason.label(l)}
                        </label>
                    }).collect_view()}
                </fieldset>
                <p class="muted">{how}</p>
                <button type="submit" class="secondary" data-testid="send-deck-report">{td_string!(l, decks.report.send).to_string()}</button>
            </form>
        </details>
    }
}
