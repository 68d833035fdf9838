//! Rooms: codes, settings, who is in a room (`model`); opening, joining, leaving, kicking and
//! settings (`api`, `store`, `members`); the host's lock and hand-overs (`control`); the bell that tells the live channel of a change
//! (`news`); the home page with its ways in (`page`) and the lobby's pieces that the room page
//! shows (`lobby`).

pub mod api;
pub mod home_page;
pub mod lobby;
pub mod model;

#[cfg(feature = "ssr")]
pub mod items;
#[cfg(feature = "ssr")]
pub mod store;

pub use model::*;
