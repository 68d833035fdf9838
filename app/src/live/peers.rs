//! Access pattern: the server instances sharing the table, so that one can tell the others
//! at once that a room changed (instead of each polling every room it watches).
//!
//! Each instance announces itself every [`ANNOUNCE_EVERY_MS`]: `INSTANCES` / `I#<id>` holds
//! the address its peers reach it at and when it last announced (`seen_ms`), and expires by
//! TTL. An instance reads the partition (one Query) as often, and takes as live the instances
//! seen within [`LIVE_FOR_MS`]. Leaving, it deletes its item. An instance that dies drops out
//! of its peers' lists within [`LIVE_FOR_MS`]; until then pokes sent to it fail quickly and
//! are dropped (the watchers' slow poll is the safety net).
//!
//! Cost: per instance, one write and one Query (a few small items: 0.5 RCU) every
//! [`ANNOUNCE_EVERY_MS`], whatever the number of rooms.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::store::keys::{self, Keyed};
use crate::store::{epoch_millis, key_map, send_recorded, DataError, Db};

/// How often an instance announces itself and reads its peers.
pub const ANNOUNCE_EVERY_MS: i64 = 5_000;

/// An instance not seen for this long is taken as gone.
pub const LIVE_FOR_MS: i64 = 3 * ANNOUNCE_EVERY_MS;

/// Another instance, as it announced itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Peer {
    pub id: String,
    /// Where peers reach it (`http://host:port`).
    pub address: String,
    pub seen_ms: i64,
}

impl Db {
    /// Announces this instance (`id`, reachable at `address`) as live now.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn announce_instance(&self, id: &str, address: &str) -> Result<(), DataError> {
        let now = epoch_millis();
        let mut item = key_map(keys::instance(id));
        item.insert("address".into(), AttributeValue::S(address.to_owned()));
        item.insert("seen_ms".into(), AttributeValue::N(now.to_string()));
        item.insert(
            keys::TTL.into(),
            AttributeValue::N(((now + LIVE_FOR_MS) / 1000 + 60).to_string()),
        );
        self.put(self.client.put_item().set_item(Some(item))).await
    }

    /// The instances seen within [`LIVE_FOR_MS`], this one included if it announced: one
    /// eventually consistent Query.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn live_instances(&self) -> Result<Vec<Peer>, DataError> {
        let now = epoch_millis();
        let items = self
            .query_all(self.query_partition(Keyed::Table, keys::INSTANCES))
            .await?;
        Ok(items
            .iter()
            .filter_map(|item| {
                let id = item
                    .get(keys::SK)?
                    .as_s()
                    .ok()?
                    .strip_prefix("I#")?
                    .to_owned();
                let address = item.get("address")?.as_s().ok()?.clone();
                let seen_ms = item.get("seen_ms")?.as_n().ok()?.parse().ok()?;
                Some(Peer {
                    id,
                    address,
                    seen_ms,
                })
            })
            .filter(|peer| now - peer.seen_ms <= LIVE_FOR_MS)
            .collect())
    }

    /// Takes this instance off the list (on shutdown).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn retire_instance(&self, id: &str) -> Result<(), DataError> {
        send_recorded!(
            self,
            "DeleteItem",
            self.client
                .delete_item()
                .table_name(self.table_name())
                .set_key(Some(key_map(keys::instance(id))))
        )?;
        Ok(())
    }
}
