//! Access patterns of the catalog: seed it, list it (all, flyers, non-flyers), page through it,
//! get one thing. Listing reads the `CATALOG` collection on GSI1, never the whole table.

use aws_sdk_dynamodb::types::AttributeValue;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::catalog::model::{sort_for_display, Category, FlyFilter, Thing, ThingId};
use crate::store::keys::{self, Key};
use crate::store::tx::{delete_request, put_request};
use crate::store::{key_map, DataError, Db, Item, Page};

crate::store::handle!(
    /// The catalog's access patterns: things, their pages, the seed.
    Catalog,
    catalog
);

/// A thing as stored: `OBJ#<id>` / `META`, in the catalog collection on GSI1.
#[derive(Debug, Serialize, Deserialize)]
pub struct ThingItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    #[serde(rename = "GSI1PK")]
    gsi1pk: String,
    #[serde(rename = "GSI1SK")]
    gsi1sk: String,
    id: ThingId,
    en: String,
    hi: String,
    hi_latin: String,
    emoji: String,
    flies: bool,
    category: Category,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note_hi: Option<String>,
}

impl From<&Thing> for ThingItem {
    fn from(thing: &Thing) -> Self {
        let Key { pk, sk } = keys::thing(&thing.id);
        Self {
            pk,
            sk,
            gsi1pk: keys::CATALOG_COLLECTION.to_owned(),
            gsi1sk: keys::catalog_sort(thing.flies, &thing.id),
            id: thing.id.clone(),
            en: thing.en.clone(),
            hi: thing.hi.clone(),
            hi_latin: thing.hi_latin.clone(),
            emoji: thing.emoji.clone(),
            flies: thing.flies,
            category: thing.category,
            note: thing.note.clone(),
            note_hi: thing.note_hi.clone(),
        }
    }
}

impl From<ThingItem> for Thing {
    fn from(item: ThingItem) -> Self {
        Thing {
            id: item.id,
            en: item.en,
            hi: item.hi,
            hi_latin: item.hi_latin,
            emoji: item.emoji,
            flies: item.flies,
            category: item.category,
            note: item.note,
            note_hi: item.note_hi,
        }
    }
}

pub fn decode(item: Item) -> Result<Thing, DataError> {
    Ok(serde_dynamo::from_item::<_, ThingItem>(item)?.into())
}

/// What `seed_catalog` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeedOutcome {
    /// The table already held this exact catalog: nothing was written.
    Unchanged,
    /// The catalog was (re)written: `written` things put, `removed` stale things deleted.
    Seeded { written: usize, removed: usize },
}

/// A fingerprint of a catalog's contents, to tell whether the table holds it already.
pub fn fingerprint(things: &[Thing]) -> String {
    let bytes = serde_json::to_vec(things).expect("things serialize");
    Sha256::digest(bytes)
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn key_condition(
    db: &Db,
    filter: FlyFilter,
) -> aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder {
    db.query_prefix(
        keys::Keyed::Gsi1,
        keys::CATALOG_COLLECTION,
        keys::catalog_prefix(filter.flies()),
    )
}

impl Catalog<'_> {
    /// Makes the table hold exactly `things` as the catalog. Idempotent and cheap when the
    /// table is already up to date (one GetItem); safe to run from several instances at once.
    #[tracing::instrument(skip_all, fields(things = things.len()), err(level = "debug"))]
    pub async fn seed_catalog(self, things: &[Thing]) -> Result<SeedOutcome, DataError> {
        let marker = keys::catalog_seed_marker();
        let wanted = fingerprint(things);
        let current = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(marker.clone())))
                    .consistent_read(true),
            )
            .await?;
        let stored = current
            .as_ref()
            .and_then(|item| item.get("fingerprint"))
            .and_then(|v| v.as_s().ok());
        if stored == Some(&wanted) {
            return Ok(SeedOutcome::Unchanged);
        }

        let present = self.list_things(FlyFilter::All).await?;
        let stale: Vec<&Thing> = present
            .iter()
            .filter(|old| !things.iter().any(|new| new.id == old.id))
            .collect();
        let mut requests = Vec::with_capacity(things.len() + stale.len());
        for thing in things {
            requests.push(put_request(serde_dynamo::to_item(ThingItem::from(thing))?)?);
        }
        for thing in &stale {
            requests.push(delete_request(key_map(keys::thing(&thing.id)))?);
        }
        self.batch_write(requests).await?;

        let mut marker_item = key_map(marker);
        marker_item.insert("fingerprint".into(), AttributeValue::S(wanted));
        marker_item.insert("count".into(), AttributeValue::N(things.len().to_string()));
        self.put(self.client.put_item().set_item(Some(marker_item)))
            .await?;
        tracing::info!(
            written = things.len(),
            removed = stale.len(),
            "seeded the catalog"
        );
        Ok(SeedOutcome::Seeded {
            written: things.len(),
            removed: stale.len(),
        })
    }

    /// Every thing matching `filter`, sorted for display. One Query per 1 MB page of the
    /// catalog collection (one in practice).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn list_things(self, filter: FlyFilter) -> Result<Vec<Thing>, DataError> {
        let items = self.query_all(key_condition(&self, filter)).await?;
        let mut things = items
            .into_iter()
            .map(decode)
            .collect::<Result<Vec<_>, _>>()?;
        sort_for_display(&mut things);
        Ok(things)
    }

    /// The Query [`Catalog::list_things`] sends for every thing, built and not sent: what the
    /// benchmark times straight through the SDK, against the page that makes it.
    pub fn list_things_request(
        self,
    ) -> aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder {
        key_condition(&self, FlyFilter::All)
    }

    /// One page of things matching `filter`, in key order, with a cursor for the next page.
    #[tracing::instrument(skip(self, cursor), err(level = "debug"))]
    pub async fn things_page(
        self,
        filter: FlyFilter,
        limit: i32,
        cursor: Option<&str>,
    ) -> Result<Page<Thing>, DataError> {
        let scope = format!("things:{}", filter.as_query());
        let start = match cursor {
            Some(cursor) => Some(self.cursor_key().await?.open(&scope, cursor)?),
            None => None,
        };
        let request = key_condition(&self, filter).limit(limit.clamp(1, 100));
        let (items, last) = self.query_page(request, start).await?;
        let next = match last {
            Some(last) => Some(self.cursor_key().await?.seal(&scope, &last)?),
            None => None,
        };
        Ok(Page {
            items: items.into_iter().map(decode).collect::<Result<_, _>>()?,
            next,
        })
    }

    /// One thing by id.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn get_thing(self, id: &ThingId) -> Result<Option<Thing>, DataError> {
        self.get(
            self.client
                .get_item()
                .set_key(Some(key_map(keys::thing(id)))),
        )
        .await?
        .map(decode)
        .transpose()
    }
}
