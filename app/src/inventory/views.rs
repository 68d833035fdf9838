//! What the inventory's pages show, read for one player: a page of their bag or bank, a card's
//! page, the shop. Each reads what it needs side by side (one round trip where it can); the
//! server functions in `api` only read who asks and hand over.

use serde::{Deserialize, Serialize};

pub mod trades;

use crate::inventory::model::{Place, Stack};
#[cfg(feature = "ssr")]
pub use reads::*;

/// How an inventory page is sorted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Sort {
    /// By category, then thing (the sort key).
    #[default]
    Category,
    /// By name (LSI1).
    Name,
}

/// One page of a player's bag or bank.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InventoryView {
    pub place: Place,
    pub category: Option<String>,
    pub sort: Sort,
    pub search: Option<String>,
    pub stacks: Vec<Stack>,
    pub next: Option<String>,
    pub feathers: u64,
    /// What the player's last action did (a sealed notice; see `inventory::notice`).
    pub notice: Option<String>,
    /// The card whose last one in the bag the player asked to sell: the page asks first.
    pub confirm: Option<crate::inventory::model::Card>,
}

/// Someone who might trade a card: they hold two or more in their bag.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Holder {
    pub id: crate::ids::UserId,
    pub name: String,
    pub qty: u32,
}

/// A card's page: the card, how many the player holds, who might trade it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardView {
    pub card: crate::inventory::model::Card,
    /// `None` for a visitor.
    pub mine: Option<(u32, u32)>,
    pub holders: Vec<Holder>,
    /// What the player's last action did (a sealed notice).
    #[serde(default)]
    pub notice: Option<String>,
}

/// Holders a card's page shows at most.
pub const HOLDERS_SHOWN: usize = 12;

/// The shop as one player sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShopPageView {
    pub items: Vec<crate::inventory::model::ShopItem>,
    pub feathers: u64,
    pub signed_in: bool,
    /// The looks the player owns (shop item ids).
    pub owned: Vec<String>,
    pub wearing: Option<crate::ids::Look>,
    /// What the player's last action did (a sealed notice).
    pub notice: Option<String>,
    /// The cards of the pack just bought (read back from what the purchase wrote).
    pub opened: Vec<crate::inventory::model::Card>,
}

/// How long after buying a pack the shop page shows its cards.
pub const OPENED_PACK_MS: i64 = 60_000;

/// The reads behind the pages.
#[cfg(feature = "ssr")]
mod reads {
    use super::*;
    use crate::catalog::model::Category;
    use crate::error::AppError;
    use crate::i18n::td_string;
    use crate::identity::model::Profile;
    use crate::inventory::model::ThingId;
    use crate::lang::locale;
    use crate::store::Db;

    /// A sealed notice from an address (`note`, `nsig`; see `inventory::notice`).
    pub type SealedNote = (Option<String>, Option<String>);

    /// Which page of a bag or bank, as its address asks: blank fields are none.
    pub struct InventoryQuery {
        pub place: Option<Place>,
        pub category: Option<String>,
        pub sort: Option<String>,
        pub q: Option<String>,
        pub after: Option<String>,
        pub confirm: Option<String>,
    }

    /// A page of `me`'s bag or bank: one Query (by category, or by name on LSI1 when sorted by
    /// name; a search reads the whole place on LSI1 and keeps the names with a word starting with
    /// each word searched) beside one GetItem of the wallet.
    pub async fn inventory_page(
        db: &Db,
        me: &Profile,
        query: InventoryQuery,
        notice: SealedNote,
    ) -> Result<InventoryView, AppError> {
        let InventoryQuery {
            place,
            category,
            sort,
            q,
            after,
            confirm,
        } = query;
        let place = place.unwrap_or(Place::Bag);
        let category = match category.as_deref() {
            None | Some("") => None,
            Some(raw) => Some(Category::from_slug(raw).ok_or_else(|| {
                AppError::BadRequest(
                    td_string!(locale(), inventory.error.no_such_category).to_string(),
                )
            })?),
        };
        let search = q.map(|q| q.trim().to_owned()).filter(|q| !q.is_empty());
        if search.as_ref().is_some_and(|q| q.chars().count() > 40) {
            return Err(AppError::BadRequest(
                td_string!(locale(), inventory.error.search_too_long).to_string(),
            ));
        }
        let sort = if sort.as_deref() == Some("name") || search.is_some() {
            Sort::Name
        } else {
            Sort::Category
        };
        let after = after.filter(|a| !a.is_empty());
        // The page's one Query and the wallet's GetItem, side by side: one round trip.
        let list = async {
            if let Some(q) = &search {
                return db
                    .inventory()
                    .search_cards(&me.id, place, q)
                    .await
                    .map(|items| crate::store::Page { items, next: None })
                    .map_err(AppError::from);
            }
            match sort {
                Sort::Name => {
                    db.inventory()
                        .cards_by_name(&me.id, place, search.as_deref(), after.as_deref(), 30)
                        .await
                }
                Sort::Category => {
                    db.inventory()
                        .cards(&me.id, place, category, after.as_deref(), 30)
                        .await
                }
            }
            .map_err(AppError::from)
        };
        let wallet = async {
            db.inventory()
                .feathers(&me.id)
                .await
                .map_err(AppError::from)
        };
        let (page, feathers) = futures::try_join!(list, wallet)?;
        let notice = crate::inventory::notice::open(db, notice.0.as_deref(), notice.1.as_deref())
            .await
            .map(|n| n.text(locale()));
        let confirm = confirm
            .and_then(|c: String| ThingId::parse(&c).ok())
            .and_then(|t| crate::inventory::store::card(&t).cloned());
        Ok(InventoryView {
            place,
            category: category.map(|c| c.slug().to_owned()),
            sort,
            search,
            stacks: page.items,
            next: page.next,
            feathers,
            notice,
            confirm,
        })
    }

    /// Card `thing`'s page for `me` (or a visitor): one BatchGetItem of the player's two stacks
    /// beside one Query of the card's holders, then one BatchGetItem of the holders' names.
    pub async fn card_page(
        db: &Db,
        me: Option<Profile>,
        thing: &str,
        notice: SealedNote,
    ) -> Result<CardView, AppError> {
        let thing = ThingId::parse(thing)
            .ok()
            .and_then(|t| crate::inventory::store::card(&t))
            .ok_or_else(|| {
                AppError::NotFound(td_string!(locale(), inventory.error.no_such_card).to_string())
            })?;
        let mine = async {
            let Some(me) = &me else {
                return Ok::<_, AppError>(None);
            };
            let keys =
                Place::ALL.map(|place| crate::inventory::store::stack_key(&me.id, place, thing));
            let held = db.inventory().holdings(keys.to_vec()).await?;
            let count = |key| held.cards.get(key).copied().unwrap_or(0);
            Ok(Some((count(&keys[0]), count(&keys[1]))))
        };
        let holders = async {
            db.inventory()
                .card_holders(&thing.thing, 60)
                .await
                .map_err(AppError::from)
        };
        let (mine, holders) = futures::try_join!(mine, holders)?;
        let others: Vec<(crate::ids::UserId, u32)> = holders
            .into_iter()
            .filter(|(id, _)| me.as_ref().is_none_or(|me| &me.id != id))
            .take(HOLDERS_SHOWN)
            .collect();
        let ids: Vec<_> = others.iter().map(|(id, _)| id.clone()).collect();
        let names = if ids.is_empty() {
            Default::default()
        } else {
            db.accounts().profiles_of(&ids).await?
        };
        let notice = crate::inventory::notice::open(db, notice.0.as_deref(), notice.1.as_deref())
            .await
            .map(|n| n.text(locale()));
        Ok(CardView {
            notice,
            card: thing.clone(),
            mine,
            holders: others
                .into_iter()
                .filter_map(|(id, qty)| {
                    let name = names.get(&id)?.display_name.to_string();
                    Some(Holder { id, name, qty })
                })
                .collect(),
        })
    }

    /// The shop as `me` (or a visitor) sees it, with today's stock: one Query; for a player also
    /// their wallet (GetItem) and looks (Query `LOOK#`), side by side; after a pack's purchase, the
    /// pack (GetItem).
    pub async fn shop_page(
        db: &Db,
        me: Option<Profile>,
        notice: SealedNote,
    ) -> Result<ShopPageView, AppError> {
        let items = async { db.inventory().shop().await.map_err(AppError::from) };
        let mine = async {
            match &me {
                Some(me) => {
                    let (feathers, owned) = futures::try_join!(
                        db.inventory().feathers(&me.id),
                        db.inventory().looks(&me.id)
                    )?;
                    Ok::<_, AppError>((feathers, owned))
                }
                None => Ok((0, Vec::new())),
            }
        };
        let (items, (feathers, owned)) = futures::try_join!(items, mine)?;
        let notice =
            crate::inventory::notice::open(db, notice.0.as_deref(), notice.1.as_deref()).await;
        let mut opened = Vec::new();
        if let (Some(me), Some(crate::inventory::notice::Notice::Bought { item, .. })) =
            (&me, &notice)
        {
            opened = db
                .inventory()
                .last_pack(&me.id, item, OPENED_PACK_MS)
                .await?
                .iter()
                .filter_map(|t| crate::inventory::store::card(t).cloned())
                .collect();
        }
        Ok(ShopPageView {
            items,
            feathers,
            signed_in: me.is_some(),
            owned,
            wearing: me.as_ref().and_then(|me| me.look),
            notice: notice.map(|n| n.text(locale())),
            opened,
        })
    }
}
