//! The unit tests of `app::game::words`.

use app::game::words::*;
use app::inventory::model::Badge;
use app::lang::Locale;

#[test]
fn badge_lists_read_back_and_junk_is_skipped() {
    let held = [(Badge::FirstWin, 1000), (Badge::PerfectMatch, 7)];
    assert_eq!(Badge::list(&held), "first-win@1000;perfect-match@7");
    assert_eq!(Badge::read_list(&Badge::list(&held)), held.to_vec());
    assert_eq!(
        Badge::read_list("first-win@1000;nonsense;streak-10@x;perfect-match@7"),
        held.to_vec()
    );
    assert!(Badge::read_list("").is_empty());
}

#[test]
fn places_read_as_players_say_them() {
    let words: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111]
        .into_iter()
        .map(|n| place_word(Locale::en, n))
        .collect();
    assert_eq!(
        words,
        [
            "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st",
            "111th"
        ]
    );
    assert_eq!(place_word(Locale::hi, 2), "2");
}
