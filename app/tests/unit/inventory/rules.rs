//! The unit tests of `app::inventory::rules`.

use app::catalog::model::Category;
use app::ids::ThingId;
use app::inventory::model::{Badge, Card, Outcome, Rarity};
use app::inventory::rules::*;

fn id(raw: &str) -> ThingId {
    ThingId::parse(raw).unwrap()
}

fn outcome(placement: u32, players: u32, correct: u32, rounds: u32) -> Outcome {
    Outcome {
        placement,
        players,
        correct,
        rounds,
        right: ["crow", "kite", "cow", "crow", "bee"]
            .iter()
            .take(correct as usize)
            .map(|t| id(t))
            .collect(),
        best_streak: correct,
    }
}

#[test]
fn a_match_gives_the_first_three_distinct_things_judged_right() {
    let r = rewards(&outcome(2, 3, 5, 5));
    assert_eq!(r.cards, vec![id("crow"), id("kite"), id("cow")]);
}

#[test]
fn feathers_count_playing_right_judgements_and_place() {
    assert_eq!(rewards(&outcome(1, 4, 3, 8)).feathers, 1 + 6 + 15);
    assert_eq!(rewards(&outcome(3, 4, 0, 8)).feathers, 1 + 4);
    assert_eq!(rewards(&outcome(4, 4, 1, 8)).feathers, 1 + 2);
    // Alone in a room there is no place to win.
    assert_eq!(rewards(&outcome(1, 1, 2, 8)).feathers, 1 + 4);
}

#[test]
fn badges_mark_a_win_a_perfect_match_and_a_streak_of_ten() {
    assert_eq!(rewards(&outcome(1, 2, 2, 8)).badges, vec![Badge::FirstWin]);
    assert!(rewards(&outcome(1, 1, 2, 8)).badges.is_empty());
    assert_eq!(
        rewards(&outcome(2, 2, 5, 5)).badges,
        vec![Badge::PerfectMatch]
    );
    assert!(rewards(&outcome(2, 2, 4, 4)).badges.is_empty(), "too short");
    let mut long = outcome(2, 2, 10, 12);
    long.best_streak = 10;
    assert_eq!(rewards(&long).badges, vec![Badge::Streak10]);
}

#[test]
fn names_fold_to_lower_case_words() {
    assert_eq!(fold_name("Hawk cuckoo"), "hawk-cuckoo");
    assert_eq!(fold_name("  Hot-air  balloon!"), "hot-air-balloon");
    assert!(
        app::store::keys::card_by_name(
            app::ids::Place::Bag,
            &fold_name("Bee"),
            &app::ids::ThingId::parse("bee").unwrap()
        ) < app::store::keys::card_by_name(
            app::ids::Place::Bag,
            &fold_name("Bee-eater"),
            &app::ids::ThingId::parse("bee-eater").unwrap()
        ),
        "a name sorts before the longer names it begins"
    );
    assert_eq!(fold_name("UFO"), "ufo");
}

#[test]
fn story_creatures_are_legendary_and_the_rest_mostly_common() {
    let things = app::catalog::validate(app::catalog::seed::SEED).unwrap();
    let mut counts = std::collections::BTreeMap::<Rarity, usize>::new();
    for t in &things {
        let r = rarity(t.category, &t.id);
        assert_eq!(r == Rarity::Legendary, t.category == Category::Myth);
        *counts.entry(r).or_default() += 1;
    }
    assert!(counts[&Rarity::Common] > counts[&Rarity::Rare]);
    assert!(counts[&Rarity::Rare] > counts[&Rarity::Epic]);
}

#[test]
fn packs_are_repeatable_and_favour_common_cards() {
    let things = app::catalog::validate(app::catalog::seed::SEED).unwrap();
    let cards: Vec<Card> = things.iter().map(card_of).collect();
    assert_eq!(pack(&cards, 5, 42), pack(&cards, 5, 42));
    assert_ne!(pack(&cards, 5, 42), pack(&cards, 5, 43));
    let drawn = pack(&cards, 10_000, 7);
    let rarity_of = |t: &ThingId| cards.iter().find(|c| &c.thing == t).unwrap().rarity;
    let commons = drawn
        .iter()
        .filter(|t| rarity_of(t) == Rarity::Common)
        .count();
    let legendary = drawn
        .iter()
        .filter(|t| rarity_of(t) == Rarity::Legendary)
        .count();
    assert!((5_500..6_500).contains(&commons), "{commons}");
    assert!((300..700).contains(&legendary), "{legendary}");
}

#[test]
fn a_badge_is_new_only_to_a_player_who_did_not_hold_it_before_the_match() {
    let earned = [Badge::FirstWin, Badge::PerfectMatch];
    assert_eq!(new_badges(&earned, &[], 1_000), earned.to_vec());
    // Held since an earlier match: not announced again.
    assert_eq!(
        new_badges(&earned, &[(Badge::FirstWin, 999)], 1_000),
        vec![Badge::PerfectMatch]
    );
    // Granted by this very match (after it began): still this match's news.
    assert_eq!(
        new_badges(
            &earned,
            &[(Badge::FirstWin, 1_000), (Badge::PerfectMatch, 5_000)],
            1_000
        ),
        earned.to_vec()
    );
    assert!(new_badges(&[], &[(Badge::Streak10, 1)], 1_000).is_empty());
}
