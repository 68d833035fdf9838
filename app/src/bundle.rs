//! The browser bundle's file names. `./udd build` names each file after its contents
//! (`udd.<hash>.wasm`) and lists the names in `pkg/assets.txt`, so a browser may keep them for a
//! year (`immutable`, set by [`crate::http`]) and a new build is a new name. Read once, at the
//! first page; a site built without hashing (or none at all, as in the Rust tests) keeps the
//! plain names.

use std::sync::OnceLock;

use leptos::prelude::LeptosOptions;

/// The stylesheet, the bundle's JavaScript and its wasm, as file names inside the site's
/// package directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bundle {
    pub css: String,
    pub js: String,
    pub wasm: String,
}

impl Bundle {
    /// The names a build without hashing writes. `cargo leptos` names the wasm `<name>_bg.wasm`
    /// unless LEPTOS_OUTPUT_NAME was set when the server was built (the project's own build sets
    /// it, as the browser tests do).
    fn plain(name: &str) -> Self {
        let wasm = if option_env!("LEPTOS_OUTPUT_NAME").is_none() {
            format!("{name}_bg.wasm")
        } else {
            format!("{name}.wasm")
        };
        Bundle {
            css: format!("{name}.css"),
            js: format!("{name}.js"),
            wasm,
        }
    }

    /// The plain names with every line of `assets.txt` (`<plain> <hashed>`) applied. Lines that
    /// name another file, or a hashed name that is not a bare file name, are ignored.
    pub fn from_manifest(name: &str, manifest: &str) -> Self {
        let mut bundle = Self::plain(name);
        for line in manifest.lines() {
            let Some((plain, hashed)) = line.trim().split_once(' ') else {
                continue;
            };
            let hashed = hashed.trim();
            if hashed.is_empty()
                || !hashed
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
            {
                continue;
            }
            let extension = plain.rsplit_once('.').map(|(_, e)| e);
            let slot = match extension {
                Some("css") => &mut bundle.css,
                Some("js") => &mut bundle.js,
                Some("wasm") => &mut bundle.wasm,
                _ => continue,
            };
            *slot = hashed.to_owned();
        }
        bundle
    }

    /// This site's names: `<site root>/<pkg dir>/assets.txt`, read once.
    pub fn of(options: &LeptosOptions) -> &'static Bundle {
        static BUNDLE: OnceLock<Bundle> = OnceLock::new();
        BUNDLE.get_or_init(|| {
            let manifest = if cfg!(feature = "ssr") {
                let path = std::path::Path::new(options.site_root.as_ref())
                    .join(options.site_pkg_dir.as_ref())
                    .join("assets.txt");
                std::fs::read_to_string(path).unwrap_or_default()
            } else {
                String::new()
            };
            Self::from_manifest(&options.output_name, &manifest)
        })
    }
}
