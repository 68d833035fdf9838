//! The daily flight: each UTC day the same ten things for everyone, drawn by a seed only the
//! server knows until the day is over, met by each player in an order of their own; one try,
//! alone, with the rooms' rules and timing (`model`, `clock`); the draw, the flights and their
//! results in the table (`store`), counted on the daily's boards and in days in a row by the
//! board projector.

pub mod api;
pub mod daily_page;
pub mod model;

#[cfg(feature = "ssr")]
pub mod card;
#[cfg(feature = "ssr")]
pub mod clock;
#[cfg(feature = "ssr")]
pub mod draws;
#[cfg(feature = "ssr")]
pub mod store;
