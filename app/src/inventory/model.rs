//! What players own: card stacks in a bag or a bank, a wallet of feathers, badges; what a match
//! gives; what a trade offer holds.

use serde::{Deserialize, Serialize};

use crate::catalog::model::Category;
use crate::i18n::td_string;
use crate::ids::Username;
pub use crate::ids::{OfferId, Place, ThingId, UserId};
use crate::lang::Locale;

/// How rare a card is: how often it drops from a pack, and what it sells back for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rarity {
    Common,
    Rare,
    Epic,
    Legendary,
}

impl Rarity {
    /// The rarity's name in `l`.
    pub fn label(self, l: Locale) -> &'static str {
        match self {
            Rarity::Common => td_string!(l, inventory.rarity.common),
            Rarity::Rare => td_string!(l, inventory.rarity.rare),
            Rarity::Epic => td_string!(l, inventory.rarity.epic),
            Rarity::Legendary => td_string!(l, inventory.rarity.legendary),
        }
    }
}

/// A card: one of the catalog's things, with what a stack copies in so an inventory page needs
/// no other read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    pub thing: ThingId,
    pub name: String,
    /// The thing's Devanagari name (empty when it has none).
    #[serde(default)]
    pub hi: String,
    pub emoji: String,
    pub category: Category,
    pub rarity: Rarity,
}

impl Card {
    /// The card's name for a page in `l`: the Devanagari one in Hindi (when there is one).
    pub fn name_in(&self, l: Locale) -> &str {
        name_in(&self.name, &self.hi, l)
    }
}

fn name_in<'a>(en: &'a str, hi: &'a str, l: Locale) -> &'a str {
    match l {
        Locale::hi if !hi.is_empty() => hi,
        _ => en,
    }
}

/// A stack of one card in one place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stack {
    pub thing: ThingId,
    pub name: String,
    /// The thing's Devanagari name (empty when it has none): filled in from the catalog when
    /// read, not stored.
    #[serde(default)]
    pub hi: String,
    pub emoji: String,
    pub category: Category,
    pub rarity: Rarity,
    pub place: Place,
    pub qty: u32,
}

impl Stack {
    /// The card's name for a page in `l`: the Devanagari one in Hindi (when there is one).
    pub fn name_in(&self, l: Locale) -> &str {
        name_in(&self.name, &self.hi, l)
    }
}

/// A milestone, shown on the profile and the inventory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Badge {
    /// First place in a match of two or more.
    FirstWin,
    /// Every round of a match of at least five judged right.
    PerfectMatch,
    /// Ten right in a row within one match.
    Streak10,
    /// The daily flight flown seven days in a row.
    Days7,
    /// The daily flight flown thirty days in a row.
    Days30,
}

impl Badge {
    pub const ALL: [Badge; 5] = [
        Badge::FirstWin,
        Badge::PerfectMatch,
        Badge::Streak10,
        Badge::Days7,
        Badge::Days30,
    ];

    pub fn slug(self) -> &'static str {
        match self {
            Badge::FirstWin => "first-win",
            Badge::PerfectMatch => "perfect-match",
            Badge::Streak10 => "streak-10",
            Badge::Days7 => "days-7",
            Badge::Days30 => "days-30",
        }
    }

    /// Badges with when each was earned, as `first-win@<ms>;…` (the room page sends a player's
    /// badges so; the browser remembers the ones it announced so).
    pub fn list(badges: &[(Badge, i64)]) -> String {
        badges
            .iter()
            .map(|(badge, at)| format!("{}@{at}", badge.slug()))
            .collect::<Vec<_>>()
            .join(";")
    }

    /// Reads [`Badge::list`]'s text back; anything unreadable is skipped.
    pub fn read_list(text: &str) -> Vec<(Badge, i64)> {
        text.split(';')
            .filter_map(|entry| {
                let (slug, at) = entry.split_once('@')?;
                let badge = Badge::ALL.into_iter().find(|b| b.slug() == slug)?;
                Some((badge, at.parse().ok()?))
            })
            .collect()
    }

    /// The badge's name in `l`.
    pub fn name(self, l: Locale) -> &'static str {
        match self {
            Badge::FirstWin => td_string!(l, inventory.badge.first_win),
            Badge::PerfectMatch => td_string!(l, inventory.badge.perfect_match),
            Badge::Streak10 => td_string!(l, inventory.badge.streak_10),
            Badge::Days7 => td_string!(l, inventory.badge.days_7),
            Badge::Days30 => td_string!(l, inventory.badge.days_30),
        }
    }
}

/// What a finished match says about one player, as the reward rules read it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub placement: u32,
    pub players: u32,
    pub correct: u32,
    pub rounds: u32,
    /// The things the player judged right, in round order.
    pub right: Vec<ThingId>,
    /// The longest run of right judgements in the match.
    pub best_streak: u32,
}

/// What one match gives one player.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rewards {
    /// One card of each of these things.
    pub cards: Vec<ThingId>,
    pub feathers: u64,
    pub badges: Vec<Badge>,
}

/// One side of a trade: the cards (thing, how many) and feathers it gives.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    pub cards: Vec<(ThingId, u32)>,
    pub feathers: u64,
}

impl Side {
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty() && self.feathers == 0
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OfferStatus {
    Open,
    Accepted,
    Declined,
    Cancelled,
}

/// A trade offer from one player to another.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer {
    pub id: OfferId,
    pub from: UserId,
    pub from_name: String,
    pub to: UserId,
    pub to_name: String,
    /// What the maker gives.
    pub gives: Side,
    /// What the maker asks for in return.
    pub wants: Side,
    pub status: OfferStatus,
    pub made_ms: i64,
    pub expires_ms: i64,
    /// The maker's username when they made it (a guest has none): with the maker's id, what
    /// tells two makers of one display name apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_username: Option<crate::ids::Username>,
    /// The recipient's username, where the maker named them by it or their profile had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_username: Option<crate::ids::Username>,
    /// Made by a player the recipient had not played with: while open (and unexpired) it holds
    /// one of the recipient's places for such offers (`STRANGER_OFFERS`, `trades.rs`).
    #[serde(default)]
    pub from_stranger: bool,
    /// Counted among the offers waiting for the recipient while open (every offer made since
    /// the count holds them all; see `trades.rs`).
    #[serde(default)]
    pub counted: bool,
}

impl Offer {
    /// Open and not yet expired at `now_ms` (TTL deletes late: reads check the time).
    pub fn is_open(&self, now_ms: i64) -> bool {
        self.status == OfferStatus::Open && now_ms < self.expires_ms
    }
}

/// A category's set: how many of its things a player holds (bag or bank) of how many there are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetProgress {
    pub category: Category,
    pub held: u32,
    pub of: u32,
}

/// What the shop sells.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShopItem {
    pub id: String,
    pub name: String,
    pub emoji: String,
    pub price: u64,
    pub kind: ShopKind,
    /// How many can be sold each UTC day, if limited.
    pub daily: Option<u32>,
    /// Left today (filled in when the shop is read).
    #[serde(default)]
    pub left: Option<u32>,
}

impl ShopItem {
    /// The item's name in `l` (the stored name, for an item this list does not know).
    pub fn name_in(&self, l: Locale) -> String {
        let name = match self.id.as_str() {
            "pack-3" => td_string!(l, inventory.shop_item.pack_3),
            "pack-10" => td_string!(l, inventory.shop_item.pack_10),
            "look-night" => td_string!(l, inventory.shop_item.look_night),
            "look-monsoon" => td_string!(l, inventory.shop_item.look_monsoon),
            "look-golden-feather" => td_string!(l, inventory.shop_item.look_golden_feather),
            _ => return self.name.clone(),
        };
        name.to_owned()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "type")]
pub enum ShopKind {
    /// `cards` cards drawn by rarity.
    Pack { cards: u32 },
    /// A look (an avatar frame, a theme): owned once.
    Look,
}

/// What was bought.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bought {
    pub item: String,
    /// The pack's cards, in draw order.
    pub cards: Vec<ThingId>,
    pub paid: u64,
}

/// Which list of offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Offers made to the player (GSI1).
    Incoming,
    /// Offers the player made (GSI2).
    Outgoing,
}

/// One side of an offer as it is made: the player, the name the offer shows for them, and
/// their username where they have one.
#[derive(Debug, Clone, Copy)]
pub struct Party<'a> {
    pub id: &'a UserId,
    pub name: &'a str,
    pub username: Option<&'a Username>,
}

impl<'a> From<(&'a UserId, &'a str)> for Party<'a> {
    fn from((id, name): (&'a UserId, &'a str)) -> Self {
        Party {
            id,
            name,
            username: None,
        }
    }
}

/// What the maker's caller knows of the two players.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Met {
    /// Nothing: `played_together` (the store) looks.
    Unknown,
    /// Both are players of one room now (the caller read both PLAYER items).
    InRoomNow,
}
