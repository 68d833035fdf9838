//! The lists of offers a player reads: made to them or by them, a page at a time, and the bag
//! one could trade from.

use super::trades::{decode_offer, Direction, BAG_PAGES, MAX_OFFERS_PAGE};
use super::{Inventory, MAX_PAGE};
use crate::inventory::model::{Offer, Place, Stack, UserId};
use crate::store::keys;
use crate::store::{DataError, Item, Page};

impl Inventory<'_> {
    /// The cards of `user`'s bag one could trade, in category order: [`Inventory::cards`] a page
    /// after another (one Query for a bag of up to 60 kinds), at most [`BAG_PAGES`] pages.
    pub async fn bag_cards(self, user: &UserId) -> Result<Vec<Stack>, DataError> {
        let mut cards = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..BAG_PAGES {
            let page = self
                .cards(user, Place::Bag, None, cursor.as_deref(), MAX_PAGE)
                .await?;
            cards.extend(page.items);
            match page.next {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        Ok(cards)
    }

    /// The newest offers made to (`Incoming`) or by (`Outgoing`) a player: one Query.
    pub async fn offers(
        self,
        user: &UserId,
        direction: Direction,
        limit: i32,
    ) -> Result<Vec<Offer>, DataError> {
        Ok(self.offers_page(user, direction, limit, None).await?.items)
    }

    /// A page of the offers made to or by a player, newest first, from `cursor` (a signed
    /// cursor of this player's list in this direction) on: one Query, of one more offer than
    /// the page, so a page ends with a next cursor only when an older offer exists.
    pub async fn offers_page(
        self,
        user: &UserId,
        direction: Direction,
        limit: i32,
        cursor: Option<&str>,
    ) -> Result<Page<Offer>, DataError> {
        let (index, scope) = match direction {
            Direction::Incoming => (keys::Keyed::Gsi1, format!("offers-to:{user}")),
            Direction::Outgoing => (keys::Keyed::Gsi2, format!("offers-from:{user}")),
        };
        let limit = limit.clamp(1, MAX_OFFERS_PAGE);
        let start = match cursor {
            Some(cursor) => Some(self.cursor_key().await?.open(&scope, cursor)?),
            None => None,
        };
        let (mut items, _) = self
            .query_page(
                self.query_prefix(index, keys::offers_of(user), keys::OFFER_PREFIX)
                    .scan_index_forward(false)
                    .limit(limit + 1),
                start,
            )
            .await?;
        let next = if items.len() > limit as usize {
            items.truncate(limit as usize);
            let last = items.last().map(|item| page_key(item, index));
            match last {
                Some(last) => Some(self.cursor_key().await?.seal(&scope, &last)?),
                None => None,
            }
        } else {
            None
        };
        Ok(Page {
            items: items
                .into_iter()
                .map(decode_offer)
                .collect::<Result<_, _>>()?,
            next,
        })
    }
}

/// The `LastEvaluatedKey` a Query of `index` would give after `item`: the table's key and the
/// index's.
fn page_key(item: &Item, index: keys::Keyed) -> Item {
    let (_, pk, sk) = index.attributes();
    [keys::PK, keys::SK, pk, sk]
        .into_iter()
        .filter_map(|name| Some((name.to_owned(), item.get(name)?.clone())))
        .collect()
}
