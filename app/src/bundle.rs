//! The browser bundle's file names. `./udd build` names each file after its contents
//! (`udd.<hash>.wasm`) and lists the names in `pkg/assets.txt`, so a browser may keep them for a
//! year (`immutable`, set by [`crate::http`]) and a new build is a new name. Read once, at the
//! first page; a site built without hashing (or none at all, as in the Rust tests) keeps the
//! plain names.

use std::sync::OnceLock;

use leptos::prelude::LeptosOptions;

/// The stylesheet, the bundle's JavaScript and its wasm, as file names inside the site's
/// package directory; and the split bundle's link module and lazy islands' chunks.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Bundle {
    pub css: String,
    pub js: String,
    pub wasm: String,
    /// The link module that fetches the lazy islands' chunks (`__wasm_split.<hash>.js`), when the
    /// bundle is split.
    pub link: Option<String>,
    /// Each lazy island's loader (`live_room_loader_<n>`) and the chunks' file stems it fetches,
    /// shared chunks first (`split.json`, written by `udd-bindgen`).
    pub splits: std::collections::BTreeMap<String, Vec<String>>,
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
            ..Bundle::default()
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
            let plain = plain.trim();
            if plain == LINK {
                bundle.link = Some(hashed.to_owned());
                continue;
            }
            let slot = match plain
                .strip_prefix(name)
                .and_then(|rest| rest.strip_prefix('.'))
            {
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
            let mut bundle = Self::from_manifest(&options.output_name, &manifest);
            if cfg!(feature = "ssr") {
                let path = std::path::Path::new(options.site_root.as_ref())
                    .join(options.site_pkg_dir.as_ref())
                    .join("split.json");
                if let Ok(split) = std::fs::read(path) {
                    bundle.splits = serde_json::from_slice(&split).unwrap_or_default();
                }
            }
            bundle
        })
    }
}

/// The link module's plain name in `assets.txt`.
const LINK: &str = "__wasm_split.js";

impl Bundle {
    /// Each lazy island by its name as pages write it (`LiveRoom`, before the `_<hash>` of
    /// `data-component`) and the chunks it fetches (see [`Bundle::chunks_of`]).
    pub fn islands(&self) -> std::collections::BTreeMap<String, Vec<String>> {
        self.splits
            .keys()
            .filter_map(|loader| Some(loader.split_once("_loader_")?.0))
            .map(|island| (camel(island), self.chunks_of(island)))
            .collect()
    }

    /// The chunks (file names in the package directory) the lazy island `island` (its function's
    /// name in snake case, `live_room`) fetches when it first wakes, shared chunks first; none
    /// when the bundle is not split.
    pub fn chunks_of(&self, island: &str) -> Vec<String> {
        let prefix = format!("{island}_loader_");
        self.splits
            .iter()
            .filter(|(loader, _)| loader.starts_with(&prefix))
            .flat_map(|(_, stems)| stems.iter().map(|stem| format!("{stem}.wasm")))
            .collect()
    }
}

/// `live_room` as `LiveRoom`: an island's function name from its loader's snake-case one.
pub fn camel(snake: &str) -> String {
    snake
        .split('_')
        .map(|word| {
            let mut letters = word.chars();
            letters.next().map_or_else(String::new, |first| {
                first.to_uppercase().chain(letters).collect::<String>()
            })
        })
        .collect()
}
