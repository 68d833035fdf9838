//! The room page and its live channel: a room's lobby and its match together, rendered on the
//! server, then kept current in the browser by the room's Server-Sent Events (`feed`; served by
//! this instance's `hub`, with each client's count of open streams across instances in
//! `streams`). The page's data is `room_view`'s. The interactive part of the page is one island (`room_page`), which the big
//! screen (`/r/<CODE>/screen`, in the same file) shows to nobody in particular.

pub mod api;
pub mod feed;
pub mod room_page;
pub mod screen_page;

#[cfg(feature = "ssr")]
pub mod hub;
#[cfg(feature = "ssr")]
pub mod peers;
pub mod room_view;
#[cfg(feature = "ssr")]
pub mod store;

pub use feed::*;
#[cfg(feature = "ssr")]
pub use hub::stream::StreamLease;
#[cfg(feature = "ssr")]
pub use hub::{RoomHub, DEFAULT_POLL, MAX_STREAMS, STREAMS_PER_CLIENT};
