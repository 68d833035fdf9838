//! The unit tests of `app::game::draw`.

use std::collections::HashSet;

use app::catalog::{self, seed::SEED};
use app::catalog::{Thing, ThingId};
use app::game::draw::*;

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
    assert!(draw_things::<app::catalog::Thing>(&[], 10, 7).is_empty());
}
