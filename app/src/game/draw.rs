//! Which things a match shows: drawn from the catalog without repetition, with about
//! [`FLYER_SHARE`] of them flyers, in an order fixed by a seed (a room setting may fix it, and
//! tests do).

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::catalog::{Thing, ThingId};

/// The share of a match's rounds that show a thing that flies.
pub const FLYER_SHARE: f64 = 0.6;

/// `rounds` distinct things, about 60% flyers (as many as the catalog allows), shuffled. The
/// same catalog, rounds and seed always give the same draw (ChaCha8 is stable across
/// platforms and versions). Fewer than `rounds` only when the catalog has fewer things.
pub fn draw_things(catalog: &[Thing], rounds: usize, seed: u64) -> Vec<ThingId> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut flyers: Vec<&Thing> = catalog.iter().filter(|t| t.flies).collect();
    let mut grounded: Vec<&Thing> = catalog.iter().filter(|t| !t.flies).collect();
    // The catalog's order must not matter: sort before shuffling.
    flyers.sort_by(|a, b| a.id.cmp(&b.id));
    grounded.sort_by(|a, b| a.id.cmp(&b.id));
    flyers.shuffle(&mut rng);
    grounded.shuffle(&mut rng);

    let rounds = rounds.min(catalog.len());
    let want_flyers = ((rounds as f64) * FLYER_SHARE).round() as usize;
    let n_flyers = want_flyers
        .min(flyers.len())
        .max(rounds.saturating_sub(grounded.len()));
    let mut drawn: Vec<ThingId> = flyers[..n_flyers]
        .iter()
        .chain(&grounded[..rounds - n_flyers])
        .map(|t| t.id.clone())
        .collect();
    drawn.shuffle(&mut rng);
    drawn
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::catalog::{self, seed::SEED};

    fn catalog() -> Vec<Thing> {
        catalog::validate(SEED).unwrap()
    }

    fn flies(things: &[Thing], id: &ThingId) -> bool {
        things.iter().find(|t| &t.id == id).unwrap().flies
    }

    #[test]
    fn a_draw_has_no_repeats_and_about_sixty_percent_flyers() {
        let things = catalog();
        for (rounds, flyers) in [(10, 6), (5, 3), (3, 2), (1, 1), (30, 18)] {
            for seed in 0..20 {
                let drawn = draw_things(&things, rounds, seed);
                assert_eq!(drawn.len(), rounds);
                let unique: HashSet<_> = drawn.iter().collect();
                assert_eq!(unique.len(), rounds, "no thing twice in a match");
                let n = drawn.iter().filter(|id| flies(&things, id)).count();
                assert_eq!(n, flyers, "{rounds} rounds, seed {seed}");
            }
        }
    }

    #[test]
    fn a_seed_fixes_the_draw_and_the_catalog_order_does_not_matter() {
        let things = catalog();
        let mut reversed = things.clone();
        reversed.reverse();
        assert_eq!(draw_things(&things, 10, 42), draw_things(&reversed, 10, 42));
        assert_ne!(draw_things(&things, 10, 42), draw_things(&things, 10, 43));
    }

    #[test]
    fn a_small_catalog_gives_what_it_has() {
        let things: Vec<Thing> = catalog().into_iter().filter(|t| t.flies).take(4).collect();
        let drawn = draw_things(&things, 10, 7);
        assert_eq!(drawn.len(), 4);
        assert!(draw_things(&[], 10, 7).is_empty());
    }
}
