//! Rooms: create, join (capacity and nicknames under concurrency), leave, kick, host hand-over,
//! settings, expiry, the one-Query lobby and the open-rooms list.

use app::identity::Avatar;
use app::rooms::store::{Joined, RoomConflict};
use app::rooms::RoomSettings;
use app::store::epoch_seconds;

use super::{name, player, room, set_ttl, test_table};

#[tokio::test]
async fn a_new_room_has_its_host_in_the_lobby_read_in_one_query() {
    let t = test_table().await;
    let (code, host) = room(&t, "K7QX2", RoomSettings::default()).await;
    t.calls.reset();
    let lobby = t.db.rooms().lobby(&code).await.unwrap().expect("the room");
    assert_eq!(t.calls.ops(), ["Query"], "the lobby is one Query");
    assert_eq!(lobby.host_id, host);
    assert_eq!(lobby.players.len(), 1);
    assert_eq!(lobby.settings, RoomSettings::default());
    assert_eq!(
        t.db.rooms().lobby(&super::rooms_unknown()).await.unwrap(),
        None
    );
}

#[tokio::test]
async fn a_code_in_use_is_refused() {
    let t = test_table().await;
    let (code, _) = room(&t, "K7QX2", RoomSettings::default()).await;
    let other = player(&t, "Other").await;
    let again =
        t.db.rooms()
            .create_room(
                &code,
                &other,
                &name("Other"),
                Avatar::Owl,
                RoomSettings::default(),
            )
            .await;
    assert!(matches!(again, Err(RoomConflict::CodeTaken)), "{again:?}");
    assert_eq!(
        t.db.rooms()
            .lobby(&code)
            .await
            .unwrap()
            .unwrap()
            .players
            .len(),
        1
    );
}

#[tokio::test]
async fn joining_is_idempotent_and_nicknames_are_unique_in_a_room() {
    let t = test_table().await;
    let (code, _) = room(&t, "ABCDE", RoomSettings::default()).await;
    let asha = player(&t, "Asha").await;
    assert_eq!(
        t.db.rooms()
            .join_room(&code, &asha, &name("Asha"), Avatar::Owl)
            .await
            .unwrap(),
        Joined::Joined
    );
    assert_eq!(
        t.db.rooms()
            .join_room(&code, &asha, &name("Asha"), Avatar::Owl)
            .await
            .unwrap(),
        Joined::AlreadyIn
    );
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!(lobby.players.len(), 2);
    assert_eq!(lobby.players[1].user_id, asha, "join order");

    let other = player(&t, "Asha too").await;
    let clash =
        t.db.rooms()
            .join_room(&code, &other, &name("ASHA"), Avatar::Bee)
            .await;
    assert!(
        matches!(clash, Err(RoomConflict::NicknameTaken)),
        "{clash:?}"
    );
    let unknown =
        t.db.rooms()
            .join_room(&super::rooms_unknown(), &other, &name("X"), Avatar::Bee)
            .await;
    assert!(
        matches!(unknown, Err(RoomConflict::NotFound)),
        "{unknown:?}"
    );
}

#[tokio::test]
async fn twenty_concurrent_joins_never_overfill_a_room_of_eight() {
    let t = test_table().await;
    let settings = RoomSettings {
        max_players: 8,
        ..RoomSettings::default()
    };
    let (code, _) = room(&t, "CAP8X", settings).await;
    let mut joiners = Vec::new();
    for i in 0..20 {
        joiners.push(player(&t, &format!("P{i}")).await);
    }
    let mut joins = tokio::task::JoinSet::new();
    for (i, user) in joiners.into_iter().enumerate() {
        let (db, code) = (t.db.clone(), code.clone());
        joins.spawn(async move {
            db.rooms()
                .join_room(&code, &user, &name(&format!("P{i}")), Avatar::Frog)
                .await
        });
    }
    let results = joins.join_all().await;
    let joined = results
        .iter()
        .filter(|r| matches!(r, Ok(Joined::Joined)))
        .count();
    let full = results
        .iter()
        .filter(|r| matches!(r, Err(RoomConflict::Full)))
        .count();
    // The host holds the first of the eight seats.
    assert_eq!((joined, full), (7, 13), "{results:?}");
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!(lobby.players.len(), 8, "exactly the capacity");
}

#[tokio::test]
async fn when_the_host_leaves_the_longest_present_player_hosts() {
    let t = test_table().await;
    let (code, host) = room(&t, "HQSTS", RoomSettings::default()).await;
    let first = player(&t, "First").await;
    let second = player(&t, "Second").await;
    t.db.rooms()
        .join_room(&code, &first, &name("First"), Avatar::Owl)
        .await
        .unwrap();
    // Joins in the same millisecond are ordered by player id, which says nothing about who
    // came first: keep the two joins apart.
    tokio::time::sleep(std::time::Duration::from_millis(3)).await;
    t.db.rooms()
        .join_room(&code, &second, &name("Second"), Avatar::Owl)
        .await
        .unwrap();

    t.db.rooms().leave_room(&code, &host).await.unwrap();
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!(lobby.host_id, first);
    assert_eq!(lobby.players.len(), 2);

    t.db.rooms().leave_room(&code, &second).await.unwrap();
    assert_eq!(
        t.db.rooms().lobby(&code).await.unwrap().unwrap().host_id,
        first,
        "a guest leaving changes no host"
    );
    let gone = t.db.rooms().leave_room(&code, &second).await;
    assert!(matches!(gone, Err(RoomConflict::NotInRoom)), "{gone:?}");
}

#[tokio::test]
async fn a_room_ends_when_its_last_player_leaves_and_its_code_frees() {
    let t = test_table().await;
    let (code, host) = room(&t, "EMPTY", RoomSettings::default()).await;
    t.db.rooms().leave_room(&code, &host).await.unwrap();
    assert_eq!(t.db.rooms().lobby(&code).await.unwrap(), None);
    let late = player(&t, "Late").await;
    let join =
        t.db.rooms()
            .join_room(&code, &late, &name("Late"), Avatar::Owl)
            .await;
    assert!(matches!(join, Err(RoomConflict::NotFound)), "{join:?}");
    t.db.rooms()
        .create_room(
            &code,
            &late,
            &name("Late"),
            Avatar::Owl,
            RoomSettings::default(),
        )
        .await
        .expect("an ended room's code can be used again");
    assert_eq!(
        t.db.rooms().lobby(&code).await.unwrap().unwrap().host_id,
        late
    );
}

#[tokio::test]
async fn an_idle_room_expires_and_reads_ignore_it() {
    let t = test_table().await;
    let (code, _) = room(&t, "QWERT", RoomSettings::default()).await;
    set_ttl(&t, "ROOM#QWERT", "META", epoch_seconds() - 1).await;
    assert_eq!(t.db.rooms().lobby(&code).await.unwrap(), None);
    let late = player(&t, "Late").await;
    let join =
        t.db.rooms()
            .join_room(&code, &late, &name("Late"), Avatar::Owl)
            .await;
    assert!(matches!(join, Err(RoomConflict::NotFound)), "{join:?}");
}

#[tokio::test]
async fn only_the_host_kicks_and_changes_settings() {
    let t = test_table().await;
    let (code, host) = room(&t, "RUZES", RoomSettings::default()).await;
    let asha = player(&t, "Asha").await;
    let ravi = player(&t, "Ravi").await;
    t.db.rooms()
        .join_room(&code, &asha, &name("Asha"), Avatar::Owl)
        .await
        .unwrap();
    t.db.rooms()
        .join_room(&code, &ravi, &name("Ravi"), Avatar::Owl)
        .await
        .unwrap();

    let not_host = t.db.rooms().kick(&code, &asha, &ravi).await;
    assert!(
        matches!(not_host, Err(RoomConflict::NotHost)),
        "{not_host:?}"
    );
    let settings = RoomSettings {
        rounds: 5,
        ..RoomSettings::default()
    };
    let not_host = t.db.rooms().update_settings(&code, &asha, settings).await;
    assert!(
        matches!(not_host, Err(RoomConflict::NotHost)),
        "{not_host:?}"
    );
    assert_eq!(
        t.db.rooms()
            .lobby(&code)
            .await
            .unwrap()
            .unwrap()
            .players
            .len(),
        3
    );

    t.db.rooms().kick(&code, &host, &ravi).await.unwrap();
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert!(lobby.player(&ravi).is_none());
    let again =
        t.db.rooms()
            .join_room(&code, &ravi, &name("Ravi"), Avatar::Owl)
            .await;
    assert!(
        matches!(again, Err(RoomConflict::Removed)),
        "a removed player stays out: {again:?}"
    );
    let newcomer = player(&t, "Ravi").await;
    let other =
        t.db.rooms()
            .join_room(&code, &newcomer, &name("Ravi"), Avatar::Owl)
            .await;
    assert_eq!(
        other.unwrap(),
        Joined::Joined,
        "the removed player's nickname is free for someone else"
    );

    let too_small = RoomSettings {
        max_players: 2,
        ..RoomSettings::default()
    };
    let refused = t.db.rooms().update_settings(&code, &host, too_small).await;
    assert!(
        matches!(refused, Err(RoomConflict::TooManyForSettings)),
        "{refused:?}"
    );
    let updated =
        t.db.rooms()
            .update_settings(&code, &host, settings)
            .await
            .unwrap();
    assert_eq!(updated.settings.rounds, 5);
    assert_eq!(
        t.db.rooms().lobby(&code).await.unwrap().unwrap().settings,
        settings
    );
}

#[tokio::test]
async fn open_rooms_lists_public_lobbies_with_seats_newest_first() {
    let t = test_table().await;
    let public = RoomSettings {
        public: true,
        max_players: 2,
        ..RoomSettings::default()
    };
    let (older, _) = room(&t, "PAST2", public).await;
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let (newer, _) = room(&t, "NEW22", public).await;
    let (_private, _) = room(&t, "HDDNX", RoomSettings::default()).await;
    let (full, _) = room(&t, "MAXED", public).await;
    let filler = player(&t, "Filler").await;
    t.db.rooms()
        .join_room(&full, &filler, &name("Filler"), Avatar::Owl)
        .await
        .unwrap();

    let page = t.db.rooms().open_rooms(20, None).await.unwrap();
    let codes: Vec<_> = page.items.iter().map(|r| r.code.clone()).collect();
    assert_eq!(codes, [newer.clone(), older.clone()]);

    let first = t.db.rooms().open_rooms(1, None).await.unwrap();
    assert_eq!(first.items[0].code, newer);
    let rest =
        t.db.rooms()
            .open_rooms(20, first.next.as_deref())
            .await
            .unwrap();
    assert!(rest.items.iter().any(|r| r.code == older));
    assert!(!rest.items.iter().any(|r| r.code == newer));

    // Going private takes a room off the list.
    let host = t.db.rooms().lobby(&older).await.unwrap().unwrap().host_id;
    t.db.rooms()
        .update_settings(
            &older,
            &host,
            RoomSettings {
                public: false,
                ..public
            },
        )
        .await
        .unwrap();
    let page = t.db.rooms().open_rooms(20, None).await.unwrap();
    assert_eq!(
        page.items
            .iter()
            .map(|r| r.code.clone())
            .collect::<Vec<_>>(),
        [newer]
    );
}

#[tokio::test]
async fn a_removed_player_cannot_rejoin_even_when_the_host_hands_over() {
    let t = test_table().await;
    let (code, host) = room(&t, "BANNR", RoomSettings::default()).await;
    let asha = player(&t, "Asha").await;
    let ravi = player(&t, "Ravi").await;
    for (id, nick) in [(&asha, "Asha"), (&ravi, "Ravi")] {
        t.db.rooms()
            .join_room(&code, id, &name(nick), Avatar::Owl)
            .await
            .unwrap();
    }
    t.db.rooms().kick(&code, &host, &ravi).await.unwrap();
    // The host leaves; Asha hosts now. Ravi is still out, under any name.
    t.db.rooms().leave_room(&code, &host).await.unwrap();
    for nick in ["Ravi", "Someone Else"] {
        let again =
            t.db.rooms()
                .join_room(&code, &ravi, &name(nick), Avatar::Owl)
                .await;
        assert!(matches!(again, Err(RoomConflict::Removed)), "{again:?}");
    }
    assert!(t
        .db
        .rooms()
        .lobby(&code)
        .await
        .unwrap()
        .unwrap()
        .player(&ravi)
        .is_none());
}

#[tokio::test]
async fn look_alike_nicknames_are_one_nickname_in_a_room() {
    let t = test_table().await;
    let (code, _) = room(&t, "K7QXS", RoomSettings::default()).await;
    let asha = player(&t, "Asha").await;
    t.db.rooms()
        .join_room(&code, &asha, &name("Asha"), Avatar::Owl)
        .await
        .unwrap();
    // A Cyrillic А, and full-width letters: they look like "Asha" in a lobby.
    for look_alike in ["\u{0410}sha", "Ａｓｈａ", "ASHA"] {
        let impostor = player(&t, "Impostor").await;
        let refused =
            t.db.rooms()
                .join_room(&code, &impostor, &name(look_alike), Avatar::Owl)
                .await;
        assert!(
            matches!(refused, Err(RoomConflict::NicknameTaken)),
            "{look_alike:?}: {refused:?}"
        );
    }
}
