//! Friendly names: in a room whose host chose them (a class, a stream), nobody types a name. Each
//! player who joins is given two words in the page's language, "Swift Koel", "तेज़ कोयल", drawn
//! by the server from word lists the project owns (`friendly/en.txt`, `friendly/hi.txt`: kind
//! words and creatures, edited as plain text), unique in the room (its nickname claim decides,
//! as for a typed name), and may draw another up to [`REROLLS`] times.

use std::sync::LazyLock;

use crate::identity::model::DisplayName;
use crate::lang::Locale;

/// How many times a player may ask for another friendly name in one room.
pub const REROLLS: u32 = 3;

/// One language's words: a name is an adjective and a noun, in that order.
pub struct Words {
    pub adjectives: Vec<&'static str>,
    pub nouns: Vec<&'static str>,
}

impl Words {
    /// The lists of a file: `[adjectives]` and `[nouns]` headings, one word a line, `#` comments.
    fn parse(text: &'static str) -> Self {
        let mut words = Words {
            adjectives: Vec::new(),
            nouns: Vec::new(),
        };
        let mut nouns = false;
        for line in text.lines().map(str::trim) {
            match line {
                "" => {}
                _ if line.starts_with('#') => {}
                "[adjectives]" => nouns = false,
                "[nouns]" => nouns = true,
                word if nouns => words.nouns.push(word),
                word => words.adjectives.push(word),
            }
        }
        words
    }

    /// How many names the lists make.
    pub fn len(&self) -> usize {
        self.adjectives.len() * self.nouns.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`-th name of the lists (by adjective, then noun), as text.
    pub fn name(&self, i: usize) -> String {
        let (a, n) = (i / self.nouns.len(), i % self.nouns.len());
        format!("{} {}", self.adjectives[a], self.nouns[n])
    }
}

static EN: LazyLock<Words> = LazyLock::new(|| Words::parse(include_str!("friendly/en.txt")));
static HI: LazyLock<Words> = LazyLock::new(|| Words::parse(include_str!("friendly/hi.txt")));

/// The words of a language.
pub fn words(locale: Locale) -> &'static Words {
    match locale {
        Locale::en => &EN,
        Locale::hi => &HI,
    }
}

/// A friendly name in `locale` that is none of `taken` (compared folded, as the room's nickname
/// claims are): a random pair, and if the room somehow holds the few tried, the first free one
/// after a random start. Every pair passes the name filter (a test checks each), so a refusal
/// here only skips a pair. `None` only when every name of the lists is taken.
pub fn draw(locale: Locale, taken: &[&DisplayName]) -> Option<DisplayName> {
    let words = words(locale);
    let total = words.len().max(1);
    let taken: Vec<String> = taken.iter().map(|t| t.folded()).collect();
    let free = |i: usize| {
        DisplayName::parse(&words.name(i % total))
            .ok()
            .filter(|name| !taken.contains(&name.folded()))
    };
    let start = random_below(total);
    (0..8)
        .map(|_| random_below(total))
        .find_map(free)
        .or_else(|| (start..start + total).find_map(free))
}

fn random_below(n: usize) -> usize {
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        return 0;
    }
    (u64::from_le_bytes(bytes) % n as u64) as usize
}
