//! The data layer's one error type: DynamoDB failures sorted into what a caller can act on.
//!
//! A failed condition is a [`Conflict`] the feature code turns into a domain answer ("room
//! full"); throttling or an unreachable engine is [`DataError::Unavailable`] (HTTP 503 at the
//! edge); anything else keeps its cause chain for the log and never reaches a player.

use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;

type Cause = Box<dyn std::error::Error + Send + Sync>;

#[derive(Debug, thiserror::Error)]
pub enum DataError {
    #[error("write refused: {0}")]
    Conflict(Conflict),
    #[error("the database is unavailable")]
    Unavailable(#[source] Cause),
    #[error("the pagination cursor is invalid")]
    BadCursor,
    #[error("a stored item could not be decoded")]
    Decode(#[from] serde_dynamo::Error),
    #[error("the database call failed")]
    Internal(#[source] Cause),
}

/// Why a conditional write or a transaction was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Conflict {
    /// A single-item write's condition expression was false.
    #[error("condition check failed")]
    ConditionFailed,
    /// A transaction was cancelled; `reasons[i]` is the code for the i-th action, `None` where
    /// that action was fine. Feature code maps the failing index to a domain conflict.
    #[error("transaction cancelled: {reasons:?}")]
    TransactionCanceled { reasons: Vec<Option<String>> },
    /// Another transaction touched the same items at the same time: safe to retry.
    #[error("transaction conflict")]
    TransactionConflict,
}

impl Conflict {
    /// Index of the first transaction action whose condition check failed.
    pub fn failed_condition(&self) -> Option<usize> {
        match self {
            Conflict::TransactionCanceled { reasons } => reasons
                .iter()
                .position(|r| r.as_deref() == Some("ConditionalCheckFailed")),
            _ => None,
        }
    }
}

impl DataError {
    /// Whether trying the same call again later may succeed.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            DataError::Unavailable(_) | DataError::Conflict(Conflict::TransactionConflict)
        )
    }
}

const UNAVAILABLE_CODES: &[&str] = &[
    "ProvisionedThroughputExceededException",
    "RequestLimitExceeded",
    "ThrottlingException",
    "InternalServerError",
    "ServiceUnavailable",
];

/// Sorts any DynamoDB operation error.
pub(crate) fn classify<E>(err: SdkError<E, HttpResponse>) -> DataError
where
    E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
{
    if matches!(
        err,
        SdkError::TimeoutError(_) | SdkError::DispatchFailure(_) | SdkError::ResponseError(_)
    ) {
        return DataError::Unavailable(err.into());
    }
    match err.code() {
        Some("ConditionalCheckFailedException") => DataError::Conflict(Conflict::ConditionFailed),
        Some("TransactionConflictException") => DataError::Conflict(Conflict::TransactionConflict),
        Some(code) if UNAVAILABLE_CODES.contains(&code) => DataError::Unavailable(err.into()),
        _ => DataError::Internal(err.into()),
    }
}

/// Sorts a TransactWriteItems error, keeping the per-action cancellation reasons.
pub fn classify_transaction(err: SdkError<TransactWriteItemsError, HttpResponse>) -> DataError {
    if let Some(TransactWriteItemsError::TransactionCanceledException(cancelled)) =
        err.as_service_error()
    {
        let reasons: Vec<Option<String>> = cancelled
            .cancellation_reasons()
            .iter()
            .map(|r| r.code().filter(|c| *c != "None").map(str::to_owned))
            .collect();
        let only_conflicts = reasons
            .iter()
            .flatten()
            .all(|code| code == "TransactionConflict");
        if only_conflicts && reasons.iter().any(Option::is_some) {
            return DataError::Conflict(Conflict::TransactionConflict);
        }
        if reasons
            .iter()
            .flatten()
            .any(|code| code == "ThrottlingError" || code == "ProvisionedThroughputExceeded")
        {
            return DataError::Unavailable(err.into());
        }
        return DataError::Conflict(Conflict::TransactionCanceled { reasons });
    }
    classify(err)
}

use crate::error::AppError;
use crate::i18n::td_string;
use crate::lang::locale;

impl From<DataError> for AppError {
    /// Logs the cause chain; the player sees only the category, in the page's language.
    fn from(err: DataError) -> Self {
        let app = match &err {
            DataError::Unavailable(_) => AppError::Unavailable,
            DataError::BadCursor => {
                AppError::BadRequest(td_string!(locale(), common.bad_cursor).to_string())
            }
            DataError::Conflict(_) => {
                AppError::Conflict(td_string!(locale(), common.changed_first).to_string())
            }
            DataError::Decode(_) | DataError::Internal(_) => AppError::Internal,
        };
        if matches!(app, AppError::Internal | AppError::Unavailable) {
            tracing::error!(error = ?err, "data layer failure");
        }
        app
    }
}
