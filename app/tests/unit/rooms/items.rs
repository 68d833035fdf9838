//! The unit tests of `app::rooms::items`.

use app::identity::model::UserId;
use app::rooms::items::*;
use app::rooms::model::{Lobby, RoomCode, RoomId, RoomSettings, RoomState};
use app::store::Item;

#[test]
fn state_values_are_what_a_stored_room_holds() {
    let mut seen = Vec::new();
    for state in [RoomState::Lobby, RoomState::Playing] {
        let stored: Item = serde_dynamo::to_item(Lobby {
            code: RoomCode::parse("K7QX2").unwrap(),
            id: RoomId::generate(&RoomCode::parse("K7QX2").unwrap()),
            host_id: UserId::nobody(),
            settings: RoomSettings::default(),
            state,
            players: Vec::new(),
            asking: Vec::new(),
            rules: Default::default(),
            version: 1,
            created_at_ms: 0,
            locked: false,
            suggest: None,
            vote: None,
            deck: None,
            audience: 0,
            host_seen_ms: None,
            away_host: None,
            away_until_ms: None,
        })
        .unwrap();
        assert_eq!(stored.get("state"), Some(&state_value(state)), "{state:?}");
        seen.push(state_value(state));
    }
    assert_ne!(seen[0], seen[1]);
}
