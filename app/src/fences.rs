//! The house's fences: tests that read the sources of `app` and `server` and fail when a rule of
//! the layout is broken. Every key is built in `store::keys`; only store modules build requests
//! to the table; `Db` gains methods only in the store core (a feature adds the one accessor of its
//! handle, through `store::handle!`); no file is over 600 lines; no two files import each other
//! round a circle, and the top-level modules stand in layers. `cargo test -p app --features ssr
//! --lib fences -- --nocapture` prints the import graph's figures.
//!
//! Test code is not read (files named `tests.rs` and `#[cfg(test)] mod` blocks): a test's oracle
//! may spell a key out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use regex::Regex;

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("app/ is in the workspace")
        .to_path_buf()
}

/// One source file: its path from the workspace root and its text without test code.
struct Source {
    path: String,
    text: String,
    lines: usize,
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The text before a file's first `#[cfg(test)]` module, and with whole-line comments blanked
/// (their quotes and paths are prose).
fn without_tests(text: &str) -> String {
    let cut = Regex::new(r"(?m)^#\[cfg\(test\)\]\s*\n(pub(\(crate\))? )?mod \w+ \{").unwrap();
    let code = match cut.find(text) {
        Some(found) => &text[..found.start()],
        None => text,
    };
    code.lines()
        .map(|line| {
            if line.trim_start().starts_with("//") {
                ""
            } else {
                line
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn sources_under(dirs: &[&str]) -> Vec<Source> {
    let root = root();
    let mut files = Vec::new();
    for dir in dirs {
        walk(&root.join(dir), &mut files);
    }
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let raw = std::fs::read_to_string(&path).expect("a source file reads");
            let rel = path
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let is_test = rel.ends_with("/tests.rs") || rel.contains("/tests/");
            Source {
                lines: raw.lines().count(),
                text: if is_test {
                    String::new()
                } else {
                    without_tests(&raw)
                },
                path: rel,
            }
        })
        .collect()
}

fn sources() -> Vec<Source> {
    sources_under(&["app/src", "server/src", "frontend/src"])
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].matches('\n').count() + 1
}

// ---------------------------------------------------------------------------------------------
// Keys

/// Whether a file is the key map.
fn is_key_map(path: &str) -> bool {
    path == "app/src/store/keys.rs" || path.starts_with("app/src/store/keys/")
}

/// The string literals of a text, with where each starts.
fn literals(text: &str) -> Vec<(usize, String)> {
    // Character literals of a quote would open a string: take them out first (same length).
    let text = text.replace("'\"'", "'_'").replace("'\\\"'", "'__'");
    let literal = Regex::new(r#""((?:[^"\\]|\\.)*)""#).unwrap();
    literal
        .captures_iter(&text)
        .map(|c| (c.get(0).unwrap().start(), c[1].to_owned()))
        .collect()
}

/// The key words of the key map: how each of its literals starts (`ROOM#`, `META`, `sign-in#`).
fn key_words(map: &[&Source]) -> BTreeSet<String> {
    let word = Regex::new(r"^([A-Za-z][A-Za-z0-9_-]*#|[A-Z][A-Z0-9_]{2,}$)").unwrap();
    map.iter()
        .flat_map(|source| literals(&source.text))
        .filter_map(|(_, text)| word.captures(&text).map(|c| c[1].to_owned()))
        .collect()
}

/// The literals of `source` that spell a key word: a key built outside the key map.
fn stray_keys(source: &Source, words: &BTreeSet<String>) -> Vec<String> {
    literals(&source.text)
        .into_iter()
        .filter(|(_, text)| {
            words.iter().any(|word| {
                if word.ends_with('#') {
                    text.starts_with(word.as_str())
                } else {
                    text == word
                }
            })
        })
        .map(|(at, text)| format!("{}:{}: \"{text}\"", source.path, line_of(&source.text, at)))
        .collect()
}

#[test]
fn keys_are_built_only_in_the_key_map() {
    let all = sources();
    let map: Vec<&Source> = all.iter().filter(|s| is_key_map(&s.path)).collect();
    let words = key_words(&map);
    // The map's own words, as a floor: a reading that found none would pass anything.
    for word in [
        "ROOM#",
        "USER#",
        "LB#",
        "INV#",
        "RATE#",
        "N#",
        "sign-in#",
        "INSTANCES",
    ] {
        assert!(
            words.contains(word),
            "the key map's words lack {word}: {words:?}"
        );
    }
    let stray: Vec<String> = all
        .iter()
        .filter(|s| !is_key_map(&s.path))
        .flat_map(|s| stray_keys(s, &words))
        .collect();
    assert!(
        stray.is_empty(),
        "keys built outside app/src/store/keys.rs (build them there, from typed inputs):\n{}",
        stray.join("\n")
    );
}

#[test]
fn a_key_spelt_outside_the_map_is_found() {
    let words = BTreeSet::from(["ROOM#".to_owned(), "STATS".to_owned()]);
    let source = |text: &str| Source {
        path: "app/src/x.rs".into(),
        text: text.into(),
        lines: 1,
    };
    let stray = stray_keys(
        &source("let pk = format!(\"ROOM#{code}\");\nlet sk = \"STATS\";"),
        &words,
    );
    assert_eq!(
        stray,
        [
            "app/src/x.rs:1: \"ROOM#{code}\"",
            "app/src/x.rs:2: \"STATS\""
        ]
    );
    assert!(stray_keys(&source("let a = \"rooms\"; let b = \"STATS_X\";"), &words).is_empty());
}

// ---------------------------------------------------------------------------------------------
// Requests to the table

/// Whether a file is a store module: the core (`app/src/store/`) or a feature's store
/// (`app/src/<feature>/store.rs` and `app/src/<feature>/store/`).
fn is_store_module(path: &str) -> bool {
    let store = Regex::new(r"^app/src/(store/|[a-z_]+/store\.rs$|[a-z_]+/store/)").unwrap();
    store.is_match(path)
}

/// The places in `source` that build a request to the table with the SDK's builders.
fn table_requests(source: &Source) -> Vec<String> {
    let request = Regex::new(concat!(
        r"(?s)\.(update|condition|key_condition|filter|projection)_expression\(",
        r"|\.expression_attribute_(names|values)\(",
        r"|\bclient\s*\.\s*(put_item|get_item|update_item|delete_item|query|scan|transact_write_items",
        r"|transact_get_items|batch_get_item|batch_write_item|describe_table|describe_time_to_live",
        r"|create_table|update_time_to_live|update_table)\(\)",
        r"|\b(Put|Update|Delete|ConditionCheck|TransactWriteItem|KeysAndAttributes|WriteRequest",
        r"|PutRequest|DeleteRequest)::builder\(",
    ))
    .unwrap();
    request
        .find_iter(&source.text)
        .map(|found| {
            format!(
                "{}:{}: {}",
                source.path,
                line_of(&source.text, found.start()),
                found.as_str().split_whitespace().collect::<String>()
            )
        })
        .collect()
}

#[test]
fn only_store_modules_build_requests_to_the_table() {
    let all = sources();
    let found: Vec<String> = all
        .iter()
        .filter(|s| is_store_module(&s.path))
        .flat_map(table_requests)
        .collect();
    assert!(
        found.len() > 100,
        "the reading found {} requests in the stores",
        found.len()
    );
    let outside: Vec<String> = all
        .iter()
        .filter(|s| !is_store_module(&s.path))
        .flat_map(table_requests)
        .collect();
    assert!(
        outside.is_empty(),
        "requests built outside the store modules (name the access pattern in the feature's \
         store and call it):\n{}",
        outside.join("\n")
    );
}

#[test]
fn a_request_built_outside_a_store_is_found() {
    let source = Source {
        path: "app/src/game/api.rs".into(),
        text: "db.client\n    .update_item()\n    .update_expression(\"SET a = :a\")".into(),
        lines: 3,
    };
    assert_eq!(table_requests(&source).len(), 2);
    assert!(!is_store_module(&source.path));
    assert!(is_store_module("app/src/game/store.rs"));
    assert!(is_store_module("app/src/game/store/taps.rs"));
    assert!(is_store_module("app/src/store/db.rs"));
}

#[test]
fn db_gains_methods_only_in_the_store_core_and_each_feature_has_one_handle() {
    let all = sources();
    let impl_db =
        Regex::new(r"(?m)^\s*impl(<[^>]*>)?\s+((crate|app)::)?(store::)?Db\s*\{").unwrap();
    let outside: Vec<String> = all
        .iter()
        .filter(|s| !s.path.starts_with("app/src/store/"))
        .flat_map(|s| {
            impl_db
                .find_iter(&s.text)
                .map(|f| format!("{}:{}", s.path, line_of(&s.text, f.start())))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        outside.is_empty(),
        "`impl Db` outside app/src/store/ (put the access pattern on the feature's handle):\n{}",
        outside.join("\n")
    );
    let handle = Regex::new(r"store::handle!\(").unwrap();
    let mut handles: BTreeMap<String, usize> = BTreeMap::new();
    for source in &all {
        let count = handle.find_iter(&source.text).count();
        if count > 0 {
            let feature = source.path.split('/').nth(2).unwrap_or_default().to_owned();
            *handles.entry(feature).or_default() += count;
        }
    }
    let features = [
        "catalog",
        "game",
        "identity",
        "inventory",
        "leaderboards",
        "live",
        "profiles",
        "rooms",
    ];
    for feature in features {
        assert_eq!(
            handles.get(feature),
            Some(&1),
            "the feature {feature} has {:?} store handles, not one",
            handles.get(feature)
        );
    }
    assert_eq!(handles.len(), features.len(), "handles: {handles:?}");
}

#[test]
fn no_source_file_is_over_600_lines() {
    let long: Vec<String> = sources()
        .iter()
        .filter(|s| s.lines > 600)
        .map(|s| format!("{} ({} lines)", s.path, s.lines))
        .collect();
    assert!(
        long.is_empty(),
        "files over 600 lines:\n{}",
        long.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// Imports

/// The app crate's files by module path (`[]` is `lib.rs`, `["rooms", "store"]` is
/// `rooms/store.rs`), read whole (test modules too are left out).
struct Crate {
    files: BTreeMap<Vec<String>, Source>,
}

impl Crate {
    fn read(dir: &str, root_file: &str) -> Crate {
        let mut files = BTreeMap::new();
        for source in sources_under(&[dir]) {
            let rel = source
                .path
                .strip_prefix(&format!("{dir}/"))
                .unwrap()
                .to_owned();
            if rel.ends_with("tests.rs") || rel.contains("/tests/") {
                continue;
            }
            let module: Vec<String> = if rel == root_file {
                Vec::new()
            } else {
                rel.trim_end_matches(".rs")
                    .split('/')
                    .map(str::to_owned)
                    .collect()
            };
            files.insert(module, source);
        }
        Crate { files }
    }

    /// The names a file takes from `pub use` of a child (`pub use model::*` or
    /// `pub use db::{Db, Item}`), each with the module it comes from; a glob maps `*`.
    fn re_exports(&self, module: &[String]) -> Vec<(String, Vec<String>)> {
        let source = &self.files[module];
        let mut out = Vec::new();
        for (path, public) in use_paths(&source.text) {
            if !public {
                continue;
            }
            if let Some(target) = self.absolute(module, &path) {
                if let Some((name, from)) = target.split_last() {
                    out.push((name.clone(), from.to_vec()));
                }
            }
        }
        out
    }

    /// `path` as written in `module`, from the crate root; `None` for another crate's.
    fn absolute(&self, module: &[String], path: &[String]) -> Option<Vec<String>> {
        let mut at: Vec<String> = module.to_vec();
        let mut rest = path;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                at.clear();
                rest = &rest[1..];
            }
            Some("self") => rest = &rest[1..],
            Some("super") => {
                while rest.first().map(String::as_str) == Some("super") {
                    at.pop();
                    rest = &rest[1..];
                }
            }
            Some(first) => {
                let mut child = module.to_vec();
                child.push(first.to_owned());
                if !self.files.contains_key(&child) {
                    return None;
                }
            }
            None => return None,
        }
        at.extend(rest.iter().cloned());
        Some(at)
    }

    /// The file that defines what `path` (from the root) names, following re-exports.
    fn resolve(&self, path: &[String], depth: u32) -> Option<Vec<String>> {
        let mut module = path.to_vec();
        while !self.files.contains_key(&module) {
            module.pop()?;
        }
        if depth > 4 || module.len() == path.len() {
            return Some(module);
        }
        let name = &path[module.len()];
        for (exported, from) in self.re_exports(&module) {
            if &exported == name {
                let mut next = from.clone();
                next.push(name.clone());
                return self.resolve(&next, depth + 1).or(Some(module));
            }
            if exported == "*" {
                let mut child = from.clone();
                child.push(name.clone());
                if let Some(found) = self.resolve(&child, depth + 1) {
                    if found != module && self.defines(&found, name) {
                        return Some(found);
                    }
                }
                if self.files.contains_key(&from) && self.defines(&from, name) {
                    return Some(from);
                }
            }
        }
        Some(module)
    }

    fn defines(&self, module: &[String], name: &str) -> bool {
        let Some(source) = self.files.get(module) else {
            return false;
        };
        let definition = Regex::new(&format!(
            r"(?m)^\s*(pub(\([a-z ]+\))? )?(async )?(struct|enum|fn|const|type|trait|static|mod|macro_rules!) ?{}\b",
            regex::escape(name)
        ))
        .unwrap();
        definition.is_match(&source.text)
    }

    /// Every import of one file by another: (importer, imported).
    fn edges(&self) -> BTreeSet<(Vec<String>, Vec<String>)> {
        let inline = Regex::new(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)").unwrap();
        let mut edges = BTreeSet::new();
        for (module, source) in &self.files {
            // A `pub use` hands names on (a module's face): not an import of its own.
            let mut paths: Vec<Vec<String>> = use_paths(&source.text)
                .into_iter()
                .filter(|(_, public)| !public)
                .map(|(p, _)| p)
                .collect();
            for found in inline.captures_iter(&source.text) {
                let mut path = vec![found[1].to_owned()];
                path.extend(
                    found[2]
                        .split("::")
                        .filter(|s| !s.is_empty())
                        .map(str::to_owned),
                );
                paths.push(path);
            }
            for path in paths {
                let Some(absolute) = self.absolute(module, &path) else {
                    continue;
                };
                if let Some(target) = self.resolve(&absolute, 0) {
                    if &target != module {
                        edges.insert((module.clone(), target));
                    }
                }
            }
        }
        edges
    }
}

/// The paths of a text's `use` declarations, expanded (`use a::{b, c::d}` is `a::b`, `a::c::d`),
/// each with whether it is a `pub` one.
fn use_paths(text: &str) -> Vec<(Vec<String>, bool)> {
    let statement = Regex::new(r"(?m)^\s*(pub(\([a-z ]+\))? )?use ([^;]+);").unwrap();
    let mut out = Vec::new();
    for found in statement.captures_iter(text) {
        let public = found.get(1).is_some();
        let tree = found[3].split_whitespace().collect::<Vec<_>>().join(" ");
        for path in expand(&tree) {
            out.push((path, public));
        }
    }
    out
}

fn expand(tree: &str) -> Vec<Vec<String>> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or(tree);
        return vec![path
            .split("::")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()];
    };
    let prefix: Vec<String> = tree[..open]
        .split("::")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    let mut out = Vec::new();
    for part in parts.into_iter().map(str::trim).filter(|p| !p.is_empty()) {
        for rest in expand(part) {
            let mut path = prefix.clone();
            if rest.first().map(String::as_str) != Some("self") {
                path.extend(rest);
            }
            out.push(path);
        }
    }
    out
}

/// The strongly connected groups of more than one node (Tarjan).
fn circles<N: Ord + Clone>(edges: &BTreeSet<(N, N)>) -> Vec<Vec<N>> {
    let mut graph: BTreeMap<N, Vec<N>> = BTreeMap::new();
    for (a, b) in edges {
        graph.entry(a.clone()).or_default().push(b.clone());
        graph.entry(b.clone()).or_default();
    }
    struct State<N> {
        index: BTreeMap<N, usize>,
        low: BTreeMap<N, usize>,
        stack: Vec<N>,
        on_stack: BTreeSet<N>,
        next: usize,
        out: Vec<Vec<N>>,
    }
    fn visit<N: Ord + Clone>(node: &N, graph: &BTreeMap<N, Vec<N>>, st: &mut State<N>) {
        st.index.insert(node.clone(), st.next);
        st.low.insert(node.clone(), st.next);
        st.next += 1;
        st.stack.push(node.clone());
        st.on_stack.insert(node.clone());
        for next in &graph[node] {
            if !st.index.contains_key(next) {
                visit(next, graph, st);
                let low = st.low[node].min(st.low[next]);
                st.low.insert(node.clone(), low);
            } else if st.on_stack.contains(next) {
                let low = st.low[node].min(st.index[next]);
                st.low.insert(node.clone(), low);
            }
        }
        if st.low[node] == st.index[node] {
            let mut group = Vec::new();
            while let Some(top) = st.stack.pop() {
                st.on_stack.remove(&top);
                let done = &top == node;
                group.push(top);
                if done {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                st.out.push(group);
            }
        }
    }
    let mut st = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for node in graph.keys() {
        if !st.index.contains_key(node) {
            visit(node, &graph, &mut st);
        }
    }
    st.out
}

fn name(module: &[String]) -> String {
    if module.is_empty() {
        "lib".to_owned()
    } else {
        module.join("/")
    }
}

/// The app's top-level modules, lowest first: each may import the ones in its own layer and
/// those below, never one above.
const LAYERS: &[&[&str]] = &[
    &[
        "codec", "browser", "bundle", "i18n", "lang", "error", "ids", "request",
    ],
    &["store", "ui"],
    &["catalog", "identity"],
    &["rooms", "inventory"],
    &["game", "leaderboards"],
    &["live", "profiles", "share"],
    &["http", "shell"],
    &["lib"],
];

fn layer(top: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&top))
}

#[test]
fn the_imports_run_round_no_circle_and_down_the_layers() {
    let app = Crate::read("app/src", "lib.rs");
    let edges = app.edges();
    assert!(
        edges.len() > 300,
        "the reading found {} imports",
        edges.len()
    );
    let file_circles = circles(&edges);
    let tops: BTreeSet<(String, String)> = edges
        .iter()
        .map(|(a, b)| {
            let top = |m: &Vec<String>| m.first().cloned().unwrap_or_else(|| "lib".to_owned());
            (top(a), top(b))
        })
        .filter(|(a, b)| a != b)
        .collect();
    let unplaced: Vec<&String> = tops
        .iter()
        .flat_map(|(a, b)| [a, b])
        .filter(|top| layer(top).is_none())
        .collect();
    assert!(unplaced.is_empty(), "modules in no layer: {unplaced:?}");
    let upward: Vec<String> = edges
        .iter()
        .filter_map(|(a, b)| {
            let top = |m: &Vec<String>| m.first().cloned().unwrap_or_else(|| "lib".to_owned());
            (layer(&top(a)) < layer(&top(b))).then(|| format!("{} -> {}", name(a), name(b)))
        })
        .collect();
    println!(
        "imports between files: {}; circles: {}; imports up the layers: {}",
        edges.len(),
        file_circles.len(),
        upward.len()
    );
    for circle in &file_circles {
        println!(
            "circle: {}",
            circle
                .iter()
                .map(|m| name(m))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    for up in &upward {
        println!("up: {up}");
    }
    assert!(file_circles.is_empty(), "import circles: see above");
    assert!(
        upward.len() <= 5,
        "{} imports run up the layers: see above",
        upward.len()
    );
}

#[test]
fn a_circle_of_imports_is_found() {
    let edges = BTreeSet::from([(1, 2), (2, 3), (3, 1), (3, 4), (5, 5)]);
    assert_eq!(circles(&edges), vec![vec![1, 2, 3]]);
    assert_eq!(
        expand("crate::{a::{b, c}, d::e as f}"),
        vec![
            vec!["crate", "a", "b"],
            vec!["crate", "a", "c"],
            vec!["crate", "d", "e"]
        ]
    );
}
