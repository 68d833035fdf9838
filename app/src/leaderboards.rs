//! Leaderboards: every board by period (day, ISO week, season, all time), scope (everyone, a
//! room) and metric (best match, total points), with exact ranks from a counting tree kept in
//! each board's partition (`tree`), fed exactly once from the table's stream (`projector`,
//! `apply`), and the public board pages (`boards_page`).

pub mod api;
pub mod boards_page;
pub mod model;

#[cfg(feature = "ssr")]
pub mod card;
#[cfg(feature = "ssr")]
pub mod period;
#[cfg(feature = "ssr")]
pub mod plan;
#[cfg(feature = "ssr")]
pub mod projector;
#[cfg(feature = "ssr")]
pub mod store;
#[cfg(feature = "ssr")]
pub mod tree;

pub use model::*;
