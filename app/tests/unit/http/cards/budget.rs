//! The unit tests of `app::http::cards::budget`.

use std::net::IpAddr;
use std::time::{Duration, Instant};

use app::http::cards::budget::*;

fn ip(s: &str) -> Option<IpAddr> {
    Some(s.parse().unwrap())
}

#[test]
fn a_client_spends_its_burst_then_earns_misses_back_at_the_rate() {
    let budget = MissBudget::new(3, 60);
    let start = Instant::now();
    for _ in 0..3 {
        assert_eq!(budget.spend_at(ip("192.0.2.1"), start), Ok(()));
    }
    let wait = budget.spend_at(ip("192.0.2.1"), start).unwrap_err();
    assert_eq!(wait, Duration::from_secs(1), "one a second");
    assert_eq!(
        budget.spend_at(ip("192.0.2.2"), start),
        Ok(()),
        "another client"
    );
    let later = start + Duration::from_millis(1_500);
    assert_eq!(
        budget.spend_at(ip("192.0.2.1"), later),
        Ok(()),
        "earned one"
    );
    assert!(budget.spend_at(ip("192.0.2.1"), later).is_err());
    let much_later = start + Duration::from_secs(3600);
    for _ in 0..3 {
        assert_eq!(budget.spend_at(ip("192.0.2.1"), much_later), Ok(()));
    }
    assert!(
        budget.spend_at(ip("192.0.2.1"), much_later).is_err(),
        "never more than the burst"
    );
}

#[test]
fn an_ipv6_client_is_its_slash_64_and_a_mapped_ipv4_is_the_ipv4() {
    let budget = MissBudget::new(2, 1);
    let now = Instant::now();
    assert!(budget.spend_at(ip("2001:db8:1:2::1"), now).is_ok());
    assert!(budget.spend_at(ip("2001:db8:1:2:ffff::9"), now).is_ok());
    assert!(
        budget.spend_at(ip("2001:db8:1:2::77"), now).is_err(),
        "same /64"
    );
    assert!(
        budget.spend_at(ip("2001:db8:1:3::1"), now).is_ok(),
        "another /64"
    );
    assert!(budget.spend_at(ip("198.51.100.4"), now).is_ok());
    assert!(budget.spend_at(ip("::ffff:198.51.100.4"), now).is_ok());
    assert!(
        budget.spend_at(ip("198.51.100.4"), now).is_err(),
        "the same client"
    );
    assert!(budget.spend_at(None, now).is_ok());
}
