//! Opaque, tamper-evident pagination cursors.
//!
//! A cursor is DynamoDB's `LastEvaluatedKey`, serialised and signed with HMAC-SHA256 under a
//! secret every server instance shares (kept in the table itself, see `Db::connect`). The MAC
//! also covers a *scope* naming the query the cursor belongs to, so a client can neither forge a
//! start key nor replay one query's cursor against another.

use std::collections::{BTreeMap, HashMap};

use aws_sdk_dynamodb::types::AttributeValue;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::error::DataError;

type HmacSha256 = Hmac<Sha256>;

/// Length of the shared signing secret, in bytes.
pub const SECRET_LEN: usize = 32;

/// Signs and verifies cursors. Cheap to clone.
#[derive(Clone)]
pub struct CursorKey {
    secret: [u8; SECRET_LEN],
}

impl std::fmt::Debug for CursorKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CursorKey(..)")
    }
}

impl CursorKey {
    pub fn new(secret: [u8; SECRET_LEN]) -> Self {
        Self { secret }
    }

    fn mac(&self, scope: &str, payload: &[u8]) -> HmacSha256 {
        let mut mac = HmacSha256::new_from_slice(&self.secret).expect("HMAC takes any key length");
        mac.update(&(scope.len() as u64).to_be_bytes());
        mac.update(scope.as_bytes());
        mac.update(payload);
        mac
    }

    /// A MAC of `payload` for another purpose than cursors (`purpose` keeps the uses apart, as
    /// a cursor's scope does): device cookies, the secret half of a match's seed.
    pub fn tag(&self, purpose: &str, payload: &[u8]) -> [u8; 32] {
        self.mac(purpose, payload).finalize().into_bytes().into()
    }

    /// Turns a `LastEvaluatedKey` into a cursor string for `scope`.
    pub fn seal(
        &self,
        scope: &str,
        last_key: &HashMap<String, AttributeValue>,
    ) -> Result<String, DataError> {
        let mut plain = BTreeMap::new();
        for (name, value) in last_key {
            let text = value.as_s().map_err(|_| {
                DataError::Internal(format!("key attribute {name} is not a string").into())
            })?;
            plain.insert(name.as_str(), text.as_str());
        }
        let payload = serde_json::to_vec(&plain).map_err(|e| DataError::Internal(e.into()))?;
        let tag = self.mac(scope, &payload).finalize().into_bytes();
        Ok(format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(&payload),
            URL_SAFE_NO_PAD.encode(tag)
        ))
    }

    /// Checks a cursor for `scope` and gives back the `ExclusiveStartKey` it stands for.
    pub fn open(
        &self,
        scope: &str,
        cursor: &str,
    ) -> Result<HashMap<String, AttributeValue>, DataError> {
        let (payload, tag) = cursor.split_once('.').ok_or(DataError::BadCursor)?;
        let payload = URL_SAFE_NO_PAD
            .decode(payload)
            .map_err(|_| DataError::BadCursor)?;
        let tag = URL_SAFE_NO_PAD
            .decode(tag)
            .map_err(|_| DataError::BadCursor)?;
        self.mac(scope, &payload)
            .verify_slice(&tag)
            .map_err(|_| DataError::BadCursor)?;
        let plain: BTreeMap<String, String> =
            serde_json::from_slice(&payload).map_err(|_| DataError::BadCursor)?;
        Ok(plain
            .into_iter()
            .map(|(name, value)| (name, AttributeValue::S(value)))
            .collect())
    }
}
