//! The unit tests of `app::rooms::model`.

use app::identity::model::{Avatar, DisplayName, UserId};
use app::rooms::model::*;

#[test]
fn the_alphabet_has_no_lookalikes() {
    for c in b"0O1IL" {
        assert!(!CODE_ALPHABET.contains(c), "{}", *c as char);
    }
    assert_eq!(CODE_ALPHABET.len(), 31);
}

#[test]
fn codes_parse_case_insensitively_and_refuse_lookalikes() {
    assert_eq!(RoomCode::parse(" k7qx2 ").unwrap().as_str(), "K7QX2");
    for bad in [
        "",
        "K7QX",
        "K7QX22",
        "K0QX2",
        "KIQX2",
        "KLQX2",
        "K7Q-2",
        "ककककक",
    ] {
        assert!(RoomCode::parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn random_codes_are_valid_codes() {
    for seed in 0..=255u8 {
        let code = RoomCode::from_random([seed, seed.wrapping_mul(7), 3, 250, 255]);
        assert_eq!(RoomCode::parse(code.as_str()).unwrap(), code);
    }
}

fn lobby(host: &UserId, players: &[&UserId], seen: Option<i64>) -> Lobby {
    Lobby {
        code: RoomCode::parse("K7QX2").unwrap(),
        id: RoomId::legacy(&RoomCode::parse("K7QX2").unwrap()),
        host_id: host.clone(),
        settings: RoomSettings::default(),
        state: RoomState::Lobby,
        players: players
            .iter()
            .enumerate()
            .map(|(i, id)| RoomPlayer {
                user_id: (*id).clone(),
                nickname: DisplayName::parse(&format!("P{i}")).unwrap(),
                avatar: Avatar::default(),
                look: None,
                joined_at_ms: i as i64,
                away: false,
            })
            .collect(),
        asking: Vec::new(),
        rules: Default::default(),
        version: 1,
        created_at_ms: 0,
        locked: false,
        suggest: None,
        vote: None,
        deck: None,
        audience: 0,
        host_seen_ms: seen,
        away_host: None,
        away_until_ms: None,
    }
}

#[test]
fn the_join_form_offers_the_first_avatar_nobody_in_the_room_has() {
    let ids: Vec<UserId> = (0..13)
        .map(|i| UserId::parse(&format!("01ARZ3NDEKTSV4RRFFQ69G5F{i:02}")).unwrap())
        .collect();
    let refs: Vec<&UserId> = ids.iter().collect();
    let mut room = lobby(&ids[0], &refs[..1], None);
    // The host kept the crow: the parrot is offered.
    assert_eq!(room.free_avatar(), Avatar::Parrot);
    // A room where the parrot is taken and the crow is free again offers the crow.
    room.players[0].avatar = Avatar::Parrot;
    assert_eq!(room.free_avatar(), Avatar::Crow);
    // Taken in turn, each join is offered one nobody has: twelve players, twelve avatars.
    let mut room = lobby(&ids[0], &[], None);
    let mut seen = Vec::new();
    for (i, id) in ids.iter().take(12).enumerate() {
        let avatar = room.free_avatar();
        assert!(!seen.contains(&avatar), "{avatar:?} offered twice");
        seen.push(avatar);
        let mut joined = lobby(id, &[id], None).players.remove(0);
        joined.avatar = avatar;
        joined.joined_at_ms = i as i64;
        room.players.push(joined);
    }
    // All twelve taken: the thirteenth by join order, cycling (the first's again).
    assert_eq!(room.free_avatar(), Avatar::ALL[0]);
}

#[test]
fn an_away_host_passes_to_the_longest_present_other_player() {
    let ids: Vec<UserId> = (0..3)
        .map(|i| UserId::parse(&format!("01ARZ3NDEKTSV4RRFFQ69G5FA{i}")).unwrap())
        .collect();
    // The host joined second; the first other player in join order is next.
    let room = lobby(&ids[1], &[&ids[0], &ids[1], &ids[2]], Some(1_000));
    assert_eq!(room.next_host().unwrap().user_id, ids[0]);
    assert!(room
        .successor_if_host_away(1_000 + HOST_AWAY_MS, HOST_AWAY_MS)
        .is_none());
    assert_eq!(
        room.successor_if_host_away(1_001 + HOST_AWAY_MS, HOST_AWAY_MS)
            .unwrap()
            .user_id,
        ids[0]
    );
    // Alone, or never seen: nobody to pass to, or no clock started.
    let alone = lobby(&ids[1], &[&ids[1]], Some(0));
    assert!(alone
        .successor_if_host_away(i64::MAX / 2, HOST_AWAY_MS)
        .is_none());
    let legacy = lobby(&ids[1], &[&ids[0], &ids[1]], None);
    assert!(legacy
        .successor_if_host_away(i64::MAX / 2, HOST_AWAY_MS)
        .is_none());
}

#[test]
fn an_away_host_takes_the_room_back_only_in_time_in_the_lobby_and_while_in_it() {
    let ids: Vec<UserId> = (0..3)
        .map(|i| UserId::parse(&format!("01ARZ3NDEKTSV4RRFFQ69G5FA{i}")).unwrap())
        .collect();
    // Handed from ids[0] to ids[1] at 1,000 ms.
    let mut room = lobby(&ids[1], &[&ids[0], &ids[1], &ids[2]], Some(1_000));
    room.away_host = Some(ids[0].clone());
    room.away_until_ms = Some(1_000 + HOST_RETURN_MS);
    assert!(room.may_take_back(&ids[0], 1_000));
    assert!(room.may_take_back(&ids[0], 999 + HOST_RETURN_MS));
    assert!(
        !room.may_take_back(&ids[0], 1_000 + HOST_RETURN_MS),
        "too late"
    );
    assert!(!room.may_take_back(&ids[2], 1_000), "never hosted");
    assert!(!room.may_take_back(&ids[1], 1_000), "hosts already");
    assert_eq!(room.handed_on_from(&ids[0]).unwrap().user_id, ids[1]);
    assert!(room.handed_on_from(&ids[2]).is_none());

    let mut playing = room.clone();
    playing.state = RoomState::Playing;
    assert!(!playing.may_take_back(&ids[0], 1_000), "not mid-match");
    let mut started = room.clone();
    started.away_until_ms = None;
    assert!(
        !started.may_take_back(&ids[0], 1_000),
        "a match started since"
    );
    assert_eq!(started.handed_on_from(&ids[0]).unwrap().user_id, ids[1]);
    let mut left = room.clone();
    left.players.retain(|p| p.user_id != ids[0]);
    assert!(!left.may_take_back(&ids[0], 1_000), "left the room");
}

#[test]
fn settings_are_bounded() {
    assert!(RoomSettings::default().validate().is_ok());
    for bad in [
        RoomSettings {
            max_players: 1,
            ..Default::default()
        },
        RoomSettings {
            max_players: 13,
            ..Default::default()
        },
        RoomSettings {
            rounds: 0,
            ..Default::default()
        },
        RoomSettings {
            window_ms: 999,
            ..Default::default()
        },
    ] {
        assert!(bad.validate().is_err(), "{bad:?}");
    }
}

#[test]
fn a_rooms_deck_names_a_category_or_a_deck_and_nothing_else() {
    let deck = |pick: &str| RoomDeck {
        pick: pick.to_owned(),
        label: "x".to_owned(),
        things: 12,
    };
    assert_eq!(
        deck("cat:bird").pick(),
        Some(DeckPick::Category(app::catalog::model::Category::Bird))
    );
    let code = app::ids::DeckCode::parse("K7QX2MP").unwrap();
    assert_eq!(deck("K7QX2MP").pick(), Some(DeckPick::Deck(code.clone())));
    assert_eq!(deck("K7QX2MP").deck_code(), Some(code));
    assert_eq!(deck("cat:bird").deck_code(), None);
    for bad in ["cat:unicorn", "cat:", "K7QX", "all", ""] {
        assert_eq!(deck(bad).pick(), None, "{bad:?}");
    }
}

#[test]
fn a_room_passed_between_instances_keeps_its_deck_whole_and_tells_browsers_its_label() {
    let host = UserId::parse("01ARZ3NDEKTSV4RRFFQ69G5F00").unwrap();
    let mut lobby = lobby(&host, &[&host], None);
    lobby.deck = Some(RoomDeck {
        pick: "K7QX2MP".to_owned(),
        label: "Our pets".to_owned(),
        things: 12,
    });
    let room = app::game::Room { lobby, game: None };
    let json = serde_json::to_value(&room).unwrap();
    assert_eq!(json["deck_label"], "Our pets", "what a browser reads");
    let back: app::game::Room = serde_json::from_value(json).unwrap();
    assert_eq!(
        back.lobby.deck, room.lobby.deck,
        "what another instance reads"
    );
}
