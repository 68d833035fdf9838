//! The README and the pages under `docs/` link to each other, to the code and to pictures by
//! relative paths: every one must name a file that exists, and a `#anchor` a heading of the
//! Markdown page it points into (by GitHub's slugs), or a reader lands nowhere.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use regex::Regex;

use super::root;

/// README.md and every page of `docs/`, by path.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ reads")
        .map(|entry| entry.expect("docs/ lists").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The lines of `text` outside fenced code blocks, numbered from 1.
fn outside_blocks(text: &str) -> Vec<(usize, &str)> {
    let mut inside = false;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~") {
            inside = !inside;
            continue;
        }
        if !inside {
            out.push((n + 1, line));
        }
    }
    out
}

/// The lines of `text` outside fenced code blocks with inline code removed (a link inside code
/// is an example, not a link), numbered from 1.
fn prose(text: &str) -> Vec<(usize, String)> {
    let code = Regex::new(r"`[^`]*`").unwrap();
    outside_blocks(text)
        .into_iter()
        .map(|(n, line)| (n, code.replace_all(line, "").into_owned()))
        .collect()
}

/// A heading's anchor as GitHub makes it: links reduced to their text, lower case, letters,
/// digits, spaces, `-` and `_` kept, spaces as `-`.
fn slug(heading: &str) -> String {
    let link = Regex::new(r"\[([^\]]*)\]\([^)]*\)").unwrap();
    link.replace_all(heading, "$1")
        .replace('`', "")
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings (a repeated heading's later ones as `-1`, `-2`).
fn anchors(text: &str) -> BTreeSet<String> {
    let heading = Regex::new(r"^#{1,6}\s+(.*?)\s*#*\s*$").unwrap();
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    let mut out = BTreeSet::new();
    for (_, line) in outside_blocks(text) {
        if let Some(found) = heading.captures(line) {
            let slug = slug(&found[1]);
            let n = seen.entry(slug.clone()).or_default();
            out.insert(if *n == 0 {
                slug.clone()
            } else {
                format!("{slug}-{n}")
            });
            *n += 1;
        }
    }
    out
}

/// Every relative link and image of `page` that leads nowhere, as `file:line: target: why`.
fn broken_links(root: &Path, page: &Path) -> (usize, Vec<String>) {
    let markdown =
        Regex::new(r#"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+"[^"]*")?\)"#).unwrap();
    let html = Regex::new(r#"<(?:img|a)\s[^>]*(?:src|href)="([^"]+)""#).unwrap();
    let scheme = Regex::new(r"^[a-z]+:").unwrap();
    let text = std::fs::read_to_string(page).expect("a page reads");
    let name = page
        .strip_prefix(root)
        .unwrap_or(page)
        .display()
        .to_string();
    let base = page.parent().expect("a page is in a folder");
    let (mut checked, mut broken) = (0, Vec::new());
    for (n, line) in prose(&text) {
        let targets = markdown
            .captures_iter(&line)
            .chain(html.captures_iter(&line))
            .map(|c| c[1].to_owned());
        for target in targets.filter(|t| !scheme.is_match(t)) {
            checked += 1;
            let (path, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let dest = if path.is_empty() {
                page.to_owned()
            } else {
                base.join(path)
            };
            if !dest.exists() {
                broken.push(format!("{name}:{n}: {target}: no such file"));
                continue;
            }
            if anchor.is_empty() {
                continue;
            }
            let markdown_page = dest.extension().is_some_and(|e| e == "md") && dest.is_file();
            let headings = markdown_page
                .then(|| anchors(&std::fs::read_to_string(&dest).expect("a page reads")));
            if !headings.is_some_and(|h| h.contains(anchor)) {
                broken.push(format!("{name}:{n}: {target}: no heading #{anchor} there"));
            }
        }
    }
    (checked, broken)
}

#[test]
fn every_relative_link_in_the_readme_and_docs_leads_somewhere() {
    let root = root();
    let (mut checked, mut broken) = (0, Vec::new());
    for page in pages(&root) {
        let (n, found) = broken_links(&root, &page);
        checked += n;
        broken.extend(found);
    }
    println!(
        "{checked} relative links and images checked, {} broken",
        broken.len()
    );
    assert!(
        checked > 50,
        "only {checked} links found: is the reader broken?"
    );
    assert!(
        broken.is_empty(),
        "links that lead nowhere:\n{}",
        broken.join("\n")
    );
}

#[test]
fn a_link_to_a_missing_file_or_heading_is_found() {
    let dir = std::env::temp_dir().join(format!("udd-links-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    std::fs::write(dir.join("docs/a.md"), "# A page\n\n## Its part `one`\n").unwrap();
    let page = dir.join("README.md");
    std::fs::write(
        &page,
        "[ok](docs/a.md#its-part-one) [top](#readme) ![gone](docs/gone.png)\n\
         [wrong part](docs/a.md#its-part-two) `[in code](nowhere.md)`\n\
         ```\n[in a block](nowhere.md)\n```\n# Readme\n<img src=\"docs/missing.png\">\n",
    )
    .unwrap();
    let (checked, broken) = broken_links(&dir, &page);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(checked, 5);
    assert_eq!(
        broken,
        [
            "README.md:1: docs/gone.png: no such file",
            "README.md:2: docs/a.md#its-part-two: no heading #its-part-two there",
            "README.md:7: docs/missing.png: no such file",
        ]
    );
}
