//! The projector's leases and checkpoints: taking and renewing a shard's lease, saving how far a
//! shard is read under the lease's token, and what operators and pages read (a lease, when the
//! boards were last updated).

use aws_sdk_dynamodb::types::ReturnValue;

use super::Boards;
use crate::leaderboards::projector::{BatchError, Held, Projector};
use crate::leaderboards::store::apply::Fence;
use crate::store::expr::{attr, Cond, Expr, Expressions, Update};
use crate::store::keys;
use crate::store::retry::{holds, Written};
use crate::store::tx::{n, s};
use crate::store::{epoch_millis, key_map, Conflict, DataError};

/// The part of a lease item the waiting projector reads.
#[derive(Debug, serde::Deserialize)]
struct LeaseItem {
    #[serde(default)]
    finished: bool,
    expires_ms: Option<i64>,
}

impl Projector {
    /// One UpdateItem of the lease `held` (its read place, or its letting go).
    async fn write_lease(&self, held: &Held, write: Expr) -> Result<(), DataError> {
        let request = self
            .db
            .client
            .update_item()
            .set_key(Some(key_map(held.fence.lease.clone())))
            .expressions(write);
        self.db.update_item(request).await
    }

    /// This projector still holds the lease it took with `token`.
    fn holding(&self, token: u64) -> Cond {
        Cond::eq(attr("holder"), s(self.holder.clone()))
            .and(Cond::eq(attr("lease_token"), n(token)))
    }

    /// Whether a shard was read to its end (a finished shard stays finished: asked once).
    pub(in crate::leaderboards) async fn finished(
        &mut self,
        shard: &str,
    ) -> Result<bool, DataError> {
        if self.waiting.get(shard) == Some(&i64::MAX) {
            return Ok(true);
        }
        let finished = self.lease_item(shard).await?.is_some_and(|i| i.finished);
        if finished {
            self.waiting.insert(shard.to_owned(), i64::MAX);
        }
        Ok(finished)
    }

    /// A shard's lease item, read strongly.
    async fn lease_item(&self, shard: &str) -> Result<Option<LeaseItem>, DataError> {
        let item = self
            .db
            .get(
                self.db
                    .client
                    .get_item()
                    .set_key(Some(key_map(keys::projector_shard(shard))))
                    .consistent_read(true),
            )
            .await?;
        item.map(|i| serde_dynamo::from_item(i).map_err(DataError::from))
            .transpose()
    }

    /// Holds `shard`'s lease (renewing it when half gone, taking it when free); the index of
    /// the held shard, or `None` when another instance holds it or it is finished. A shard
    /// held elsewhere is asked for again only once its lease has run out.
    pub(in crate::leaderboards) async fn hold(
        &mut self,
        shard: &str,
    ) -> Result<Option<usize>, DataError> {
        let now = epoch_millis();
        let key = keys::projector_shard(shard);
        if self.waiting.get(shard).is_some_and(|&until| now <= until) {
            return Ok(None);
        }
        if let Some(index) = self.held.iter().position(|h| h.shard == shard) {
            if self.held[index].expires_ms - now > self.lease_ms / 2 {
                return Ok(Some(index));
            }
            let renew = self
                .db
                .client
                .update_item()
                .table_name(self.db.table_name())
                .set_key(Some(key_map(key)))
                .expressions(
                    Expr::update(Update::new().set(attr("expires_ms"), n(now + self.lease_ms)))
                        .when(self.holding(self.held[index].fence.token)),
                );
            return match self.db.update_item(renew).await {
                Ok(_) => {
                    self.held[index].expires_ms = now + self.lease_ms;
                    Ok(Some(index))
                }
                Err(DataError::Conflict(Conflict::ConditionFailed)) => {
                    tracing::warn!(shard, "board projector lost its lease");
                    self.held.remove(index);
                    Ok(None)
                }
                Err(err) => Err(err),
            };
        }
        let take = self
            .db
            .client
            .update_item()
            .set_key(Some(key_map(key.clone())))
            .expressions(
                Expr::update(
                    Update::new()
                        .set(attr("holder"), s(self.holder.clone()))
                        .set(attr("expires_ms"), n(now + self.lease_ms))
                        .add(attr("lease_token"), n(1)),
                )
                .when(
                    Cond::not_exists(attr(keys::PK))
                        .or(Cond::lt(attr("expires_ms"), n(now)))
                        .and(Cond::not_exists(attr("finished"))),
                ),
            );
        let expires_ms = now + self.lease_ms;
        let taken = match self.db.update_written(take, ReturnValue::AllNew).await? {
            Written::Applied(item) => Ok(item.unwrap_or_default()),
            // This take's own copy, sent again after its answer was lost: the lease is ours.
            Written::Refused(item)
                if holds(
                    &item,
                    &[
                        ("holder", s(self.holder.clone())),
                        ("expires_ms", n(expires_ms)),
                    ],
                ) =>
            {
                Ok(item)
            }
            Written::Refused(item) => Err(item),
        };
        match taken {
            Ok(item) => {
                let token = item
                    .get("lease_token")
                    .and_then(|v| v.as_n().ok()?.parse().ok())
                    .ok_or_else(|| DataError::Internal("a lease without a token".into()))?;
                let checkpoint = item.get("checkpoint").and_then(|v| v.as_s().ok()).cloned();
                tracing::info!(shard, token, "board projector took a lease");
                self.held.push(Held {
                    shard: shard.to_owned(),
                    fence: Fence { lease: key, token },
                    expires_ms: now + self.lease_ms,
                    checkpoint,
                    iterator: None,
                    checkpointed_ms: now,
                });
                self.waiting.remove(shard);
                Ok(Some(self.held.len() - 1))
            }
            Err(item) => {
                // Held elsewhere or finished (the refusal says until when): wait until then.
                let lease: LeaseItem = serde_dynamo::from_item(item)?;
                let until = match lease {
                    LeaseItem { finished: true, .. } => i64::MAX,
                    lease => lease.expires_ms.unwrap_or(0),
                };
                self.waiting.insert(shard.to_owned(), until);
                Ok(None)
            }
        }
    }

    /// Lets go of every held shard (on shutdown): its checkpoint saved and its lease made to
    /// expire now, under the token, so that another instance takes it at its next pass. The
    /// shards let go of; one that fails stays leased until it runs out (nothing is lost
    /// either way: the next holder starts from the last checkpoint).
    pub async fn release(&mut self) -> Vec<String> {
        let mut released = Vec::new();
        for held in std::mem::take(&mut self.held) {
            let mut gone = Update::new().set(attr("expires_ms"), n(0));
            if let Some(sequence) = &held.checkpoint {
                gone = gone.set(attr("checkpoint"), s(sequence));
            }
            let write = Expr::update(gone).when(self.holding(held.fence.token));
            match self.write_lease(&held, write).await {
                Ok(_) => {
                    tracing::info!(shard = held.shard, "board projector let go of its lease");
                    released.push(held.shard);
                }
                Err(err) => {
                    tracing::warn!(shard = held.shard, error = ?err, "letting go of a lease failed; it runs out")
                }
            }
        }
        released
    }

    /// Saves how far the shard is read (and whether to its end), under the token.
    pub(in crate::leaderboards) async fn checkpoint(
        &self,
        held: &Held,
        sequence: Option<&str>,
        finished: bool,
        counted: bool,
    ) -> Result<(), BatchError> {
        let now = epoch_millis();
        let mut read = Update::new().set(attr("read_ms"), n(now));
        if let Some(sequence) = sequence {
            read = read.set(attr("checkpoint"), s(sequence));
        }
        if finished {
            read = read.set(
                attr("finished"),
                aws_sdk_dynamodb::types::AttributeValue::Bool(true),
            );
        }
        let write = Expr::update(read).when(Cond::eq(attr("lease_token"), n(held.fence.token)));
        match self.write_lease(held, write).await {
            Ok(_) => {}
            Err(DataError::Conflict(Conflict::ConditionFailed)) => {
                return Err(BatchError::LeaseLost)
            }
            Err(err) => return Err(BatchError::Failed(err.into())),
        }
        if counted {
            self.db
                .boards()
                .mark_boards_updated(now)
                .await
                .map_err(|e| BatchError::Failed(e.into()))?;
        }
        Ok(())
    }
}

impl Boards<'_> {
    /// Notes when the boards were last brought up to date (`PROJECTOR` / `STATUS`).
    pub(crate) async fn mark_boards_updated(self, now_ms: i64) -> Result<(), DataError> {
        let request = self
            .client
            .update_item()
            .table_name(self.table_name())
            .set_key(Some(key_map(keys::projector_status())))
            .expressions(
                Expr::update(Update::new().set(attr("applied_ms"), n(now_ms))).when(
                    Cond::not_exists(attr("applied_ms"))
                        .or(Cond::lt(attr("applied_ms"), n(now_ms))),
                ),
            );
        match self.update_item(request).await {
            Ok(_) | Err(DataError::Conflict(Conflict::ConditionFailed)) => Ok(()),
            Err(err) => Err(err),
        }
    }

    /// When the boards were last brought up to date, if ever: one GetItem.
    pub async fn boards_updated_ms(self) -> Result<Option<i64>, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::projector_status()))),
            )
            .await?;
        Ok(item.and_then(|i| {
            i.get("applied_ms")
                .and_then(|v| v.as_n().ok()?.parse().ok())
        }))
    }

    /// A shard's lease as stored: (holder, token, expires ms). For tests and operators.
    pub async fn projector_lease(
        self,
        shard: &str,
    ) -> Result<Option<(String, u64, i64)>, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::projector_shard(shard))))
                    .consistent_read(true),
            )
            .await?;
        Ok(item.and_then(|i| {
            Some((
                i.get("holder")?.as_s().ok()?.clone(),
                i.get("lease_token")?.as_n().ok()?.parse().ok()?,
                i.get("expires_ms")?.as_n().ok()?.parse().ok()?,
            ))
        }))
    }
}
