//! Every key string in the table is built here, from typed inputs, and nowhere else.
//!
//! Prefixes are part of the stored data: changing one is a data migration. The access-pattern
//! table in the README names which pattern reads which key.

use crate::auth::SessionHash;
use crate::catalog::ThingId;
use crate::players::{Email, UserId, Username};
use crate::rooms::RoomCode;

/// Partition key attribute.
pub const PK: &str = "PK";
/// Sort key attribute.
pub const SK: &str = "SK";
/// First overloaded global secondary index.
pub const GSI1: &str = "GSI1";
pub const GSI1PK: &str = "GSI1PK";
pub const GSI1SK: &str = "GSI1SK";
/// Second overloaded global secondary index.
pub const GSI2: &str = "GSI2";
pub const GSI2PK: &str = "GSI2PK";
pub const GSI2SK: &str = "GSI2SK";
/// Local secondary index: same partition, alternative sort.
pub const LSI1: &str = "LSI1";
pub const LSI1SK: &str = "LSI1SK";
/// Epoch seconds after which an item is gone (DynamoDB TTL attribute).
pub const TTL: &str = "ttl";

/// A base-table primary key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key {
    pub pk: String,
    pub sk: String,
}

/// A thing in the catalog: `OBJ#<id>` / `META`.
pub fn thing(id: &ThingId) -> Key {
    Key {
        pk: format!("OBJ#{}", id.as_str()),
        sk: "META".to_owned(),
    }
}

/// The catalog's collection on GSI1: every thing carries `GSI1PK = CATALOG`.
pub const CATALOG_COLLECTION: &str = "CATALOG";

/// GSI1 sort key of a thing inside the catalog collection: flyers and non-flyers are separate
/// ranges, so "only flyers" is a `begins_with` key condition, not a filter.
pub fn catalog_sort(flies: bool, id: &ThingId) -> String {
    format!("{}{}", catalog_prefix(Some(flies)), id.as_str())
}

/// The `begins_with` prefix that selects flyers (`Some(true)`), non-flyers (`Some(false)`) or
/// all things (`None`) in the catalog collection.
pub fn catalog_prefix(flies: Option<bool>) -> &'static str {
    match flies {
        Some(true) => "FLIES#Y#",
        Some(false) => "FLIES#N#",
        None => "FLIES#",
    }
}

/// Marker recording which version of the seed catalog the table holds.
pub fn catalog_seed_marker() -> Key {
    Key {
        pk: "SYSTEM".to_owned(),
        sk: "CATALOG_SEED".to_owned(),
    }
}

/// The secret that signs pagination cursors, shared by every server instance on the table.
pub fn cursor_secret() -> Key {
    Key {
        pk: "SYSTEM".to_owned(),
        sk: "CURSOR_SECRET".to_owned(),
    }
}

/// A player's own partition: `USER#<id>`. Profile now; stats, matches and inventory later.
pub fn user_partition(id: &UserId) -> String {
    format!("USER#{}", id.as_str())
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
        pk: format!("SESSION#{}", hash.as_str()),
        sk: "SESSION".to_owned(),
    }
}

/// GSI1 sort key of a session inside its player's partition (`GSI1PK = USER#<id>`), so all of a
/// player's sessions can be listed and revoked.
pub fn session_by_user(created_ms: i64, hash: &SessionHash) -> String {
    format!("SESSION#{created_ms:013}#{}", &hash.as_str()[..16])
}

/// A rate-limit counter for one key in one fixed window: `RATE#<key>` / `W#<window start>`.
pub fn rate_window(key: &str, window_start: i64) -> Key {
    Key {
        pk: format!("RATE#{key}"),
        sk: format!("W#{window_start}"),
    }
}

/// A room's partition: `ROOM#<code>`. META, players and nickname claims now; rounds and
/// clicks later. One Query of it renders the lobby.
pub fn room_partition(code: &RoomCode) -> String {
    format!("ROOM#{}", code.as_str())
}

/// A room's settings and state: `ROOM#<code>` / `META`.
pub fn room_meta(code: &RoomCode) -> Key {
    Key {
        pk: room_partition(code),
        sk: "META".to_owned(),
    }
}

/// A player in a room: `ROOM#<code>` / `PLAYER#<id>`.
pub fn room_player(code: &RoomCode, user: &UserId) -> Key {
    Key {
        pk: room_partition(code),
        sk: format!("{ROOM_PLAYER_PREFIX}{}", user.as_str()),
    }
}

/// Sort-key prefix of the players in a room partition.
pub const ROOM_PLAYER_PREFIX: &str = "PLAYER#";

/// LSI1 sort key of a player: join order, so the longest-present player is first.
pub fn room_player_joined(joined_ms: i64, user: &UserId) -> String {
    format!("JOINED#{joined_ms:013}#{}", user.as_str())
}

/// Claims a nickname inside a room: `ROOM#<code>` / `NICK#<folded name>`.
pub fn room_nickname(code: &RoomCode, folded: &str) -> Key {
    Key {
        pk: room_partition(code),
        sk: format!("NICK#{folded}"),
    }
}

/// GSI2 partition of public rooms still in the lobby (a sparse index: only those rooms carry
/// `GSI2PK`), newest first by `GSI2SK = <created ms>#<code>`.
pub const OPEN_ROOMS: &str = "ROOMS#OPEN";

pub fn open_room_sort(created_ms: i64, code: &RoomCode) -> String {
    format!("{created_ms:013}#{}", code.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> ThingId {
        ThingId::parse(s).expect("valid id")
    }

    #[test]
    fn thing_key_uses_object_prefix() {
        assert_eq!(
            thing(&id("crow")),
            Key {
                pk: "OBJ#crow".into(),
                sk: "META".into()
            }
        );
    }

    #[test]
    fn catalog_sort_keys_fall_inside_their_prefixes() {
        let crow = catalog_sort(true, &id("crow"));
        let cow = catalog_sort(false, &id("cow"));
        assert!(crow.starts_with(catalog_prefix(Some(true))));
        assert!(!crow.starts_with(catalog_prefix(Some(false))));
        assert!(cow.starts_with(catalog_prefix(Some(false))));
        assert!(crow.starts_with(catalog_prefix(None)) && cow.starts_with(catalog_prefix(None)));
    }

    #[test]
    fn identity_keys_keep_their_entities_apart() {
        let user = UserId::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap();
        assert_eq!(user_profile(&user).pk, user_credentials(&user).pk);
        assert_ne!(user_profile(&user).sk, user_credentials(&user).sk);
        let name = Username::parse("asha").unwrap();
        assert_eq!(username(&name).pk, "USERNAME#asha");
        let address = Email::parse("a@b.co").unwrap();
        assert_eq!(email(&address).pk, credentials_by_email(&address));
        let hash = crate::auth::SessionToken::generate().hash();
        assert!(session_by_user(1_700_000_000_000, &hash).starts_with("SESSION#1700000000000#"));
    }

    #[test]
    fn system_items_do_not_collide() {
        assert_ne!(catalog_seed_marker(), cursor_secret());
    }
}
