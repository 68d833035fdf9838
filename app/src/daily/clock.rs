//! The daily's clock: what day it is, when it ends, and whether its seed may be shown. The
//! system's clock, moved by an offset that tests set (to a day's last second, past midnight,
//! a week on) while everything else, taps' timing included, keeps running at its own pace.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use crate::ids::Day;
use crate::leaderboards::period::{day_of, DAY_MS};
use crate::store::epoch_millis;

/// The clock the daily reads (one per server, shared by its requests).
#[derive(Debug, Clone, Default)]
pub struct DailyClock {
    offset_ms: Arc<AtomicI64>,
}

impl DailyClock {
    /// Now, by this clock.
    pub fn now_ms(&self) -> i64 {
        epoch_millis() + self.offset_ms.load(Ordering::Acquire)
    }

    /// Moves the clock so that now is `at_ms` (tests only: the server never calls it).
    pub fn set_now(&self, at_ms: i64) {
        self.offset_ms
            .store(at_ms - epoch_millis(), Ordering::Release);
    }

    /// The day (UTC) it is now.
    pub fn today(&self) -> Day {
        day_of(self.now_ms())
    }
}

/// When `day` ends (the next midnight UTC), in ms.
pub fn day_end_ms(day: Day) -> i64 {
    day_start_ms(day) + DAY_MS
}

/// When `day` starts (midnight UTC), in ms.
pub fn day_start_ms(day: Day) -> i64 {
    day.index() * DAY_MS
}

/// Whether `day` is over at `now_ms`: only then are its things, its seed and its fastest shown.
pub fn is_over(day: Day, now_ms: i64) -> bool {
    now_ms >= day_end_ms(day)
}
