//! Counts DynamoDB calls and the capacity they consumed, per HTTP request or per test.
//!
//! Every call the data layer makes goes through `Db`, which asks DynamoDB for
//! `ReturnConsumedCapacity::Total` and records the call here when a recorder is attached. The
//! server attaches a fresh recorder to each request (and reports it in a `Server-Timing`
//! header); tests attach one to assert round trips and cost.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

/// One DynamoDB call.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The DynamoDB operation name, e.g. `"Query"`.
    pub op: &'static str,
    /// Capacity units DynamoDB reported (0 where the engine reports none).
    pub capacity: f64,
    pub elapsed: Duration,
}

/// Collects calls; shared between the code that makes them and the code that reads them.
#[derive(Debug, Default, Clone)]
pub struct Recorder {
    calls: Arc<Mutex<Vec<Call>>>,
}

impl Recorder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn record(&self, call: Call) {
        self.calls
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(call);
    }

    /// Every call recorded so far, in order.
    pub fn calls(&self) -> Vec<Call> {
        self.calls.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Operation names in order, for asserting round trips.
    pub fn ops(&self) -> Vec<&'static str> {
        self.calls().iter().map(|c| c.op).collect()
    }

    pub fn count(&self) -> usize {
        self.calls.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn capacity(&self) -> f64 {
        self.calls().iter().map(|c| c.capacity).sum()
    }

    /// Forgets what was recorded (between the set-up and the measured part of a test).
    pub fn reset(&self) {
        self.calls.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// A `Server-Timing` header value: call count, capacity and time spent in DynamoDB.
    pub fn server_timing(&self) -> String {
        let calls = self.calls();
        let millis: f64 = calls.iter().map(|c| c.elapsed.as_secs_f64() * 1e3).sum();
        let capacity: f64 = calls.iter().map(|c| c.capacity).sum();
        format!(
            "ddb;desc=\"{} calls, {capacity} capacity units\";dur={millis:.2}",
            calls.len()
        )
    }
}

/// The pseudo-operation a refused write is recorded as: a conditional write whose condition
/// was false, or a cancelled transaction. DynamoDB returns no consumed capacity for it, but AWS
/// bills it; `Db` records the units it is billed (see `Db::record_failure` and `Db::transact`).
pub const REFUSED_WRITE: &str = "RefusedWrite";

/// Whether an operation reads (its capacity is read units) or writes (write units).
pub fn is_write(op: &str) -> bool {
    matches!(
        op,
        "PutItem"
            | "UpdateItem"
            | "DeleteItem"
            | "TransactWriteItems"
            | "BatchWriteItem"
            | REFUSED_WRITE
    )
}

/// Calls and capacity of one operation since the process started.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct OpUsage {
    pub calls: u64,
    /// Capacity units the engine reported (read units for reads, write units for writes).
    pub capacity: f64,
}

/// What one server process has asked of the table since it started, by the work that asked
/// (`Db::counted_as`) and by operation: always on (one short lock per call), read by operators
/// and the load generator at `/healthz/usage`. The works:
///
/// - `requests`: players' requests (the game and its pages; the default);
/// - `watchers`: the rooms' watchers in the live hub (their polls and reads of each room, the
///   rounds they close, the away hosts' hand-overs);
/// - `receipts`: adding each instance's tally to its match's receipt, and reading receipts;
/// - `streams`: counting each client's open live streams (by time, not by rounds);
/// - `projector`: the boards' projector counting matches (entries, lifetime counters, markers,
///   its reads and leases), with its writes of the counting trees as `trees` and of the
///   inventory's rewards as `rewards`.
///
/// A write refused by its condition is the pseudo-operation [`REFUSED_WRITE`], with the units
/// AWS bills for it.
#[derive(Debug, Default, Clone)]
pub struct Usage {
    ops: Arc<Mutex<BTreeMap<(&'static str, &'static str), OpUsage>>>,
}

/// One kind of work's share of a [`UsageReport`].
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct WorkUsage {
    pub ops: BTreeMap<&'static str, OpUsage>,
    pub calls: u64,
    pub read_units: f64,
    pub write_units: f64,
}

/// A snapshot of [`Usage`], by kind of work.
pub type UsageReport = BTreeMap<&'static str, WorkUsage>;

impl Usage {
    pub fn add(&self, work: &'static str, op: &'static str, capacity: f64) {
        let mut ops = self.ops.lock().unwrap_or_else(|e| e.into_inner());
        let entry = ops.entry((work, op)).or_default();
        entry.calls += 1;
        entry.capacity += capacity;
    }

    pub fn report(&self) -> UsageReport {
        let ops = self.ops.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let mut report = UsageReport::new();
        for ((work, op), usage) in ops {
            let share = report.entry(work).or_default();
            share.calls += usage.calls;
            if is_write(op) {
                share.write_units += usage.capacity;
            } else {
                share.read_units += usage.capacity;
            }
            share.ops.insert(op, usage);
        }
        report
    }
}

/// Calls and capacity units, read and write apart.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Units {
    pub calls: u64,
    pub read_units: f64,
    pub write_units: f64,
}

impl Units {
    fn add(&mut self, op: &str, capacity: f64) {
        self.calls += 1;
        if is_write(op) {
            self.write_units += capacity;
        } else {
            self.read_units += capacity;
        }
    }
}

/// On-demand prices in US dollars per million capacity units (a setting: regions and years
/// differ). The defaults are US East's on-demand prices from November 2024.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pricing {
    pub read_per_million: f64,
    pub write_per_million: f64,
}

impl Default for Pricing {
    fn default() -> Self {
        Self {
            read_per_million: 0.125,
            write_per_million: 0.625,
        }
    }
}

impl Pricing {
    /// What `units` cost, in US dollars.
    pub fn price(&self, read_units: f64, write_units: f64) -> f64 {
        (read_units * self.read_per_million + write_units * self.write_per_million) / 1e6
    }
}

/// What this process has spent on each match in play and not yet added to the match's
/// receipt, by match (a key the game chooses).
#[derive(Debug, Default, Clone)]
pub struct Tallies {
    open: Arc<Mutex<OpenTallies>>,
}

/// Each open tally and when it last grew.
type OpenTallies = HashMap<Arc<str>, (Units, Instant)>;

impl Tallies {
    pub fn add(&self, key: &Arc<str>, op: &str, capacity: f64) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let entry = open
            .entry(Arc::clone(key))
            .or_insert_with(|| (Units::default(), Instant::now()));
        entry.0.add(op, capacity);
        entry.1 = Instant::now();
    }

    /// Takes the match's tally (it starts again from nothing).
    pub fn take(&self, key: &str) -> Option<Units> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.remove(key).map(|(units, _)| units)
    }

    /// Puts back a tally that could not be added to its receipt.
    pub fn restore(&self, key: &Arc<str>, units: Units) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let entry = open
            .entry(Arc::clone(key))
            .or_insert_with(|| (Units::default(), Instant::now()));
        entry.0.calls += units.calls;
        entry.0.read_units += units.read_units;
        entry.0.write_units += units.write_units;
    }

    /// The matches whose tally has not grown for `quiet`.
    pub fn quiet(&self, quiet: Duration) -> Vec<Arc<str>> {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.iter()
            .filter(|(_, (_, last))| last.elapsed() >= quiet)
            .map(|(key, _)| Arc::clone(key))
            .collect()
    }
}

/// The names of the series operators scrape (`GET /metrics`, see `http::metrics`), recorded
/// through the `metrics` facade wherever the work happens.
pub mod series {
    /// Requests answered, by route template, method and status.
    pub const REQUESTS: &str = "udd_http_requests_total";
    /// How long each request took to answer (headers; a stream's body goes on), by route template.
    pub const REQUEST_SECONDS: &str = "udd_http_request_duration_seconds";
    /// Requests slower than [`SLOW_REQUEST`] to answer, by route template: a counter, which a
    /// collector that drops histograms (the CloudWatch agent) still carries, for alarms.
    pub const SLOW_REQUESTS: &str = "udd_http_slow_requests_total";
    /// What a slow request is: a tap answered slower than this is felt.
    pub const SLOW_REQUEST: std::time::Duration = std::time::Duration::from_millis(250);
    /// Live streams open on this instance now.
    pub const STREAMS_OPEN: &str = "udd_live_streams_open";
    /// Snapshots a room's watcher made for its streams (one serialisation each, shared by
    /// every stream of the room on the instance).
    pub const SNAPSHOTS: &str = "udd_live_snapshots_total";
    /// Passes of the rooms' watchers (each brings its room up to date and decides what is due).
    pub const WATCHER_PASSES: &str = "udd_live_watcher_passes_total";
    /// What woke the rooms' watchers (`by`: `bell` for a write here or news from another
    /// instance; else the timer it waited for: `poll`, `round`, `away`, `here`, `host`).
    pub const WATCHER_WAKES: &str = "udd_live_watcher_wakes_total";
    /// Taps answered, by outcome: `counted`, `repeat` (one counted already), `limited` (the
    /// throttle), `refused` (late, early, inhuman, not a player, no such round).
    pub const TAPS: &str = "udd_taps_total";
    /// DynamoDB calls by operation and the part of the server that made them (`work`).
    pub const DYNAMODB_SECONDS: &str = "udd_dynamodb_call_duration_seconds";
    /// Capacity units each DynamoDB call consumed, by operation and work: the histogram's `_sum` is
    /// the units, its `_count` the calls.
    pub const DYNAMODB_UNITS: &str = "udd_dynamodb_capacity_units";
    /// DynamoDB calls that failed, by operation and kind (`throttled`, `conflict`, `condition`,
    /// `unavailable`, `other`).
    pub const DYNAMODB_ERRORS: &str = "udd_dynamodb_errors_total";
    /// From a match's end to its results on the boards, per result counted.
    pub const PROJECTOR_LAG_SECONDS: &str = "udd_projector_lag_seconds";
    /// Results counted on the boards more than [`LATE_AFTER_SECS`] after their match ended (a
    /// counter, for alarms: see [`SLOW_REQUESTS`]).
    pub const PROJECTOR_LATE: &str = "udd_projector_late_total";
    /// A result counted later than this after its match is late: the boards fall behind.
    pub const LATE_AFTER_SECS: i64 = 60;
    /// Stream batches the projector read, and the records in them.
    pub const PROJECTOR_BATCHES: &str = "udd_projector_batches_total";
    pub const PROJECTOR_RECORDS: &str = "udd_projector_records_total";
    /// Stream shards this instance's projector holds now.
    pub const PROJECTOR_SHARDS: &str = "udd_projector_shards_held";
}
