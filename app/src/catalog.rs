//! The things the game shows and whether each one flies: the shared types and the flying rule
//! (`model`), the curated seed (`seed`), the catalog's reads and seeding (`store`), the one
//! server function (`api`) and the `/things` page with its in-place filter island (`things_page`).

pub mod api;
pub mod model;
pub mod things_page;

#[cfg(feature = "ssr")]
pub mod seed;
#[cfg(feature = "ssr")]
pub mod store;

pub use model::*;
