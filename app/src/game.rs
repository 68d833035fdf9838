//! The match played in a room: its shared types (`model`), the scoring rules (`rules`), which
//! taps count (`timing`), the draw of things (`draw`), starting, tapping and resolving rounds
//! exactly once (`api`, `store`), and the match's part of the room page (`page`).

pub mod api;
pub mod model;
pub mod page;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod records;
#[cfg(feature = "ssr")]
pub mod resolve;
pub mod timing;

#[cfg(feature = "ssr")]
pub mod draw;
#[cfg(feature = "ssr")]
pub mod store;
#[cfg(feature = "ssr")]
pub mod throttle;

#[cfg(feature = "ssr")]
pub use draw::{draw_things, FLYER_SHARE};
pub use model::*;
pub use rules::*;
pub use timing::{check_tap, TapRejected, GRACE_MS, HUMAN_FLOOR_MS, MAX_LATENCY_MS};
