//! `udd-bindgen <wasm> <out dir>`: the browser bundle, split and glued.
//!
//! 1. **Split** at its lazy islands (`#[island(lazy)]`), as cargo-leptos's `--split` does it
//!    (`wasm_split_cli_support`): the main module keeps what every island page needs (Leptos,
//!    hydration, the allocator); each island's own code goes into `split_<island>.wasm`, and code
//!    that several islands share into `chunk_<n>.wasm`, fetched by the link module
//!    (`__wasm_split.<placeholder>.js`) when an island first wakes. `split.json` says which files
//!    each island needs (island loader → file stems, chunks first).
//! 2. **Glue** for the main module, as `wasm-bindgen --target web --no-typescript
//!    --remove-name-section --remove-producers-section --keep-lld-exports --out-name udd` writes
//!    it (the library the CLI runs, at the same version as the `wasm-bindgen` crate the frontend
//!    is built with). The chunks share the main module's table and memory through the exports
//!    `--keep-lld-exports` keeps.
//!
//! The glue and the link module import each other by name, so neither name can be the hash of
//! its own contents alone: both are written with [`PLACEHOLDER`] in place of a hash, and
//! `./udd build` (`package_site` in `scripts/lib.sh`) replaces it with the hash of the two
//! together.

use std::path::{Path, PathBuf};

use anyhow::Context;

/// Sixteen underscores, where `package_site` writes the 16 hex digits of the glue's and the link
/// module's hash (the same length, so the wasm's import names keep their sizes).
const PLACEHOLDER: &str = "________________";

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args_os().skip(1);
    let (Some(input), Some(out_dir), None) = (args.next(), args.next(), args.next()) else {
        anyhow::bail!("usage: udd-bindgen <frontend.wasm> <out dir>");
    };
    let (input, out_dir) = (PathBuf::from(input), PathBuf::from(out_dir));
    let main = split(&input, &out_dir)?;
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&main)
        .web(true)?
        .typescript(false)
        // `UDD_BINDGEN_KEEP_NAMES=1` keeps the functions' names, to see what the bundle spends its
        // bytes on (wasm-opt without `--strip-debug` keeps them through its passes).
        .remove_name_section(std::env::var_os("UDD_BINDGEN_KEEP_NAMES").is_none())
        .remove_producers_section(true)
        .keep_lld_exports(true)
        .demangle(false)
        .out_name("udd")
        .generate(&out_dir)
        .with_context(|| format!("generating the glue for {}", main.display()))?;
    std::fs::remove_file(&main)?;
    Ok(())
}

/// Splits `input` into `out_dir`: the chunks, the link module and `split.json`; returns the
/// main module's path (in `out_dir`, for the glue).
fn split(input: &Path, out_dir: &Path) -> anyhow::Result<PathBuf> {
    let wasm = std::fs::read(input).with_context(|| format!("reading {}", input.display()))?;
    std::fs::create_dir_all(out_dir)?;
    let main = out_dir.join("frontend_split.wasm");
    let main_module = format!("./udd.{PLACEHOLDER}.js");
    let link_name = format!("./__wasm_split.{PLACEHOLDER}.js");
    let mut options = wasm_split_cli_support::Options::new(&wasm);
    options.output_dir = out_dir;
    options.main_out_path = &main;
    options.main_module = &main_module;
    options.link_name = &link_name;
    let split = wasm_split_cli_support::transform(options)
        .map_err(|err| anyhow::anyhow!("splitting {}: {err:#}", input.display()))?;
    // Sorted, so the same bundle writes the same file.
    let files: std::collections::BTreeMap<_, _> = split.prefetch_map.into_iter().collect();
    std::fs::write(out_dir.join("split.json"), serde_json::to_vec(&files)?)?;
    Ok(main)
}
