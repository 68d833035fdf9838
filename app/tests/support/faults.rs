//! Faults the local engines never raise, injected at the SDK with real DynamoDB's wire answers:
//! a client whose next N matching calls are answered with a DynamoDB error instead of reaching
//! the engine ([`with_faults`]), and one whose every k-th write is throttled or has its answer
//! lost after the engine applied it ([`with_fault_rates`]). Shared by the data suite
//! (`data/conflicts.rs`, `data/holders.rs`) and the HTTP fault tests.

#![allow(dead_code)] // each test binary uses its own part of this

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use aws_sdk_dynamodb::config::http::{HttpRequest, HttpResponse};
use aws_sdk_dynamodb::config::interceptors::{
    BeforeDeserializationInterceptorContextMut, BeforeSerializationInterceptorContextRef,
    BeforeTransmitInterceptorContextMut,
};
use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use aws_smithy_types::body::SdkBody;
use aws_smithy_types::config_bag::{Storable, StoreReplace};

/// Answers the next `remaining` calls of `operation` (any, if `None`) with `answer`, a
/// DynamoDB error body (HTTP 400). The engine must not apply them, so before signing each is
/// turned into a harmless ListTables (and marked); the engine's answer to that is then replaced.
#[derive(Debug)]
struct FaultFirst {
    remaining: Arc<AtomicU32>,
    operation: Option<&'static str>,
    answer: &'static str,
}

pub const CONFLICT: &str = r#"{"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","message":"Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict, None, None]","CancellationReasons":[{"Code":"TransactionConflict","Message":"Transaction is ongoing for the item"},{"Code":"None"},{"Code":"None"}]}"#;
pub const THROTTLED: &str = r#"{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}"#;
/// Real DynamoDB's answer to a transaction sent again while its first attempt still runs
/// (same `ClientRequestToken`): the SDK retries it as it does throttling.
pub const IN_PROGRESS: &str = r#"{"__type":"com.amazonaws.dynamodb.v20120810#TransactionInProgressException","message":"Transaction is ongoing for the request"}"#;
/// Real DynamoDB's answer when it failed inside: the SDK retries it.
pub const INTERNAL_ERROR: &str = r#"{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"Internal server error"}"#;
pub const OVER_CAPACITY: &str = r#"{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."}"#;

/// Whether this attempt was turned into a ListTables, carried from signing to deserialising.
#[derive(Debug, Clone)]
struct Injected(bool);

impl Storable for Injected {
    type Storer = StoreReplace<Self>;
}

/// The DynamoDB operation a request calls (`PutItem`, …), from its `x-amz-target` header.
fn operation_of(request: &HttpRequest) -> Option<&str> {
    request.headers().get("x-amz-target")?.rsplit('.').next()
}

/// Turns a request into a harmless ListTables, so that it never reaches the table.
fn divert(request: &mut HttpRequest) {
    request
        .headers_mut()
        .insert("x-amz-target", "DynamoDB_20120810.ListTables");
    request.headers_mut().insert("content-length", "2");
    *request.body_mut() = SdkBody::from("{}");
}

/// Replaces the engine's answer with DynamoDB's `body` at `status`.
fn answer_with(
    context: &mut BeforeDeserializationInterceptorContextMut<'_>,
    status: u16,
    body: &'static str,
) -> Result<(), BoxError> {
    let mut response = HttpResponse::new(status.try_into()?, SdkBody::from(body));
    response
        .headers_mut()
        .insert("content-type", "application/x-amz-json-1.0");
    *context.response_mut() = response;
    Ok(())
}

impl Intercept for FaultFirst {
    fn name(&self) -> &'static str {
        "FaultFirst"
    }

    fn modify_before_signing(
        &self,
        context: &mut BeforeTransmitInterceptorContextMut<'_>,
        _components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let request = context.request_mut();
        let matches = request.headers().get("x-amz-target").is_some()
            && self
                .operation
                .is_none_or(|op| operation_of(request) == Some(op));
        let inject = matches
            && self
                .remaining
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                .is_ok();
        if inject {
            divert(request);
        }
        cfg.interceptor_state().store_put(Injected(inject));
        Ok(())
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let injected = cfg.load::<Injected>().is_some_and(|i| i.0);
        if !injected {
            return Ok(());
        }
        answer_with(context, 400, self.answer)
    }
}

/// `client` with `interceptor` added (its retry settings kept).
fn intercepted(
    client: &aws_sdk_dynamodb::Client,
    interceptor: impl Intercept + 'static,
) -> aws_sdk_dynamodb::Client {
    let config = client
        .config()
        .to_builder()
        .interceptor(interceptor)
        .build();
    aws_sdk_dynamodb::Client::from_conf(config)
}

/// `client` with an injector: its next `faults` calls of `operation` (any, if `None`) get
/// `answer`. The counter says how many are still to come.
pub fn with_faults(
    client: &aws_sdk_dynamodb::Client,
    operation: Option<&'static str>,
    answer: &'static str,
    faults: u32,
) -> (aws_sdk_dynamodb::Client, Arc<AtomicU32>) {
    let remaining = Arc::new(AtomicU32::new(faults));
    let interceptor = FaultFirst {
        remaining: remaining.clone(),
        operation,
        answer,
    };
    (intercepted(client, interceptor), remaining)
}

/// The writes a rate-based injector picks among.
pub const WRITES: &[&str] = &["PutItem", "UpdateItem", "BatchWriteItem"];

/// How many faults a rate-based injector has injected.
#[derive(Debug, Default)]
pub struct Injections {
    /// Calls that matched (every attempt counts, the SDK's retries too).
    pub calls: AtomicU64,
    /// Answered `ThrottlingException` without reaching the engine.
    pub throttled: AtomicU64,
    /// Applied by the engine, then answered `InternalServerError` (the answer lost).
    pub lost: AtomicU64,
}

/// What befalls one attempt, carried from signing to deserialising.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    Through,
    Throttled,
    Lost,
}

impl Storable for Fate {
    type Storer = StoreReplace<Self>;
}

/// Of the calls of `operations`, every `throttle_every`-th is throttled (it never reaches the
/// engine) and, of the others, every `lose_every`-th is applied and its answer replaced by a
/// 500: the write happened, the caller does not know, and the SDK sends it again.
#[derive(Debug)]
struct FaultEvery {
    operations: &'static [&'static str],
    throttle_every: u64,
    lose_every: u64,
    injections: Arc<Injections>,
    /// Faults only while this is set (always, when there is none).
    on: Option<Arc<std::sync::atomic::AtomicBool>>,
}

impl Intercept for FaultEvery {
    fn name(&self) -> &'static str {
        "FaultEvery"
    }

    fn modify_before_signing(
        &self,
        context: &mut BeforeTransmitInterceptorContextMut<'_>,
        _components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let request = context.request_mut();
        let on = self.on.as_ref().is_none_or(|on| on.load(Ordering::SeqCst));
        let matches = on && operation_of(request).is_some_and(|op| self.operations.contains(&op));
        let fate = if matches {
            let call = self.injections.calls.fetch_add(1, Ordering::SeqCst) + 1;
            if call.is_multiple_of(self.throttle_every) {
                Fate::Throttled
            } else if call.is_multiple_of(self.lose_every) {
                Fate::Lost
            } else {
                Fate::Through
            }
        } else {
            Fate::Through
        };
        if fate == Fate::Throttled {
            divert(request);
        }
        cfg.interceptor_state().store_put(fate);
        Ok(())
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let (status, body) = match cfg.load::<Fate>().copied() {
            Some(Fate::Throttled) => {
                self.injections.throttled.fetch_add(1, Ordering::SeqCst);
                (400u16, THROTTLED)
            }
            // Only an answer saying the write applied is lost (a refusal stays a refusal).
            Some(Fate::Lost) if context.response().status().is_success() => {
                self.injections.lost.fetch_add(1, Ordering::SeqCst);
                (500u16, INTERNAL_ERROR)
            }
            _ => return Ok(()),
        };
        answer_with(context, status, body)
    }
}

/// `client` with a rate-based injector on `operations` (see [`FaultEvery`]), retrying as the
/// SDK's standard mode does but with a short backoff (the test's time is not DynamoDB's) and
/// enough attempts that a call is never unlucky every time. The counts say what was injected.
pub fn with_fault_rates(
    client: &aws_sdk_dynamodb::Client,
    operations: &'static [&'static str],
    throttle_every: u64,
    lose_every: u64,
) -> (aws_sdk_dynamodb::Client, Arc<Injections>) {
    let injections = Arc::new(Injections::default());
    let interceptor = FaultEvery {
        operations,
        throttle_every,
        lose_every,
        injections: injections.clone(),
        on: None,
    };
    let config = client
        .config()
        .to_builder()
        .retry_config(
            RetryConfig::standard()
                .with_max_attempts(6)
                .with_initial_backoff(Duration::from_millis(5)),
        )
        .interceptor(interceptor)
        .build();
    (aws_sdk_dynamodb::Client::from_conf(config), injections)
}

/// `client` whose every `throttle_every`-th call of `operations` is throttled while `on` is
/// set, retrying with the product's own settings (its attempts and its retry partition) but a
/// short backoff (the test's time is not DynamoDB's).
pub fn throttle_while(
    client: &aws_sdk_dynamodb::Client,
    operations: &'static [&'static str],
    throttle_every: u64,
    on: Arc<std::sync::atomic::AtomicBool>,
) -> (aws_sdk_dynamodb::Client, Arc<Injections>) {
    let injections = Arc::new(Injections::default());
    let interceptor = FaultEvery {
        operations,
        throttle_every,
        lose_every: u64::MAX,
        injections: injections.clone(),
        on: Some(on),
    };
    let retries = client
        .config()
        .retry_config()
        .cloned()
        .unwrap_or_else(RetryConfig::standard)
        .with_initial_backoff(Duration::from_millis(5));
    let config = client
        .config()
        .to_builder()
        .retry_config(retries)
        .interceptor(interceptor)
        .build();
    (aws_sdk_dynamodb::Client::from_conf(config), injections)
}

/// Of the calls of `operation`, the next `count` that the engine applies have their answers
/// lost: replaced by a 500 after the engine applied them, as a network cut or a timeout on the
/// way back would. The SDK, with the product's own retry settings, sends each again.
#[derive(Debug)]
struct LoseAnswers {
    operation: &'static str,
    remaining: Arc<AtomicU32>,
}

impl Intercept for LoseAnswers {
    fn name(&self) -> &'static str {
        "LoseAnswers"
    }

    fn modify_before_signing(
        &self,
        context: &mut BeforeTransmitInterceptorContextMut<'_>,
        _components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let matches = operation_of(context.request_mut()) == Some(self.operation);
        cfg.interceptor_state().store_put(Injected(matches));
        Ok(())
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let matches = cfg.load::<Injected>().is_some_and(|i| i.0);
        let applied = context.response().status().is_success();
        if matches
            && applied
            && self
                .remaining
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                .is_ok()
        {
            return answer_with(context, 500, INTERNAL_ERROR);
        }
        Ok(())
    }
}

/// `client` whose next `count` applied calls of `operation` lose their answers (see
/// [`LoseAnswers`]); the counter says how many are still to come.
pub fn lose_answers(
    client: &aws_sdk_dynamodb::Client,
    operation: &'static str,
    count: u32,
) -> (aws_sdk_dynamodb::Client, Arc<AtomicU32>) {
    let remaining = Arc::new(AtomicU32::new(count));
    let interceptor = LoseAnswers {
        operation,
        remaining: remaining.clone(),
    };
    (intercepted(client, interceptor), remaining)
}

/// Every write a product call makes, single or in a transaction.
pub const EVERY_WRITE: &[&str] = &[
    "PutItem",
    "UpdateItem",
    "DeleteItem",
    "BatchWriteItem",
    "TransactWriteItems",
];

/// Which attempt of its call this one is (1 for the first), carried across the SDK's retries.
#[derive(Debug, Clone, Copy)]
struct Attempt(u32);

impl Storable for Attempt {
    type Storer = StoreReplace<Self>;
}

/// Every write's first attempt, when the engine applies it, has its answer lost (a 500): each
/// call is then sent again by the SDK, as on AWS after a cut connection or a timeout, and its
/// copy meets the write already applied. The copies' own answers come back.
#[derive(Debug)]
struct LoseFirstAnswers {
    lost: Arc<AtomicU32>,
}

impl Intercept for LoseFirstAnswers {
    fn name(&self) -> &'static str {
        "LoseFirstAnswers"
    }

    fn read_before_execution(
        &self,
        _context: &BeforeSerializationInterceptorContextRef<'_>,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        cfg.interceptor_state().store_put(Attempt(0));
        Ok(())
    }

    fn modify_before_signing(
        &self,
        context: &mut BeforeTransmitInterceptorContextMut<'_>,
        _components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let attempt = cfg.load::<Attempt>().map_or(0, |a| a.0) + 1;
        cfg.interceptor_state().store_put(Attempt(attempt));
        let write = operation_of(context.request_mut()).is_some_and(|op| EVERY_WRITE.contains(&op));
        cfg.interceptor_state()
            .store_put(Injected(write && attempt == 1));
        Ok(())
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let first_write = cfg.load::<Injected>().is_some_and(|i| i.0);
        if first_write && context.response().status().is_success() {
            self.lost.fetch_add(1, Ordering::SeqCst);
            return answer_with(context, 500, INTERNAL_ERROR);
        }
        Ok(())
    }
}

/// `client` on which every write's first applied answer is lost (see [`LoseFirstAnswers`]),
/// with the product's own retry mode and attempts; the counter says how many answers were lost.
///
/// Its retry quota is a deep one of its own. The SDK's default (a bucket of 500 tokens per
/// partition, shared by every client of the process) takes 14 for each retry of a server error
/// and gives them back only when the retry succeeds: a copy refused by its own write's condition
/// never does, and each success puts back one. Losing every answer, with nothing but refused
/// copies in between, empties it within a few dozen calls; then the SDK stops retrying and the
/// caller gets the error (`docs/table.md`). No network loses answers that densely; the test
/// asks what each write does with its copy, so every copy is sent.
pub fn lose_every_first_answer(
    client: &aws_sdk_dynamodb::Client,
) -> (aws_sdk_dynamodb::Client, Arc<AtomicU32>) {
    use aws_sdk_dynamodb::config::retry::{RetryPartition, TokenBucket};
    let lost = Arc::new(AtomicU32::new(0));
    let interceptor = LoseFirstAnswers { lost: lost.clone() };
    let quota = RetryPartition::custom("lose-every-first-answer")
        .token_bucket(TokenBucket::builder().capacity(10_000_000).build())
        .build();
    let config = client
        .config()
        .to_builder()
        .retry_partition(quota)
        .interceptor(interceptor)
        .build();
    (aws_sdk_dynamodb::Client::from_conf(config), lost)
}
