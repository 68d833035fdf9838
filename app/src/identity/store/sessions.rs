//! Sessions: the item a session cookie's token hash names (`SESSION#<hash>`), read on every
//! request that acts for a player and extended while in use; started on sign-in (rotating the
//! old one out in the same transaction) and ended on sign-out, one or all of a player's.

use super::Accounts;
use aws_sdk_dynamodb::types::{Delete, TransactWriteItem};

use crate::identity::auth::SessionHash;
use crate::identity::model::UserId;
use crate::identity::store::{
    session_item, Session, SessionItem, GUEST_GRACE_SECS, SESSION_LIFETIME_SECS,
    SESSION_REFRESH_BELOW_SECS,
};
use crate::store::expr::{attr, Cond, Expr, Expressions, Update};
use crate::store::keys;
use crate::store::tx::n;
use crate::store::{epoch_millis, epoch_seconds, key_map, Conflict, DataError, Item};

impl Accounts<'_> {
    /// The session a cookie's token hash stands for, if it is live. A session used in the second
    /// half of its life is extended (one conditional UpdateItem), so active players stay in.
    #[tracing::instrument(skip_all, err(level = "debug"))]
    pub async fn session(self, hash: &SessionHash) -> Result<Option<Session>, DataError> {
        let Some(item) = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::session(hash)))),
            )
            .await?
        else {
            return Ok(None);
        };
        let item: SessionItem = serde_dynamo::from_item(item)?;
        let now = epoch_seconds();
        let mut expires_at = item.ttl;
        if item.ttl - now < SESSION_REFRESH_BELOW_SECS {
            expires_at = now + SESSION_LIFETIME_SECS;
            let refresh = Update::new().set(attr(keys::TTL), n(expires_at));
            if !self.change_session(hash, refresh).await? {
                // Signed out in the meantime.
                return Ok(None);
            }
            self.extend_guest(&item.user_id, expires_at + GUEST_GRACE_SECS)
                .await?;
        }
        Ok(Some(Session {
            user_id: item.user_id,
            expires_at,
            latency_ms: item.latency_ms,
        }))
    }

    /// Keeps `latency_ms`, a round trip the server timed for the session `hash` (see
    /// `game::api::server_time`), on the session's item: one conditional UpdateItem, nothing
    /// for a session that is gone. A tap reads it with the session, at no cost of its own.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn time_session(self, hash: &SessionHash, latency_ms: u32) -> Result<(), DataError> {
        let timed = Update::new().set(attr("latency_ms"), n(latency_ms));
        self.change_session(hash, timed).await.map(drop)
    }

    /// Writes `change` to the session `hash` if it is still there: one conditional UpdateItem.
    /// Whether it was (`false`: signed out in the meantime, and nothing written).
    async fn change_session(self, hash: &SessionHash, change: Update) -> Result<bool, DataError> {
        let request = self
            .client
            .update_item()
            .set_key(Some(key_map(keys::session(hash))))
            .expressions(Expr::update(change).when(Cond::exists(attr(keys::PK))));
        match self.update_item(request).await {
            Ok(()) => Ok(true),
            Err(DataError::Conflict(Conflict::ConditionFailed)) => Ok(false),
            Err(err) => Err(err),
        }
    }

    /// Moves a guest profile's expiry to `ttl` (a claimed profile has none, and is left alone).
    async fn extend_guest(self, user: &UserId, ttl: i64) -> Result<(), DataError> {
        let extend = Expr::update(Update::new().set(attr(keys::TTL), n(ttl)))
            .when(Cond::exists(attr(keys::TTL)));
        let request = self
            .client
            .update_item()
            .set_key(Some(key_map(keys::user_profile(user))))
            .expressions(extend);
        match self.update_item(request).await {
            Ok(_) | Err(DataError::Conflict(Conflict::ConditionFailed)) => Ok(()),
            Err(err) => Err(err),
        }
    }

    /// Starts a session for `user`, ending `replacing` in the same transaction (rotation on
    /// sign-in, so a token known before sign-in is worthless after it).
    #[tracing::instrument(skip_all, fields(user = %user), err(level = "debug"))]
    pub async fn start_session(
        self,
        user: &UserId,
        session: &SessionHash,
        replacing: Option<&SessionHash>,
    ) -> Result<(), DataError> {
        let mut actions = vec![self.put_new(serde_dynamo::to_item(session_item(
            user,
            session,
            epoch_millis(),
        ))?)?];
        if let Some(old) = replacing {
            let delete = Delete::builder()
                .table_name(self.table_name())
                .set_key(Some(key_map(keys::session(old))))
                .build()
                .map_err(|e| DataError::Internal(e.into()))?;
            actions.push(TransactWriteItem::builder().delete(delete).build());
        }
        self.transact(actions).await
    }

    /// Ends one session (sign out). Ending an unknown session is not an error.
    #[tracing::instrument(skip_all, err(level = "debug"))]
    pub async fn end_session(self, hash: &SessionHash) -> Result<(), DataError> {
        self.delete_key(keys::session(hash)).await
    }

    /// Ends every session of a player ("sign out everywhere"): one Query on GSI1, then deletes.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn end_all_sessions(self, user: &UserId) -> Result<usize, DataError> {
        let sessions = self
            .query_all(self.query_prefix(
                keys::Keyed::Gsi1,
                keys::user_partition(user),
                keys::SESSION_PREFIX,
            ))
            .await?;
        let deletes = sessions
            .iter()
            .map(|item| {
                let key: Item = [keys::PK, keys::SK]
                    .iter()
                    .filter_map(|name| item.get(*name).map(|v| ((*name).to_owned(), v.clone())))
                    .collect();
                crate::store::tx::delete_request(key)
            })
            .collect::<Result<Vec<_>, DataError>>()?;
        let ended = deletes.len();
        self.batch_write(deletes).await?;
        Ok(ended)
    }
}
