//! Counts DynamoDB calls and the capacity they consumed, per HTTP request or per test.
//!
//! Every call the data layer makes goes through `Db`, which asks DynamoDB for
//! `ReturnConsumedCapacity::Total` and records the call here when a recorder is attached. The
//! server attaches a fresh recorder to each request (and reports it in a `Server-Timing`
//! header); tests attach one to assert round trips and cost.

use std::sync::{Arc, Mutex};
use std::time::Duration;

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

    pub(crate) fn record(&self, call: Call) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn call(op: &'static str, capacity: f64) -> Call {
        Call {
            op,
            capacity,
            elapsed: Duration::from_millis(2),
        }
    }

    #[test]
    fn clones_share_one_tally() {
        let recorder = Recorder::new();
        let clone = recorder.clone();
        clone.record(call("Query", 0.5));
        recorder.record(call("GetItem", 1.0));
        assert_eq!(recorder.ops(), ["Query", "GetItem"]);
        assert_eq!(clone.capacity(), 1.5);
        recorder.reset();
        assert_eq!(clone.count(), 0);
    }

    #[test]
    fn server_timing_reports_calls_and_capacity() {
        let recorder = Recorder::new();
        recorder.record(call("Query", 0.5));
        assert_eq!(
            recorder.server_timing(),
            "ddb;desc=\"1 calls, 0.5 capacity units\";dur=2.00"
        );
    }
}
