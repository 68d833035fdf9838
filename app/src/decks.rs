//! Decks of things that hosts make, share by code and play like the built-in catalog (which
//! stays the default deck). `model`: a deck, its rules and its lines; `store`: decks in the
//! table; `api`: making, saving, deleting and reading them over HTTP; `card`: a deck's share card. See `docs/decks.md`.

pub mod api;
#[cfg(feature = "ssr")]
pub mod card;
pub mod deck_pages;
pub mod gallery_page;
pub mod in_room;
pub mod model;
pub mod moderation;

#[cfg(feature = "ssr")]
pub mod store;

pub use model::*;

/// Whether a thing of a deck may show `emoji`: the pages draw every emoji of the built-in
/// catalog's things, and [`DEFAULT_EMOJI`] for a thing given none.
#[cfg(feature = "ssr")]
pub fn emoji_ok(emoji: &str) -> bool {
    use std::collections::HashSet;
    use std::sync::LazyLock;
    static SET: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
        crate::catalog::seed::SEED
            .iter()
            .map(|thing| thing.emoji)
            .chain([DEFAULT_EMOJI])
            .collect()
    });
    SET.contains(emoji)
}
