//! The one handle on the one table, [`Db`], and the helpers every call goes through: each asks
//! for consumed capacity, records the call when a [`Recorder`] is attached, and treats items
//! whose `ttl` has passed as absent (DynamoDB deletes expired items up to 48 h late). Each
//! feature's named access patterns are the methods of its own handle (`db.rooms()`,
//! `db.game()`, ...: `store::handle`), in that feature's `store` module.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_sdk_dynamodb::operation::get_item::builders::GetItemFluentBuilder;
use aws_sdk_dynamodb::operation::put_item::builders::PutItemFluentBuilder;
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::operation::update_item::builders::UpdateItemFluentBuilder;
use aws_sdk_dynamodb::types::{
    AttributeValue, ConsumedCapacity, ReturnConsumedCapacity, TransactWriteItem, WriteRequest,
};
use aws_sdk_dynamodb::Client;
use tokio::sync::OnceCell;

use super::cursor::CursorKey;
use super::error::{self, Conflict, DataError};
use super::expr::{attr, Cond, Expr, Expressions, KeyCond};
use super::keys;
use super::metrics::{Call, Pricing, Recorder, Tallies, Usage, REFUSED_WRITE};

/// Sends a request with `ReturnConsumedCapacity::Total`, records the call under `$op` (a write
/// refused by its condition as [`REFUSED_WRITE`]: see [`Db::record_failure`]), and sorts any
/// error. For every operation whose output has one `consumed_capacity`.
macro_rules! send_recorded {
    ($db:expr, $op:literal, $request:expr) => {{
        let started = ::std::time::Instant::now();
        let result = $request
            .return_consumed_capacity(::aws_sdk_dynamodb::types::ReturnConsumedCapacity::Total)
            .send()
            .await;
        match result.as_ref() {
            Ok(out) => $db.record($op, out.consumed_capacity(), started),
            Err(err) => $db.record_failure($op, err, started),
        }
        result.map_err($crate::store::error::classify)
    }};
    // Operations that report capacity per table (a list): record the first (our one table),
    // and hand back the raw result so the caller sorts the error its own way.
    ($db:expr, $op:literal, $request:expr, per_table) => {{
        let started = ::std::time::Instant::now();
        let result = $request
            .return_consumed_capacity(::aws_sdk_dynamodb::types::ReturnConsumedCapacity::Total)
            .send()
            .await;
        match result.as_ref() {
            Ok(out) => $db.record($op, out.consumed_capacity().first(), started),
            Err(err) => $db.record_failure($op, err, started),
        }
        result
    }};
}

/// Waits before retry `attempt` (1, 2, ...): exponential from `base_ms`, capped at 64 × base.
pub(crate) async fn back_off(base_ms: u64, attempt: u32) {
    tokio::time::sleep(std::time::Duration::from_millis(base_ms << attempt.min(6))).await;
}
pub(crate) use send_recorded;

/// A failed call's kind, as the metrics label it: the error codes AWS documents for throttling
/// and for transactions that met another (a cancelled transaction names its reasons in its
/// message: `[None, TransactionConflict]`), a refused condition, the engine out of reach (no
/// code: a timeout or a refused connection), anything else.
pub fn failure_kind(code: Option<&str>, message: &str) -> &'static str {
    if code == Some("TransactionCanceledException") {
        if message.contains("TransactionConflict") {
            return "conflict";
        }
        if message.contains("Throttl") || message.contains("ProvisionedThroughputExceeded") {
            return "throttled";
        }
    }
    match code {
        Some(
            "ProvisionedThroughputExceededException"
            | "ThrottlingException"
            | "RequestLimitExceeded"
            | "LimitExceededException",
        ) => "throttled",
        Some("TransactionConflictException" | "TransactionInProgressException") => "conflict",
        Some("ConditionalCheckFailedException" | "TransactionCanceledException") => "condition",
        None => "unavailable",
        Some(_) => "other",
    }
}

/// A stored item, as the SDK hands it over.
pub type Item = HashMap<String, AttributeValue>;

/// The handle every feature uses. Cheap to clone: build it once at start-up.
#[derive(Clone)]
pub struct Db {
    pub(crate) client: Client,
    table: Arc<str>,
    pub(super) cursors: Arc<OnceCell<CursorKey>>,
    recorder: Option<Recorder>,
    usage: Usage,
    work: &'static str,
    /// Open tallies of the matches in play, and the one this handle's calls count for.
    tallies: Tallies,
    tally: Option<Arc<str>>,
    pricing: Pricing,
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Db").field("table", &self.table).finish()
    }
}

/// Current time in epoch seconds, the unit of the `ttl` attribute.
pub fn epoch_seconds() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or_default()
}

/// Whether an item is still alive: it has no `ttl`, or its `ttl` is in the future.
pub fn is_live(item: &Item, now: i64) -> bool {
    match item.get(keys::TTL).and_then(|v| v.as_n().ok()) {
        Some(ttl) => ttl.parse::<i64>().map_or(true, |ttl| ttl > now),
        None => true,
    }
}

/// An item's sort key (`""` when it has none): how a read of a whole partition tells its kinds
/// of item apart.
pub fn sort_key(item: &Item) -> &str {
    item.get(keys::SK)
        .and_then(|v| v.as_s().ok())
        .map_or("", String::as_str)
}

/// An item's key, read off the item (a key the engine wrote is whole; a missing part reads as
/// `""`): how a batch read's answers are matched to what was asked.
pub fn key_of(item: &Item) -> keys::Key {
    keys::Key {
        pk: item
            .get(keys::PK)
            .and_then(|v| v.as_s().ok())
            .cloned()
            .unwrap_or_default(),
        sk: sort_key(item).to_owned(),
    }
}

/// A key as the SDK takes it.
pub(crate) fn key_map(key: keys::Key) -> Item {
    Item::from([
        (keys::PK.to_owned(), AttributeValue::S(key.pk)),
        (keys::SK.to_owned(), AttributeValue::S(key.sk)),
    ])
}

/// Current time in milliseconds since the epoch.
pub fn epoch_millis() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or_default()
}

/// One page of results and the cursor for the next one.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub next: Option<String>,
}

impl Db {
    pub fn new(client: Client, table: impl Into<Arc<str>>) -> Self {
        Self {
            client,
            table: table.into(),
            cursors: Arc::new(OnceCell::new()),
            recorder: None,
            usage: Usage::default(),
            work: "requests",
            tallies: Tallies::default(),
            tally: None,
            pricing: Pricing::default(),
        }
    }

    /// The same handle, its calls also counted in this process's open tally under `key` (a
    /// match in play: see the game's receipts).
    pub fn tallied(&self, key: impl Into<Arc<str>>) -> Self {
        Self {
            tally: Some(key.into()),
            ..self.clone()
        }
    }

    /// This process's open tallies (shared by every clone of the handle).
    pub fn tallies(&self) -> &Tallies {
        &self.tallies
    }

    /// The same handle, pricing capacity units at `pricing`.
    pub fn with_pricing(self, pricing: Pricing) -> Self {
        Self { pricing, ..self }
    }

    pub fn pricing(&self) -> Pricing {
        self.pricing
    }

    /// The same handle on another client of the same table (the background work's, on retries
    /// of its own: see `http::engine::retries`), its usage, tallies and cursors shared.
    pub fn with_client(&self, client: Client) -> Self {
        Self {
            client,
            ..self.clone()
        }
    }

    /// The same handle, its calls counted in the process's usage under `work` (see [`Usage`]).
    pub fn counted_as(&self, work: &'static str) -> Self {
        Self {
            work,
            ..self.clone()
        }
    }

    /// Every call this handle and its clones made since it was built (the process's usage).
    pub fn usage(&self) -> &Usage {
        &self.usage
    }

    /// The same handle, recording every call into `recorder`.
    pub fn recording(&self, recorder: Recorder) -> Self {
        Self {
            recorder: Some(recorder),
            ..self.clone()
        }
    }

    pub fn table_name(&self) -> &str {
        &self.table
    }

    pub(crate) fn record(
        &self,
        op: &'static str,
        capacity: Option<&ConsumedCapacity>,
        started: Instant,
    ) {
        let capacity = capacity.and_then(|c| c.capacity_units).unwrap_or(0.0);
        self.record_units(op, capacity, started);
    }

    /// Records a call that failed. A write refused by its condition
    /// (`ConditionalCheckFailedException`) returns no consumed capacity, but AWS bills it: at
    /// least one write unit (one item up to 1 KB; more for a larger item, which we do not
    /// know here), recorded as [`REFUSED_WRITE`] with 1.0. Any other failure is recorded
    /// under `op` with no capacity.
    pub(crate) fn record_failure<E: ProvideErrorMetadata>(
        &self,
        op: &'static str,
        err: &E,
        started: Instant,
    ) {
        let kind = failure_kind(err.code(), err.message().unwrap_or_default());
        metrics::counter!(super::metrics::series::DYNAMODB_ERRORS, "op" => op, "kind" => kind)
            .increment(1);
        match err.code() {
            Some("ConditionalCheckFailedException") => {
                self.record_units(REFUSED_WRITE, 1.0, started)
            }
            _ => self.record_units(op, 0.0, started),
        }
    }

    fn record_units(&self, op: &'static str, capacity: f64, started: Instant) {
        let elapsed = started.elapsed();
        tracing::debug!(op, capacity, ?elapsed, "dynamodb call");
        self.usage.add(self.work, op, capacity);
        let labels = [("op", op), ("work", self.work)];
        metrics::histogram!(super::metrics::series::DYNAMODB_SECONDS, &labels)
            .record(elapsed.as_secs_f64());
        metrics::histogram!(super::metrics::series::DYNAMODB_UNITS, &labels).record(capacity);
        if let Some(key) = &self.tally {
            self.tallies.add(key, op, capacity);
        }
        if let Some(recorder) = &self.recorder {
            recorder.record(Call {
                op,
                capacity,
                elapsed,
            });
        }
    }

    /// GetItem; an expired item reads as absent.
    pub(crate) async fn get(
        &self,
        request: GetItemFluentBuilder,
    ) -> Result<Option<Item>, DataError> {
        let out = send_recorded!(self, "GetItem", request.table_name(self.table_name()))?;
        Ok(out.item.filter(|item| is_live(item, epoch_seconds())))
    }

    /// Deletes the item at `key`, whatever it holds (one DeleteItem; deleting an absent item
    /// is no error).
    pub(crate) async fn delete_key(&self, key: keys::Key) -> Result<(), DataError> {
        send_recorded!(
            self,
            "DeleteItem",
            self.client
                .delete_item()
                .table_name(self.table_name())
                .set_key(Some(key_map(key)))
        )?;
        Ok(())
    }

    pub(crate) async fn put(&self, request: PutItemFluentBuilder) -> Result<(), DataError> {
        send_recorded!(self, "PutItem", request.table_name(self.table_name()))?;
        Ok(())
    }

    /// UpdateItem on the table (the request names the key and the expressions).
    pub(crate) async fn update_item(
        &self,
        request: UpdateItemFluentBuilder,
    ) -> Result<(), DataError> {
        send_recorded!(self, "UpdateItem", request.table_name(self.table_name()))?;
        Ok(())
    }

    /// Puts `item` at `key` only if no item has that key: `true` if this call wrote it, `false`
    /// if one was there already (written before, or by another instance first). One PutItem.
    pub(crate) async fn put_if_absent(
        &self,
        key: keys::Key,
        mut item: Item,
    ) -> Result<bool, DataError> {
        item.insert(keys::PK.into(), AttributeValue::S(key.pk));
        item.insert(keys::SK.into(), AttributeValue::S(key.sk));
        let put = self
            .client
            .put_item()
            .set_item(Some(item))
            .expressions(Expr::condition(Cond::not_exists(attr(keys::PK))));
        match self.put(put).await {
            Ok(()) => Ok(true),
            Err(DataError::Conflict(Conflict::ConditionFailed)) => Ok(false),
            Err(err) => Err(err),
        }
    }

    /// A Query of the items of one partition whose sort key begins with `prefix`, on the table
    /// or one of its indexes (the caller adds order, limits, projections and paging). Addressed
    /// to this handle's table, as every builder the store makes: one handed out unsent (the
    /// benchmark's) is whole.
    pub(crate) fn query_prefix(
        &self,
        on: keys::Keyed,
        pk: impl Into<String>,
        prefix: impl Into<String>,
    ) -> QueryFluentBuilder {
        let (index, pk_name, sk_name) = on.attributes();
        self.client
            .query()
            .table_name(self.table_name())
            .set_index_name(index.map(str::to_owned))
            .expressions(Expr::query(
                KeyCond::partition(pk_name, AttributeValue::S(pk.into()))
                    .begins_with(sk_name, AttributeValue::S(prefix.into())),
            ))
    }

    /// A Query of every item of one partition, on the table or one of its indexes (the caller
    /// adds order, limits, filters, projections and paging).
    pub(crate) fn query_partition(
        &self,
        on: keys::Keyed,
        pk: impl Into<String>,
    ) -> QueryFluentBuilder {
        let (index, pk_name, _) = on.attributes();
        self.client
            .query()
            .table_name(self.table_name())
            .set_index_name(index.map(str::to_owned))
            .expressions(Expr::query(KeyCond::partition(
                pk_name,
                AttributeValue::S(pk.into()),
            )))
    }

    /// One Query page; expired items are dropped from it.
    pub(crate) async fn query_page(
        &self,
        request: QueryFluentBuilder,
        start: Option<Item>,
    ) -> Result<(Vec<Item>, Option<Item>), DataError> {
        let request = request
            .table_name(self.table_name())
            .set_exclusive_start_key(start);
        let out = send_recorded!(self, "Query", request)?;
        let now = epoch_seconds();
        let items = out
            .items
            .unwrap_or_default()
            .into_iter()
            .filter(|item| is_live(item, now))
            .collect();
        Ok((items, out.last_evaluated_key.filter(|k| !k.is_empty())))
    }

    /// Every page of a Query (for bounded collections only).
    pub(crate) async fn query_all(
        &self,
        request: QueryFluentBuilder,
    ) -> Result<Vec<Item>, DataError> {
        let mut all = Vec::new();
        let mut start = None;
        loop {
            let (items, next) = self.query_page(request.clone(), start).await?;
            all.extend(items);
            match next {
                Some(key) => start = Some(key),
                None => return Ok(all),
            }
        }
    }

    /// TransactWriteItems; a refusal keeps the per-action reasons. Retries a transaction
    /// conflict (another transaction on the same items) a few times with backoff.
    ///
    /// A cancelled transaction (`TransactionCanceledException`: a condition refused, or a
    /// conflict with another transaction) returns no consumed capacity; it is recorded as
    /// [`REFUSED_WRITE`] with 2.0 write units per action. That is the conservative assumption:
    /// the transaction billed as if it had run (transactional writes cost double), each item up
    /// to 1 KB.
    pub(crate) async fn transact(&self, actions: Vec<TransactWriteItem>) -> Result<(), DataError> {
        let mut attempt = 0u32;
        loop {
            let started = Instant::now();
            let result = self
                .client
                .transact_write_items()
                .set_transact_items(Some(actions.clone()))
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .send()
                .await;
            match &result {
                Ok(out) => self.record(
                    "TransactWriteItems",
                    out.consumed_capacity().first(),
                    started,
                ),
                Err(err) if err.code() == Some("TransactionCanceledException") => {
                    self.record_units(REFUSED_WRITE, 2.0 * actions.len() as f64, started)
                }
                Err(_) => self.record_units("TransactWriteItems", 0.0, started),
            }
            match result.map_err(error::classify_transaction) {
                Err(DataError::Conflict(Conflict::TransactionConflict)) if attempt < 4 => {
                    attempt += 1;
                    back_off(20, attempt).await;
                }
                other => return other.map(|_| ()),
            }
        }
    }

    /// BatchGetItem of any number of keys, 100 at a time, retrying unprocessed keys: one round
    /// trip per 100 keys when the engine serves them all. Expired items are left out; the order
    /// of the answer is not the order of `keys`.
    pub(crate) async fn batch_get(
        &self,
        keys: Vec<keys::Key>,
        consistent: bool,
    ) -> Result<Vec<Item>, DataError> {
        let mut found = Vec::with_capacity(keys.len());
        let mut unique = keys;
        unique.sort_by(|a, b| (&a.pk, &a.sk).cmp(&(&b.pk, &b.sk)));
        unique.dedup();
        for chunk in unique.chunks(100) {
            let mut pending = aws_sdk_dynamodb::types::KeysAndAttributes::builder()
                .set_keys(Some(chunk.iter().cloned().map(key_map).collect()))
                .consistent_read(consistent)
                .build()
                .map_err(|e| DataError::Internal(e.into()))?;
            let mut attempt = 0u32;
            loop {
                let result = send_recorded!(
                    self,
                    "BatchGetItem",
                    self.client
                        .batch_get_item()
                        .request_items(self.table_name(), pending.clone()),
                    per_table
                );
                let mut out = result.map_err(error::classify)?;
                let now = epoch_seconds();
                if let Some(items) = out
                    .responses
                    .as_mut()
                    .and_then(|r| r.remove(self.table_name()))
                {
                    found.extend(items.into_iter().filter(|item| is_live(item, now)));
                }
                match out
                    .unprocessed_keys
                    .and_then(|mut u| u.remove(self.table_name()))
                    .filter(|k| !k.keys().is_empty())
                {
                    Some(rest) => {
                        attempt += 1;
                        if attempt > 8 {
                            return Err(DataError::Unavailable(
                                "batch read kept coming back unprocessed".into(),
                            ));
                        }
                        back_off(25, attempt).await;
                        pending = rest;
                    }
                    None => break,
                }
            }
        }
        Ok(found)
    }

    /// BatchWriteItem for any number of requests, 25 at a time, retrying unprocessed ones.
    pub(crate) async fn batch_write(&self, requests: Vec<WriteRequest>) -> Result<(), DataError> {
        for chunk in requests.chunks(25) {
            let mut pending = chunk.to_vec();
            let mut attempt = 0u32;
            while !pending.is_empty() {
                let result = send_recorded!(
                    self,
                    "BatchWriteItem",
                    self.client
                        .batch_write_item()
                        .request_items(self.table_name(), pending),
                    per_table
                );
                let out = result.map_err(error::classify)?;
                pending = out
                    .unprocessed_items
                    .and_then(|mut u| u.remove(self.table_name()))
                    .unwrap_or_default();
                if !pending.is_empty() {
                    attempt += 1;
                    if attempt > 8 {
                        return Err(DataError::Unavailable(
                            "batch write kept coming back unprocessed".into(),
                        ));
                    }
                    back_off(25, attempt).await;
                }
            }
        }
        Ok(())
    }
}
