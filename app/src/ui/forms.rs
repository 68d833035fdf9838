//! What the pages' forms share: the error a plain form post came back with (the server
//! redirects a failed no-JavaScript post back to the page with the error in the URL; this
//! shows it).

use leptos::prelude::*;
use leptos::server::ServerActionError;
use leptos::server_fn::error::ServerFnUrlError;

use crate::error::AppError;

/// The message of a failed plain form post to one of `paths` (server-function paths such as
/// `/api/rooms/kick`), when this page is where the server sent the browser back to.
#[component]
pub fn FormError(paths: &'static [&'static str]) -> impl IntoView {
    let message = use_context::<ServerActionError>()
        .filter(|err| paths.contains(&err.path()))
        .map(|err| ServerFnUrlError::<AppError>::decode_err(err.err()).localized());
    message.map(|m| view! { <p class="error" role="alert" data-testid="form-error">{m}</p> })
}
