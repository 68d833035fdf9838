//! Offers from strangers, all at once: a player declines every open offer from players they
//! have not played with in one action, and their places for strangers are free at once.

use super::trades::Places;
use super::Inventory;

use crate::inventory::model::{OfferId, UserId};
use crate::inventory::store::InventoryError;
use crate::store::expr::{attr, Cond, Expr, Expressions, Update};
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
                        update(keys::offer(&id)).expressions(
                            Expr::update(
                                Update::new()
                                    .set(attr("status"), s("declined"))
                                    .set(attr("answered_ms"), n(now)),
                            )
                            .when(
                                Cond::eq(attr("status"), s("open"))
                                    .and(Cond::eq(attr("to"), s(me.as_str()))),
                            ),
                        ),
                    )?,
                );
            }
            // Expired entries go too: nothing counts them any more.
            let emptied = Update::new()
                .remove(attr("open"))
                .add(attr("version"), n(1));
            let unchanged = match places.version {
                Some(version) => Cond::eq(attr("version"), n(version)),
                None => Cond::not_exists(attr("version")),
            };
            let count = update(keys::offers_from_strangers(me))
                .expressions(Expr::update(emptied).when(unchanged));
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
