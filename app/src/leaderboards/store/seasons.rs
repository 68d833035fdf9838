//! The operator's seasons (`SEASONS` / `S#<start>#<id>`): listed with one Query, started with
//! one conditional PutItem. A season may not start in the past, so no match already counted can
//! change season, and may not overlap another.
//!
//! | pattern | how | round trips |
//! |---|---|---|
//! | every season | Query `SEASONS`, consistent | 1 Query |
//! | start a season | Query (overlap check), PutItem only if absent | 2 |

use super::Boards;
use serde::{Deserialize, Serialize};

use crate::leaderboards::model::SeasonId;
use crate::leaderboards::period::{is_quarter_id, Season};
use crate::store::keys;
use crate::store::{epoch_millis, DataError, Item};

#[derive(Serialize, Deserialize, PartialEq)]
struct SeasonItem {
    id: SeasonId,
    name: String,
    start_ms: i64,
    end_ms: i64,
}

/// Why a season was not started.
#[derive(Debug, thiserror::Error)]
pub enum SeasonError {
    #[error("{0}")]
    Refused(&'static str),
    #[error(transparent)]
    Data(#[from] DataError),
}

impl Boards<'_> {
    /// Every season the operator started, oldest first.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn seasons(self) -> Result<Vec<Season>, DataError> {
        let items = self
            .query_all(
                self.query_partition(keys::Keyed::Table, keys::SEASONS)
                    .consistent_read(true),
            )
            .await?;
        items
            .into_iter()
            .map(|item| {
                let season: SeasonItem = serde_dynamo::from_item(item)?;
                Ok(Season {
                    id: season.id,
                    name: season.name,
                    start_ms: season.start_ms,
                    end_ms: season.end_ms,
                })
            })
            .collect()
    }

    /// Starts a season covering `start_ms..end_ms`. Refused when it starts in the past, ends
    /// before it starts, reuses an id or a quarter's id, or overlaps another season.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn start_season(
        self,
        id: &SeasonId,
        name: &str,
        start_ms: i64,
        end_ms: i64,
    ) -> Result<Season, SeasonError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 40 {
            return Err(SeasonError::Refused(
                "A season's name is 1 to 40 characters.",
            ));
        }
        if is_quarter_id(id) {
            return Err(SeasonError::Refused(
                "Ids like 2026-q4 belong to the default quarter seasons.",
            ));
        }
        if start_ms < epoch_millis() - 1_000 {
            return Err(SeasonError::Refused(
                "A season cannot start in the past: matches already counted would change season.",
            ));
        }
        if end_ms <= start_ms {
            return Err(SeasonError::Refused("A season must end after it starts."));
        }
        let existing = self.seasons().await?;
        if existing.iter().any(|s| &s.id == id) {
            return Err(SeasonError::Refused(
                "There is already a season with that id.",
            ));
        }
        if existing
            .iter()
            .any(|s| s.start_ms < end_ms && start_ms < s.end_ms)
        {
            return Err(SeasonError::Refused("That season overlaps another."));
        }
        let key = keys::season(start_ms, id);
        let season = SeasonItem {
            id: id.clone(),
            name: name.to_owned(),
            start_ms,
            end_ms,
        };
        let item: Item = serde_dynamo::to_item(&season).map_err(DataError::from)?;
        if !self.put_if_absent(key.clone(), item).await? && !self.season_is(key, &season).await? {
            return Err(SeasonError::Refused(
                "There is already a season starting then.",
            ));
        }
        Ok(Season {
            id: season.id,
            name: season.name,
            start_ms,
            end_ms,
        })
    }
}

impl Boards<'_> {
    /// Whether the season at `key` is exactly `season` (one consistent GetItem, only after a
    /// refused start): the start's own copy, sent again after its answer was lost, or the same
    /// season started twice. Either way it stands as asked.
    async fn season_is(self, key: keys::Key, season: &SeasonItem) -> Result<bool, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(crate::store::key_map(key)))
                    .consistent_read(true),
            )
            .await?;
        let stored = item
            .map(serde_dynamo::from_item::<_, SeasonItem>)
            .transpose()?;
        Ok(stored.as_ref() == Some(season))
    }
}
