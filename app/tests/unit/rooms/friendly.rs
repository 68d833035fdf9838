//! Friendly names: every name the word lists make is one the name filter lets through and a
//! player's name may be (at most 24 characters), no two alike once folded, and a draw never
//! gives a name the room holds.

use std::collections::HashSet;

use app::identity::DisplayName;
use app::lang::Locale;
use app::rooms::friendly::{draw, words};

#[test]
fn every_friendly_name_passes_the_filter_and_is_unlike_every_other() {
    for locale in [Locale::en, Locale::hi] {
        let words = words(locale);
        // Enough that a class of 60 rarely draws the same name twice in a row.
        assert!(words.len() >= 900, "{locale:?}: {} names", words.len());
        let mut folded = HashSet::new();
        for i in 0..words.len() {
            let raw = words.name(i);
            let name = DisplayName::parse(&raw)
                .unwrap_or_else(|err| panic!("{locale:?}: '{raw}' is refused: {err:?}"));
            assert_eq!(raw.split(' ').count(), 2, "two words: '{raw}'");
            assert!(
                folded.insert(name.folded()),
                "'{raw}' folds like another name"
            );
        }
    }
}

#[test]
fn a_draw_gives_a_name_of_the_page_language_that_nobody_in_the_room_has() {
    let english: HashSet<String> = (0..words(Locale::en).len())
        .map(|i| words(Locale::en).name(i))
        .collect();
    let drawn = draw(Locale::en, &[]).expect("a name");
    assert!(english.contains(drawn.as_str()), "{drawn}");
    let hindi = draw(Locale::hi, &[]).expect("a name");
    assert!(
        hindi
            .as_str()
            .chars()
            .any(|c| ('\u{900}'..='\u{97F}').contains(&c)),
        "Devanagari: {hindi}"
    );

    // Every name but one taken: the draw finds the one left.
    let all: Vec<DisplayName> = (0..words(Locale::en).len())
        .map(|i| DisplayName::parse(&words(Locale::en).name(i)).unwrap())
        .collect();
    let left = all[all.len() / 2].clone();
    let taken: Vec<&DisplayName> = all.iter().filter(|n| **n != left).collect();
    assert_eq!(draw(Locale::en, &taken), Some(left.clone()));
    // Taken in another case: still taken (names are compared folded).
    let upper = DisplayName::parse(&left.as_str().to_uppercase()).unwrap();
    let mut taken = taken;
    taken.push(&upper);
    assert_eq!(draw(Locale::en, &taken), None);
}
