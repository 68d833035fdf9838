//! The inventory: cards of the catalog's things earned by playing, feathers, badges, the bank,
//! the shop and trades between players. The types (`model`) and the reward rules (`rules`) are
//! plain and shared; what the bag, card and shop pages show is read in `views`; the reads and safe changes (`store`), the shop (`shop`) and trades
//! (`trades`) are server-only. The boards' projector grants each match's rewards through
//! [`changes`]' `Inventory::reward_actions`, in the transaction that marks the match counted, so a reward is
//! given exactly once however often the stream delivers the match.

pub mod api;
pub mod inventory_page;
pub mod model;
pub mod notice;
pub mod rules;
pub mod shop_page;
pub mod trades_page;
pub mod views;

#[cfg(feature = "ssr")]
pub mod store;

pub use model::*;
