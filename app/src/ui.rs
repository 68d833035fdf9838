//! Page pieces every feature's pages share: the form helpers, the not-found page, and the room
//! code a page's address names.

pub mod forms;
pub mod not_found;

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

/// The `code` segment of the page's address (`/r/<CODE>…`), upper-cased as codes are typed;
/// still to be parsed.
pub fn code_param() -> impl Fn() -> String + Copy + Send + Sync + 'static {
    let params = use_params_map();
    move || {
        params
            .read()
            .get("code")
            .unwrap_or_default()
            .to_ascii_uppercase()
    }
}
