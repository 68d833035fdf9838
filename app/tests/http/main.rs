//! Everything a server answers over HTTP, driven in-process through the axum router (plus the
//! embedded engine's own file): one test binary, one module per feature, on the support the
//! data suite shares (`app/tests/support`). One binary links the whole server once.

#[path = "../support/mod.rs"]
mod support;

mod boards;
mod daily;
mod decks;
mod engine;
mod faults;
mod fuzz;
mod game;
mod hardening;
mod identity;
mod inventory;
mod lang;
mod pages;
mod reports;
mod rooms;
mod screen;
mod security;
mod strangers;
mod streams;
mod suggest;
