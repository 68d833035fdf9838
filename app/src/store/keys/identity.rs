//! Players' keys: their partition, profile, credentials, unique names and emails, sessions.

use super::table::Key;
#[cfg(feature = "ssr")]
use crate::ids::SessionHash;
use crate::ids::{Email, UserId, Username};

/// A player's own partition: `USER#<id>`. Profile now; stats, matches and inventory later.
pub fn user_partition(id: &UserId) -> String {
    format!("{USER_PREFIX}{}", id.as_str())
}

/// The prefix of a player's partition.
pub const USER_PREFIX: &str = "USER#";

/// Whose partition `pk` is, if it is a player's.
pub fn user_of_partition(pk: &str) -> Option<UserId> {
    UserId::parse(pk.strip_prefix(USER_PREFIX)?).ok()
}

/// A player's profile: `USER#<id>` / `PROFILE`.
pub fn user_profile(id: &UserId) -> Key {
    Key {
        pk: user_partition(id),
        sk: "PROFILE".to_owned(),
    }
}

/// A claimed account's sign-in secrets, apart from the profile so profile reads never carry
/// them: `USER#<id>` / `CREDENTIALS`.
pub fn user_credentials(id: &UserId) -> Key {
    Key {
        pk: user_partition(id),
        sk: "CREDENTIALS".to_owned(),
    }
}

/// Owns a username: `USERNAME#<name>` / `UNIQUE`, written in the claim's transaction.
pub fn username(name: &Username) -> Key {
    Key {
        pk: format!("USERNAME#{}", name.as_str()),
        sk: "UNIQUE".to_owned(),
    }
}

/// Owns an email address: `EMAIL#<address>` / `UNIQUE`.
pub fn email(address: &Email) -> Key {
    Key {
        pk: format!("EMAIL#{}", address.as_str()),
        sk: "UNIQUE".to_owned(),
    }
}

/// GSI1 partition that finds an account's credentials by email.
pub fn credentials_by_email(address: &Email) -> String {
    format!("EMAIL#{}", address.as_str())
}

/// A sign-in session, by the SHA-256 of its token: `SESSION#<hash>` / `SESSION`.
pub fn session(hash: &SessionHash) -> Key {
    Key {
        pk: format!("{SESSION_PREFIX}{}", hash.as_str()),
        sk: "SESSION".to_owned(),
    }
}

/// GSI1 sort key of a session inside its player's partition (`GSI1PK = USER#<id>`), so all of a
/// player's sessions can be listed and revoked.
pub fn session_by_user(created_ms: i64, hash: &SessionHash) -> String {
    format!("{SESSION_PREFIX}{created_ms:013}#{}", &hash.as_str()[..16])
}

/// The prefix of a session's partition, and of its GSI1 sort key in its player's partition.
pub const SESSION_PREFIX: &str = "SESSION#";
