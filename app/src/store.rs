//! The store core: the one handle on the one table ([`Db`] in `db`), the transaction and query
//! helpers every feature's store uses (`tx`), the map of the key space (`keys`), signed cursors,
//! errors, the request expressions written as values (`expr`), the call recorder (`metrics`), fixed-window counters for rate limits (`limits`), the
//! table's definition (`table`) and the health probe (`health`).
//!
//! Nothing outside the stores talks to DynamoDB. Each feature's named access patterns are the
//! methods of its own handle, defined in that feature's `store` module (`db.rooms()`,
//! `db.game()`, `db.boards()`, ...: see `handle`); a write that spans features is one
//! transaction whose actions each owning feature builds.

pub mod cursor;
pub mod db;
pub mod error;
pub mod expr;
mod handle;
pub mod health;
pub mod keys;
pub mod limits;
pub mod metrics;
pub mod retry;
mod secret;
pub mod table;
pub mod tx;

pub use cursor::CursorKey;
pub(crate) use db::key_map;
pub(crate) use db::send_recorded;
pub use db::{epoch_millis, epoch_seconds, is_live, key_of, sort_key, Db, Item, Page};
pub use error::{Conflict, DataError};
pub(crate) use handle::handle;
pub use health::TableHealth;
pub use metrics::{
    Call, OpUsage, Pricing, Recorder, Tallies, Units, Usage, UsageReport, WorkUsage,
};
