//! Finished matches kept for good, apart from the room: one partition per match
//! (`MATCH#<room id>#<first>`) holds its `SUMMARY`, its `ROUNDS` and its `RECEIPT`, written by the
//! match's end ([`Game::finish_match`]) and never changed after (the receipt only grows). The
//! summary alone is on two indexes: GSI2 `RECENT` (every match, newest first) and GSI1
//! `ROOMMATCHES#<room id>` (a room's). It is one item per match, where recent matches used to be one
//! record per player on one partition.
//!
//! | pattern | how | round trips |
//! |---|---|---|
//! | a match's page (AP8) | Query `MATCH#<room id>#<first>` (summary, rounds, receipt) | Query |
//! | a match's share card | GetItem `MATCH#<room id>#<first>` / `SUMMARY` | GetItem |
//! | recent matches everywhere (AP7) | Query GSI2 `RECENT`, newest first | Query per page |
//! | a room's matches | Query GSI1 `ROOMMATCHES#<room id>`, newest first | Query per page |
//!
//! Write ceiling of recent matches: every finished match writes one summary (one write unit up
//! to eight players) to the single GSI2 `RECENT` partition, and DynamoDB serves about 1,000
//! write units a second per partition: about 1,000 matches a second. A match lasts a minute or
//! more, so that is some 60,000 rooms playing at once. Past that, `RECENT` would be split by time
//! (a partition per hour, the page's cursor crossing from one to the next).

use super::Game;
use serde::{Deserialize, Serialize};

use crate::game::sheet::{MatchDetail, MatchSummary, RoundSheet};
use crate::identity::hidden::HideNames;
use crate::rooms::model::RoomId;
use crate::store::expr::{attr, Cond, Expr, Expressions};
use crate::store::keys::{self, Key, Keyed};
use crate::store::tx::{n, s};
use crate::store::{key_map, sort_key, Conflict, DataError, Item, Page};

/// The `ROUNDS` item's stored shape.
#[derive(Serialize, Deserialize)]
struct RoundsItem {
    rounds: Vec<RoundSheet>,
    /// When the match started (as its summary's `started`): which match the item is, for the
    /// write's condition. Absent on items kept before it was written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    started: Option<i64>,
}

/// A match's summary as stored: `MATCH#<room id>#<first>` / `SUMMARY`, on GSI2 `RECENT` and GSI1
/// `ROOMMATCHES#<room id>`.
pub fn summary_item(summary: &MatchSummary) -> Result<Item, DataError> {
    let Key { pk, sk } = keys::match_summary(&summary.room_id(), summary.first_round);
    let sort = keys::match_sort(
        summary.finished_at_ms,
        &summary.room_id(),
        summary.first_round,
    );
    let mut item: Item = serde_dynamo::to_item(summary)?;
    item.insert(keys::PK.into(), s(pk));
    item.insert(keys::SK.into(), s(sk));
    item.insert(keys::GSI2PK.into(), s(keys::RECENT_MATCHES));
    item.insert(keys::GSI2SK.into(), s(sort.clone()));
    item.insert(
        keys::GSI1PK.into(),
        s(keys::room_matches(&summary.room_id())),
    );
    item.insert(keys::GSI1SK.into(), s(sort));
    Ok(item)
}

/// A match's rounds as stored: `MATCH#<room id>#<first>` / `ROUNDS` (on no index).
pub fn rounds_item(summary: &MatchSummary, rounds: &[RoundSheet]) -> Result<Item, DataError> {
    let Key { pk, sk } = keys::match_rounds(&summary.room_id(), summary.first_round);
    let mut item: Item = serde_dynamo::to_item(RoundsItem {
        rounds: rounds.to_vec(),
        started: Some(summary.started_at_ms),
    })?;
    item.insert(keys::PK.into(), s(pk));
    item.insert(keys::SK.into(), s(sk));
    Ok(item)
}

impl Game<'_> {
    /// Keeps a finished match for good: its summary and rounds, two PutItems at once, each only
    /// over nothing or over the same match (the same `started`), so a repeated end from any
    /// instance writes the same bytes again, and no match's items ever replace another's. The
    /// keys are the room's id and the match's first round, which no other match has; the
    /// condition also holds for a room from before rooms had ids, whose code keys its matches.
    pub(crate) async fn keep_match(
        self,
        summary: &MatchSummary,
        rounds: &[RoundSheet],
    ) -> Result<(), DataError> {
        let put = |item: Item| async move {
            let request = self
                .client
                .put_item()
                .set_item(Some(item))
                .expressions(Expr::condition(
                    Cond::not_exists(attr(keys::PK))
                        .or(Cond::eq(attr("started"), n(summary.started_at_ms))),
                ));
            match self.put(request).await {
                Ok(()) => Ok(()),
                Err(DataError::Conflict(Conflict::ConditionFailed)) => {
                    // Another match is kept under this key: it stays as it is.
                    tracing::error!(
                        room = %summary.room_id(),
                        first = summary.first_round,
                        "another match is kept under this match's key; not overwritten"
                    );
                    Ok(())
                }
                Err(err) => Err(err),
            }
        };
        let (kept, sheet) = futures::join!(
            put(summary_item(summary)?),
            put(rounds_item(summary, rounds)?)
        );
        kept.and(sheet)
    }

    /// A finished match's page: its summary, rounds and receipt, in one Query of its partition.
    /// `None` for a match that is not over (or ended before matches were kept).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn match_detail(
        self,
        room: &RoomId,
        first: u32,
    ) -> Result<Option<MatchDetail>, DataError> {
        let items = self
            .query_all(self.query_partition(Keyed::Table, keys::match_partition(room, first)))
            .await?;
        let (mut summary, mut rounds, mut receipt) = (None, Vec::new(), None);
        for item in items {
            match sort_key(&item) {
                keys::MATCH_SUMMARY => summary = Some(serde_dynamo::from_item(item)?),
                keys::MATCH_ROUNDS => {
                    rounds = serde_dynamo::from_item::<_, RoundsItem>(item)?.rounds
                }
                keys::MATCH_RECEIPT => receipt = Some(self.receipt_from_item(&item)),
                _ => {}
            }
        }
        Ok(summary.map(|mut summary: MatchSummary| {
            summary.hide_names();
            MatchDetail {
                summary,
                rounds,
                receipt,
            }
        }))
    }

    /// A finished match's summary alone, what its share card draws: one GetItem. `None` for a
    /// match that is not over.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn match_summary(
        self,
        room: &RoomId,
        first: u32,
    ) -> Result<Option<MatchSummary>, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::match_summary(room, first)))),
            )
            .await?;
        let mut summary: Option<MatchSummary> = item.map(serde_dynamo::from_item).transpose()?;
        summary.iter_mut().for_each(HideNames::hide_names);
        Ok(summary)
    }

    /// Every finished match, newest first, a page at a time (one Query of GSI2 `RECENT`).
    #[tracing::instrument(skip(self, cursor), err(level = "debug"))]
    pub async fn recent_matches(
        self,
        limit: i32,
        cursor: Option<&str>,
    ) -> Result<Page<MatchSummary>, DataError> {
        let request = self
            .query_partition(Keyed::Gsi2, keys::RECENT_MATCHES)
            .scan_index_forward(false);
        self.match_page("recent", request, limit, cursor).await
    }

    /// One room's finished matches, newest first, a page at a time (one Query of GSI1). A
    /// later room with the same code has a list of its own.
    #[tracing::instrument(skip(self, cursor), err(level = "debug"))]
    pub async fn room_matches(
        self,
        room: &RoomId,
        limit: i32,
        cursor: Option<&str>,
    ) -> Result<Page<MatchSummary>, DataError> {
        let request = self
            .query_partition(Keyed::Gsi1, keys::room_matches(room))
            .scan_index_forward(false);
        self.match_page(&format!("room-matches#{room}"), request, limit, cursor)
            .await
    }
}

/// A finished match's share card: the winner, the top five, the room and when.
pub fn match_card(summary: &MatchSummary, l: crate::lang::Locale) -> crate::share::ShareImage {
    use crate::i18n::td_string;
    let room = summary.room.to_string();
    let when = crate::ui::when(summary.finished_at_ms);
    crate::share::ShareImage {
        kicker: td_string!(
            l,
            game.card.kicker,
            room = room.as_str(),
            when = when.as_str()
        )
        .to_string(),
        title: summary.players.first().map_or_else(
            || td_string!(l, game.card.title_none).to_string(),
            |w| {
                td_string!(
                    l,
                    game.card.title_won,
                    name = w.nickname.as_str(),
                    score = w.score
                )
                .to_string()
            },
        ),
        grid: Vec::new(),
        rows: summary
            .players
            .iter()
            .take(5)
            .map(|p| {
                (
                    format!("{}. {}", p.placement, p.nickname),
                    p.score.to_string(),
                )
            })
            .collect(),
        footer: td_string!(
            l,
            game.card.footer,
            rounds = summary.rounds,
            players = summary.players.len()
        )
        .to_string(),
    }
}
