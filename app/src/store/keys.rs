//! Every key string in the table is built here, from typed inputs, and nowhere else.
//!
//! Prefixes are part of the stored data: changing one is a data migration. The access-pattern
//! table in the README names which pattern reads which key.

#[cfg(feature = "ssr")]
use crate::ids::SessionHash;
use crate::ids::{
    BoardId, Day, Email, OfferId, Place, RoomCode, RoomId, SeasonId, ThingId, UserId, Username,
};

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

/// Which key a Query reads by: the table's own (PK, SK), LSI1 (PK, LSI1SK), GSI1 or GSI2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keyed {
    Table,
    Lsi1,
    Gsi1,
    Gsi2,
}

impl Keyed {
    /// The index's name (none for the table) and its partition and sort key attributes.
    pub fn attributes(self) -> (Option<&'static str>, &'static str, &'static str) {
        match self {
            Keyed::Table => (None, PK, SK),
            Keyed::Lsi1 => (Some(LSI1), PK, LSI1SK),
            Keyed::Gsi1 => (Some(GSI1), GSI1PK, GSI1SK),
            Keyed::Gsi2 => (Some(GSI2), GSI2PK, GSI2SK),
        }
    }
}

/// A base-table primary key.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

/// The server instances sharing the table, each announcing itself: `INSTANCES` /
/// `I#<instance id>` (see `live/peers.rs`). One partition: a few items, written every few
/// seconds each, read by each instance every few seconds.
pub const INSTANCES: &str = "INSTANCES";

/// One instance's announcement: `INSTANCES` / `I#<instance id>`.
pub fn instance(id: &str) -> Key {
    Key {
        pk: INSTANCES.to_owned(),
        sk: format!("I#{id}"),
    }
}

/// A room's partition: `ROOM#<code>`: META, players, nickname claims and rounds (with their
/// taps). One Query of it renders the room.
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

/// GSI1 partition of the rooms a player hosts (`GSI1SK` = [`hosting_sort`]): only the host's
/// own PLAYER item in each room carries it (a sparse entry), moved in every write that changes
/// the host, so signing out finds the rooms to hand on with one Query.
pub fn hosting(user: &UserId) -> String {
    format!("HOSTING#{}", user.as_str())
}

/// GSI1 sort key of a room among those its host hosts: the room's code.
pub fn hosting_sort(code: &RoomCode) -> String {
    code.as_str().to_owned()
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

/// Round numbers of one match take a block of this many: match `k`'s rounds are numbered from
/// `32(k − 1) + 1`, so a round's place in its match is `(n − 1) mod 32` (at least the most
/// rounds a room may set, 30).
pub const ROUND_SLOTS: u32 = 32;

/// A round of a room's match, its taps in it: `ROOM#<code>` / `ROUND#<slot>`, where the slot is
/// the round's place in its match (two digits). A new match's rounds are put over the last
/// match's, so a room holds one match's rounds however many it plays, and nothing is deleted.
/// The item's `n` and `match_first` say which match it belongs to.
pub fn round(code: &RoomCode, n: u32) -> Key {
    Key {
        pk: room_partition(code),
        sk: format!("{ROUND_PREFIX}{:02}", n.saturating_sub(1) % ROUND_SLOTS),
    }
}

/// The partition of one finished match, kept for good (no `ttl`), apart from the room (whose
/// partition expires) and read by the match's key alone: `MATCH#<room id>#<first round>`. It
/// holds `SUMMARY`, `ROUNDS` and `RECEIPT`, so the match's page is one Query. The room's id, not
/// its code: a code is issued again once its room has expired, an id never (a room made before
/// rooms had ids has its code as its id, so its matches stay where they were written).
pub fn match_partition(room: &RoomId, first: u32) -> String {
    format!("MATCH#{}#{first:05}", room.as_str())
}

/// What a match cost: `MATCH#<room id>#<first round>` / `RECEIPT`.
pub fn match_receipt(room: &RoomId, first: u32) -> Key {
    Key {
        pk: match_partition(room, first),
        sk: MATCH_RECEIPT.to_owned(),
    }
}

pub const MATCH_RECEIPT: &str = "RECEIPT";
pub const MATCH_SUMMARY: &str = "SUMMARY";
pub const MATCH_ROUNDS: &str = "ROUNDS";

/// Who played a match and how it ended: `MATCH#<room id>#<first round>` / `SUMMARY`; also on
/// GSI2 [`RECENT_MATCHES`] and on GSI1 [`room_matches`], both sorted by [`match_sort`].
pub fn match_summary(room: &RoomId, first: u32) -> Key {
    Key {
        pk: match_partition(room, first),
        sk: MATCH_SUMMARY.to_owned(),
    }
}

/// Every round of a match, each player's tap or hold in it: `MATCH#<room id>#<first>` /
/// `ROUNDS`.
pub fn match_rounds(room: &RoomId, first: u32) -> Key {
    Key {
        pk: match_partition(room, first),
        sk: MATCH_ROUNDS.to_owned(),
    }
}

/// GSI2 partition of every finished match's summary (one item per match, 1 write unit), newest
/// first by [`match_sort`].
pub const RECENT_MATCHES: &str = "RECENT";

/// GSI1 partition of one room's finished matches' summaries, newest first by [`match_sort`]:
/// `ROOMMATCHES#<room id>` (a later room with the same code has a list of its own).
pub fn room_matches(room: &RoomId) -> String {
    format!("ROOMMATCHES#{}", room.as_str())
}

/// Sort key of a match summary on GSI1 and GSI2: when it ended (13 digits of epoch ms), then its
/// key, so pages run newest first and two matches ending in one millisecond both appear.
pub fn match_sort(finished_at_ms: i64, room: &RoomId, first: u32) -> String {
    format!("{:013}#{}#{first:05}", finished_at_ms.max(0), room.as_str())
}

/// Where the room's Query starts: everything from `META` on (META, players, rounds), which
/// leaves out the nickname claims.
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

/// Match records are spread over this many GSI2 partitions, `MATCHES#00` … `MATCHES#15`, each
/// player's always in the same one ([`record_shard`]): what rebuilding the boards reads.
pub const RECORD_SHARDS: u32 = 16;

/// The GSI2 partition of a player's match records, newest last by `GSI2SK = MATCH#<ulid>`.
pub fn record_shard(user: &UserId) -> String {
    // FNV-1a: stable across Rust versions and machines, unlike the standard library's hasher.
    let hash = user.as_str().bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    format!("{RECORD_SHARD_PREFIX}{:02}", hash % RECORD_SHARDS)
}

pub const RECORD_SHARD_PREFIX: &str = "MATCHES#";

/// Every GSI2 partition that holds match records: the shards, and the one partition records were
/// written to before them (`MATCHES`).
pub fn record_partitions() -> Vec<String> {
    std::iter::once(LEGACY_RECORDS.to_owned())
        .chain((0..RECORD_SHARDS).map(|k| format!("{RECORD_SHARD_PREFIX}{k:02}")))
        .collect()
}

/// The single GSI2 partition of every match record, as written before the shards.
pub const LEGACY_RECORDS: &str = "MATCHES";

/// Marks one match record as counted on the boards of totals and in the lifetime counters, so
/// the projector counts it once however often it sees it: `USER#<id>` / `COUNTED#<record>`.
pub fn counted_match(user: &UserId, record_id: &str) -> Key {
    Key {
        pk: user_partition(user),
        sk: format!("COUNTED#{record_id}"),
    }
}

/// A player's lifetime counters: `USER#<id>` / `STATS`, changed only by `ADD` (and an
/// only-if-higher `best_score`).
pub fn user_stats(user: &UserId) -> Key {
    Key {
        pk: user_partition(user),
        sk: "STATS".to_owned(),
    }
}

/// A board's partition: `LB#<metric>.<period>.<scope>`. It holds the board's counting tree (its
/// root is the `META` item, which also carries the board's name and bounds; the other nodes are
/// `N#<level>#<digits>`, and `X#<level>#<digits>` for the scores that escape the main range: see
/// `leaderboards::tree`), one entry per player, the `ENDS` item of a board that closes, and once
/// the board is closed its archive. One partition per board keeps a rank read to one
/// BatchGetItem, lets the LSI order the entries, and puts every entry write of a board in one
/// stream shard, in order, for the projector to count in the tree.
pub fn board_partition(board: &BoardId) -> String {
    format!("LB#{}", board.key())
}

/// Sort key of a board's root node and metadata.
pub const BOARD_META: &str = "META";

/// A board's metadata and the root of its counting tree: `LB#<board>` / `META`.
pub fn board_meta(board: &BoardId) -> Key {
    Key {
        pk: board_partition(board),
        sk: BOARD_META.to_owned(),
    }
}

/// Sort-key prefix of the first tree's nodes (`T#<level>#<prefix>`), which the conversion to
/// the present tree deletes.
pub const OLD_TREE_PREFIX: &str = "T#";

/// A day's or a week's board among the boards ending on its last day (on GSI2, for the
/// closer): `LB#<board>` / `ENDS`.
pub fn board_ends(board: &BoardId) -> Key {
    Key {
        pk: board_partition(board),
        sk: "ENDS".to_owned(),
    }
}

/// Which version of the boards' layout the table holds: `BOARDS` / `SHAPE`.
pub fn boards_shape() -> Key {
    Key {
        pk: "BOARDS".to_owned(),
        sk: "SHAPE".to_owned(),
    }
}

/// Sort-key prefix of a board's entries.
pub const BOARD_ENTRY_PREFIX: &str = "E#";

/// A player's entry on a board: `LB#<board>` / `E#<id>`.
pub fn board_entry(board: &BoardId, user: &UserId) -> Key {
    Key {
        pk: board_partition(board),
        sk: format!("{BOARD_ENTRY_PREFIX}{}", user.as_str()),
    }
}

/// LSI1 sort key of a board entry: `R#<tree value, 10 digits>#<time it was reached, inverted,
/// 13 digits>#<player>`, so in descending order a higher value comes first and, between equal
/// values, the one reached earlier; the player's id makes every key unique, so "the entries just
/// above mine" is a strict key condition. Only entries carry it, so the LSI holds nothing else.
pub fn board_rank_sort(value: u64, reached_ms: i64, user: &UserId) -> String {
    let inverted = 9_999_999_999_999 - reached_ms.clamp(0, 9_999_999_999_999);
    format!(
        "{BOARD_RANK_PREFIX}{value:010}#{inverted:013}#{}",
        user.as_str()
    )
}

/// The highest LSI1 sort key an entry with tree value `value` can have: where a walk down the
/// board from that value starts.
pub fn board_rank_ceiling(value: u64) -> String {
    format!("{BOARD_RANK_PREFIX}{value:010}#~")
}

/// The LSI1 prefix every board entry's sort key starts with.
pub const BOARD_RANK_PREFIX: &str = "R#";

/// A closed board's top entries, kept after its live items expire: `LB#<board>` / `ARCHIVE`.
pub fn board_archive(board: &BoardId) -> Key {
    Key {
        pk: board_partition(board),
        sk: "ARCHIVE".to_owned(),
    }
}

/// GSI2 partition of the day's and week's boards whose period ends on `day`: what the closer
/// archives (`GSI2SK = <board>`, set on each such board's `ENDS` item).
pub fn boards_ending(day: &Day) -> String {
    format!("BOARDS#ENDS#{day}")
}

/// The operator's seasons, in start order: `SEASONS` / `S#<start ms, 13 digits>#<id>`.
pub const SEASONS: &str = "SEASONS";

pub fn season(start_ms: i64, id: &SeasonId) -> Key {
    Key {
        pk: SEASONS.to_owned(),
        sk: format!("S#{start_ms:013}#{}", id.as_str()),
    }
}

/// The projector's lease and checkpoint for one shard of the table's stream:
/// `PROJECTOR` / `SHARD#<shard id>`.
pub fn projector_shard(shard_id: &str) -> Key {
    Key {
        pk: PROJECTOR.to_owned(),
        sk: format!("SHARD#{shard_id}"),
    }
}

pub const PROJECTOR: &str = "PROJECTOR";

/// When the projector last applied a batch to the boards: `PROJECTOR` / `STATUS`.
pub fn projector_status() -> Key {
    Key {
        pk: PROJECTOR.to_owned(),
        sk: "STATUS".to_owned(),
    }
}

/// A player's inventories, wallet, badges and looks: `INV#<id>`. Apart from `USER#<id>` so a
/// whole-inventory Query reads nothing else, and so the LSI's 10 GB item-collection limit is
/// the inventory's own.
pub fn inventory_partition(user: &UserId) -> String {
    format!("INV#{}", user.as_str())
}

/// A stack of one card in one place: `INV#<id>` / `<place>#<category>#<thing>`. The place leads,
/// then the category, so one place is a `begins_with` and one category of it another.
pub fn card(user: &UserId, place: Place, category: &str, thing: &ThingId) -> Key {
    Key {
        pk: inventory_partition(user),
        sk: format!("{}{}", card_prefix(place, Some(category)), thing.as_str()),
    }
}

/// The `begins_with` prefix of a place's cards, or of one category of them.
pub fn card_prefix(place: Place, category: Option<&str>) -> String {
    match category {
        Some(category) => format!("{place}#{category}#"),
        None => format!("{place}#"),
    }
}

/// LSI1 sort key of a card stack: its place, then its name folded for sorting and search, then
/// the thing (two things may share a name).
pub fn card_by_name(place: Place, folded_name: &str, thing: &ThingId) -> String {
    format!(
        "{}{folded_name}#{}",
        card_prefix(place, None),
        thing.as_str()
    )
}

/// GSI2 partition of the players holding a card in their bag, the most recently changed stack
/// first (`GSI2SK` = [`card_holder_sort`]): who might trade it. Bank stacks are not listed.
pub fn card_holders(thing: &ThingId) -> String {
    format!("HOLDERS#{}", thing.as_str())
}

/// GSI2 sort key of a bag stack in its card's holders: when it last changed, then whose it is.
pub fn card_holder_sort(changed_ms: i64, user: &UserId) -> String {
    format!("{changed_ms:013}#{}", user.as_str())
}

/// A player's feathers: `INV#<id>` / `WALLET`.
pub fn wallet(user: &UserId) -> Key {
    Key {
        pk: inventory_partition(user),
        sk: "WALLET".to_owned(),
    }
}

/// A badge a player earned: `INV#<id>` / `BADGE#<badge>`.
pub fn badge(user: &UserId, badge: &str) -> Key {
    Key {
        pk: inventory_partition(user),
        sk: format!("{BADGE_PREFIX}{badge}"),
    }
}

pub const BADGE_PREFIX: &str = "BADGE#";

/// A cosmetic a player owns: `INV#<id>` / `LOOK#<item>`.
pub fn look(user: &UserId, item: &str) -> Key {
    Key {
        pk: inventory_partition(user),
        sk: format!("{LOOK_PREFIX}{item}"),
    }
}

pub const LOOK_PREFIX: &str = "LOOK#";

/// The cards of the last pack a player opened: `INV#<id>` / `PACK` (written by the purchase,
/// read back by the shop page that shows it).
pub fn last_pack(user: &UserId) -> Key {
    Key {
        pk: inventory_partition(user),
        sk: "PACK".to_owned(),
    }
}

/// A trade offer: `OFFER#<id>` / `OFFER`, in a partition of its own so racing accepts meet on
/// one item.
pub fn offer(id: &OfferId) -> Key {
    Key {
        pk: format!("OFFER#{}", id.as_str()),
        sk: "OFFER".to_owned(),
    }
}

/// GSI1 partition of the offers made to a player (GSI1SK = [`offer_sort`]), and GSI2 partition
/// of the offers a player made.
pub fn offers_of(user: &UserId) -> String {
    format!("TRADES#{}", user.as_str())
}

/// The sort key of an offer in its player's lists: newest last.
pub fn offer_sort(id: &OfferId) -> String {
    format!("OFFER#{}", id.as_str())
}

/// The open offers a player has from players they have not played with, each with when it
/// expires (a capped set: `trades.rs`): `TRADES#<id>` / `FROM_STRANGERS`.
pub fn offers_from_strangers(user: &UserId) -> Key {
    Key {
        pk: offers_of(user),
        sk: "FROM_STRANGERS".to_owned(),
    }
}

/// The shop: `SHOP` / `ITEM#<item>` for what it sells.
pub const SHOP: &str = "SHOP";

pub fn shop_item(item: &str) -> Key {
    Key {
        pk: SHOP.to_owned(),
        sk: format!("{SHOP_ITEM_PREFIX}{item}"),
    }
}

pub const SHOP_ITEM_PREFIX: &str = "ITEM#";

/// What is left of an item's daily stock on one UTC day (days since 1970-01-01):
/// `SHOP` / `STOCK#<item>#<day>`.
pub fn shop_stock(item: &str, day: i64) -> Key {
    Key {
        pk: SHOP.to_owned(),
        sk: format!("STOCK#{item}#{day}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_records_spread_over_sixteen_shards_each_player_always_in_one() {
        let users: Vec<UserId> = (0..400u32)
            .map(|i| {
                UserId::parse(
                    &ulid::Ulid::from_parts(u64::from(i), u128::from(i) * 7919).to_string(),
                )
                .unwrap()
            })
            .collect();
        let mut counts = std::collections::BTreeMap::new();
        for user in &users {
            let shard = record_shard(user);
            assert_eq!(shard, record_shard(user), "stable");
            assert!(record_partitions().contains(&shard));
            *counts.entry(shard).or_insert(0) += 1;
        }
        assert_eq!(
            counts.len(),
            RECORD_SHARDS as usize,
            "every shard used: {counts:?}"
        );
        assert!(counts.values().all(|n| (10..=45).contains(n)), "{counts:?}");
        // Pinned: the shard is stored data, so the hash may never change.
        let known = UserId::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap();
        assert_eq!(record_shard(&known), "MATCHES#00");
        assert_eq!(record_partitions().len(), 17);
        assert_eq!(record_partitions()[0], LEGACY_RECORDS);
    }

    #[test]
    fn match_summaries_sort_by_when_they_ended() {
        let room = RoomId::parse("GMSRT-01KAYZ3NDEKTSV4RRFFQ69G5FA").unwrap();
        assert_eq!(
            match_sort(1_795_483_938_410, &room, 33),
            "1795483938410#GMSRT-01KAYZ3NDEKTSV4RRFFQ69G5FA#00033"
        );
        assert!(match_sort(999, &room, 1) < match_sort(1_000, &room, 1));
        assert_eq!(
            match_partition(&room, 33),
            "MATCH#GMSRT-01KAYZ3NDEKTSV4RRFFQ69G5FA#00033"
        );
        assert_eq!(match_summary(&room, 33).pk, match_receipt(&room, 33).pk);
        // A match kept before rooms had ids stays where it was written: under the code.
        let legacy = RoomId::legacy(&RoomCode::parse("GMSRT").unwrap());
        assert_eq!(match_partition(&legacy, 33), "MATCH#GMSRT#00033");
        assert_eq!(room_matches(&legacy), "ROOMMATCHES#GMSRT");
    }

    #[test]
    fn a_reused_code_keys_nothing_kept_of_the_room_before() {
        let code = RoomCode::parse("GMSRT").unwrap();
        let (old, new) = (RoomId::generate(&code), RoomId::generate(&code));
        assert_ne!(match_partition(&old, 1), match_partition(&new, 1));
        assert_ne!(room_matches(&old), room_matches(&new));
        assert_ne!(
            match_partition(&new, 1),
            match_partition(&RoomId::legacy(&code), 1)
        );
        assert!(!new.is_legacy() && RoomId::legacy(&code).is_legacy());
        // Ids and codes parse back as what they are; a lower-case code is not a key.
        assert_eq!(RoomId::parse(new.as_str()).unwrap(), new);
        assert_eq!(RoomId::parse("GMSRT").unwrap(), RoomId::legacy(&code));
        assert!(RoomId::parse("gmsrt").is_err());
        assert!(RoomId::parse("MATCH#X").is_err());
        assert!(RoomId::parse("GMSRT-").is_err());
        assert!(RoomId::parse("GMSRT-01kayz3ndektsv4rrffq69g5fa").is_err());
        assert_eq!(new.code(), code);
        assert_eq!(RoomId::legacy(&code).code(), code);
    }

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
    fn round_keys_sort_in_play_order_inside_the_room_read() {
        let code = RoomCode::parse("K7QX2").unwrap();
        let user = UserId::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap();
        assert_eq!(round(&code, 7).sk, "ROUND#06");
        assert!(round(&code, 9).sk < round(&code, 10).sk);
        // The next match's rounds go where the last match's were.
        assert_eq!(round(&code, 1 + ROUND_SLOTS).sk, round(&code, 1).sk);
        assert_eq!(round(&code, 30).sk, "ROUND#29");
        assert!(round(&code, 1).sk.as_str() > ROOM_READ_FROM);
        assert!(room_player(&code, &user).sk.as_str() > ROOM_READ_FROM);
    }

    #[test]
    fn board_keys_sort_by_value_then_earliest() {
        let who = UserId::nobody();
        let rank = |value, ms| board_rank_sort(value, ms, &who);
        let mut keys = vec![
            rank(999_999_700, 5),
            rank(1_000_001_200, 20),
            rank(1_000_001_200, 10),
            rank(0, 1),
            rank(9_999_999_999, 99),
        ];
        keys.sort();
        keys.reverse();
        assert_eq!(
            keys,
            vec![
                rank(9_999_999_999, 99),
                rank(1_000_001_200, 10),
                rank(1_000_001_200, 20),
                rank(999_999_700, 5),
                rank(0, 1),
            ]
        );
        assert!(rank(1_000_001_200, 0) < board_rank_ceiling(1_000_001_200));
        assert!(board_rank_ceiling(1_000_001_199) < rank(1_000_001_200, 9_999_999_999_999));
        let board = BoardId::parse_key("best.all.global").unwrap();
        assert_eq!(board_meta(&board).sk, "META");
        assert_eq!(board_ends(&board).sk, "ENDS");
        assert!(board_entry(&board, &UserId::nobody())
            .sk
            .starts_with(BOARD_ENTRY_PREFIX));
    }

    #[test]
    fn hosting_entries_name_the_host_and_the_room() {
        let user = UserId::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap();
        let code = RoomCode::parse("K7QX2").unwrap();
        assert_eq!(hosting(&user), "HOSTING#01ARZ3NDEKTSV4RRFFQ69G5FAV");
        assert_eq!(hosting_sort(&code), "K7QX2");
        assert_ne!(hosting(&user), user_partition(&user));
    }

    #[test]
    fn system_items_do_not_collide() {
        assert_ne!(catalog_seed_marker(), cursor_secret());
    }
}
