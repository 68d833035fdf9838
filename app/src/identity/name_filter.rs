//! The name filter: whether a name one player writes for others to see says something obscene
//! or hateful, in English, in Hindi written in Devanagari, or in Hindi written in Latin letters.
//! Server only: not a byte of it, nor of its lists, is in the browser bundle.
//!
//! A name and every entry of the lists are folded the same way (`fold`: look-alikes, digits for
//! letters, spacing, repeated letters, romanised spellings; Devanagari read as Latin letters, in
//! both readings of its inherent vowel, `devanagari`), then compared:
//! - an entry of more than [`SHORT`] letters, or one marked `!`, matches anywhere in the name,
//!   across its spaces and inside longer words, once the ordinary words that contain one
//!   ("Scunthorpe") are taken out;
//! - a shorter entry matches only as a word of its own, two of the name's words joined, or
//!   joined to a suffix ([`SUFFIXES`]), a prefix ([`PREFIXES`]) or another entry: so "Shitij",
//!   "Dikshit" and "Cockburn" stay names, and "shithead" does not;
//! - an entry written in Devanagari matches only a name that has Devanagari in it (its reading in
//!   Latin letters can be an ordinary English word: "लंड" reads "land").
//!
//! The lists are `name_filter/lists/`: two packaged ones (their source, version and licence at
//! their top and in `docs/safety.md`), Udd's additions and what Udd lets through.

mod devanagari;
mod fold;

use std::collections::HashSet;
use std::sync::LazyLock;

use devanagari::Schwa;

/// Entries up to this many letters (folded) match only as words.
pub const SHORT: usize = 5;

/// What may follow a short entry in one word and still be it ("shit-head", "chut-iya" is its own
/// entry), folded.
const SUFFIXES: &[&str] = &[
    "s", "es", "y", "ie", "er", "ers", "ing", "ed", "head", "face", "hole", "bag", "vad", "lord",
    "master", "man", "boy", "girl", "lover", "licker", "sucker", "stain", "vala", "vali", "ka",
];

/// What may come before a short entry in one word, folded.
const PREFIXES: &[&str] = &[
    "mother", "muther", "big", "dumb", "fat", "sister", "ur", "lil",
];

const PACKAGED: &[&str] = &[
    include_str!("name_filter/lists/ldnoobw-en.txt"),
    include_str!("name_filter/lists/ldnoobw-hi.txt"),
    include_str!("name_filter/lists/profanity-hindi.txt"),
];
const ADDITIONS: &str = include_str!("name_filter/lists/udd-additions.txt");
const ALLOWED: &str = include_str!("name_filter/lists/udd-allowed.txt");

/// The lists, folded: for names in any script, and for names with Devanagari in them.
#[derive(Default)]
struct Entries {
    anywhere: Vec<String>,
    words: HashSet<String>,
}

struct Lists {
    latin: Entries,
    devanagari: Entries,
    /// Ordinary words that contain an entry, folded: taken out before looking anywhere.
    allowed: Vec<String>,
    /// Entries that are not letters at all (an emoji), compared with the name as typed.
    symbols: Vec<String>,
}

fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
}

/// An entry's folded forms: one word (its spaces gone), in each reading of its Devanagari.
fn folded_entry(entry: &str) -> Vec<String> {
    let mut forms: Vec<String> = [Schwa::Kept, Schwa::Dropped]
        .into_iter()
        .map(|schwa| {
            let words: Vec<String> = fold::words(entry, schwa)
                .into_iter()
                .map(|word| word.text)
                .collect();
            fold::spelling(&words.concat())
        })
        .filter(|form| !form.is_empty())
        .collect();
    forms.dedup();
    forms
}

static LISTS: LazyLock<Lists> = LazyLock::new(|| {
    let dropped: HashSet<&str> = lines(ALLOWED)
        .filter_map(|line| line.strip_prefix('-'))
        .collect();
    let mut lists = Lists {
        latin: Entries::default(),
        devanagari: Entries::default(),
        allowed: lines(ALLOWED)
            .filter(|line| !line.starts_with('-'))
            .flat_map(folded_entry)
            .collect(),
        symbols: Vec::new(),
    };
    let packaged = PACKAGED
        .iter()
        .flat_map(|list| lines(list))
        .filter(|entry| !dropped.contains(entry));
    for line in packaged.chain(lines(ADDITIONS)) {
        let (entry, anywhere) = match line.strip_prefix('!') {
            Some(entry) => (entry, true),
            None => (line, false),
        };
        let forms = folded_entry(entry);
        if forms.is_empty() {
            lists.symbols.push(entry.to_owned());
            continue;
        }
        let entries = if entry.chars().any(devanagari::is_devanagari) {
            &mut lists.devanagari
        } else {
            &mut lists.latin
        };
        for form in forms {
            if anywhere || form.len() > SHORT {
                entries.anywhere.push(form);
            } else {
                entries.words.insert(form);
            }
        }
    }
    for entries in [&mut lists.latin, &mut lists.devanagari] {
        entries.anywhere.sort();
        entries.anywhere.dedup();
    }
    lists
});

/// Whether the filter refuses `name`: a display name, a room nickname or a username.
pub fn refuses(name: &str) -> bool {
    let lists = &*LISTS;
    if lists
        .symbols
        .iter()
        .any(|symbol| name.contains(symbol.as_str()))
    {
        return true;
    }
    let has_devanagari = name.chars().any(devanagari::is_devanagari);
    let readings: &[Schwa] = if has_devanagari {
        &[Schwa::Kept, Schwa::Dropped]
    } else {
        &[Schwa::Kept]
    };
    readings.iter().any(|&schwa| {
        let words = fold::words(name, schwa);
        matches(&words, &lists.latin, &lists.allowed)
            || (has_devanagari && matches(&words, &lists.devanagari, &lists.allowed))
    })
}

fn matches(words: &[fold::Word], entries: &Entries, allowed: &[String]) -> bool {
    let texts: Vec<&str> = words.iter().map(|word| word.text.as_str()).collect();
    // Anywhere: across the name's spaces, with the ordinary words containing an entry taken out
    // (each replaced by a space, so an entry cannot span the gap it leaves).
    let mut joined = fold::spelling(&texts.concat());
    for word in allowed {
        if joined.contains(word.as_str()) {
            joined = joined.replace(word.as_str(), " ");
        }
    }
    if entries
        .anywhere
        .iter()
        .any(|entry| joined.contains(entry.as_str()))
    {
        return true;
    }
    let is_entry = |word: &str| {
        entries.words.contains(word) || entries.anywhere.iter().any(|entry| entry == word)
    };
    // Two of the name's words joined ("sh it"), and the whole name ("f u ck").
    let pairs = texts.windows(2).map(|pair| fold::spelling(&pair.concat()));
    if pairs.chain([joined.clone()]).any(|word| is_entry(&word)) {
        return true;
    }
    words.iter().any(|word| {
        is_entry(&word.text)
            || compound(&word.text, entries)
            || (word.spelled_out
                && entries
                    .words
                    .iter()
                    .any(|entry| word.text.contains(entry.as_str())))
    })
}

/// A short entry joined in one word to a suffix, a prefix or another entry.
fn compound(word: &str, entries: &Entries) -> bool {
    let short = |part: &str| entries.words.contains(part);
    let any = |part: &str| short(part) || entries.anywhere.iter().any(|entry| entry == part);
    (1..word.len()).any(|i| {
        let Some((head, tail)) = word.split_at_checked(i) else {
            return false;
        };
        (short(head) && (SUFFIXES.contains(&tail) || any(tail)))
            || (short(tail) && (PREFIXES.contains(&head) || any(head)))
    })
}

/// The names an operator banned, folded (`DisplayName::folded`), as this instance's copy of the
/// hidden set has them (`identity::hidden` keeps it).
static BANNED: LazyLock<std::sync::RwLock<std::collections::HashSet<String>>> =
    LazyLock::new(Default::default);

/// Whether an operator banned any name (most of the time none: then no name need be folded).
pub fn any_banned() -> bool {
    !BANNED.read().unwrap_or_else(|e| e.into_inner()).is_empty()
}

/// Whether an operator banned the name folded as `folded`.
pub fn banned(folded: &str) -> bool {
    BANNED
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .contains(folded)
}

/// The banned names from now on (folded).
pub fn set_banned(names: std::collections::HashSet<String>) {
    *BANNED.write().unwrap_or_else(|e| e.into_inner()) = names;
}

/// The filter's lists, loaded now rather than on the first name a player types.
pub fn warm() {
    LazyLock::force(&LISTS);
}
