//! What the pages' forms share: the error a plain form post came back with (the server
//! redirects a failed no-JavaScript post back to the page with the error in the URL; this
//! shows it, when the server sealed it for this browser: see `http::form_errors`).

use leptos::prelude::*;
use leptos::server::ServerActionError;
use leptos::server_fn::error::ServerFnUrlError;

use crate::error::AppError;

/// The message of a failed plain form post to one of `paths` (server-function paths such as
/// `/api/rooms/kick`), when this page is where the server sent the browser back to.
#[component]
pub fn FormError(paths: &'static [&'static str]) -> impl IntoView {
    form_error(paths)
        .map(|m| view! { <p class="error" role="alert" data-testid="form-error">{m}</p> })
}

/// The message [`FormError`] shows, for a page that shows it elsewhere (beside a field).
pub fn form_error(paths: &[&str]) -> Option<String> {
    use_context::<ServerActionError>()
        .filter(|err| paths.contains(&err.path()) && sealed_here(err))
        .map(|err| ServerFnUrlError::<AppError>::decode_err(err.err()).localized())
}

/// Whether the form-error layer checked this very error's seal on this request (it takes an
/// unsealed one out of the address before the page sees it; this holds if anything else
/// provided one).
#[cfg(feature = "ssr")]
fn sealed_here(err: &ServerActionError) -> bool {
    use_context::<http::request::Parts>()
        .and_then(|parts| {
            parts
                .extensions
                .get::<crate::request::CheckedFormError>()
                .cloned()
        })
        .is_some_and(|checked| *checked.path == *err.path() && *checked.err == *err.err())
}

/// Pages render on the server; in the browser no error from an address is shown.
#[cfg(not(feature = "ssr"))]
fn sealed_here(_: &ServerActionError) -> bool {
    false
}

/// Sends a plain form post (a browser asking for HTML) on to `path`; the server function
/// client (JavaScript) reads the function's answer instead.
#[cfg(feature = "ssr")]
pub fn redirect_page(path: &str) {
    let html = use_context::<http::request::Parts>().is_some_and(|parts| {
        parts
            .headers
            .get(http::header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("text/html"))
    });
    if html {
        leptos_axum::redirect(path);
    }
}
