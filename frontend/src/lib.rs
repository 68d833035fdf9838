//! The browser bundle: wakes the islands of a server-rendered page (the loader script in the
//! page's head calls each island's own entry point after this). It is built with panics that
//! trap at once, to keep it small, so there is no panic hook to install.

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    app::wake_islands();
}
