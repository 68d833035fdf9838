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
