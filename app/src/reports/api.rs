//! Reports over HTTP: a player reports another; an operator reviews. The reporter and the
//! operator are always the session's player, never an argument.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;
use crate::identity::model::{Avatar, DisplayName, UserId};
use crate::reports::{Reason, Reported};
use crate::rooms::model::RoomCode;
#[cfg(feature = "ssr")]
use ssr::*;

/// A player as a report's page shows them: their name as others may see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportTarget {
    pub id: UserId,
    pub name: String,
    pub avatar: Avatar,
    /// The viewer is this player.
    pub me: bool,
}

/// The report page: who, and whether the viewer may report (they play, as a guest at least).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportPageData {
    pub target: ReportTarget,
    pub signed_in: bool,
}

/// Reports `player` for `reason`, as the session's player. Counted once per reporter; a plain
/// form post goes back to the report's page, which says what became of it.
#[server(endpoint = "reports/report")]
pub async fn report_player(player: UserId, reason: Reason) -> Result<Reported, AppError> {
    crate::error::answer("report_player", async move {
        let db = expect_context::<Db>();
        let l = crate::lang::locale();
        let me = session::require_player(&db).await?;
        if me.id == player {
            return Err(AppError::BadRequest(
                td_string!(l, reports.not_yourself).to_string(),
            ));
        }
        if !db
            .hit_rate_limit(Limited::Reports(&me.id), 3600, REPORTS_PER_HOUR)
            .await?
        {
            return Err(AppError::RateLimited);
        }
        let outcome = report_as(&db, &me, &player, reason).await?;
        let sent = match outcome {
            Reported::Counted { .. } => "counted",
            Reported::Again => "again",
        };
        redirect_page(&format!(
            "{}?sent={sent}",
            crate::identity::report_path(&player)
        ));
        Ok(outcome)
    })
    .await
}

/// Who the report page is about.
#[server(endpoint = "reports/target")]
pub async fn read_report_target(player: UserId) -> Result<ReportPageData, AppError> {
    crate::error::answer("read_report_target", async move {
        let db = expect_context::<Db>();
        let l = crate::lang::locale();
        let (profile, me) = tokio::try_join!(
            async { db.accounts().profile(&player).await.map_err(AppError::from) },
            session::current_player(&db)
        )?;
        let profile = profile.ok_or_else(|| crate::profiles::api::no_such_player(l))?;
        Ok(ReportPageData {
            target: target(
                &profile.id,
                &profile.display_name,
                profile.avatar,
                me.as_ref(),
            ),
            signed_in: me.is_some(),
        })
    })
    .await
}

/// The players of room `code` one may report from it (everyone but the viewer).
#[server(endpoint = "reports/room")]
pub async fn room_targets(code: RoomCode) -> Result<Vec<ReportTarget>, AppError> {
    crate::error::answer("room_targets", async move {
        let db = expect_context::<Db>();
        let (lobby, me) = tokio::try_join!(
            async { db.rooms().lobby(&code).await.map_err(AppError::from) },
            session::current_player(&db)
        )?;
        let lobby =
            lobby.ok_or_else(|| AppError::from(crate::rooms::store::RoomConflict::NotFound))?;
        Ok(lobby
            .players
            .iter()
            .filter(|p| me.as_ref().is_none_or(|me| me.id != p.user_id))
            .map(|p| target(&p.user_id, &p.nickname, p.avatar, me.as_ref()))
            .collect())
    })
    .await
}

/// One reported player on the operators' page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportLine {
    pub user: UserId,
    pub name: String,
    pub count: u32,
    /// `name 2 · abuse 1`.
    pub reasons: String,
    pub last_ms: i64,
    pub hidden: bool,
}

/// One hidden player on the operators' page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HiddenLine {
    pub user: UserId,
    pub name: String,
    /// `reports` or `operator`.
    pub by: String,
    pub at_ms: i64,
}

/// One result fair play flagged, on the operators' page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlagLine {
    pub pk: String,
    pub sk: String,
    pub user: String,
    pub name: String,
    pub day: Option<String>,
    pub average_ms: Option<u32>,
    pub finished_ms: i64,
}

/// What an operator reviews.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Review {
    pub reports: Vec<ReportLine>,
    pub hidden: Vec<HiddenLine>,
    pub banned: Vec<String>,
    pub flagged: Vec<FlagLine>,
    /// Decks their reports hid (`decks::moderation`).
    #[serde(default)]
    pub decks: Vec<crate::decks::moderation::HiddenDeck>,
}

/// The operators' review: reports, hidden players, banned names, flagged results. Operators
/// only (`reports::Operators`): anyone else is refused with a 403.
#[server(endpoint = "operator/review")]
pub async fn read_review() -> Result<Review, AppError> {
    crate::error::answer("read_review", async move {
        let db = expect_context::<Db>();
        require_operator(&db).await?;
        review_of(&db).await
    })
    .await
}

/// What an operator does from the review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Act {
    /// Hide every name of `player`.
    Hide,
    /// Forget `player`'s reports and show their names again.
    Clear,
    /// Ban `name` (every name that folds the same).
    BanName,
    /// Lift the ban on `name`.
    UnbanName,
    /// A flagged result (`pk`, `sk`) counts after all.
    ClearFlag,
    /// A flagged result never counts.
    ConfirmFlag,
    /// Deck `deck`'s reports were unfounded: shown again (listed again if public).
    RestoreDeck,
    /// Deck `deck` stays out of the gallery; it leaves the list.
    KeepDeck,
    /// `player` may publish decks again.
    LiftAuthor,
}

/// An operator's act from the review; a plain form post goes back to the review.
#[server(endpoint = "operator/act")]
pub async fn review_act(
    act: Act,
    player: Option<UserId>,
    name: Option<DisplayName>,
    pk: Option<String>,
    sk: Option<String>,
    deck: Option<crate::ids::DeckCode>,
) -> Result<bool, AppError> {
    crate::error::answer("review_act", async move {
        let db = expect_context::<Db>();
        require_operator(&db).await?;
        let done = act_on(&db, act, (player, name, deck), pk.zip(sk)).await?;
        redirect_page("/operator");
        Ok(done)
    })
    .await
}

#[cfg(feature = "ssr")]
mod ssr {
    pub(super) use crate::i18n::td_string;
    pub(super) use crate::identity::model::Profile;
    pub(super) use crate::identity::session;
    pub(super) use crate::identity::store::hidden::HiddenBy;
    pub(super) use crate::reports::store::ReportSummary;
    pub(super) use crate::reports::{Operators, REPORTS_PER_HOUR};
    pub(super) use crate::store::keys::Limited;
    pub(super) use crate::store::Db;
    pub(super) use crate::ui::forms::redirect_page;

    use super::*;

    pub(super) fn target(
        id: &UserId,
        name: &DisplayName,
        avatar: Avatar,
        me: Option<&Profile>,
    ) -> ReportTarget {
        ReportTarget {
            id: id.clone(),
            name: crate::identity::hidden::shown(id, name).to_string(),
            avatar,
            me: me.is_some_and(|me| &me.id == id),
        }
    }

    /// The session's player, if they are an operator; else 401 (nobody signed in) or 403.
    pub(super) async fn require_operator(db: &Db) -> Result<Profile, AppError> {
        let player = session::require_player(db).await?;
        let operators = use_context::<Operators>().unwrap_or_default();
        if !operators.include(&player) {
            let l = crate::lang::locale();
            return Err(AppError::Forbidden(
                td_string!(l, reports.operators_only).to_string(),
            ));
        }
        Ok(player)
    }

    /// What an operator reviews, read at once: reports, the hidden set, flagged results.
    pub(super) async fn review_of(db: &Db) -> Result<Review, AppError> {
        let (reports, hidden, flagged, decks) = tokio::try_join!(
            db.reports().open_reports(200),
            db.accounts().hidden_list(),
            db.game().flagged_results(200),
            db.decks().hidden_decks(),
        )?;
        let hidden_ids: std::collections::HashSet<_> =
            hidden.players.iter().map(|p| p.user.clone()).collect();
        Ok(Review {
            reports: reports
                .into_iter()
                .map(|r| ReportLine {
                    hidden: hidden_ids.contains(&r.user),
                    reasons: reasons_of(&r),
                    user: r.user,
                    name: r.name,
                    count: r.count,
                    last_ms: r.last_ms,
                })
                .collect(),
            hidden: hidden
                .players
                .into_iter()
                .map(|p| HiddenLine {
                    user: p.user,
                    name: p.name,
                    by: match p.by {
                        HiddenBy::Reports => "reports".to_owned(),
                        HiddenBy::Operator => "operator".to_owned(),
                    },
                    at_ms: p.at_ms,
                })
                .collect(),
            banned: hidden.names.into_iter().map(|n| n.name).collect(),
            flagged: flagged
                .into_iter()
                .map(|f| FlagLine {
                    pk: f.key.pk,
                    sk: f.key.sk,
                    user: f.user_id,
                    name: f.nickname,
                    day: f.day,
                    average_ms: f.average_ms,
                    finished_ms: f.finished_ms,
                })
                .collect(),
            decks,
        })
    }

    /// `me` reports `player` (their name now is what they are reported under).
    pub(super) async fn report_as(
        db: &Db,
        me: &Profile,
        player: &UserId,
        reason: Reason,
    ) -> Result<Reported, AppError> {
        let l = crate::lang::locale();
        let profile = db.accounts().profile(player).await?;
        let profile = profile.ok_or_else(|| crate::profiles::api::no_such_player(l))?;
        let outcome = db
            .reports()
            .report(&me.id, player, &profile.display_name, reason)
            .await?;
        if matches!(outcome, Reported::Counted { hidden: true }) {
            tracing::info!(player = %player, "a player's names are hidden after reports");
        }
        Ok(outcome)
    }

    pub(super) fn reasons_of(r: &ReportSummary) -> String {
        [
            ("name", r.name_reports),
            ("abuse", r.abuse_reports),
            ("cheating", r.cheating_reports),
            ("other", r.other_reports),
        ]
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(why, n)| format!("{why} {n}"))
        .collect::<Vec<_>>()
        .join(" · ")
    }

    pub(super) async fn act_on(
        db: &Db,
        act: Act,
        (player, name, deck): (
            Option<UserId>,
            Option<DisplayName>,
            Option<crate::ids::DeckCode>,
        ),
        flag: Option<(String, String)>,
    ) -> Result<bool, AppError> {
        let l = crate::lang::locale();
        let missing = || AppError::BadRequest(td_string!(l, reports.act_incomplete).to_string());
        let name = || name.clone().ok_or_else(missing);
        Ok(match act {
            Act::Hide => {
                let player = player.ok_or_else(missing)?;
                let profile = db.accounts().profile(&player).await?;
                let profile = profile.ok_or_else(|| crate::profiles::api::no_such_player(l))?;
                db.accounts()
                    .hide_player(&player, &profile.display_name, HiddenBy::Operator)
                    .await?
            }
            Act::Clear => db.reports().clear(&player.ok_or_else(missing)?).await?,
            Act::BanName => db.accounts().ban_name(&name()?).await?,
            Act::RestoreDeck => db.decks().restore(&deck.ok_or_else(missing)?).await?,
            Act::KeepDeck => {
                db.decks().keep_hidden(&deck.ok_or_else(missing)?).await?;
                true
            }
            Act::LiftAuthor => {
                db.decks().lift_author(&player.ok_or_else(missing)?).await?;
                true
            }
            Act::UnbanName => db.accounts().unban_name(&name()?).await?,
            Act::ClearFlag | Act::ConfirmFlag => {
                let (pk, sk) = flag.ok_or_else(missing)?;
                let key = crate::store::keys::Key { pk, sk };
                match act {
                    Act::ClearFlag => db.game().clear_flag(&key).await?,
                    _ => db.game().confirm_flag(&key).await?,
                }
            }
        })
    }
}
