//! Which things a match shows: drawn from the catalog without repetition, with about
//! [`FLYER_SHARE`] of them flyers, in an order fixed by a seed (a room setting may fix it, and
//! tests do).

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::catalog::{Thing, ThingId};
use crate::decks::model::DeckThing;
use crate::ids::DeckCode;

/// The share of a match's rounds that show a thing that flies.
pub const FLYER_SHARE: f64 = 0.6;

/// What a draw needs of a thing: its id and whether it flies (a catalog's thing, or a deck's).
pub trait Drawable {
    fn thing_id(&self) -> &ThingId;
    fn flies(&self) -> bool;
}

impl Drawable for Thing {
    fn thing_id(&self) -> &ThingId {
        &self.id
    }
    fn flies(&self) -> bool {
        self.flies
    }
}

/// `rounds` distinct things, about 60% flyers (as many as the catalog allows), shuffled. The
/// same catalog, rounds and seed always give the same draw (ChaCha8 is stable across
/// platforms and versions). Fewer than `rounds` only when the catalog has fewer things.
pub fn draw_things<T: Drawable>(catalog: &[T], rounds: usize, seed: u64) -> Vec<ThingId> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut flyers: Vec<&T> = catalog.iter().filter(|t| t.flies()).collect();
    let mut grounded: Vec<&T> = catalog.iter().filter(|t| !t.flies()).collect();
    // The catalog's order must not matter: sort before shuffling.
    flyers.sort_by(|a, b| a.thing_id().cmp(b.thing_id()));
    grounded.sort_by(|a, b| a.thing_id().cmp(b.thing_id()));
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
        .map(|t| t.thing_id().clone())
        .collect();
    drawn.shuffle(&mut rng);
    drawn
}

/// A thing a match can show, with everything its round keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Playable {
    pub id: ThingId,
    pub en: String,
    pub hi: String,
    pub hi_latin: String,
    pub emoji: String,
    pub flies: bool,
    pub note: Option<String>,
    pub note_hi: Option<String>,
}

impl Drawable for Playable {
    fn thing_id(&self) -> &ThingId {
        &self.id
    }
    fn flies(&self) -> bool {
        self.flies
    }
}

impl From<Thing> for Playable {
    fn from(thing: Thing) -> Self {
        Playable {
            id: thing.id,
            en: thing.en,
            hi: thing.hi,
            hi_latin: thing.hi_latin,
            emoji: thing.emoji,
            flies: thing.flies,
            note: thing.note,
            note_hi: thing.note_hi,
        }
    }
}

/// The id a deck's thing plays under: `deck-<code>-<its place in the deck>` (a deck's things
/// are never catalog cards, so the id only has to be unique within the match).
pub fn deck_thing_id(code: &DeckCode, index: usize) -> ThingId {
    let code = code.as_str().to_ascii_lowercase();
    ThingId::parse(&format!("{}{code}-{index}", ThingId::DECK_PREFIX))
        .expect("a deck code is letters and digits")
}

/// A deck's thing as a round shows it: a name missing in one language is the other's (a
/// deck in English alone shows its English names on a Hindi page), the Latin spelling of the
/// Hindi name is the English one when the deck gives none; its one note in both languages.
pub fn from_deck(code: &DeckCode, index: usize, thing: DeckThing) -> Playable {
    let en = thing.en.or_else(|| thing.hi.clone()).unwrap_or_default();
    let hi = thing.hi.unwrap_or_else(|| en.clone());
    Playable {
        id: deck_thing_id(code, index),
        hi_latin: thing.hi_latin.unwrap_or_else(|| en.clone()),
        en,
        hi,
        emoji: thing.emoji,
        flies: thing.flies,
        note_hi: thing.note.clone(),
        note: thing.note,
    }
}
