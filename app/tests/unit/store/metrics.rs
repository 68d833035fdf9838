//! The unit tests of `app::store::metrics`.

use std::sync::Arc;
use std::time::Duration;

use app::store::metrics::*;

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
fn usage_splits_read_and_write_units_by_operation() {
    let usage = Usage::default();
    usage.add("requests", "Query", 0.5);
    usage.add("requests", "PutItem", 1.0);
    usage.add("requests", "TransactWriteItems", 4.0);
    usage.add("requests", "Query", 1.5);
    usage.add("projector", "UpdateItem", 2.0);
    usage.add("projector", REFUSED_WRITE, 1.0);
    let report = usage.clone().report();
    let requests = &report["requests"];
    assert_eq!(requests.calls, 4);
    assert_eq!(requests.read_units, 2.0);
    assert_eq!(requests.write_units, 5.0);
    assert_eq!(requests.ops["Query"].calls, 2);
    assert_eq!(
        report["projector"].write_units, 3.0,
        "a refused write is billed"
    );
    assert_eq!(report["projector"].read_units, 0.0);
}

#[test]
fn tallies_keep_matches_apart_and_start_again_once_taken() {
    let tallies = Tallies::default();
    let (a, b): (Arc<str>, Arc<str>) = ("A#1".into(), "B#1".into());
    tallies.add(&a, "UpdateItem", 1.0);
    tallies.add(&a, "GetItem", 0.5);
    tallies.add(&b, "Query", 2.0);
    let units = tallies.take("A#1").unwrap();
    assert_eq!(
        (units.calls, units.read_units, units.write_units),
        (2, 0.5, 1.0)
    );
    assert_eq!(tallies.take("A#1"), None);
    assert_eq!(tallies.quiet(Duration::ZERO), vec![b]);
    let price = Pricing::default().price(1e6, 2e6);
    assert!((price - 1.375).abs() < 1e-9, "{price}");
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
