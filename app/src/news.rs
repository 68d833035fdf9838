//! "This room changed": how a server function tells this instance's live watchers of a room at
//! once. The router provides a [`RoomNews`] (the live hub's bell) to every request; the features
//! that change rooms ring it, without depending on the live channel above them.

use std::sync::Arc;

use leptos::prelude::use_context;

use crate::ids::RoomCode;

/// Rings the bell of a room's watcher on this instance.
#[derive(Clone)]
pub struct RoomNews(Arc<dyn Fn(&RoomCode) + Send + Sync>);

impl RoomNews {
    pub fn new(ring: impl Fn(&RoomCode) + Send + Sync + 'static) -> Self {
        Self(Arc::new(ring))
    }

    pub fn tell(&self, code: &RoomCode) {
        (self.0)(code);
    }
}

impl std::fmt::Debug for RoomNews {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RoomNews")
    }
}

/// Tells this instance's watcher of the room of a change, so its listeners hear at once, and
/// through it the other instances (see `live/peers.rs`).
pub fn announce(code: &RoomCode) {
    if let Some(news) = use_context::<RoomNews>() {
        news.tell(code);
    }
}
