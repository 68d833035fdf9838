//! Profiles: a player's public page (`/p/<id>`), guests included: who they are, their lifetime
//! stats, every board they are on with rank and top-%, their collection's progress, and their
//! matches newest first, each linked to its rounds. It only reads what other features keep
//! (identity, leaderboards, game, inventory) and owns no items.

pub mod api;
pub mod model;
pub mod profile_page;

#[cfg(feature = "ssr")]
pub mod card;
#[cfg(feature = "ssr")]
pub mod store;
