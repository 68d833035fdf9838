//! The unit tests of `app::rooms::lobby`.

use app::rooms::lobby::*;
use app::rooms::model::RoomSettings;

#[test]
fn times_read_as_seconds_without_trailing_zeros() {
    assert_eq!(seconds(3000), "3");
    assert_eq!(seconds(3500), "3.5");
    assert_eq!(seconds(1250), "1.25");
    assert_eq!(seconds(10_000), "10");
}

#[test]
fn the_summary_says_rounds_time_players_and_who_may_come() {
    let settings = RoomSettings {
        max_players: 6,
        rounds: 8,
        window_ms: 3500,
        public: false,
    };
    assert_eq!(
        settings_summary(settings, None, app::lang::Locale::en),
        "8 rounds · 3.5 s to decide · up to 6 players · by invitation"
    );
    let one = RoomSettings {
        rounds: 1,
        public: true,
        ..settings
    };
    assert_eq!(
        settings_summary(one, None, app::lang::Locale::en),
        "1 round · 3.5 s to decide · up to 6 players · listed publicly"
    );
}
