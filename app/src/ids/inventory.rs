//! The inventory's key inputs: which of a player's inventories (`Place`), a trade offer's id and
//! a shop item's id.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{invalid, Invalid};
use crate::i18n::td_string;

/// One of a player's inventories. Cards in the bank are kept safe: they cannot be offered,
/// traded or sold until moved back to the bag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Place {
    Bag,
    Bank,
}

impl Place {
    pub const ALL: [Place; 2] = [Place::Bag, Place::Bank];

    /// The place as it leads a sort key, and as it reads in an address.
    pub fn as_str(self) -> &'static str {
        match self {
            Place::Bag => "bag",
            Place::Bank => "bank",
        }
    }

    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        match raw {
            "bag" => Ok(Place::Bag),
            "bank" => Ok(Place::Bank),
            _ => Err(invalid(
                td_string!(crate::lang::locale(), common.invalid.place).to_string(),
            )),
        }
    }

    pub fn other(self) -> Place {
        match self {
            Place::Bag => Place::Bank,
            Place::Bank => Place::Bag,
        }
    }
}

super::parsed_from_string!(Place);

impl From<Place> for String {
    fn from(place: Place) -> Self {
        place.as_str().to_owned()
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A look a player can wear (bought in the shop): a frame or a colour around their avatar that
/// other players see in a room's lobby, on the match board and on the podium. Stored by its shop
/// item's id; an id this list does not know reads as no look.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Look {
    Night,
    Monsoon,
    GoldenFeather,
}

/// Read by its id; an id this list does not know is refused in the player's words.
impl TryFrom<String> for Look {
    type Error = Invalid;
    fn try_from(raw: String) -> Result<Self, Self::Error> {
        Look::parse(&raw).ok_or_else(|| {
            invalid(td_string!(crate::lang::locale(), common.invalid.look).to_string())
        })
    }
}

impl From<Look> for String {
    fn from(look: Look) -> Self {
        look.id().to_owned()
    }
}

impl Look {
    pub const ALL: [Look; 3] = [Look::Night, Look::Monsoon, Look::GoldenFeather];

    /// The shop item's id, which is also the look's CSS class.
    pub fn id(self) -> &'static str {
        match self {
            Look::Night => "look-night",
            Look::Monsoon => "look-monsoon",
            Look::GoldenFeather => "look-golden-feather",
        }
    }

    pub fn parse(raw: &str) -> Option<Look> {
        Look::ALL.into_iter().find(|l| l.id() == raw)
    }

    /// The avatar's classes with this look worn (`avatar` alone without one).
    pub fn avatar_class(look: Option<Look>) -> String {
        match look {
            Some(look) => format!("avatar worn {}", look.id()),
            None => "avatar".to_owned(),
        }
    }
}

/// A trade offer's id: a ULID, so offers sort by when they were made.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct OfferId(String);

impl OfferId {
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        if super::is_ulid(raw) {
            Ok(Self(raw.to_owned()))
        } else {
            Err(invalid(
                td_string!(crate::lang::locale(), common.invalid.offer).to_string(),
            ))
        }
    }

    #[cfg(feature = "ssr")]
    pub fn generate() -> Self {
        Self(ulid::Ulid::new().to_string())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

super::string_newtype_conversions!(OfferId);
