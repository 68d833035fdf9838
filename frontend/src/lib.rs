//! The browser bundle: hydrates the server-rendered page into the Leptos app. (It is built with
//! panics that trap at once, to keep it small, so there is no panic hook to install.)

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    leptos::mount::hydrate_body(app::App);
}
