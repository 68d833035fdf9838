//! `udd-bindgen <wasm> <out dir>`: the browser bundle's JavaScript glue, as
//! `wasm-bindgen --target web --no-typescript --remove-name-section --remove-producers-section
//! --out-name udd` writes it (the library the CLI runs, at the same version as the
//! `wasm-bindgen` crate the frontend is built with).

use std::path::PathBuf;

use anyhow::Context;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args_os().skip(1);
    let (Some(input), Some(out_dir), None) = (args.next(), args.next(), args.next()) else {
        anyhow::bail!("usage: udd-bindgen <frontend.wasm> <out dir>");
    };
    let input = PathBuf::from(input);
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&input)
        .web(true)?
        .typescript(false)
        // `UDD_BINDGEN_KEEP_NAMES=1` keeps the functions' names, to see what the bundle spends its
        // bytes on (wasm-opt without `--strip-debug` keeps them through its passes).
        .remove_name_section(std::env::var_os("UDD_BINDGEN_KEEP_NAMES").is_none())
        .remove_producers_section(true)
        .out_name("udd")
        .generate(PathBuf::from(out_dir))
        .with_context(|| format!("generating the glue for {}", input.display()))
}
