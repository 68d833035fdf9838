//! Who is playing: player ids, names and avatars (`model`), guests, accounts and sign-in
//! (`api`, with signing in and claiming in `entry`), the filter on names others see (`name_filter`) and the names not drawn again (`hidden`), the session cookie (`session`), password hashing and session tokens (`auth`), the
//! items behind them (`store`) and the account page (`account_page`).

pub mod account_page;
pub mod api;
pub mod model;

#[cfg(feature = "ssr")]
pub mod auth;
#[cfg(feature = "ssr")]
pub mod entry;
#[cfg(feature = "ssr")]
pub mod hidden;
#[cfg(feature = "ssr")]
pub mod name_filter;
#[cfg(feature = "ssr")]
pub mod sealed;
#[cfg(feature = "ssr")]
pub mod session;
#[cfg(feature = "ssr")]
pub mod store;
#[cfg(feature = "ssr")]
mod visible;

pub use model::*;
