//! Rooms: codes, settings, who is in a room (`model`); opening, joining, leaving, kicking and
//! settings (`api`, `store`, `members`; the way in for players and audience alike, `admission`; the room's items as stored in `items`); the host's lock
//! and hand-overs (`control`); the host's rules for strangers, friendly names (`friendly`) and
//! the join queue (`asks`); the home page with its ways in (`home_page`) and the lobby's
//! pieces that the room page shows (`lobby`). A change is told to the live channel by the bell
//! in `crate::news`.

pub mod api;
pub mod home_page;
pub mod lobby;
pub mod model;

#[cfg(feature = "ssr")]
pub mod admission;
#[cfg(feature = "ssr")]
pub mod friendly;
#[cfg(feature = "ssr")]
pub mod items;
#[cfg(feature = "ssr")]
pub mod store;

pub use model::*;
