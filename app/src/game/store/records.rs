//! The durable records of finished matches, one per player: a player's, newest first
//! (`USER#<id>` / `MATCH#<ulid>`), paged with signed cursors. Each record is also on one of
//! sixteen GSI2 partitions (`MATCHES#<nn>`, by player), which rebuilding the boards reads.
//!
//! | pattern | how | round trips |
//! |---|---|---|
//! | a player's matches | Query `USER#<id>` begins_with `MATCH#`, newest first | Query |

use super::Game;
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;

use crate::game::model::MatchRecord;
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

    /// One page of a Query of items that are each a `T`, from a signed cursor (scoped to
    /// `scope`, so a cursor of one list is refused by another) to the next page's.
    pub(crate) async fn match_page<T: serde::de::DeserializeOwned>(
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
            .map(serde_dynamo::from_item)
            .collect::<Result<_, _>>()?;
        Ok(Page { items, next })
    }
}
