//! The unit tests of `app::game::throttle`.

use std::time::Duration;

use app::game::throttle::*;

#[test]
fn a_key_over_its_limit_waits_for_the_next_period() {
    let throttle = Throttle::new(3, Duration::from_millis(50));
    assert!((0..3).all(|_| throttle.allow("a")));
    assert!(!throttle.allow("a"));
    assert!(throttle.allow("b"), "keys are apart");
    std::thread::sleep(Duration::from_millis(60));
    assert!(throttle.allow("a"));
}
