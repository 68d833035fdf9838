//! What crosses the wire when something fails: a small enum with a message a player can read
//! and an HTTP status. Internal causes stay on the server, in the log.

use http::StatusCode;
use leptos::server_fn::codec::JsonEncoding;
use leptos::server_fn::error::{FromServerFnError, ServerFnErrorErr};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AppError {
    BadRequest(String),
    NotFound(String),
    Conflict(String),
    SignInRequired,
    Forbidden(String),
    RateLimited,
    Unavailable,
    Internal,
    /// The request itself failed on its way (network, encoding): not an answer from the game.
    Transport(String),
}

impl AppError {
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::Conflict(_) => StatusCode::CONFLICT,
            AppError::SignInRequired => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            AppError::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Internal | AppError::Transport(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl AppError {
    /// The message in the language of the page being rendered (see `crate::lang`): what pages
    /// and islands show. The messages that carry a text were written in the request's language
    /// by the server; the others are worded here. `Display` is the English, for logs and for
    /// plain HTTP answers.
    pub fn localized(&self) -> String {
        self.in_language(crate::lang::locale())
    }

    fn in_language(&self, l: crate::lang::Locale) -> String {
        use crate::i18n::td_string;
        match self {
            AppError::BadRequest(message)
            | AppError::NotFound(message)
            | AppError::Conflict(message)
            | AppError::Forbidden(message) => message.clone(),
            AppError::SignInRequired => td_string!(l, common.sign_in_required).to_string(),
            AppError::RateLimited => td_string!(l, common.rate_limited).to_string(),
            AppError::Unavailable => td_string!(l, common.unavailable).to_string(),
            AppError::Internal => td_string!(l, common.internal).to_string(),
            AppError::Transport(cause) => {
                td_string!(l, common.transport, cause = cause.as_str()).to_string()
            }
        }
    }
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.in_language(crate::lang::Locale::en))
    }
}

impl std::error::Error for AppError {}

impl From<crate::ids::Invalid> for AppError {
    fn from(invalid: crate::ids::Invalid) -> Self {
        AppError::BadRequest(invalid.0)
    }
}

impl FromServerFnError for AppError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        let error = match value {
            ServerFnErrorErr::Args(msg) | ServerFnErrorErr::MissingArg(msg) => {
                AppError::BadRequest(msg)
            }
            // On the server these are the request's fault: a body too large or unreadable.
            #[cfg(feature = "ssr")]
            ServerFnErrorErr::Request(_) | ServerFnErrorErr::Deserialization(_) => {
                AppError::BadRequest(
                    crate::i18n::td_string!(crate::lang::locale(), common.unreadable_request)
                        .to_string(),
                )
            }
            other => AppError::Transport(other.to_string()),
        };
        #[cfg(feature = "ssr")]
        let error = error.with_status();
        error
    }
}

/// A server function's typed argument read from a page's address before the call: refused as
/// a malformed argument is (400, the same words, the status set on the page's response), and
/// the server function is not called.
pub fn from_address<T, E: Into<AppError>>(parsed: Result<T, E>) -> Result<T, AppError> {
    parsed.map_err(|refused| {
        let error: AppError = refused.into();
        #[cfg(feature = "ssr")]
        let error = error.with_status();
        error
    })
}

/// `err` as the player sees it, with its status set on the response: for helpers that answer
/// outside a server function's [`answer`].
#[cfg(feature = "ssr")]
pub fn fail(err: impl Into<AppError>) -> AppError {
    err.into().with_status()
}

/// Runs the body of the server function `name`: in a span of its own, named after it, in which
/// the player is recorded once their session is read (`identity::session::current_user`); no
/// argument is recorded, so a password or a token never reaches the log. A failure is logged in
/// that span and its status set on the response, once: the body converts errors with `?` alone.
#[cfg(feature = "ssr")]
pub async fn answer<T>(
    name: &'static str,
    body: impl std::future::Future<Output = Result<T, AppError>>,
) -> Result<T, AppError> {
    use tracing::Instrument;
    let span = tracing::info_span!("server_fn", name, player = tracing::field::Empty);
    // On the heap: a page that calls server functions while it renders nests their futures,
    // and a body kept inline would carry its whole state in each one's (stack overflows seen).
    let result = Box::pin(body.instrument(span.clone())).await;
    result.map_err(|err| {
        span.in_scope(|| {
            tracing::debug!(status = err.status().as_u16(), error = %err, "refused");
        });
        err.with_status()
    })
}

#[cfg(feature = "ssr")]
mod server {
    use super::AppError;

    impl axum::response::IntoResponse for AppError {
        /// For plain axum handlers: the status and the player-facing message as text.
        fn into_response(self) -> axum::response::Response {
            (self.status(), self.to_string()).into_response()
        }
    }

    impl AppError {
        /// Sets this error's status on the current server-function or page response.
        /// Not for a plain HTML form post: the server sends that browser back to the form's
        /// page with a redirect (the error in its URL), and an error status would cancel it.
        pub fn with_status(self) -> Self {
            use leptos::prelude::use_context;
            let form_post = use_context::<http::request::Parts>().is_some_and(|parts| {
                parts.method == http::Method::POST
                    && parts
                        .headers
                        .get(http::header::ACCEPT)
                        .and_then(|v| v.to_str().ok())
                        .is_some_and(|accept| accept.contains("text/html"))
            });
            if !form_post {
                if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
                    response.set_status(self.status());
                }
            }
            self
        }
    }
}
