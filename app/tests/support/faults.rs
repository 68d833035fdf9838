//! Faults the local engines never raise, injected at the SDK with real DynamoDB's wire answers:
//! a client whose next N matching calls are answered with a DynamoDB error instead of reaching
//! the engine. Shared by the data suite (`data/conflicts.rs`) and the HTTP fault tests.

#![allow(dead_code)] // each test binary uses its own part of this

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::config::interceptors::{
    BeforeDeserializationInterceptorContextMut, BeforeTransmitInterceptorContextMut,
};
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
pub const OVER_CAPACITY: &str = r#"{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."}"#;

/// Whether this attempt was turned into a ListTables, carried from signing to deserialising.
#[derive(Debug, Clone)]
struct Injected(bool);

impl Storable for Injected {
    type Storer = StoreReplace<Self>;
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
        let matches = request.headers().get("x-amz-target").is_some_and(|target| {
            self.operation
                .is_none_or(|op| target.rsplit('.').next() == Some(op))
        });
        let inject = matches
            && self
                .remaining
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                .is_ok();
        if inject {
            request
                .headers_mut()
                .insert("x-amz-target", "DynamoDB_20120810.ListTables");
            request.headers_mut().insert("content-length", "2");
            *request.body_mut() = SdkBody::from("{}");
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
        let mut response = HttpResponse::new(400u16.try_into()?, SdkBody::from(self.answer));
        response
            .headers_mut()
            .insert("content-type", "application/x-amz-json-1.0");
        *context.response_mut() = response;
        Ok(())
    }
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
    let config = client
        .config()
        .to_builder()
        .interceptor(interceptor)
        .build();
    (aws_sdk_dynamodb::Client::from_conf(config), remaining)
}
