//! Rebuilding the boards from the match records themselves, for when the projector was down
//! longer than the stream keeps records (24 hours on AWS) or a table is upgraded from before the
//! boards existed: every record on GSI2 `MATCHES`, oldest first, through the same idempotent
//! counting as the stream's, under a fence of its own. What was counted already stays counted
//! once; what was missed is counted now. It can run while projectors run.

use crate::leaderboards::apply::{result_from_item, Applied};
use crate::leaderboards::projector::rebuild_fence;
use crate::store::keys;
use crate::store::tx::s;
use crate::store::{DataError, Db};

impl Db {
    /// Counts every match record in the table on the boards (those already counted change
    /// nothing). Returns what it did.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn rebuild_boards(&self) -> Result<Applied, DataError> {
        let fence = rebuild_fence(self).await?;
        let mut total = Applied::default();
        let mut start = None;
        loop {
            let (items, next) = self
                .query_page(
                    self.client
                        .query()
                        .index_name(keys::GSI2)
                        .key_condition_expression("#pk = :pk")
                        .expression_attribute_names("#pk", keys::GSI2PK)
                        .expression_attribute_values(":pk", s(keys::RECENT_MATCHES))
                        .scan_index_forward(true)
                        .limit(400),
                    start.take(),
                )
                .await?;
            let results: Vec<_> = items.iter().filter_map(result_from_item).collect();
            let seasons = self.seasons().await?;
            let applied = self
                .count_results(&fence, &results, &seasons)
                .await
                .map_err(|err| match err {
                    crate::leaderboards::apply::ApplyError::Data(err) => err,
                    crate::leaderboards::apply::ApplyError::LeaseLost => {
                        DataError::Internal("another rebuild started".into())
                    }
                })?;
            total.counted += applied.counted;
            total.transactions += applied.transactions;
            match next {
                Some(key) => start = Some(key),
                None => return Ok(total),
            }
        }
    }
}
