//! Generates the `i18n` module (the interface's strings in every language, from
//! `app/locales/<locale>/<namespace>.json` as `[package.metadata.leptos-i18n]` lists them) with
//! `leptos_i18n`'s own parser and code generator: what its deprecated `load_locales!` macro
//! does, plus `interpolate_display`, so a translated message with values in it can be a
//! `String` (an error, a title, an attribute) and not only a view. `leptos_i18n_build` would
//! do the same but builds ICU's data exporter (with an HTTP client and a wasm runtime) for
//! every profile; these two crates are the ones the macro is made of.

use std::path::PathBuf;

use leptos_i18n_parser::parse_locales::cfg_file::ConfigFile;
use leptos_i18n_parser::parse_locales::options::{Config, ParseOptions};
use leptos_i18n_parser::parse_locales::parse_locales;

fn main() {
    let mut manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let config_file = ConfigFile::new(&mut manifest_dir).expect("[package.metadata.leptos-i18n]");
    let mut config: Config = config_file.into();
    config.options = ParseOptions::new().interpolate_display(true);
    let parsed = parse_locales(Some(manifest_dir), config).unwrap_or_else(|err| panic!("{err}"));
    println!("cargo::rerun-if-changed=Cargo.toml");
    println!("cargo::rerun-if-changed=locales");
    for file in parsed.tracked_files.iter().flatten() {
        println!("cargo::rerun-if-changed={file}");
    }
    for warning in parsed.diag.warnings().iter() {
        println!("cargo::warning={warning}");
    }
    let errors = parsed.diag.errors();
    if !errors.is_empty() {
        for error in errors.iter() {
            println!("cargo::error={error}");
        }
        return;
    }
    let code = leptos_i18n_codegen::gen_code(&parsed, None, false, None, false)
        .unwrap_or_else(|err| panic!("{err}"));
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("i18n.rs");
    std::fs::write(out, code.to_string()).expect("write the i18n module");
}
