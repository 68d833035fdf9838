//! The table's key attributes and indexes, the key type, and the system items.

/// Partition key attribute.
pub const PK: &str = "PK";
/// Sort key attribute.
pub const SK: &str = "SK";
/// First overloaded global secondary index.
pub const GSI1: &str = "GSI1";
pub const GSI1PK: &str = "GSI1PK";
pub const GSI1SK: &str = "GSI1SK";
/// Second overloaded global secondary index.
pub const GSI2: &str = "GSI2";
pub const GSI2PK: &str = "GSI2PK";
pub const GSI2SK: &str = "GSI2SK";

/// Local secondary index: same partition, alternative sort.
pub const LSI1: &str = "LSI1";
pub const LSI1SK: &str = "LSI1SK";
/// Epoch seconds after which an item is gone (DynamoDB TTL attribute).
pub const TTL: &str = "ttl";

/// Which key a Query reads by: the table's own (PK, SK), LSI1 (PK, LSI1SK), GSI1 or GSI2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keyed {
    Table,
    Lsi1,
    Gsi1,
    Gsi2,
}

impl Keyed {
    /// The index's name (none for the table) and its partition and sort key attributes.
    pub fn attributes(self) -> (Option<&'static str>, &'static str, &'static str) {
        match self {
            Keyed::Table => (None, PK, SK),
            Keyed::Lsi1 => (Some(LSI1), PK, LSI1SK),
            Keyed::Gsi1 => (Some(GSI1), GSI1PK, GSI1SK),
            Keyed::Gsi2 => (Some(GSI2), GSI2PK, GSI2SK),
        }
    }
}

/// A base-table primary key.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    pub pk: String,
    pub sk: String,
}

/// The secret that signs pagination cursors, shared by every server instance on the table.
pub fn cursor_secret() -> Key {
    Key {
        pk: "SYSTEM".to_owned(),
        sk: "CURSOR_SECRET".to_owned(),
    }
}
