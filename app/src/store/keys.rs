//! Every key string in the table is built here, from typed inputs, and nowhere else.
//!
//! Prefixes are part of the stored data: changing one is a data migration. The access-pattern
//! table in the README names which pattern reads which key.
//!
//! One file per part of the key space: `table` (the attributes, the indexes, [`Key`], the system
//! items), then each feature's keys. Everything is re-exported here, so a key is `keys::<name>`.

mod boards;
mod catalog;
mod daily;
mod decks;
mod game;
mod identity;
mod inventory;
mod limits;
mod live;
mod rooms;
mod safety;
mod suggest;
mod table;

pub use boards::*;
pub use catalog::*;
pub use daily::*;
pub use decks::*;
pub use game::*;
pub use identity::*;
pub use inventory::*;
pub use limits::*;
pub use live::*;
pub use rooms::*;
pub use safety::*;
pub use suggest::*;
pub use table::*;
