//! Udd's Leptos application: the shell, the routes and the pages, shared by the server (which
//! renders them, feature `ssr`) and the browser bundle (which hydrates them, feature `hydrate`).

// Shared by every feature: the wire error, the resource codec, the typed ids, the browser's
// APIs, page pieces.
mod browser;
pub mod bundle;
pub mod codec;
pub mod error;
pub mod ids;
pub mod lang;
pub mod ui;

pub mod i18n;

// The features, lowest first: each may use the ones above it in this list, never one below.
pub mod catalog;
pub mod daily;
pub mod game;
pub mod identity;
// Decks of things players make: on the catalog (its emoji) and identity (the name filter).
pub mod decks;
pub mod inventory;
pub mod leaderboards;
pub mod live;
pub mod profiles;
pub mod rooms;
// Above the pages it reads from (profiles, boards, rooms, fair play's flags).
pub mod reports;
// Things made together in a room: on rooms (the box on META) and decks (the save).
pub mod suggest;

// The document, the app's top bar and its routes: above every feature.
pub mod shell;
pub use shell::{shell, App};

// Server only: the store core every feature's store stands on, what the request guard learned
// about a request, and the HTTP surface (router, guard, engine, telemetry) on top of it all.
#[cfg(feature = "ssr")]
pub mod http;
#[cfg(feature = "ssr")]
pub mod news;
#[cfg(feature = "ssr")]
pub mod request;
#[cfg(feature = "ssr")]
pub mod share;
#[cfg(feature = "ssr")]
pub mod store;

/// The browser bundle's start: readies the reactive system for islands. The `frontend` crate's
/// exported `hydrate` calls it, and that call is also what links this crate (and with it every
/// island's exported entry point) into the bundle.
#[cfg(feature = "hydrate")]
pub fn wake_islands() {
    leptos::mount::hydrate_islands();
}
