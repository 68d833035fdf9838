//! Offers from strangers, all at once: a player declines every open offer from players they
//! have not played with in one action, and their places for strangers are free at once.

use super::trades::Places;
use super::Inventory;

use crate::inventory::model::{OfferId, UserId};
use crate::inventory::store::InventoryError;
use crate::store::keys;
use crate::store::tx::{n, s, update};
use crate::store::{epoch_millis, key_map, Conflict, DataError};

/// Reads of the count and transactions tried before giving up on a busy player.
const ATTEMPTS: u32 = 3;

impl Inventory<'_> {
    /// Declines every open offer made to `me` by a player they have not played with: a
    /// consistent GetItem of their count of offers, then one transaction that declines each
    /// (open, and made to `me`) and empties the count's strangers, conditioned on the count's
    /// version as read (an offer made or closed meanwhile: read again). How many it declined.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn decline_strangers(self, me: &UserId) -> Result<usize, InventoryError> {
        for _ in 0..ATTEMPTS {
            let item = self
                .get(
                    self.client
                        .get_item()
                        .set_key(Some(key_map(keys::offers_from_strangers(me))))
                        .consistent_read(true),
                )
                .await?;
            let places = Places::read(item.as_ref());
            let now = epoch_millis();
            let open: Vec<&String> = places
                .strangers
                .iter()
                .filter(|(_, expires)| **expires > now)
                .map(|(id, _)| id)
                .collect();
            if places.strangers.is_empty() {
                return Ok(0);
            }
            let mut actions = Vec::with_capacity(open.len() + 1);
            for id in &open {
                let Ok(id) = OfferId::parse(id) else {
                    continue;
                };
                actions.push(
                    self.update_action(
                        update(keys::offer(&id))
                            .update_expression("SET #status = :declined, answered_ms = :now")
                            .condition_expression("#status = :open AND #to = :me")
                            .expression_attribute_names("#status", "status")
                            .expression_attribute_names("#to", "to")
                            .expression_attribute_values(":declined", s("declined"))
                            .expression_attribute_values(":open", s("open"))
                            .expression_attribute_values(":now", n(now))
                            .expression_attribute_values(":me", s(me.as_str())),
                    )?,
                );
            }
            // Expired entries go too: nothing counts them any more.
            let count = update(keys::offers_from_strangers(me))
                .update_expression("REMOVE #open ADD version :one")
                .expression_attribute_names("#open", "open")
                .expression_attribute_values(":one", n(1));
            let count = match places.version {
                Some(version) => count
                    .condition_expression("version = :version")
                    .expression_attribute_values(":version", n(version)),
                None => count.condition_expression("attribute_not_exists(version)"),
            };
            actions.push(self.update_action(count)?);
            match self.transact(actions).await {
                Ok(()) => return Ok(open.len()),
                // An offer made, taken or closed since the read: read again.
                Err(DataError::Conflict(_)) => continue,
                Err(err) => return Err(err.into()),
            }
        }
        Err(InventoryError::Data(DataError::Conflict(
            Conflict::TransactionConflict,
        )))
    }
}
