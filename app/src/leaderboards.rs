//! Leaderboards: a room's all-time board (`model`, `api`), the board entries and lifetime
//! counters a finished match offers (`store`, whose transaction actions the game's last round
//! includes), and the public board page (`page`).

pub mod api;
pub mod model;
pub mod page;

#[cfg(feature = "ssr")]
pub mod store;

pub use model::*;
