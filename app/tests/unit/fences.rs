//! The house's fences: tests that read the sources of `app` and `server` and fail when a rule of
//! the layout is broken. Every key is built in `store::keys`; only store modules build requests
//! to the table, and their expressions only through the builder (`store::expr`); `Db` gains methods only in the store core (a feature adds the one accessor of its
//! handle, through `store::handle!`); no file is over 600 lines; no two files import each other
//! round a circle, and the top-level modules stand in layers. `cargo test -p app --features ssr
//! --test unit fences -- --nocapture` prints the import graph's figures.
//!
//! Test code is not read (files named `tests.rs`, files under a `tests/` folder, such as these
//! fences and the app's unit tests, and `#[cfg(test)] mod` blocks): a test's oracle may spell a
//! key out. Its lines are counted all the same.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use regex::Regex;

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("app/tests/ is in the workspace")
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

/// The text without its `#[cfg(test)]` modules, and with whole-line comments blanked (their
/// quotes and paths are prose).
fn without_tests(text: &str) -> String {
    let opening =
        Regex::new(r"(?m)^\s*#\[cfg\((all\()?test[^\]]*\]\s*\n\s*(pub(\(crate\))? )?mod \w+ \{")
            .unwrap();
    let mut code = String::new();
    let mut from = 0;
    for found in opening.find_iter(text) {
        if found.start() < from {
            continue;
        }
        code.push_str(&text[from..found.start()]);
        // Skip to the module's closing brace.
        let mut depth = 1;
        let mut end = text.len();
        for (i, c) in text[found.end()..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = found.end() + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        // Keep the line count, so places found after it keep their line numbers.
        code.push_str(&"\n".repeat(text[found.start()..end].matches('\n').count()));
        from = end;
    }
    code.push_str(&text[from.min(text.len())..]);
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
    let read: Vec<(String, String)> = files
        .into_iter()
        .map(|path| {
            let raw = std::fs::read_to_string(&path).expect("a source file reads");
            let rel = path
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, raw)
        })
        .collect();
    // Files of modules declared for tests only (`#[cfg(test)] mod golden;`).
    let test_child =
        Regex::new(r"(?m)^#\[cfg\((all\()?test[^\]]*\]\s*\n(pub(\(crate\))? )?mod (\w+);").unwrap();
    let mut test_files = BTreeSet::new();
    for (rel, raw) in &read {
        let dir = match rel.rsplit_once('/') {
            Some((dir, "lib.rs" | "main.rs")) => dir.to_owned(),
            _ => rel.trim_end_matches(".rs").to_owned(),
        };
        for found in test_child.captures_iter(raw) {
            test_files.insert(format!("{dir}/{}.rs", &found[4]));
        }
    }
    read.into_iter()
        .map(|(rel, raw)| {
            // Test code: test modules' own files, and the test folders (these fences among
            // them: their examples spell out what they look for).
            let is_test =
                rel.ends_with("/tests.rs") || rel.contains("/tests/") || test_files.contains(&rel);
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
/// The key attributes' names (`PK`, `GSI1SK`, ...) are not keys: items name them in their fields.
fn key_words(map: &[&Source]) -> BTreeSet<String> {
    let word = Regex::new(r"^([A-Za-z][A-Za-z0-9_-]*#|[A-Z][A-Z0-9_]{2,}$)").unwrap();
    let attribute = Regex::new(r"^(PK|SK|(GSI|LSI)[0-9]+(PK|SK)?)$").unwrap();
    map.iter()
        .flat_map(|source| literals(&source.text))
        .filter_map(|(_, text)| word.captures(&text).map(|c| c[1].to_owned()))
        .filter(|word| !attribute.is_match(word))
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

/// The places in `source` that write a request's expressions, names or values by hand.
fn hand_written_expressions(source: &Source) -> Vec<String> {
    let written = Regex::new(concat!(
        r"\.(update|condition|key_condition|filter|projection)_expression\(",
        r"|\.expression_attribute_(names|values)\(",
    ))
    .unwrap();
    written
        .find_iter(&source.text)
        .map(|found| {
            format!(
                "{}:{}: {}",
                source.path,
                line_of(&source.text, found.start()),
                found.as_str()
            )
        })
        .collect()
}

#[test]
fn every_expression_is_written_by_the_builder() {
    let found: Vec<String> = sources()
        .iter()
        .filter(|s| s.path != "app/src/store/expr.rs")
        .flat_map(hand_written_expressions)
        .collect();
    assert!(
        found.is_empty(),
        "expressions written by hand (build them with `store::expr`: `Update`, `Cond`, \
         `KeyCond`, then `.expressions(..)`):\n{}",
        found.join("\n")
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
    assert_eq!(hand_written_expressions(&source).len(), 1);
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
        "decks",
        "game",
        "identity",
        "inventory",
        "leaderboards",
        "live",
        "profiles",
        "reports",
        "rooms",
        "suggest",
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

/// The methods of `impl <ty>` blocks (`Rooms<'_>`, `Db`) across the sources.
fn methods_of(all: &[Source], ty: &str) -> BTreeSet<String> {
    let block = Regex::new(&format!(r"(?m)^impl {}(<'_>)? \{{\n", regex::escape(ty))).unwrap();
    let method = Regex::new(r"(?m)^    (pub(\([a-z ]+\))? )?(async )?fn ([a-z_0-9]+)").unwrap();
    let mut out = BTreeSet::new();
    for source in all {
        for found in block.find_iter(&source.text) {
            let body = &source.text[found.end()..];
            let body = &body[..body.find("\n}\n").unwrap_or(body.len())];
            out.extend(method.captures_iter(body).map(|c| c[4].to_owned()));
        }
    }
    out
}

#[test]
fn every_access_pattern_in_the_docs_is_a_method() {
    let page = std::fs::read_to_string(root().join("docs/table.md")).expect("docs/table.md reads");
    let start = page
        .find("### Access patterns")
        .expect("docs/table.md has the table");
    let table = &page[start..];
    let table = &table[..table[4..].find("\n### ").map_or(table.len(), |end| end + 4)];
    let named = Regex::new(r"`([A-Z][A-Za-z]+)::([a-z_0-9]+)`").unwrap();
    let all = sources();
    let handles = [
        "Db",
        "Catalog",
        "Accounts",
        "Rooms",
        "Game",
        "Inventory",
        "Boards",
        "Live",
        "Profiles",
        "Daily",
        "Decks",
        "Suggestions",
    ];
    let mut checked = 0;
    let mut missing = Vec::new();
    for found in named.captures_iter(table) {
        let (ty, name) = (&found[1], &found[2]);
        if !handles.contains(&ty) {
            continue;
        }
        checked += 1;
        if !methods_of(&all, ty).contains(name) {
            missing.push(format!("{ty}::{name}"));
        }
    }
    assert!(checked > 100, "the table names {checked} methods");
    assert!(
        missing.is_empty(),
        "the access patterns in docs/table.md name methods that do not exist: {missing:?}"
    );
}

#[test]
fn no_source_file_is_over_600_lines() {
    // The sources and the app's unit tests (which were beside the code once, and counted then).
    let long: Vec<String> =
        sources_under(&["app/src", "server/src", "frontend/src", "app/tests/unit"])
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

/// The code's files holding a test: the server's binaries and the app's library are never built
/// as test harnesses (`test = false`), so a test written there would never run.
fn tests_in(dirs: &[&str]) -> Vec<String> {
    let test = Regex::new(r"#\[(tokio::)?test\b|#\[cfg\((all\()?test\b").unwrap();
    let mut found = Vec::new();
    for dir in dirs {
        let mut files = Vec::new();
        walk(&root().join(dir), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            if let Some(m) = test.find(&text) {
                let path = file.strip_prefix(root()).unwrap().display().to_string();
                found.push(format!("{path}:{}", line_of(&text, m.start())));
            }
        }
    }
    found.sort();
    found
}

#[test]
fn no_test_is_written_where_no_harness_runs_it() {
    let stray = tests_in(&["app/src", "server/src", "frontend/src"]);
    assert!(
        stray.is_empty(),
        "tests in code built without a test harness (move them to app/tests or server/tests):\n{}",
        stray.join("\n")
    );
}

#[test]
fn a_test_in_the_server_sources_is_found() {
    let dir = root().join("target/fence-probe/server/src");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("probe.rs"),
        "fn f() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n",
    )
    .unwrap();
    assert_eq!(
        tests_in(&["target/fence-probe/server/src"]),
        ["target/fence-probe/server/src/probe.rs:3"]
    );
}

mod docs;
mod imports;
mod links;
mod server_fns;
