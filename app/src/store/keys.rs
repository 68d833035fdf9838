//! Every key string in the table is built here, from typed inputs, and nowhere else.
//!
//! Prefixes are part of the stored data: changing one is a data migration. The access-pattern
//! table in the README names which pattern reads which key.

#[cfg(feature = "ssr")]
use crate::ids::SessionHash;
use crate::ids::{Email, RoomCode, ThingId, UserId, Username};

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

/// A client's open live streams counted in one window: `STREAMS#<client address>` /
/// `W#<window number>`.
pub fn stream_window(client: &str, window: i64) -> Key {
    Key {
        pk: format!("STREAMS#{client}"),
        sk: format!("W#{window}"),
    }
}

/// A room's partition: `ROOM#<code>`. META, players and nickname claims now; rounds and
/// clicks later. One Query of it renders the lobby.
pub fn room_partition(code: &RoomCode) -> String {
    format!("ROOM#{}", code.as_str())
}

/// A room's settings and state: `ROOM#<code>` / `META`.
/// Sort key of a room's META item.
pub const ROOM_META: &str = "META";

pub fn room_meta(code: &RoomCode) -> Key {
    Key {
        pk: room_partition(code),
        sk: ROOM_META.to_owned(),
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

/// Sort-key prefix of a room's rounds.
pub const ROUND_PREFIX: &str = "ROUND#";

/// A round of a room's match: `ROOM#<code>` / `ROUND#<n>`, `n` counted across the room's
/// matches (zero-padded to 5 digits) so a new match never meets an old match's taps.
pub fn round(code: &RoomCode, n: u32) -> Key {
    Key {
        pk: room_partition(code),
        sk: format!("{ROUND_PREFIX}{n:05}"),
    }
}

/// The `begins_with` prefix of round `n`'s taps. The `#` after the fixed-width number keeps
/// round 1 from matching round 10.
pub fn click_prefix(n: u32) -> String {
    format!("CLICK#{n:05}#")
}

/// One player's tap in round `n`: `ROOM#<code>` / `CLICK#<n>#<player>`. Written only if absent,
/// so a second tap changes nothing. Taps sort before `META`, so the room's Query
/// (`SK >= META`) never reads them.
pub fn click(code: &RoomCode, n: u32, user: &UserId) -> Key {
    Key {
        pk: room_partition(code),
        sk: format!("{}{}", click_prefix(n), user.as_str()),
    }
}

/// Where the room's Query starts: everything from `META` on, which leaves out the taps.
pub const ROOM_READ_FROM: &str = ROOM_META;

/// A player's record of one finished match: `USER#<id>` / `MATCH#<ulid>`, newest last.
pub fn user_match(user: &UserId, match_ulid: &str) -> Key {
    Key {
        pk: user_partition(user),
        sk: format!("{MATCH_PREFIX}{match_ulid}"),
    }
}

/// Sort-key prefix of a player's match records (and their GSI2 sort key).
pub const MATCH_PREFIX: &str = "MATCH#";

/// GSI2 partition holding every match record, newest first by `GSI2SK = MATCH#<ulid>`.
pub const RECENT_MATCHES: &str = "MATCHES";

/// A player's lifetime counters: `USER#<id>` / `STATS`, changed only by `ADD` (and an
/// only-if-higher `best_score`).
pub fn user_stats(user: &UserId) -> Key {
    Key {
        pk: user_partition(user),
        sk: "STATS".to_owned(),
    }
}

/// A room's all-time leaderboard partition: `LB#all#room#<code>`, one item per player
/// (`SK = USER#<id>`) holding their best score. The same string is its `GSI1PK`.
pub fn room_board(code: &RoomCode) -> String {
    format!("LB#all#room#{}", code.as_str())
}

pub fn room_board_entry(code: &RoomCode, user: &UserId) -> Key {
    Key {
        pk: room_board(code),
        sk: user_partition(user),
    }
}

/// Added to a score before padding so negative scores sort below zero: scores from
/// −`BOARD_OFFSET` up to `BOARD_OFFSET` fit.
pub const BOARD_OFFSET: i64 = 1_000_000_000;

/// GSI1 sort key of a leaderboard entry: the offset score zero-padded to 10 digits, then the
/// time it was set, inverted (13 digits), so in descending order a higher score comes first and,
/// between equal scores, the one set earlier.
pub fn board_sort(score: i32, achieved_ms: i64) -> String {
    let padded = i64::from(score) + BOARD_OFFSET;
    let inverted = 9_999_999_999_999 - achieved_ms.clamp(0, 9_999_999_999_999);
    format!("{padded:010}#{inverted:013}")
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
        let hash = SessionHash::from_hex("ab".repeat(32));
        assert!(session_by_user(1_700_000_000_000, &hash).starts_with("SESSION#1700000000000#"));
    }

    #[test]
    fn round_and_click_keys_keep_rounds_apart_and_taps_out_of_the_room_read() {
        let code = RoomCode::parse("K7QX2").unwrap();
        let user = UserId::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap();
        assert_eq!(round(&code, 7).sk, "ROUND#00007");
        let tap = click(&code, 1, &user);
        assert!(tap.sk.starts_with(&click_prefix(1)));
        assert!(!click(&code, 10, &user).sk.starts_with(&click_prefix(1)));
        assert!(tap.sk.as_str() < ROOM_READ_FROM, "taps sort before META");
        assert!(round(&code, 1).sk.as_str() > ROOM_READ_FROM);
        assert!(room_player(&code, &user).sk.as_str() > ROOM_READ_FROM);
    }

    #[test]
    fn board_keys_sort_by_score_then_earliest_and_take_negative_scores() {
        let mut keys = vec![
            board_sort(-300, 5),
            board_sort(1200, 20),
            board_sort(1200, 10),
            board_sort(0, 1),
            board_sort(43_500, 99),
        ];
        keys.sort();
        keys.reverse();
        assert_eq!(
            keys,
            vec![
                board_sort(43_500, 99),
                board_sort(1200, 10),
                board_sort(1200, 20),
                board_sort(0, 1),
                board_sort(-300, 5),
            ]
        );
        assert_eq!(board_sort(0, 0).len(), 10 + 1 + 13);
    }

    #[test]
    fn system_items_do_not_collide() {
        assert_ne!(catalog_seed_marker(), cursor_secret());
    }
}
