//! Access pattern: how many live streams one client holds, across every server instance.
//!
//! A stream is long-lived, so a plain rate limit cannot cap how many are open at once, and an
//! instance's own count knows nothing of the others. Instead each open stream is counted in
//! fixed windows of [`STREAM_WINDOW_SECS`]: `STREAMS#<client>` / `W#<window>` holds `n`, the
//! streams of that client alive during the window.
//!
//! - Opening counts the stream in the current window, only while fewer than the cap are
//!   counted there (one conditional `ADD`); past the window's middle it counts it in the next
//!   window too (unconditional).
//! - An open stream counts itself in the next window at the middle of each window, so when a
//!   window begins every stream still open is already in its count, and new streams are
//!   admitted only into what is left under the cap.
//! - Closing uncounts it from the current window and any later one it was counted in.
//!
//! An instance that dies stops renewing, so its streams drop out of the count within two
//! windows. Cost: about 1.5 writes to open, one per window (five minutes) while open, one or two
//! to close.

use super::Live;
use aws_sdk_dynamodb::types::ReturnValue;

use crate::store::expr::{attr, Cond, Expr, Expressions, Update};
use crate::store::keys;
use crate::store::tx::n;
use crate::store::{epoch_seconds, key_map, Conflict, DataError};

/// The length of a counting window. Each open stream costs one write per window, so a long one
/// keeps that small next to the game's own writes (at one minute, the load generator measured
/// the streams' bookkeeping at 0.1–0.3 write units per player-round); the price is that a dead
/// instance's streams stay in their clients' counts for up to two windows.
pub const STREAM_WINDOW_SECS: i64 = 300;

/// The window `now` (epoch seconds) falls in.
pub fn stream_window(now: i64) -> i64 {
    now.div_euclid(STREAM_WINDOW_SECS)
}

impl Live<'_> {
    /// Counts a new stream of `client` if fewer than `max` are counted in the current window.
    /// Returns the last window it is counted in (the current one, or the next once past the
    /// current one's middle), or `None` at the cap.
    #[tracing::instrument(skip(self, client), err(level = "debug"))]
    pub async fn count_stream(self, client: &str, max: u32) -> Result<Option<i64>, DataError> {
        let now = epoch_seconds();
        let window = stream_window(now);
        if !self.add_stream(client, window, 1, Some(max)).await? {
            return Ok(None);
        }
        if now - window * STREAM_WINDOW_SECS >= STREAM_WINDOW_SECS / 2 {
            self.add_stream(client, window + 1, 1, None).await?;
            return Ok(Some(window + 1));
        }
        Ok(Some(window))
    }

    /// Counts a stream that is still open in `window` (no cap: it was admitted already).
    #[tracing::instrument(skip(self, client), err(level = "debug"))]
    pub async fn renew_stream(self, client: &str, window: i64) -> Result<(), DataError> {
        self.add_stream(client, window, 1, None).await.map(|_| ())
    }

    /// Uncounts a closed stream from the windows `from..=to` it was counted in.
    #[tracing::instrument(skip(self, client), err(level = "debug"))]
    pub async fn release_stream(self, client: &str, from: i64, to: i64) -> Result<(), DataError> {
        for window in from..=to {
            self.add_stream(client, window, -1, None).await?;
        }
        Ok(())
    }

    /// Streams of `client` counted in `window` (a consistent GetItem; for tests and operators).
    pub async fn streams_counted(self, client: &str, window: i64) -> Result<i64, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::stream_window(client, window))))
                    .consistent_read(true),
            )
            .await?;
        Ok(item
            .and_then(|item| item.get("n").and_then(|n| n.as_n().ok()?.parse().ok()))
            .unwrap_or(0))
    }

    /// `ADD n :delta` on the window's counter, under `n < max` when given. `false` at the cap.
    async fn add_stream(
        self,
        client: &str,
        window: i64,
        delta: i64,
        max: Option<u32>,
    ) -> Result<bool, DataError> {
        let expires = (window + 2) * STREAM_WINDOW_SECS;
        let count = Update::new()
            .add(attr("n"), n(delta))
            .set(attr(keys::TTL), n(expires));
        let count = match max {
            Some(max) => Expr::update(count)
                .when(Cond::not_exists(attr("n")).or(Cond::lt(attr("n"), n(max)))),
            None => Expr::update(count),
        };
        let request = self
            .client
            .update_item()
            .table_name(self.table_name())
            .set_key(Some(key_map(keys::stream_window(client, window))))
            .expressions(count)
            .return_values(ReturnValue::None);
        match self.update_item(request).await {
            Ok(_) => Ok(true),
            Err(DataError::Conflict(Conflict::ConditionFailed)) => Ok(false),
            Err(err) => Err(err),
        }
    }
}
