//! The unit tests of `app::store::keys`.

use app::ids::*;
use app::store::keys::*;

#[test]
fn match_records_spread_over_sixteen_shards_each_player_always_in_one() {
    let users: Vec<UserId> = (0..400u32)
        .map(|i| {
            UserId::parse(&ulid::Ulid::from_parts(u64::from(i), u128::from(i) * 7919).to_string())
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
