//! The durable records of finished matches, one per player: a player's, newest first
//! (`USER#<id>` / `MATCH#<ulid>`), paged with signed cursors. Each record is also on one of
//! sixteen GSI2 partitions (`MATCHES#<nn>`, by player), which rebuilding the boards reads.
//!
//! | pattern | how | round trips |
//! |---|---|---|
//! | a player's matches | Query `USER#<id>` begins_with `MATCH#`, newest first | Query |
//! | whom a player played with lately | Query of their latest records, then one BatchGetItem of those matches' summaries (`MATCH#<room id>#<first>` / `SUMMARY`) | Query + BatchGetItem |

use super::Game;
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;

use std::collections::HashSet;

use crate::game::model::MatchRecord;
use crate::game::sheet::MatchSummary;
use crate::game::sheet::Partner;
use crate::identity::model::UserId;
use crate::store::keys;
use crate::store::{DataError, Page};

impl Game<'_> {
    /// A player's match records, newest first.
    #[tracing::instrument(skip(self, cursor), err(level = "debug"))]
    pub async fn my_matches(
        self,
        user: &UserId,
        limit: i32,
        cursor: Option<&str>,
    ) -> Result<Page<MatchRecord>, DataError> {
        let request = self
            .query_prefix(
                keys::Keyed::Table,
                keys::user_partition(user),
                keys::MATCH_PREFIX,
            )
            .scan_index_forward(false);
        self.match_page(&format!("matches#{user}"), request, limit, cursor)
            .await
    }

    /// The players `user` played with in their `matches` latest finished matches, whose last
    /// match together ended latest first, each once (named as in that match): a Query of the
    /// player's match records and one BatchGetItem of those matches' summaries (eventually
    /// consistent). Guests included: they are picked by id, not by a username they lack.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn played_with(self, user: &UserId, matches: i32) -> Result<Vec<Partner>, DataError> {
        let records = self.my_matches(user, matches, None).await?.items;
        if records.is_empty() {
            return Ok(Vec::new());
        }
        let wanted = records
            .iter()
            .filter(|r| r.first_round > 0)
            .map(|r| keys::match_summary(&r.room_id(), r.first_round))
            .collect();
        let mut summaries = self
            .batch_get(wanted, false)
            .await?
            .into_iter()
            .map(serde_dynamo::from_item)
            .collect::<Result<Vec<MatchSummary>, _>>()?;
        summaries.sort_by_key(|s| std::cmp::Reverse(s.finished_at_ms));
        let mut seen = HashSet::new();
        Ok(summaries
            .into_iter()
            .flat_map(|s| {
                let when = s.finished_at_ms;
                s.players.into_iter().map(move |p| (p, when))
            })
            .filter(|(p, _)| &p.user_id != user && seen.insert(p.user_id.clone()))
            .map(|(p, last_ms)| Partner {
                nickname: crate::identity::hidden::shown(&p.user_id, &p.nickname),
                user_id: p.user_id,
                avatar: p.avatar,
                last_ms,
            })
            .collect())
    }

    /// One page of a Query of items that are each a `T`, from a signed cursor (scoped to
    /// `scope`, so a cursor of one list is refused by another) to the next page's.
    pub(crate) async fn match_page<
        T: serde::de::DeserializeOwned + crate::identity::hidden::HideNames,
    >(
        self,
        scope: &str,
        request: QueryFluentBuilder,
        limit: i32,
        cursor: Option<&str>,
    ) -> Result<Page<T>, DataError> {
        let start = match cursor {
            Some(cursor) => Some(self.cursor_key().await?.open(scope, cursor)?),
            None => None,
        };
        let (items, last) = self
            .query_page(request.limit(limit.clamp(1, 100)), start)
            .await?;
        let next = match last {
            Some(last) => Some(self.cursor_key().await?.seal(scope, &last)?),
            None => None,
        };
        let items = items
            .into_iter()
            .map(|item| {
                serde_dynamo::from_item(item).map(|mut shown: T| {
                    shown.hide_names();
                    shown
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(Page { items, next })
    }
}

/// Every copy of a name in a room as sent, a match's summary or a player's record, drawn as
/// others may see it (`identity::hidden`).
mod shown {
    use crate::game::model::{MatchRecord, Room};
    use crate::game::sheet::MatchSummary;
    use crate::identity::hidden::{mask, HideNames};

    impl HideNames for Room {
        fn hide_names(&mut self) {
            for p in self.lobby.players.iter_mut().chain(&mut self.lobby.asking) {
                mask(&p.user_id, &mut p.nickname);
            }
            for p in self.game.iter_mut().flat_map(|g| g.players.iter_mut()) {
                mask(&p.user_id, &mut p.nickname);
            }
        }
    }

    impl HideNames for MatchSummary {
        fn hide_names(&mut self) {
            for p in &mut self.players {
                mask(&p.user_id, &mut p.nickname);
            }
        }
    }

    impl HideNames for MatchRecord {
        fn hide_names(&mut self) {
            mask(&self.user_id, &mut self.nickname);
        }
    }
}
