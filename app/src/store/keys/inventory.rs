//! Inventories' keys: cards, wallet, badges, looks, offers and the shop.

use super::table::Key;
use crate::ids::{OfferId, Place, ThingId, UserId};

/// A player's inventories, wallet, badges and looks: `INV#<id>`. Apart from `USER#<id>` so a
/// whole-inventory Query reads nothing else, and so the LSI's 10 GB item-collection limit is
/// the inventory's own.
pub fn inventory_partition(user: &UserId) -> String {
    format!("{INVENTORY_PREFIX}{}", user.as_str())
}

/// The prefix of every inventory's partition.
pub const INVENTORY_PREFIX: &str = "INV#";

/// Whose inventory partition `pk` is, if it is one.
pub fn inventory_owner(pk: &str) -> Option<UserId> {
    UserId::parse(pk.strip_prefix(INVENTORY_PREFIX)?).ok()
}

/// A stack of one card in one place: `INV#<id>` / `<place>#<category>#<thing>`. The place leads,
/// then the category, so one place is a `begins_with` and one category of it another.
pub fn card(user: &UserId, place: Place, category: &str, thing: &ThingId) -> Key {
    Key {
        pk: inventory_partition(user),
        sk: format!("{}{}", card_prefix(place, Some(category)), thing.as_str()),
    }
}

/// The `begins_with` prefix of a place's cards, or of one category of them.
pub fn card_prefix(place: Place, category: Option<&str>) -> String {
    match category {
        Some(category) => format!("{place}#{category}#"),
        None => format!("{place}#"),
    }
}

/// LSI1 sort key of a card stack: its place, then its name folded for sorting and search, then
/// the thing (two things may share a name).
pub fn card_by_name(place: Place, folded_name: &str, thing: &ThingId) -> String {
    format!(
        "{}{folded_name}#{}",
        card_prefix(place, None),
        thing.as_str()
    )
}

/// GSI2 partition of the players holding a card in their bag, the most recently changed stack
/// first (`GSI2SK` = [`card_holder_sort`]): who might trade it. Bank stacks are not listed.
pub fn card_holders(thing: &ThingId) -> String {
    format!("HOLDERS#{}", thing.as_str())
}

/// GSI2 sort key of a bag stack in its card's holders: when it last changed, then whose it is.
pub fn card_holder_sort(changed_ms: i64, user: &UserId) -> String {
    format!("{changed_ms:013}#{}", user.as_str())
}

/// A player's feathers: `INV#<id>` / `WALLET`.
pub fn wallet(user: &UserId) -> Key {
    Key {
        pk: inventory_partition(user),
        sk: WALLET.to_owned(),
    }
}

/// Sort key of a player's wallet.
pub const WALLET: &str = "WALLET";

/// A badge a player earned: `INV#<id>` / `BADGE#<badge>`.
pub fn badge(user: &UserId, badge: &str) -> Key {
    Key {
        pk: inventory_partition(user),
        sk: format!("{BADGE_PREFIX}{badge}"),
    }
}

pub const BADGE_PREFIX: &str = "BADGE#";

/// A cosmetic a player owns: `INV#<id>` / `LOOK#<item>`.
pub fn look(user: &UserId, item: &str) -> Key {
    Key {
        pk: inventory_partition(user),
        sk: format!("{LOOK_PREFIX}{item}"),
    }
}

pub const LOOK_PREFIX: &str = "LOOK#";

/// The cards of the last pack a player opened: `INV#<id>` / `PACK` (written by the purchase,
/// read back by the shop page that shows it).
pub fn last_pack(user: &UserId) -> Key {
    Key {
        pk: inventory_partition(user),
        sk: "PACK".to_owned(),
    }
}

/// A trade offer: `OFFER#<id>` / `OFFER`, in a partition of its own so racing accepts meet on
/// one item.
pub fn offer(id: &OfferId) -> Key {
    Key {
        pk: format!("{OFFER_PREFIX}{}", id.as_str()),
        sk: "OFFER".to_owned(),
    }
}

/// GSI1 partition of the offers made to a player (GSI1SK = [`offer_sort`]), and GSI2 partition
/// of the offers a player made.
pub fn offers_of(user: &UserId) -> String {
    format!("TRADES#{}", user.as_str())
}

/// The sort key of an offer in its player's lists: newest last.
pub fn offer_sort(id: &OfferId) -> String {
    format!("{OFFER_PREFIX}{}", id.as_str())
}

/// The prefix of an offer's partition, and of its sort key in its players' lists.
pub const OFFER_PREFIX: &str = "OFFER#";

/// The open offers a player has from players they have not played with, each with when it
/// expires (a capped set: `inventory/store/trades.rs`): `TRADES#<id>` / `FROM_STRANGERS`.
pub fn offers_from_strangers(user: &UserId) -> Key {
    Key {
        pk: offers_of(user),
        sk: "FROM_STRANGERS".to_owned(),
    }
}

/// The shop: `SHOP` / `ITEM#<item>` for what it sells.
pub const SHOP: &str = "SHOP";

pub fn shop_item(item: &str) -> Key {
    Key {
        pk: SHOP.to_owned(),
        sk: format!("{SHOP_ITEM_PREFIX}{item}"),
    }
}

pub const SHOP_ITEM_PREFIX: &str = "ITEM#";

/// What is left of an item's daily stock on one UTC day (days since 1970-01-01):
/// `SHOP` / `STOCK#<item>#<day>`.
pub fn shop_stock(item: &str, day: i64) -> Key {
    Key {
        pk: SHOP.to_owned(),
        sk: format!("STOCK#{item}#{day}"),
    }
}
