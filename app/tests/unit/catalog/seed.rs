//! The unit tests of `app::catalog::seed`.

use app::catalog::model::{validate, Thing, MIN_CATALOG_SIZE};
use app::catalog::seed::SEED;

fn seeded() -> Vec<Thing> {
    validate(SEED).unwrap_or_else(|problems| panic!("{problems:#?}"))
}

fn ruling(id: &str) -> bool {
    seeded()
        .into_iter()
        .find(|t| t.id.as_str() == id)
        .unwrap_or_else(|| panic!("{id} is not in the catalog"))
        .flies
}

#[test]
fn the_seed_catalog_is_valid_and_large_enough() {
    assert!(seeded().len() >= MIN_CATALOG_SIZE);
}

#[test]
fn the_seed_catalog_has_enough_of_both_kinds_for_a_60_percent_draw() {
    let things = seeded();
    let flyers = things.iter().filter(|t| t.flies).count();
    assert!(
        flyers >= 60 && things.len() - flyers >= 40,
        "{flyers} of {}",
        things.len()
    );
}

#[test]
fn edge_cases_follow_the_published_rule() {
    for (id, flies) in [
        ("crow", true),
        ("penguin", false),
        ("ostrich", false),
        ("kiwi-bird", false),
        ("flying-fish", true),
        ("bat", true),
        ("helicopter", true),
        ("kite", true),
        ("paper-plane", true),
        ("balloon", true),
        ("dragon", true),
        ("unicorn", false),
        ("kangaroo", false),
        ("elephant", false),
    ] {
        assert_eq!(ruling(id), flies, "{id}");
    }
}

#[test]
fn every_edge_case_explains_itself() {
    for id in [
        "penguin",
        "ostrich",
        "flying-fish",
        "bat",
        "dragon",
        "unicorn",
    ] {
        let thing = seeded().into_iter().find(|t| t.id.as_str() == id).unwrap();
        assert!(thing.note.is_some(), "{id} has no note");
    }
}

#[test]
fn every_note_is_in_english_and_in_hindi() {
    for entry in SEED {
        assert_eq!(
            entry.note.is_some(),
            entry.note_hi.is_some(),
            "{}: a note needs both an English and a Hindi version",
            entry.id
        );
        if let Some(hi) = entry.note_hi {
            assert!(
                !hi.chars().any(|c| c.is_ascii_alphabetic()) && hi != entry.note.unwrap(),
                "{}: the Hindi note is not in Devanagari: {hi:?}",
                entry.id
            );
        }
    }
}
