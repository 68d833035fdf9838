//! How many cards one client may have read and drawn: a token bucket per client address, in
//! this instance's memory. Only the answers that miss the cache spend from it (a card drawn or
//! read again, an unknown player or match, an empty board); what the cache answers is free.
//!
//! Why in memory and not in the table (`Db::hit_rate_limit`, shared by every instance): what
//! the limit protects is each instance's cores (a card is some 12 ms of drawing) and the table's
//! reads (≤ 3 calls a miss); a write to the table per miss would itself double a miss's calls
//! and add a write unit to each. With `n` instances a client gets `n` budgets, so the table sees
//! at most `n` × the rate below from one client; each instance's cores see at most one.
//!
//! A client is its address as the request guard worked it out (through trusted proxies only);
//! an IPv6 client is its /64, which one subscriber usually holds whole.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::request::ClientAddress;

/// Misses one client may make at once.
pub const BURST: u32 = 30;
/// Misses one client may make a minute, after its burst.
pub const PER_MINUTE: u32 = 30;
/// Misses the whole instance may make at once, every client together: what bounds the cores
/// the cards take (a miss is at most one card drawn, some 6 ms of a core, and ≤ 3 reads) however
/// many addresses ask, each within its own budget.
pub const INSTANCE_BURST: u32 = 60;
/// Misses the whole instance may make a minute after its burst: 30 a second, some 18 % of one
/// core at the most.
pub const INSTANCE_PER_MINUTE: u32 = 1800;
/// Clients tracked at most; past this, clients whose bucket is full again are forgotten
/// (forgetting them changes nothing), then, if still too many, everyone.
const CLIENTS: usize = 65_536;

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Each client's bucket (shared by every clone).
#[derive(Debug, Clone)]
pub struct MissBudget {
    buckets: Arc<Mutex<HashMap<Option<IpAddr>, Bucket>>>,
    burst: f64,
    per_second: f64,
}

impl Default for MissBudget {
    fn default() -> Self {
        Self::new(BURST, PER_MINUTE)
    }
}

/// The client a bucket belongs to, as every per-address limit counts it (see
/// [`ClientAddress::of`]; the guard's `ClientAddress` is one already). `None`, a request whose
/// connection is unknown (tests that call the router directly), is one client too.
fn client_of(address: Option<IpAddr>) -> Option<IpAddr> {
    address.map(|ip| ClientAddress::of(ip).0)
}

impl MissBudget {
    /// `burst` misses at once, `per_minute` after that.
    pub fn new(burst: u32, per_minute: u32) -> Self {
        Self {
            buckets: Arc::default(),
            burst: f64::from(burst.max(1)),
            per_second: f64::from(per_minute.max(1)) / 60.0,
        }
    }

    /// Spends one miss of `address`'s budget; when none is left, how long until one is.
    pub fn spend(&self, address: Option<IpAddr>) -> Result<(), Duration> {
        self.spend_at(address, Instant::now())
    }

    pub fn spend_at(&self, address: Option<IpAddr>, now: Instant) -> Result<(), Duration> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= CLIENTS {
            let refill = Duration::from_secs_f64(self.burst / self.per_second);
            buckets.retain(|_, b| now.saturating_duration_since(b.at) < refill);
            if buckets.len() >= CLIENTS {
                buckets.clear();
            }
        }
        let bucket = buckets.entry(client_of(address)).or_insert(Bucket {
            tokens: self.burst,
            at: now,
        });
        let earned = now.saturating_duration_since(bucket.at).as_secs_f64() * self.per_second;
        bucket.tokens = (bucket.tokens + earned).min(self.burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64(
                (1.0 - bucket.tokens) / self.per_second,
            ))
        }
    }
}
