//! Retries kept apart: the players' path and the background work each have an SDK client of
//! their own, on a retry partition of their own.
//!
//! The SDK's standard retries draw on a token bucket per retry partition: a retry takes 5 tokens
//! (10 after a timeout), a call that succeeds at once gives 1 back, a retry that succeeds gives
//! its tokens back, and a call retried twice loses the first retry's tokens for good. When the
//! bucket is dry, retries are refused and the error reaches the code. Every client of one
//! service shares the default partition in a process, so a burst of throttling or lost answers in
//! the board projector would empty the bucket the players' taps retry from, and players would
//! see errors. Here:
//!
//! - [`Partition::Players`]: taps, joins, starts, closes, pages, streams (everything a request
//!   or a room's watcher does);
//! - [`Partition::Background`]: the board projector (its leases, passes, trees, rewards,
//!   archives) and the instances' registry and news.
//!
//! Each partition's bucket also refills with time, so a dry one recovers after a burst even with
//! no call succeeding. [`RetryCounts`] counts the retries each partition took and refused
//! (`udd_dynamodb_retries_total{partition, outcome}`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use aws_sdk_dynamodb::config::interceptors::{
    BeforeTransmitInterceptorContextRef, FinalizerInterceptorContextRef,
};
use aws_sdk_dynamodb::config::retry::{
    ClassifyRetry, RetryAction, RetryConfig, RetryPartition, TokenBucket,
};
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use aws_sdk_dynamodb::Client;
use aws_smithy_types::config_bag::{Storable, StoreReplace};

/// Retries taken and refused, by partition and outcome (`taken`, `refused`).
pub const RETRIES: &str = "udd_dynamodb_retries_total";

/// Which work a client does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Partition {
    Players,
    Background,
}

impl Partition {
    pub fn name(self) -> &'static str {
        match self {
            Partition::Players => "players",
            Partition::Background => "background",
        }
    }

    /// The bucket's tokens and its refill a second. A retry holds its 5 tokens from the failed
    /// attempt until the retried one answers (the backoff, half a second on average, and a
    /// call), so a bucket must hold what its calls of about 0.6 s hold at once when every one
    /// of them is retried (see `docs/operating.md`, "Retries apart").
    fn bucket(self) -> TokenBucket {
        let (capacity, refill) = match self {
            // A task at its streams' scaling target (2,000 open: about 250 player-rounds a
            // second) makes 2.252 calls a player-round on the players' path (`udd-server load
            // --rooms 100 --players 5 --instances 2`, docs/load-and-cost.md): about 570 calls a
            // second, 1,700 tokens held when each is retried once; twice that, for a burst that
            // goes on. Dry, it is full again in 100 s with no call succeeding.
            Partition::Players => (4_000, 40.0),
            // The projector and the registry can wait for their next pass: a dry bucket there
            // costs the boards' lag, nothing a player waits on. The SDK's default size.
            Partition::Background => (500, 5.0),
        };
        TokenBucket::builder()
            .capacity(capacity)
            .refill_rate(refill)
            .build()
    }
}

/// Retries a client took and was refused (its bucket dry), since it was made.
#[derive(Debug, Clone, Default)]
pub struct RetryCounts {
    taken: Arc<AtomicU64>,
    refused: Arc<AtomicU64>,
}

impl RetryCounts {
    pub fn taken(&self) -> u64 {
        self.taken.load(Ordering::Relaxed)
    }

    pub fn refused(&self) -> u64 {
        self.refused.load(Ordering::Relaxed)
    }
}

/// `client` on `partition`'s own retry partition, its retries counted.
pub fn apart(client: &Client, partition: Partition) -> (Client, RetryCounts) {
    let own = RetryPartition::custom(partition.name())
        .token_bucket(partition.bucket())
        .build();
    on_partition(client, own, partition.name())
}

/// `client` on `retry_partition`, its retries counted as `label`'s (tests use it to put two
/// clients on one partition, as every client was before).
pub fn on_partition(
    client: &Client,
    retry_partition: RetryPartition,
    label: &'static str,
) -> (Client, RetryCounts) {
    let counts = RetryCounts::default();
    let config = client
        .config()
        .to_builder()
        .retry_partition(retry_partition)
        .interceptor(CountRetries {
            label,
            counts: counts.clone(),
        })
        .build();
    (Client::from_conf(config), counts)
}

/// How many attempts this call has made.
#[derive(Debug, Clone, Copy)]
struct Attempts(u32);

impl Storable for Attempts {
    type Storer = StoreReplace<Self>;
}

#[derive(Debug)]
struct CountRetries {
    label: &'static str,
    counts: RetryCounts,
}

impl CountRetries {
    fn count(&self, outcome: &'static str, counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
        metrics::counter!(RETRIES, "partition" => self.label, "outcome" => outcome).increment(1);
    }
}

impl Intercept for CountRetries {
    fn name(&self) -> &'static str {
        "CountRetries"
    }

    fn read_before_attempt(
        &self,
        _context: &BeforeTransmitInterceptorContextRef<'_>,
        _components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let attempt = cfg.load::<Attempts>().map_or(1, |a| a.0 + 1);
        cfg.interceptor_state().store_put(Attempts(attempt));
        if attempt > 1 {
            self.count("taken", &self.counts.taken);
        }
        Ok(())
    }

    /// A call that failed with an error its classifiers would retry, before its last attempt:
    /// the retry was refused for want of tokens.
    fn read_after_execution(
        &self,
        context: &FinalizerInterceptorContextRef<'_>,
        components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if context
            .output_or_error()
            .is_none_or(|result| result.is_ok())
        {
            return Ok(());
        }
        let attempts = cfg.load::<Attempts>().map_or(0, |a| a.0);
        let most = cfg
            .load::<RetryConfig>()
            .map_or(1, RetryConfig::max_attempts);
        if attempts == 0 || attempts >= most {
            return Ok(());
        }
        let mut action = RetryAction::NoActionIndicated;
        for classifier in components.retry_classifiers() {
            let next = classifier.classify_retry_v2(context.inner(), &action);
            if next != RetryAction::NoActionIndicated {
                action = next;
            }
        }
        if matches!(action, RetryAction::RetryIndicated(_)) {
            self.count("refused", &self.counts.refused);
        }
        Ok(())
    }
}
