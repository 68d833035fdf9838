//! The access patterns of live rooms: the open-stream counts a client may hold, and the
//! instances that announce themselves to each other.

pub mod instances;
pub mod streams;

crate::store::handle!(
    /// The access patterns of live rooms: stream counts and the instances' registry.
    Live,
    live
);
