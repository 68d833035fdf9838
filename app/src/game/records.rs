//! The durable records of finished matches: a player's, newest first (`USER#<id>` /
//! `MATCH#<ulid>`), and everyone's (GSI2 `MATCHES`), both paged with signed cursors.
//!
//! | pattern | how | round trips |
//! |---|---|---|
//! | a player's matches | Query `USER#<id>` begins_with `MATCH#`, newest first | Query |
//! | recent matches everywhere | Query GSI2 `MATCHES`, newest first | Query |

use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;

use crate::game::model::MatchRecord;
use crate::identity::model::UserId;
use crate::store::keys;
use crate::store::tx::s;
use crate::store::{DataError, Db, Page};

impl Db {
    /// A player's match records, newest first.
    #[tracing::instrument(skip(self, cursor), err(level = "debug"))]
    pub async fn my_matches(
        &self,
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

    /// Every player's match records, newest first: one Query of the GSI2 `MATCHES` partition.
    #[tracing::instrument(skip(self, cursor), err(level = "debug"))]
    pub async fn recent_matches(
        &self,
        limit: i32,
        cursor: Option<&str>,
    ) -> Result<Page<MatchRecord>, DataError> {
        let request = self
            .client
            .query()
            .index_name(keys::GSI2)
            .key_condition_expression("#pk = :pk")
            .expression_attribute_names("#pk", keys::GSI2PK)
            .expression_attribute_values(":pk", s(keys::RECENT_MATCHES))
            .scan_index_forward(false);
        self.match_page("matches", request, limit, cursor).await
    }

    async fn match_page(
        &self,
        scope: &str,
        request: QueryFluentBuilder,
        limit: i32,
        cursor: Option<&str>,
    ) -> Result<Page<MatchRecord>, DataError> {
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
