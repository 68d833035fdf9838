//! The table's shared secret (`SYSTEM` / `CURSOR_SECRET`): made once by the first instance on
//! the table, read by every other; it signs pagination cursors and the news instances pass each
//! other.

use aws_sdk_dynamodb::types::AttributeValue;

use super::cursor::{self, CursorKey};
use super::db::{Db, Item};
use super::error::DataError;
use super::keys;

impl Db {
    /// A MAC of `payload` under the table's shared secret (the one that signs cursors), for
    /// `purpose`. Every instance on the table computes the same tag; nobody without the secret
    /// can.
    pub async fn secret_tag(&self, purpose: &str, payload: &[u8]) -> Result<[u8; 32], DataError> {
        Ok(self.cursor_key().await?.tag(purpose, payload))
    }

    /// Makes sure the table's shared secret exists (one consistent GetItem; one conditional
    /// PutItem the first time any instance starts on the table). Servers call it at start, so
    /// that no request, answered or refused, is the one that writes it.
    pub async fn ensure_secret(&self) -> Result<(), DataError> {
        self.cursor_key().await.map(|_| ())
    }

    /// The cursor signing key, read from (or created in) the table on first use so that every
    /// instance on the table shares it.
    pub(crate) async fn cursor_key(&self) -> Result<&CursorKey, DataError> {
        self.cursors
            .get_or_try_init(|| self.load_or_create_cursor_secret())
            .await
    }

    async fn load_or_create_cursor_secret(&self) -> Result<CursorKey, DataError> {
        let key = keys::cursor_secret();
        let read = || async {
            let item = self
                .get(
                    self.client
                        .get_item()
                        .key(keys::PK, AttributeValue::S(key.pk.clone()))
                        .key(keys::SK, AttributeValue::S(key.sk.clone()))
                        .consistent_read(true),
                )
                .await?;
            item.and_then(|i| i.get("secret").and_then(|v| v.as_b().ok()).cloned())
                .map(|blob| {
                    <[u8; cursor::SECRET_LEN]>::try_from(blob.into_inner().as_slice())
                        .map(CursorKey::new)
                        .map_err(|_| {
                            DataError::Internal("stored cursor secret is malformed".into())
                        })
                })
                .transpose()
        };
        if let Some(found) = read().await? {
            return Ok(found);
        }
        let mut secret = [0u8; cursor::SECRET_LEN];
        getrandom::fill(&mut secret).map_err(|e| DataError::Internal(e.to_string().into()))?;
        let item = Item::from([("secret".into(), AttributeValue::B(secret.to_vec().into()))]);
        if self.put_if_absent(key.clone(), item).await? {
            Ok(CursorKey::new(secret))
        } else {
            // Another instance stored one first: use theirs.
            read()
                .await?
                .ok_or_else(|| DataError::Internal("cursor secret vanished".into()))
        }
    }
}
