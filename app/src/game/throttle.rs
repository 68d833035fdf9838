//! A per-instance throttle for requests too frequent to count in the table: taps. A counter
//! item per tap would double a tap's cost (one write unit per player per round is the budget),
//! and a tap is already idempotent in the table (one per player per round counts), so a flood
//! only needs to be kept from costing the table reads and writes; each instance does that for
//! the requests it receives.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// At most `max` requests per key in each `per`.
#[derive(Debug, Clone)]
pub struct Throttle {
    inner: Arc<Mutex<HashMap<String, (Instant, u32)>>>,
    per: Duration,
    max: u32,
}

/// Keys remembered at most; past this the expired ones are dropped.
const KEPT: usize = 50_000;

impl Throttle {
    pub fn new(max: u32, per: Duration) -> Self {
        Self {
            inner: Arc::default(),
            per,
            max,
        }
    }

    /// Counts a request for `key`; `false` when it is over the limit.
    pub fn allow(&self, key: &str) -> bool {
        let now = Instant::now();
        let mut map = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        if map.len() >= KEPT {
            let per = self.per;
            map.retain(|_, (start, _)| now.duration_since(*start) < per);
        }
        let entry = map.entry(key.to_owned()).or_insert((now, 0));
        if now.duration_since(entry.0) >= self.per {
            *entry = (now, 0);
        }
        entry.1 += 1;
        entry.1 <= self.max
    }
}

/// The throttle on taps: 8 per player session in 2 s (one counts per round; a double tap or a
/// retry is fine, a script hammering the endpoint is not).
#[derive(Debug, Clone)]
pub struct TapThrottle(pub Throttle);

impl Default for TapThrottle {
    fn default() -> Self {
        Self(Throttle::new(8, Duration::from_secs(2)))
    }
}

/// Loads of a room's page by nobody signed in, per client address (an IPv6 client's /64): 240 a
/// minute. A venue behind one address (a class of 60 opening the room's link before they join,
/// a hall's audience) stays far under it; a script loading a room in a loop is answered 429
/// without a read of the table. A signed-in viewer is not counted: they are limited where their
/// session was made.
#[derive(Debug, Clone)]
pub struct RoomLoads(pub Throttle);

/// [`RoomLoads`]'s limit a minute.
pub const ROOM_LOADS_PER_MINUTE: u32 = 240;

impl Default for RoomLoads {
    fn default() -> Self {
        Self(Throttle::new(
            ROOM_LOADS_PER_MINUTE,
            Duration::from_secs(60),
        ))
    }
}
