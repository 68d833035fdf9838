//! Things made together: in a room's lobby the host opens a suggestion box; players send a
//! thing and its ruling from their phones; the host accepts (as sent or edited), rejects, or
//! puts a disputed ruling to the room's vote and takes or overrides the result; what was
//! accepted goes into a deck of the host's (one of theirs, or a new one in the editor).
//! `model`: a suggestion and its rules; `store`: boxes in the table; `api`: the posts;
//! `forms`: what the room page draws of it. See `docs/decks.md`.

pub mod api;
pub mod forms;
pub mod model;

#[cfg(feature = "ssr")]
pub mod store;
