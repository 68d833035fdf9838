//! The board projector: reads the table's stream (DynamoDB Streams: DescribeTable for the
//! stream, DescribeStream, GetShardIterator, GetRecords) and counts every new match record on
//! the boards, exactly once, from any number of server instances.
//!
//! **Lease.** Each shard has one item, `PROJECTOR` / `SHARD#<id>`, with the holder, an expiry
//! and a `lease_token`. An instance takes a shard whose lease is absent or expired (the token goes
//! up by one), renews it while it works, and writes its checkpoint only under its token. The
//! lease saves work, not correctness: every write of the counting is conditioned on what it
//! read and remembers what it added (see `apply`), so a holder that stalls past its expiry and
//! wakes after another took over writes nothing twice.
//!
//! **Two kinds of record.** A match record (`USER#<id>` / `MATCH#…` inserted) is counted on its
//! boards, the player's counters and inventory (`apply`). An entry write (`LB#<board>` / `E#…`
//! with `tv = 2`) moves the entry in its board's tree (`apply::tree_pass`): every change of a
//! batch added up, one write per node.
//!
//! **Checkpoint.** The same item keeps the sequence number of the last record whose batch was
//! counted, written under the token after the batch. A new holder starts after it. A crash
//! before the checkpoint means the batch is read again; counting is idempotent (see `apply`),
//! so nothing counts twice. A closed shard that was read to its end is marked `finished`, and
//! its children are read only after that, so a player's records are counted in stream order.
//!
//! **Falling behind.** The stream keeps records 24 hours on AWS. A checkpoint older than that
//! gets `TrimmedDataAccessException`: the projector logs it and starts from the oldest record
//! still kept, and the operator runs `udd-server boards rebuild`, which counts every match
//! record in the table the same idempotent way.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use aws_sdk_dynamodbstreams::types::{OperationType, ShardIteratorType};
use aws_sdk_dynamodbstreams::Client as StreamsClient;

use crate::game::model::MatchRecord;
use crate::leaderboards::model::BoardId;
use crate::leaderboards::store::apply::tree_pass::{padded, EntryMove};
use crate::leaderboards::store::apply::Fence;
use crate::leaderboards::store::TREE_VERSION;
use crate::store::keys;
use crate::store::metrics::series;
use crate::store::{epoch_millis, DataError, Db};

mod flights;
use flights::flight_from_stream;

/// How long a lease lasts without renewal.
pub const LEASE_MS: i64 = 10_000;
/// How often a projector looks for closed boards to archive.
pub const ARCHIVE_EVERY: Duration = Duration::from_secs(600);
/// How often an idle projector polls the stream.
pub const POLL: Duration = Duration::from_millis(250);
/// How often the list of shards is read again (DescribeStream), besides whenever a held shard
/// ends. AWS allows 10 DescribeStream calls a second per stream, across every instance, and
/// DynamoDB Local's grows slower with every record the stream keeps: the list is cached.
pub const SHARDS_EVERY: Duration = Duration::from_secs(10);

/// A shard this projector holds.
#[derive(Debug, Clone)]
pub(in crate::leaderboards) struct Held {
    pub(in crate::leaderboards) shard: String,
    pub(in crate::leaderboards) fence: Fence,
    pub(in crate::leaderboards) expires_ms: i64,
    pub(in crate::leaderboards) checkpoint: Option<String>,
    pub(in crate::leaderboards) iterator: Option<String>,
    /// When this projector last wrote the checkpoint.
    pub(in crate::leaderboards) checkpointed_ms: i64,
}

/// A shard of the stream, as DescribeStream lists it.
#[derive(Debug, Clone)]
pub(in crate::leaderboards) struct ShardInfo {
    id: String,
    parent: Option<String>,
}

/// What one pass did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Pass {
    /// Stream records read (of every kind: most are the boards' own writes).
    pub records: usize,
    /// Match records among them.
    pub results: usize,
    /// Results counted for the first time.
    pub counted: usize,
    /// Entry writes moved in their trees.
    pub moves: usize,
    pub held: usize,
}

impl Pass {
    /// Whether there may be more to count at once: a pass that met match records, or read a
    /// full batch. The boards' own writes show up on the stream too, so "read something" is
    /// not the test: every pass that counts makes records for the next one to skip.
    pub fn busy(&self) -> bool {
        self.results > 0 || self.moves > 0 || self.records >= BATCH
    }
}

/// Records asked for per GetRecords (the API's maximum).
pub const BATCH: usize = 1000;
/// A batch with no match record is checkpointed only this often (its records are the boards'
/// own writes; reading them again after a restart is harmless).
const QUIET_CHECKPOINT_MS: i64 = 30_000;

/// Why a pass stopped.
#[derive(Debug, thiserror::Error)]
pub enum ProjectorError {
    #[error("the table has no stream")]
    NoStream,
    #[error("stream read failed: {0}")]
    Stream(String),
    #[error(transparent)]
    Data(#[from] DataError),
}

/// One instance's projector. Cheap state: which shards it holds and where it is in each.
pub struct Projector {
    pub(in crate::leaderboards) db: Db,
    pub(in crate::leaderboards) streams: StreamsClient,
    pub(in crate::leaderboards) holder: String,
    pub(in crate::leaderboards) lease_ms: i64,
    pub(in crate::leaderboards) stream_arn: Option<String>,
    /// The shards as last listed, and when.
    pub(in crate::leaderboards) shards: Option<(Instant, Vec<ShardInfo>)>,
    pub(in crate::leaderboards) held: Vec<Held>,
    /// Shards held elsewhere, or finished: when to try each again (epoch ms; `i64::MAX` for a
    /// finished shard). A lease is asked for once per expiry, not on every poll: on AWS a
    /// refused conditional write still costs a write unit.
    pub(in crate::leaderboards) waiting: HashMap<String, i64>,
    pub(in crate::leaderboards) lags: Arc<Mutex<Vec<i64>>>,
    pub(in crate::leaderboards) handover: Handover,
}

/// Shards another instance's projector let go of (on its shutdown), as its news said: this
/// projector stops waiting for their leases to run out and asks for them at its next pass.
/// Cheap to clone; the live hub offers what it hears (see `RoomHub::on_leases_released`).
#[derive(Debug, Clone, Default)]
pub struct Handover(Arc<Mutex<Vec<String>>>);

impl Handover {
    /// Offers `shards`, let go of elsewhere.
    pub fn offer(&self, shards: &[String]) {
        if let Ok(mut offered) = self.0.lock() {
            offered.extend_from_slice(shards);
        }
    }

    fn take(&self) -> Vec<String> {
        self.0
            .lock()
            .map(|mut offered| std::mem::take(&mut *offered))
            .unwrap_or_default()
    }
}

impl Projector {
    pub fn new(db: Db, streams: StreamsClient) -> Self {
        Self {
            db,
            streams,
            holder: ulid::Ulid::new().to_string(),
            lease_ms: LEASE_MS,
            stream_arn: None,
            shards: None,
            held: Vec::new(),
            waiting: HashMap::new(),
            lags: Arc::default(),
            handover: Handover::default(),
        }
    }

    /// Where this projector hears of shards let go of elsewhere.
    pub fn handover(&self) -> Handover {
        self.handover.clone()
    }

    /// The same projector with a shorter or longer lease (tests stall a holder past it).
    pub fn with_lease_ms(mut self, lease_ms: i64) -> Self {
        self.lease_ms = lease_ms;
        self
    }

    /// This projector's holder id, as its leases name it.
    pub fn holder(&self) -> &str {
        &self.holder
    }

    /// Every lag measured so far, from a match's end to its results counted, in ms.
    pub fn lags(&self) -> Arc<Mutex<Vec<i64>>> {
        self.lags.clone()
    }

    /// Runs passes until `shutdown` resolves: at once while there is work, every [`POLL`] when
    /// idle, and a few seconds apart after an error. Then lets go of the shards it holds (see
    /// [`Projector::release`]) and returns them, for the other instances to be told.
    pub async fn run(mut self, shutdown: impl std::future::Future<Output = ()>) -> Vec<String> {
        tokio::pin!(shutdown);
        // Boards from before the present tree are converted before anything is counted on them.
        loop {
            match self.db.boards().ensure_board_shape().await {
                Ok(_) => break,
                Err(err) => {
                    tracing::warn!(%err, "converting the boards failed; trying again");
                    tokio::select! {
                        _ = &mut shutdown => return Vec::new(),
                        _ = tokio::time::sleep(Duration::from_secs(5)) => {}
                    }
                }
            }
        }
        let mut archived_at = Instant::now() - ARCHIVE_EVERY;
        loop {
            if archived_at.elapsed() >= ARCHIVE_EVERY {
                archived_at = Instant::now();
                match self.db.boards().archive_closed_boards(epoch_millis()).await {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(boards = n, "archived closed boards"),
                    Err(err) => tracing::warn!(%err, "archiving closed boards failed"),
                }
            }
            let wait = match self.pass().await {
                Ok(pass) if pass.busy() => Duration::ZERO,
                Ok(_) => POLL,
                Err(err) => {
                    tracing::warn!(%err, "board projector pass failed");
                    Duration::from_secs(2)
                }
            };
            tokio::select! {
                _ = &mut shutdown => return self.release().await,
                _ = tokio::time::sleep(wait) => {}
            }
        }
    }

    /// Runs passes until one finds nothing more to count: everything in the stream so far is
    /// counted (when this projector holds the shards).
    pub async fn catch_up(&mut self) -> Result<Pass, ProjectorError> {
        let mut total = Pass::default();
        loop {
            let pass = self.pass().await?;
            total.records += pass.records;
            total.results += pass.results;
            total.counted += pass.counted;
            total.moves += pass.moves;
            total.held = pass.held;
            if !pass.busy() {
                return Ok(total);
            }
        }
    }

    /// One pass over the stream's shards: hold what can be held, read one batch from each.
    pub async fn pass(&mut self) -> Result<Pass, ProjectorError> {
        let arn = self.stream_arn().await?;
        let shards = match &self.shards {
            Some((listed, shards)) if listed.elapsed() < SHARDS_EVERY => shards.clone(),
            _ => {
                let shards = self.shards(&arn).await?;
                self.shards = Some((Instant::now(), shards.clone()));
                shards
            }
        };
        for shard in self.handover.take() {
            // Let go of elsewhere: ask now (a finished shard stays finished).
            if self
                .waiting
                .get(&shard)
                .is_some_and(|&until| until != i64::MAX)
            {
                self.waiting.remove(&shard);
            }
        }
        let mut pass = Pass::default();
        for shard in &shards {
            if let Some(parent) = &shard.parent {
                if shards.iter().any(|s| &s.id == parent) && !self.finished(parent).await? {
                    continue;
                }
            }
            let Some(index) = self.hold(&shard.id).await? else {
                continue;
            };
            match self.read_batch(&arn, index).await {
                Ok(read) => {
                    pass.records += read.records;
                    pass.results += read.results;
                    pass.counted += read.counted;
                    pass.moves += read.moves;
                }
                Err(err) => {
                    // Lost the lease or the iterator: start this shard afresh next time.
                    self.held[index].iterator = None;
                    if matches!(err, BatchError::LeaseLost) {
                        self.held.remove(index);
                    } else if let BatchError::Failed(err) = err {
                        return Err(err);
                    }
                }
            }
        }
        pass.held = self.held.len();
        metrics::gauge!(series::PROJECTOR_SHARDS).set(pass.held as f64);
        Ok(pass)
    }

    async fn stream_arn(&mut self) -> Result<String, ProjectorError> {
        if let Some(arn) = &self.stream_arn {
            return Ok(arn.clone());
        }
        let arn = self
            .db
            .latest_stream_arn()
            .await?
            .ok_or(ProjectorError::NoStream)?;
        self.stream_arn = Some(arn.clone());
        Ok(arn)
    }

    async fn shards(&self, arn: &str) -> Result<Vec<ShardInfo>, ProjectorError> {
        let mut shards = Vec::new();
        let mut start: Option<String> = None;
        loop {
            let started = Instant::now();
            let out = self
                .streams
                .describe_stream()
                .stream_arn(arn)
                .set_exclusive_start_shard_id(start.take())
                .send()
                .await;
            self.db.record("DescribeStream", None, started);
            let description = out
                .map_err(|e| ProjectorError::Stream(format!("{e:?}")))?
                .stream_description
                .ok_or(ProjectorError::NoStream)?;
            for shard in description.shards() {
                if let Some(id) = shard.shard_id() {
                    shards.push(ShardInfo {
                        id: id.to_owned(),
                        parent: shard.parent_shard_id().map(ToOwned::to_owned),
                    });
                }
            }
            match description.last_evaluated_shard_id {
                Some(last) => start = Some(last),
                None => return Ok(shards),
            }
        }
    }

    /// Reads one batch of a held shard, counts its match records and checkpoints it.
    async fn read_batch(&mut self, arn: &str, index: usize) -> Result<Pass, BatchError> {
        let held = self.held[index].clone();
        let iterator = match held.iterator.clone() {
            Some(iterator) => iterator,
            None => self.iterator(arn, &held).await?,
        };
        let started = Instant::now();
        let out = self
            .streams
            .get_records()
            .shard_iterator(iterator)
            .limit(BATCH as i32)
            .send()
            .await;
        self.db.record("GetRecords", None, started);
        let out = match out {
            Ok(out) => out,
            Err(err) => {
                let expired = err
                    .as_service_error()
                    .is_some_and(|e| e.is_expired_iterator_exception());
                self.held[index].iterator = None;
                return if expired {
                    Ok(Pass::default())
                } else {
                    Err(BatchError::Failed(ProjectorError::Stream(format!(
                        "{err:?}"
                    ))))
                };
            }
        };
        let records = out.records();
        metrics::counter!(series::PROJECTOR_BATCHES).increment(1);
        metrics::counter!(series::PROJECTOR_RECORDS).increment(records.len() as u64);
        let mut results = Vec::new();
        let mut moves = Vec::new();
        let mut last_sequence = None;
        for record in records {
            let Some(data) = record.dynamodb() else {
                continue;
            };
            last_sequence = data.sequence_number().map(ToOwned::to_owned);
            let Some(image) = data.new_image() else {
                continue;
            };
            match record.event_name() {
                Some(OperationType::Insert) => {
                    if let Some(result) = result_from_stream(image) {
                        results.push(result);
                        continue;
                    }
                }
                Some(OperationType::Modify) => {
                    // A daily flight's result is written into the flight once it is over; a
                    // flagged record or flight counts once an operator clears it (a change of
                    // anything else in it is counted again as nothing: its marker says done).
                    if let Some(result) =
                        flight_from_stream(image).or_else(|| result_from_stream(image))
                    {
                        results.push(result);
                        continue;
                    }
                }
                _ => continue,
            }
            if let Some(change) = entry_move(image, data.sequence_number().unwrap_or_default()) {
                moves.push(change);
            }
        }
        let mut counted = 0;
        if !results.is_empty() || !moves.is_empty() {
            let seasons = self
                .db
                .boards()
                .seasons()
                .await
                .map_err(ProjectorError::from)?;
            if !results.is_empty() {
                let applied = self
                    .db
                    .boards()
                    .count_results(&results, &seasons)
                    .await
                    .map_err(|err| BatchError::Failed(err.into()))?;
                counted = applied.counted;
                for lag in &applied.lags_ms {
                    metrics::histogram!(series::PROJECTOR_LAG_SECONDS).record(*lag as f64 / 1000.0);
                    if *lag > series::LATE_AFTER_SECS * 1000 {
                        metrics::counter!(series::PROJECTOR_LATE).increment(1);
                    }
                }
                if let Ok(mut lags) = self.lags.lock() {
                    lags.extend(applied.lags_ms);
                }
            }
            if !moves.is_empty() {
                self.db
                    .boards()
                    .move_in_trees(&moves, &seasons)
                    .await
                    .map_err(|err| BatchError::Failed(err.into()))?;
            }
        }
        let next = out.next_shard_iterator().map(ToOwned::to_owned);
        let now = epoch_millis();
        let due = !results.is_empty()
            || !moves.is_empty()
            || next.is_none()
            || (last_sequence.is_some()
                && now - self.held[index].checkpointed_ms > QUIET_CHECKPOINT_MS);
        if due {
            self.checkpoint(&held, last_sequence.as_deref(), next.is_none(), counted > 0)
                .await?;
            self.held[index].checkpointed_ms = now;
        }
        if let Some(sequence) = last_sequence {
            self.held[index].checkpoint = Some(sequence);
        }
        if next.is_none() {
            // The shard ended: its children are listed at the next pass, and it is not read or
            // renewed again.
            self.shards = None;
            self.held.remove(index);
            self.waiting.insert(held.shard, i64::MAX);
        } else {
            self.held[index].iterator = next;
        }
        Ok(Pass {
            records: records.len(),
            results: results.len(),
            counted,
            moves: moves.len(),
            held: 1,
        })
    }

    async fn iterator(&self, arn: &str, held: &Held) -> Result<String, BatchError> {
        let request = |after: Option<&str>| {
            let request = self
                .streams
                .get_shard_iterator()
                .stream_arn(arn)
                .shard_id(&held.shard);
            match after {
                Some(sequence) => request
                    .shard_iterator_type(ShardIteratorType::AfterSequenceNumber)
                    .sequence_number(sequence),
                None => request.shard_iterator_type(ShardIteratorType::TrimHorizon),
            }
        };
        let started = Instant::now();
        let mut out = request(held.checkpoint.as_deref()).send().await;
        self.db.record("GetShardIterator", None, started);
        if let Err(err) = &out {
            if err
                .as_service_error()
                .is_some_and(|e| e.is_trimmed_data_access_exception())
            {
                tracing::error!(
                    shard = held.shard,
                    "the stream no longer holds the records after the checkpoint: \
                     boards miss them until `udd-server boards rebuild` runs"
                );
                out = request(None).send().await;
            }
        }
        out.map_err(|e| BatchError::Failed(ProjectorError::Stream(format!("{e:?}"))))?
            .shard_iterator
            .ok_or_else(|| BatchError::Failed(ProjectorError::Stream("no iterator".into())))
    }
}

#[derive(Debug)]
pub(in crate::leaderboards) enum BatchError {
    LeaseLost,
    Failed(ProjectorError),
}

impl From<ProjectorError> for BatchError {
    fn from(err: ProjectorError) -> Self {
        BatchError::Failed(err)
    }
}

/// An entry's move in its board's tree, from a stream record's new image, if the item is an
/// entry written for the tree to count (`tv = 2`).
fn entry_move(
    image: &std::collections::HashMap<String, aws_sdk_dynamodbstreams::types::AttributeValue>,
    sequence: &str,
) -> Option<EntryMove> {
    #[derive(serde::Deserialize)]
    struct Image {
        board: String,
        score: i64,
        #[serde(default)]
        ps: Option<i64>,
        #[serde(default)]
        tv: Option<u8>,
    }
    let pk = image.get(keys::PK)?.as_s().ok()?;
    let sk = image.get(keys::SK)?.as_s().ok()?;
    if !pk.starts_with(keys::BOARD_PREFIX) || !sk.starts_with(keys::BOARD_ENTRY_PREFIX) {
        return None;
    }
    let entry: Image = match serde_dynamo::from_item(image.clone()) {
        Ok(entry) => entry,
        Err(err) => {
            tracing::error!(%err, pk, sk, "a board entry the tree cannot read");
            return None;
        }
    };
    if entry.tv != Some(TREE_VERSION) || entry.ps == Some(entry.score) {
        return None;
    }
    Some(EntryMove {
        board: BoardId::parse_key(&entry.board).ok()?,
        seq: padded(sequence),
        from: entry.ps,
        to: entry.score,
    })
}

/// A match result from a stream record's new image, if the item is a match record.
fn result_from_stream(
    image: &std::collections::HashMap<String, aws_sdk_dynamodbstreams::types::AttributeValue>,
) -> Option<MatchRecord> {
    let sk = image.get(keys::SK)?.as_s().ok()?;
    if !sk.starts_with(keys::MATCH_PREFIX) {
        return None;
    }
    match serde_dynamo::from_item(image.clone()) {
        Ok(result) => Some(result),
        Err(err) => {
            tracing::error!(%err, sk, "a match record the boards cannot read");
            None
        }
    }
}
