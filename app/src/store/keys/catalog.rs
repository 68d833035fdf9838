//! The catalog's keys: things, and their collection on GSI1.

use super::table::Key;
use crate::ids::ThingId;

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
