//! The import graph of the app crate, read from its sources: every `use` and every path that
//! starts at `crate`, `self` or `super` (or at a child module), resolved to the file that
//! defines what it names (through `pub use`). A `pub use` hands names on and is no import of its
//! own; an inline module (`mod server { .. }`) is part of its file.

use std::collections::{BTreeMap, BTreeSet};

use regex::Regex;

use super::{sources_under, Source};

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
        for (path, public, _) in use_paths(&source.text) {
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
        // A glob (`use super::*`) imports the module itself.
        if depth > 4 || module.len() == path.len() || path[module.len()] == "*" {
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
            let nested = inline_modules(&source.text);
            // Where a path is written: the file's module, or an inline module inside it.
            let at = |offset: usize| -> Vec<String> {
                let mut at = module.clone();
                at.extend(
                    nested
                        .iter()
                        .filter(|(start, end, _)| (*start..*end).contains(&offset))
                        .map(|(_, _, name)| name.clone()),
                );
                at
            };
            // A `pub use` hands names on (a module's face): not an import of its own.
            let mut paths: Vec<(Vec<String>, Vec<String>)> = use_paths(&source.text)
                .into_iter()
                .filter(|(_, public, _)| !public)
                .map(|(path, _, offset)| (at(offset), path))
                .collect();
            for found in inline.captures_iter(&source.text) {
                let mut path = vec![found[1].to_owned()];
                path.extend(
                    found[2]
                        .split("::")
                        .filter(|s| !s.is_empty())
                        .map(str::to_owned),
                );
                paths.push((at(found.get(0).unwrap().start()), path));
            }
            for (written_in, path) in paths {
                let Some(absolute) = self.absolute(&written_in, &path) else {
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
fn use_paths(text: &str) -> Vec<(Vec<String>, bool, usize)> {
    let statement = Regex::new(r"(?m)^\s*(pub(\([a-z ]+\))? )?use ([^;]+);").unwrap();
    let mut out = Vec::new();
    for found in statement.captures_iter(text) {
        let public = found.get(1).is_some();
        let offset = found.get(0).unwrap().start();
        let tree = found[3].split_whitespace().collect::<Vec<_>>().join(" ");
        for path in expand(&tree) {
            out.push((path, public, offset));
        }
    }
    out
}

/// The inline modules of a text (`mod name { .. }`): where each starts and ends, and its name.
/// Braces are counted as written (a brace in a string would mislead it; none of ours do).
fn inline_modules(text: &str) -> Vec<(usize, usize, String)> {
    let opening = Regex::new(r"(?m)^\s*(pub(\([a-z ]+\))? )?mod ([a-z_0-9]+) \{").unwrap();
    opening
        .captures_iter(text)
        .map(|found| {
            let start = found.get(0).unwrap().end();
            let mut depth = 1;
            let mut end = text.len();
            for (i, c) in text[start..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = start + i;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            (start, end, found[3].to_owned())
        })
        .collect()
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
        "codec", "browser", "bundle", "i18n", "lang", "error", "ids", "request", "news",
    ],
    &["store", "ui", "share"],
    &["catalog", "identity"],
    &["rooms", "inventory", "decks"],
    &["game", "leaderboards", "suggest"],
    &["live", "profiles", "daily", "reports"],
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
        let files: Vec<String> = circle.iter().map(|m| name(m)).collect();
        println!("circle: {}", files.join(", "));
        for (a, b) in edges
            .iter()
            .filter(|(a, b)| circle.contains(a) && circle.contains(b))
        {
            println!("  {} -> {}", name(a), name(b));
        }
    }
    for up in &upward {
        println!("up: {up}");
    }
    let server = Crate::read("server/src", "main.rs");
    let server_circles = circles(&server.edges());
    for circle in &server_circles {
        println!(
            "circle in server/: {}",
            circle
                .iter()
                .map(|m| name(m))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    assert!(
        file_circles.is_empty() && server_circles.is_empty(),
        "import circles: see above"
    );
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
