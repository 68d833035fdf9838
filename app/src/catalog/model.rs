//! The catalog of things the game shows, and the rule that decides whether each one flies.
//!
//! These types are shared by the server and the browser. The curated seed list lives in
//! `catalog/seed.rs` (server only); `validate` is the gate every seed passes before it is
//! written to the table.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

pub use crate::ids::{InvalidThingId, ThingId};

/// The published rule, in the page's language: every entry in the seed catalog is judged by it;
/// edge cases carry a note.
pub fn flying_rule_in(l: crate::lang::Locale) -> String {
    crate::i18n::td_string!(l, catalog.flying_rule).to_string()
}

/// The fewest things a catalog may have: a match draws without repetition from it.
pub const MIN_CATALOG_SIZE: usize = 150;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    Bird,
    Insect,
    Mammal,
    WaterLife,
    ReptileAmphibian,
    Machine,
    Toy,
    Object,
    Food,
    Nature,
    Myth,
}

impl Category {
    pub const ALL: [Category; 11] = [
        Category::Bird,
        Category::Insect,
        Category::Mammal,
        Category::WaterLife,
        Category::ReptileAmphibian,
        Category::Machine,
        Category::Toy,
        Category::Object,
        Category::Food,
        Category::Nature,
        Category::Myth,
    ];

    /// The category as keys and addresses spell it (as serde does).
    pub fn slug(self) -> &'static str {
        match self {
            Category::Bird => "bird",
            Category::Insect => "insect",
            Category::Mammal => "mammal",
            Category::WaterLife => "water-life",
            Category::ReptileAmphibian => "reptile-amphibian",
            Category::Machine => "machine",
            Category::Toy => "toy",
            Category::Object => "object",
            Category::Food => "food",
            Category::Nature => "nature",
            Category::Myth => "myth",
        }
    }

    pub fn from_slug(raw: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.slug() == raw)
    }

    /// The label in the page's language.
    pub fn label_in(self, l: crate::lang::Locale) -> String {
        use crate::i18n::td_string;
        match self {
            Category::Bird => td_string!(l, catalog.category.bird).to_string(),
            Category::Insect => td_string!(l, catalog.category.insect).to_string(),
            Category::Mammal => td_string!(l, catalog.category.mammal).to_string(),
            Category::WaterLife => td_string!(l, catalog.category.water_life).to_string(),
            Category::ReptileAmphibian => {
                td_string!(l, catalog.category.reptile_amphibian).to_string()
            }
            Category::Machine => td_string!(l, catalog.category.machine).to_string(),
            Category::Toy => td_string!(l, catalog.category.toy).to_string(),
            Category::Object => td_string!(l, catalog.category.object).to_string(),
            Category::Food => td_string!(l, catalog.category.food).to_string(),
            Category::Nature => td_string!(l, catalog.category.nature).to_string(),
            Category::Myth => td_string!(l, catalog.category.myth).to_string(),
        }
    }
}

/// A thing as written in the seed source.
#[derive(Debug, Clone, Copy)]
pub struct SeedThing {
    pub id: &'static str,
    pub en: &'static str,
    pub hi: &'static str,
    pub hi_latin: &'static str,
    pub emoji: &'static str,
    pub flies: bool,
    pub category: Category,
    pub note: Option<&'static str>,
    /// The note in Hindi (Devanagari): every entry with a `note` has one.
    pub note_hi: Option<&'static str>,
}

/// A thing the game can show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Thing {
    pub id: ThingId,
    /// English name.
    pub en: String,
    /// Hindi name in Devanagari.
    pub hi: String,
    /// The Hindi name in Latin letters, as called out: "Kauwa udd!".
    pub hi_latin: String,
    pub emoji: String,
    pub flies: bool,
    pub category: Category,
    /// Why an edge case was ruled the way it was.
    pub note: Option<String>,
    /// The note in Hindi. Absent from items stored before it existed, and left out of the
    /// JSON when there is none, so a thing without it serializes as it always did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note_hi: Option<String>,
}

/// Which things a list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum FlyFilter {
    #[default]
    All,
    Flies,
    Grounded,
}

impl FlyFilter {
    /// Reads the `flies` query parameter: `yes`, `no` or `all` (anything else is `All`).
    pub fn from_query(raw: Option<&str>) -> Self {
        match raw {
            Some("yes") => FlyFilter::Flies,
            Some("no") => FlyFilter::Grounded,
            _ => FlyFilter::All,
        }
    }

    pub fn as_query(self) -> &'static str {
        match self {
            FlyFilter::All => "all",
            FlyFilter::Flies => "yes",
            FlyFilter::Grounded => "no",
        }
    }

    /// `Some(flies)` for a one-sided filter.
    pub fn flies(self) -> Option<bool> {
        match self {
            FlyFilter::All => None,
            FlyFilter::Flies => Some(true),
            FlyFilter::Grounded => Some(false),
        }
    }

    pub fn matches(self, thing: &Thing) -> bool {
        self.flies().is_none_or(|flies| thing.flies == flies)
    }
}

/// Whether a thing matches a free-text search over its names (case-insensitive).
pub fn matches_search(thing: &Thing, query: &str) -> bool {
    let query = query.trim().to_lowercase();
    query.is_empty()
        || [&thing.en, &thing.hi, &thing.hi_latin, thing.id.as_str()]
            .iter()
            .any(|name| name.to_lowercase().contains(&query))
}

/// Sorts things for display: by English name, ignoring case.
pub fn sort_for_display(things: &mut [Thing]) {
    things.sort_by_cached_key(|t| (t.en.to_lowercase(), t.id.clone()));
}

impl SeedThing {
    /// The thing this entry describes, or what is wrong with it.
    pub fn to_thing(&self) -> Result<Thing, String> {
        let id = ThingId::parse(self.id).map_err(|e| format!("{:?}: {e}", self.id))?;
        for text in [self.en, self.hi, self.hi_latin, self.emoji]
            .into_iter()
            .chain(self.note)
            .chain(self.note_hi)
        {
            if text.trim().is_empty() || text.chars().any(char::is_control) {
                return Err(format!("{id}: blank or control characters in {text:?}"));
            }
        }
        Ok(Thing {
            id,
            en: self.en.to_owned(),
            hi: self.hi.to_owned(),
            hi_latin: self.hi_latin.to_owned(),
            emoji: self.emoji.to_owned(),
            flies: self.flies,
            category: self.category,
            note: self.note.map(str::to_owned),
            note_hi: self.note_hi.map(str::to_owned),
        })
    }
}

/// Turns a seed list into things, or lists every problem with it: bad entries, duplicates (by
/// id, English, Hindi or called-out name, so no thing can appear twice with two rulings), or
/// too few things.
pub fn validate(seed: &[SeedThing]) -> Result<Vec<Thing>, Vec<String>> {
    let mut problems = Vec::new();
    let mut seen: [HashSet<String>; 4] = Default::default();
    let mut things = Vec::with_capacity(seed.len());
    for entry in seed {
        for (slot, name) in seen
            .iter_mut()
            .zip([entry.id, entry.en, entry.hi, entry.hi_latin])
        {
            if !slot.insert(name.trim().to_lowercase()) {
                problems.push(format!("{}: duplicate name {name:?}", entry.id));
            }
        }
        match entry.to_thing() {
            Ok(thing) => things.push(thing),
            Err(problem) => problems.push(problem),
        }
    }
    if seed.len() < MIN_CATALOG_SIZE {
        problems.push(format!(
            "the catalog has {} things; it needs at least {MIN_CATALOG_SIZE}",
            seed.len()
        ));
    }
    if problems.is_empty() {
        Ok(things)
    } else {
        Err(problems)
    }
}
