//! The health probe: the table's status and a one-item Scan round trip. This is the only Scan
//! in the code base, and it reads at most one item.

use std::time::Instant;

use super::db::{send_recorded, Db};
use super::error::DataError;

/// What the probe saw.
#[derive(Debug, Clone, PartialEq)]
pub struct TableHealth {
    /// `ACTIVE`, `CREATING`, ... or `MISSING`.
    pub status: String,
    /// Round trip of the one-item Scan in milliseconds; `None` when the table is missing.
    pub probe_ms: Option<f64>,
}

impl Db {
    /// DescribeTable, then a Scan with `Limit 1`.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn health_probe(&self) -> Result<TableHealth, DataError> {
        let Some(status) = self.table_status().await? else {
            return Ok(TableHealth {
                status: "MISSING".to_owned(),
                probe_ms: None,
            });
        };
        let started = Instant::now();
        send_recorded!(
            self,
            "Scan",
            self.client.scan().table_name(self.table_name()).limit(1)
        )?;
        Ok(TableHealth {
            status: status.as_str().to_owned(),
            probe_ms: Some(started.elapsed().as_secs_f64() * 1e3),
        })
    }
}
