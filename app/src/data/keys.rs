//! Every key string in the table is built here, from typed inputs, and nowhere else.
//!
//! Prefixes are part of the stored data: changing one is a data migration. The access-pattern
//! table in the README names which pattern reads which key.

use crate::catalog::ThingId;

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

/// A base-table primary key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key {
    pub pk: String,
    pub sk: String,
}

/// A thing in the catalog: `OBJ#<id>` / `META`.
pub fn thing(id: &ThingId) -> Key {
    Key {
        pk: format!("OBJ#{}", id.as_str()),
        sk: "META".to_owned(),
    }
}

/// The catalog's collection on GSI1: every thing carries `GSI1PK = CATALOG`.
pub const CATALOG_COLLECTION: &str = "CATALOG";

/// GSI1 sort key of a thing inside the catalog collection: flyers and non-flyers are separate
/// ranges, so "only flyers" is a `begins_with` key condition, not a filter.
pub fn catalog_sort(flies: bool, id: &ThingId) -> String {
    format!("{}{}", catalog_prefix(Some(flies)), id.as_str())
}

/// The `begins_with` prefix that selects flyers (`Some(true)`), non-flyers (`Some(false)`) or
/// all things (`None`) in the catalog collection.
pub fn catalog_prefix(flies: Option<bool>) -> &'static str {
    match flies {
        Some(true) => "FLIES#Y#",
        Some(false) => "FLIES#N#",
        None => "FLIES#",
    }
}

/// Marker recording which version of the seed catalog the table holds.
pub fn catalog_seed_marker() -> Key {
    Key {
        pk: "SYSTEM".to_owned(),
        sk: "CATALOG_SEED".to_owned(),
    }
}

/// The secret that signs pagination cursors, shared by every server instance on the table.
pub fn cursor_secret() -> Key {
    Key {
        pk: "SYSTEM".to_owned(),
        sk: "CURSOR_SECRET".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> ThingId {
        ThingId::parse(s).expect("valid id")
    }

    #[test]
    fn thing_key_uses_object_prefix() {
        assert_eq!(
            thing(&id("crow")),
            Key {
                pk: "OBJ#crow".into(),
                sk: "META".into()
            }
        );
    }

    #[test]
    fn catalog_sort_keys_fall_inside_their_prefixes() {
        let crow = catalog_sort(true, &id("crow"));
        let cow = catalog_sort(false, &id("cow"));
        assert!(crow.starts_with(catalog_prefix(Some(true))));
        assert!(!crow.starts_with(catalog_prefix(Some(false))));
        assert!(cow.starts_with(catalog_prefix(Some(false))));
        assert!(crow.starts_with(catalog_prefix(None)) && cow.starts_with(catalog_prefix(None)));
    }

    #[test]
    fn system_items_do_not_collide() {
        assert_ne!(catalog_seed_marker(), cursor_secret());
    }
}
