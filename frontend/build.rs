//! The bundle's link keeps its relocations (`--emit-relocs`): the splitter
//! (`wasm_split_cli_support`, run by `udd-bindgen`) follows them to cut the wasm into the chunks
//! of its lazy islands. Only the final link is told, so no dependency is built again.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=--emit-relocs");
    }
}
