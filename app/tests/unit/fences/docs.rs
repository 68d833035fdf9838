//! The code's own docs point at modules and files: a feature's module doc lists its parts
//! (`model`, `store`, `api`, ...), and comments name paths (`game::store::audience`) and files
//! (`live/store/streams.rs`). When a module moves or is renamed, those lines must move with it,
//! or a newcomer reading them is sent nowhere.

use std::collections::BTreeSet;
use std::path::Path;

use regex::Regex;

use super::root;

/// The modules under `dir` (every `.rs` file's stem and every folder, at any depth).
fn modules_under(dir: &Path) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                stack.push(path);
                names.insert(name);
            } else if path.extension().is_some_and(|e| e == "rs") {
                names.insert(name);
            }
        }
    }
    names
}

/// The module `segments` under `src` as a file or folder, if it exists.
fn is_module(src: &Path, segments: &[&str]) -> bool {
    let path = src.join(segments.join("/"));
    path.with_extension("rs").is_file() || path.is_dir()
}

/// Whether the module `segments` under `src` (its file and the files directly in its folder)
/// defines or re-exports an item called `name`.
fn defines(src: &Path, segments: &[&str], name: &str) -> bool {
    let path = src.join(segments.join("/"));
    let mut texts = Vec::new();
    if let Ok(text) = std::fs::read_to_string(path.with_extension("rs")) {
        texts.push(text);
    }
    for entry in std::fs::read_dir(&path).into_iter().flatten().flatten() {
        if entry.path().extension().is_some_and(|e| e == "rs") {
            texts.push(std::fs::read_to_string(entry.path()).unwrap_or_default());
        }
    }
    let item = Regex::new(&format!(
        r"\b(fn|struct|enum|const|static|type|trait|mod|macro_rules!)\s+{0}\b|pub use [^;]*\b{0}\b",
        regex::escape(name)
    ))
    .unwrap();
    texts.iter().any(|text| item.is_match(text))
}

/// Where a module path named in a comment of the file at `file` (under `src`) leads, if
/// anywhere: from the crate's root, or from the file's own feature (`store::x` in a file under
/// `game/` may be `game::store::x`). Every segment a module, save perhaps the last, an item
/// of the module before it.
fn resolves(src: &Path, file: &str, path: &str) -> bool {
    let segments: Vec<&str> = path.trim_start_matches("crate::").split("::").collect();
    let feature = file.split('/').next().unwrap_or("");
    let from_feature: Vec<&str> = std::iter::once(feature)
        .chain(segments.iter().copied())
        .collect();
    let leads = [segments.as_slice(), from_feature.as_slice()]
        .into_iter()
        .any(|segments| {
            for k in 1..=segments.len() {
                if is_module(src, &segments[..k]) {
                    continue;
                }
                let item = segments[k - 1];
                if k == 1 || !defines(src, &segments[..k - 1], item) {
                    return false;
                }
                // An item's own members (`Badge::list`) are not followed; a module's last item is.
                return k == segments.len() || item.starts_with(|c: char| c.is_ascii_uppercase());
            }
            true
        });
    leads
}

/// Every place in `app/src` whose comments name a module, a path or a file that is not there.
fn stale_references() -> Vec<String> {
    let root = root();
    let src = root.join("app/src");
    let top = modules_under(&src)
        .into_iter()
        .filter(|name| is_module(&src, &[name]))
        .collect::<BTreeSet<_>>();
    let listed = Regex::new(r"`([a-z][a-z0-9_]*)`").unwrap();
    let module_path =
        Regex::new(r"`((?:crate::)?[a-z_][a-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)+)").unwrap();
    let file_path = Regex::new(r"`([A-Za-z0-9_/.-]+\.rs)`").unwrap();
    let mut files = Vec::new();
    super::walk(&src, &mut files);
    files.sort();
    let mut stale = Vec::new();
    for path in files {
        let file = path
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&path).unwrap();
        let folder = path.with_extension("");
        // A feature's root (`app/src/<feature>.rs` beside its folder) lists its parts.
        let parts = (!file.contains('/') && folder.is_dir()).then(|| modules_under(&folder));
        let feature_dir = src.join(file.split('/').next().unwrap().trim_end_matches(".rs"));
        for (n, line) in text.lines().enumerate() {
            let comment = line.trim_start();
            if !comment.starts_with("//") {
                continue;
            }
            let at = format!("app/src/{file}:{}", n + 1);
            if let (Some(parts), true) = (&parts, comment.starts_with("//!")) {
                let own = file.trim_end_matches(".rs");
                for found in listed.captures_iter(comment) {
                    let name = &found[1];
                    if !parts.contains(name) && !top.contains(name) && name != own {
                        stale.push(format!("{at}: `{name}` is no module of `{own}`"));
                    }
                }
            }
            for found in module_path.captures_iter(comment) {
                let named = &found[1];
                let first = named.trim_start_matches("crate::").split("::").next();
                let from_crate =
                    named.starts_with("crate::") || first.is_some_and(|f| top.contains(f));
                if from_crate && !resolves(&src, &file, named) {
                    stale.push(format!("{at}: `{named}` leads nowhere"));
                }
            }
            for found in file_path.captures_iter(comment) {
                let named = &found[1];
                let there = [
                    root.join(named),
                    src.join(named),
                    path.parent().unwrap().join(named),
                ]
                .iter()
                .any(|p| p.is_file())
                    || (!named.contains('/') && {
                        let mut in_feature = Vec::new();
                        super::walk(&feature_dir, &mut in_feature);
                        in_feature
                            .iter()
                            .any(|p| p.file_name().is_some_and(|f| f.to_string_lossy() == named))
                    });
                if !there {
                    stale.push(format!("{at}: `{named}` is no file"));
                }
            }
        }
    }
    stale
}

#[test]
fn the_codes_docs_name_only_modules_paths_and_files_that_exist() {
    let stale = stale_references();
    assert!(
        stale.is_empty(),
        "comments that point at nothing:\n{}",
        stale.join("\n")
    );
}

#[test]
fn a_module_path_that_leads_nowhere_is_found() {
    let src = root().join("app/src");
    assert!(resolves(
        &src,
        "game/api.rs",
        "crate::game::store::audience"
    ));
    assert!(resolves(&src, "game/api.rs", "store::audience"));
    assert!(resolves(&src, "game/api.rs", "game::timing::check_tap"));
    assert!(!resolves(&src, "game/api.rs", "game::page"));
    assert!(!resolves(&src, "game/api.rs", "game::timing::no_such_item"));
    assert!(!resolves(&src, "live/api.rs", "live::streams::x"));
    assert!(resolves(
        &src,
        "live/api.rs",
        "crate::inventory::model::Badge::list"
    ));
    assert!(!resolves(
        &src,
        "live/api.rs",
        "crate::inventory::model::NoSuchType::list"
    ));
}
