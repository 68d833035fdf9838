//! The registry of live instances: `INSTANCES` / `I#<id>`, written by each instance every
//! [`ANNOUNCE_EVERY_MS`](crate::live::peers::ANNOUNCE_EVERY_MS) and read as often (see `live::peers`).

use aws_sdk_dynamodb::types::AttributeValue;

use super::Live;
use crate::live::peers::{Peer, LIVE_FOR_MS};
use crate::store::keys::{self, Keyed};
use crate::store::{epoch_millis, key_map, DataError};

impl Live<'_> {
    /// Announces this instance (`id`, reachable at `address`) as live now.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn announce_instance(self, id: &str, address: &str) -> Result<(), DataError> {
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
    /// consistent Query (an instance that announced a moment ago is in it).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn live_instances(self) -> Result<Vec<Peer>, DataError> {
        let now = epoch_millis();
        let items = self
            .query_all(
                self.query_partition(Keyed::Table, keys::INSTANCES)
                    .consistent_read(true),
            )
            .await?;
        Ok(items
            .iter()
            .filter_map(|item| {
                let id = keys::instance_of(item.get(keys::SK)?.as_s().ok()?)?.to_owned();
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
    pub async fn retire_instance(self, id: &str) -> Result<(), DataError> {
        self.delete_key(keys::instance(id)).await
    }
}
