//! Rebuilding the boards from the match records themselves, for when the projector was down
//! longer than the stream keeps records (24 hours on AWS) or a table is upgraded from before the
//! boards existed: every record on GSI2 (the sixteen `MATCHES#<nn>` shards, and `MATCHES`, where
//! records were written before the shards), each partition oldest first, through the same idempotent
//! counting as the stream's. What was counted already stays counted once; what was missed is
//! counted now. It can run while projectors run: the entries it writes reach the boards' trees
//! through the stream, as the projector's own do.

use super::Boards;
use crate::leaderboards::store::apply::{result_from_item, Applied};
use crate::store::keys;
use crate::store::DataError;

impl Boards<'_> {
    /// Counts every match record in the table on the boards (those already counted change
    /// nothing). Returns what it did.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn rebuild_boards(self) -> Result<Applied, DataError> {
        let mut total = Applied::default();
        for partition in keys::record_partitions() {
            let mut start = None;
            loop {
                let (items, next) = self
                    .query_page(
                        self.query_partition(keys::Keyed::Gsi2, partition.clone())
                            .scan_index_forward(true)
                            .limit(400),
                        start.take(),
                    )
                    .await?;
                let results: Vec<_> = items.iter().filter_map(result_from_item).collect();
                let seasons = self.seasons().await?;
                let applied = self.count_results(&results, &seasons).await?;
                total.counted += applied.counted;
                total.writes += applied.writes;
                total.retries += applied.retries;
                match next {
                    Some(key) => start = Some(key),
                    None => break,
                }
            }
        }
        Ok(total)
    }
}
