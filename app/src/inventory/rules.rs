//! The inventory's rules, as plain functions: a card's rarity, what a match gives, how names are
//! folded for sorting and search, what a pack holds and what a card sells back for.

use crate::catalog::model::{Category, Thing};
use crate::inventory::model::{Badge, Card, Outcome, Rarity, Rewards, ThingId};

/// Open offers one player can have at once from players they have not played with.
pub const STRANGER_OFFERS: usize = 10;
/// Open offers one player can have waiting at once, from anyone (keeps their count item small:
/// a few kilobytes at most).
pub const WAITING_OFFERS: usize = 50;

/// Cards one match gives at most (the first things judged right, in round order).
pub const CARDS_PER_MATCH: usize = 3;
/// Feathers for taking part.
pub const FEATHERS_FOR_PLAYING: u64 = 1;
/// Feathers per right judgement.
pub const FEATHERS_PER_RIGHT: u64 = 2;
/// Feathers for first, second and third place, in a match of two or more.
pub const PLACE_FEATHERS: [u64; 3] = [15, 8, 4];
/// The streak that earns [`Badge::Streak10`].
pub const STREAK_BADGE: u32 = 10;
/// The fewest rounds a perfect match needs.
pub const PERFECT_ROUNDS: u32 = 5;

/// A thing's rarity: story creatures are legendary; the rest are spread by a stable hash of the
/// id (FNV-1a), about 65% common, 25% rare and 10% epic, so rarity never changes between
/// releases unless an id does.
pub fn rarity(category: Category, thing: &ThingId) -> Rarity {
    if category == Category::Myth {
        return Rarity::Legendary;
    }
    let mut hash: u32 = 0x811c_9dc5;
    for byte in thing.as_str().bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    match hash % 100 {
        0..=64 => Rarity::Common,
        65..=89 => Rarity::Rare,
        _ => Rarity::Epic,
    }
}

/// The card of a catalog thing.
pub fn card_of(thing: &Thing) -> Card {
    Card {
        thing: thing.id.clone(),
        name: thing.en.clone(),
        hi: thing.hi.clone(),
        emoji: thing.emoji.clone(),
        category: thing.category,
        rarity: rarity(thing.category, &thing.id),
    }
}

/// What one finished match gives one player.
pub fn rewards(outcome: &Outcome) -> Rewards {
    let mut cards: Vec<ThingId> = Vec::new();
    for thing in &outcome.right {
        if cards.len() == CARDS_PER_MATCH {
            break;
        }
        // A deck's thing is no catalog card: a deck's match gives none.
        if !cards.contains(thing) && !thing.is_deck_thing() {
            cards.push(thing.clone());
        }
    }
    let ranked = outcome.players >= 2;
    let place = if ranked {
        PLACE_FEATHERS
            .get(outcome.placement.saturating_sub(1) as usize)
            .copied()
            .unwrap_or(0)
    } else {
        0
    };
    let mut badges = Vec::new();
    if ranked && outcome.placement == 1 {
        badges.push(Badge::FirstWin);
    }
    if outcome.rounds >= PERFECT_ROUNDS && outcome.correct == outcome.rounds {
        badges.push(Badge::PerfectMatch);
    }
    if outcome.best_streak >= STREAK_BADGE {
        badges.push(Badge::Streak10);
    }
    Rewards {
        cards,
        feathers: FEATHERS_FOR_PLAYING + FEATHERS_PER_RIGHT * u64::from(outcome.correct) + place,
        badges,
    }
}

/// Which of `earned` (a match's badges) are new to the player: not among `held` (each badge with
/// when it was first earned) before `match_started_ms`. A badge first earned at or after the
/// match began is this match's own (the grant is written once, after the match).
pub fn new_badges(earned: &[Badge], held: &[(Badge, i64)], match_started_ms: i64) -> Vec<Badge> {
    earned
        .iter()
        .copied()
        .filter(|badge| {
            held.iter()
                .filter(|(b, _)| b == badge)
                .all(|(_, at)| *at >= match_started_ms)
        })
        .collect()
}

/// Whether every word of `query` starts a word of `name` (both folded): "squirrel" and "fly squ"
/// match "Flying squirrel"; an empty query matches nothing.
pub fn name_matches(name: &str, query: &str) -> bool {
    let name = fold_name(name);
    let words: Vec<&str> = name.split('-').collect();
    let query = fold_name(query);
    !query.is_empty()
        && query
            .split('-')
            .all(|q| words.iter().any(|w| w.starts_with(q)))
}

/// A name folded for the alphabetical index and prefix search: lower case, letters and digits
/// kept, every run of anything else one `-`. "Hawk cuckoo!" → "hawk-cuckoo". The joiner sorts
/// above the key's `#` that ends the name, so "bee" comes before "bee-eater", as in a dictionary.
pub fn fold_name(name: &str) -> String {
    let mut folded = String::with_capacity(name.len());
    let mut gap = false;
    for ch in name.chars().flat_map(char::to_lowercase) {
        if ch.is_alphanumeric() {
            if gap && !folded.is_empty() {
                folded.push('-');
            }
            gap = false;
            folded.push(ch);
        } else {
            gap = true;
        }
    }
    folded
}

/// Feathers a card sells back to the shop for.
pub fn sell_price(rarity: Rarity) -> u64 {
    match rarity {
        Rarity::Common => 2,
        Rarity::Rare => 5,
        Rarity::Epic => 12,
        Rarity::Legendary => 30,
    }
}

/// Chance weight of each rarity in a pack.
fn pack_weight(rarity: Rarity) -> u64 {
    match rarity {
        Rarity::Common => 60,
        Rarity::Rare => 25,
        Rarity::Epic => 10,
        Rarity::Legendary => 5,
    }
}

/// The `count` cards of a pack opened with `seed`: each drawn from the whole catalog, weighted
/// by rarity (a card's weight is its rarity's, shared among that rarity's cards). Repeats are
/// possible, as in any pack.
pub fn pack(catalog: &[Card], count: usize, seed: u64) -> Vec<ThingId> {
    if catalog.is_empty() {
        return Vec::new();
    }
    let mut per_rarity = std::collections::BTreeMap::<Rarity, u64>::new();
    for card in catalog {
        *per_rarity.entry(card.rarity).or_default() += 1;
    }
    // Weights scaled so every card's share is a whole number.
    let scale: u64 = per_rarity.values().product::<u64>().max(1);
    let weights: Vec<u64> = catalog
        .iter()
        .map(|c| pack_weight(c.rarity) * scale / per_rarity[&c.rarity])
        .collect();
    let total: u64 = weights.iter().sum();
    let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
    (0..count)
        .map(|_| {
            // splitmix64
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            let mut pick = z % total;
            let mut chosen = &catalog[0];
            for (card, weight) in catalog.iter().zip(&weights) {
                if pick < *weight {
                    chosen = card;
                    break;
                }
                pick -= weight;
            }
            chosen.thing.clone()
        })
        .collect()
}
