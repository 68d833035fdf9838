//! A deck as players make it: its title and words, its things, and the rules every deck keeps.
//! Pure (no table, no page): the store checks a draft with [`DeckDraft::check`] before any
//! write, and the editor reads and writes the things as lines ([`parse_lines`], [`lines`]).

use serde::{Deserialize, Serialize};

use crate::ids::{DeckCode, UserId};

/// The fewest things a deck has: a match of 10 rounds draws without repeating.
pub const MIN_THINGS: usize = 10;
/// The most things a deck has: its things are one item, under DynamoDB's 400 KB.
pub const MAX_THINGS: usize = 500;
/// The most bytes a deck's things may take, counted as [`DeckDraft::check`] does (each text's
/// UTF-8 bytes and 16 a thing for its emoji's and attributes' overhead): the item stays under
/// DynamoDB's 400 KB. 500 things named in both languages at the longest, each with the longest
/// note, in Devanagari, take about 295 KB; only text in four-byte characters reaches this.
pub const MAX_THINGS_BYTES: usize = 350_000;
/// The longest title, in characters.
pub const TITLE_MAX: usize = 60;
/// The longest description, in characters.
pub const DESCRIPTION_MAX: usize = 200;
/// The longest name of a thing (in either language, and its Latin spelling), in characters.
pub const NAME_MAX: usize = 40;
/// The longest note of a thing, in characters.
pub const NOTE_MAX: usize = 100;
/// The emoji of a thing typed or pasted without one.
pub const DEFAULT_EMOJI: &str = "❔";

/// The language a deck's things are named in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DeckLang {
    En,
    Hi,
    /// Each thing named in both.
    Both,
}

impl DeckLang {
    pub const ALL: [DeckLang; 3] = [DeckLang::En, DeckLang::Hi, DeckLang::Both];

    pub fn as_str(self) -> &'static str {
        match self {
            DeckLang::En => "en",
            DeckLang::Hi => "hi",
            DeckLang::Both => "both",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|l| l.as_str() == raw)
    }

    fn english(self) -> bool {
        self != DeckLang::Hi
    }

    fn hindi(self) -> bool {
        self != DeckLang::En
    }
}

/// Who may open a deck: its author alone, anyone with its code or link, or everyone (listed in
/// the gallery).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    Private,
    Unlisted,
    Public,
}

impl Visibility {
    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Private => "private",
            Visibility::Unlisted => "unlisted",
            Visibility::Public => "public",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        [
            Visibility::Private,
            Visibility::Unlisted,
            Visibility::Public,
        ]
        .into_iter()
        .find(|v| v.as_str() == raw)
    }
}

/// One thing of a deck. Names are in the deck's language or languages; stored with short
/// attribute names, since a deck's things are one item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckThing {
    #[serde(rename = "e", default, skip_serializing_if = "Option::is_none")]
    pub en: Option<String>,
    #[serde(rename = "h", default, skip_serializing_if = "Option::is_none")]
    pub hi: Option<String>,
    /// The Hindi name in Latin letters, as called out ("Kauwa"): optional.
    #[serde(rename = "l", default, skip_serializing_if = "Option::is_none")]
    pub hi_latin: Option<String>,
    #[serde(rename = "m")]
    pub emoji: String,
    #[serde(rename = "f")]
    pub flies: bool,
    /// Why it was ruled so, shown with the results.
    #[serde(rename = "n", default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl DeckThing {
    /// The name two things of one deck may not share: the first of its names, folded to
    /// lower case without spaces at its ends.
    fn folded(&self) -> String {
        self.en
            .as_deref()
            .or(self.hi.as_deref())
            .unwrap_or_default()
            .trim()
            .to_lowercase()
    }

    /// Every text of the thing that others will read.
    fn texts(&self) -> impl Iterator<Item = &str> {
        [&self.en, &self.hi, &self.hi_latin, &self.note]
            .into_iter()
            .flatten()
            .map(String::as_str)
    }
}

/// What an author writes: everything of a deck but its code, author and counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckDraft {
    pub title: String,
    pub description: String,
    pub lang: DeckLang,
    pub visibility: Visibility,
    pub things: Vec<DeckThing>,
}

/// A deck as stored: the draft, whose it is, and its version (one more with every save).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deck {
    pub code: DeckCode,
    pub author: UserId,
    pub version: u64,
    pub created_ms: i64,
    pub updated_ms: i64,
    /// Matches played with it, as the projector has counted them so far.
    #[serde(default)]
    pub plays: u64,
    /// Out of the gallery while its reports wait for an operator (`decks::moderation`).
    #[serde(default)]
    pub hidden: bool,
    #[serde(flatten)]
    pub draft: DeckDraft,
}

/// A deck's plays as kept (`DECK#<code>` / `PLAYS`): all time and in its latest week, and its
/// version (each of the projector's writes is conditioned on the one read; a save that
/// takes the deck out of the gallery moves it too). What the gallery lists by plays, so it
/// also carries the deck's title, count and language (set by each save).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckPlays {
    #[serde(default)]
    pub plays: u64,
    /// The ISO week of the latest play (`2026-W48`), and the plays in it.
    #[serde(default)]
    pub week: Option<String>,
    #[serde(default)]
    pub week_plays: u64,
    #[serde(default)]
    pub v: u64,
}

/// What the projector reads of a deck's head: where the gallery lists it.
#[derive(Debug, Clone, Deserialize)]
pub struct ListedHead {
    pub lang: DeckLang,
    pub visibility: Visibility,
    /// Set while its reports hide it (`decks::moderation`).
    #[serde(default)]
    pub hidden_ms: Option<i64>,
}

impl ListedHead {
    /// The gallery's language of the deck while it is public and not hidden by its reports;
    /// `None` otherwise.
    pub fn listed(&self) -> Option<DeckLang> {
        (self.visibility == Visibility::Public && self.hidden_ms.is_none()).then_some(self.lang)
    }
}

/// A deck as the gallery lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GalleryDeck {
    pub code: DeckCode,
    pub title: String,
    pub lang: DeckLang,
    pub count: u32,
    #[serde(default)]
    pub plays: u64,
    #[serde(default)]
    pub week_plays: u64,
}

/// How the gallery orders its decks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GalleryOrder {
    /// Most played this week (ISO week, UTC).
    #[default]
    Week,
    /// Most played of all time.
    Plays,
    Newest,
}

impl GalleryOrder {
    pub const ALL: [GalleryOrder; 3] = [
        GalleryOrder::Week,
        GalleryOrder::Plays,
        GalleryOrder::Newest,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            GalleryOrder::Week => "week",
            GalleryOrder::Plays => "plays",
            GalleryOrder::Newest => "newest",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|o| o.as_str() == raw)
    }
}

/// A title as the gallery searches it: lower case, ASCII punctuation dropped, spaces single;
/// Devanagari kept as written (its marks included), so a search in either script finds it by
/// the start of its title.
pub fn searched_title(title: &str) -> String {
    title
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_punctuation() { ' ' } else { c })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The ISO week (UTC) of a time, as the gallery's weekly plays name it: `2026-W48`.
#[cfg(feature = "ssr")]
pub fn week_label(ms: i64) -> String {
    let date = time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000))
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH)
        .date();
    let (year, week, _) = date.to_iso_week_date();
    format!("{year}-W{week:02}")
}

/// A deck's head as a list shows it: no things.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckHead {
    pub code: DeckCode,
    pub author: UserId,
    pub title: String,
    pub lang: DeckLang,
    pub visibility: Visibility,
    pub count: u32,
    pub version: u64,
    pub updated_ms: i64,
}

/// A deck's form as its author sent it: kept when refused, so that the form comes back with
/// everything typed in it (a deck's lines do not fit in an address).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckForm {
    pub title: String,
    pub description: String,
    pub lang: DeckLang,
    pub visibility: Visibility,
    /// The things as lines ([`parse_lines`]).
    pub lines: String,
}

impl DeckForm {
    /// The form as a post sends it (a blank description is none).
    pub fn sent(
        title: String,
        description: Option<String>,
        lang: DeckLang,
        visibility: Visibility,
        lines: String,
    ) -> Self {
        DeckForm {
            title,
            description: description.unwrap_or_default(),
            lang,
            visibility,
            lines,
        }
    }

    /// The form of `draft` as it is saved: its things as lines.
    pub fn of(draft: &DeckDraft) -> Self {
        DeckForm {
            title: draft.title.clone(),
            description: draft.description.clone(),
            lang: draft.lang,
            visibility: draft.visibility,
            lines: lines(&draft.things, draft.lang),
        }
    }

    /// The draft the form says, its lines read in its language.
    pub fn draft(&self, emoji_ok: impl Fn(&str) -> bool) -> Result<DeckDraft, DeckProblem> {
        Ok(DeckDraft {
            title: self.title.clone(),
            description: self.description.clone(),
            lang: self.lang,
            visibility: self.visibility,
            things: parse_lines(&self.lines, self.lang, emoji_ok)?,
        })
    }
}

/// What is wrong with a draft; `line` counts the things from 1, as the editor's lines do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeckProblem {
    TitleMissing,
    TitleTooLong,
    DescriptionTooLong,
    TooFew,
    TooMany,
    /// Past [`MAX_THINGS_BYTES`].
    TooLarge,
    /// A name the deck's language needs is missing.
    NameMissing {
        line: usize,
    },
    NameTooLong {
        line: usize,
    },
    NoteTooLong {
        line: usize,
    },
    /// The same thing twice: `line` repeats `first`.
    Duplicate {
        line: usize,
        first: usize,
    },
    /// An emoji outside the set the pages can draw.
    Emoji {
        line: usize,
    },
    /// A text the name filter refuses (the title or description at line 0).
    Refused {
        line: usize,
    },
    /// Control characters (or a line that is not `name, yes/no, note`).
    Unreadable {
        line: usize,
    },
}

fn too_long(text: &str, max: usize) -> bool {
    text.chars().count() > max
}

fn unreadable(text: &str) -> bool {
    text.chars().any(char::is_control)
}

impl DeckDraft {
    /// Whether the draft keeps every rule of a deck: its sizes, its language's names, no thing
    /// twice, emoji from `emoji_ok`'s set and no text that `refuses` (the name filter) refuses.
    pub fn check(
        &self,
        emoji_ok: impl Fn(&str) -> bool,
        refuses: impl Fn(&str) -> bool,
    ) -> Result<(), DeckProblem> {
        let title = self.title.trim();
        if title.is_empty() {
            return Err(DeckProblem::TitleMissing);
        }
        if too_long(title, TITLE_MAX) {
            return Err(DeckProblem::TitleTooLong);
        }
        if too_long(self.description.trim(), DESCRIPTION_MAX) {
            return Err(DeckProblem::DescriptionTooLong);
        }
        if unreadable(&self.title) || unreadable(&self.description) {
            return Err(DeckProblem::Unreadable { line: 0 });
        }
        if refuses(title) || refuses(&self.description) {
            return Err(DeckProblem::Refused { line: 0 });
        }
        if self.things.len() < MIN_THINGS {
            return Err(DeckProblem::TooFew);
        }
        if self.things.len() > MAX_THINGS {
            return Err(DeckProblem::TooMany);
        }
        let bytes: usize = (self.things.iter())
            .map(|t| t.texts().map(str::len).sum::<usize>() + t.emoji.len() + 16)
            .sum();
        if bytes > MAX_THINGS_BYTES {
            return Err(DeckProblem::TooLarge);
        }
        let mut seen = std::collections::HashMap::new();
        for (i, thing) in self.things.iter().enumerate() {
            let line = i + 1;
            let named =
                |name: &Option<String>| name.as_deref().is_some_and(|n| !n.trim().is_empty());
            if (self.lang.english() && !named(&thing.en))
                || (self.lang.hindi() && !named(&thing.hi))
            {
                return Err(DeckProblem::NameMissing { line });
            }
            let names = [&thing.en, &thing.hi, &thing.hi_latin];
            if names
                .into_iter()
                .flatten()
                .any(|n| too_long(n.trim(), NAME_MAX))
            {
                return Err(DeckProblem::NameTooLong { line });
            }
            if thing
                .note
                .as_deref()
                .is_some_and(|n| too_long(n.trim(), NOTE_MAX))
            {
                return Err(DeckProblem::NoteTooLong { line });
            }
            if thing.texts().any(unreadable) {
                return Err(DeckProblem::Unreadable { line });
            }
            if !emoji_ok(&thing.emoji) {
                return Err(DeckProblem::Emoji { line });
            }
            if thing.texts().any(&refuses) {
                return Err(DeckProblem::Refused { line });
            }
            if let Some(first) = seen.insert(thing.folded(), line) {
                return Err(DeckProblem::Duplicate { line, first });
            }
        }
        Ok(())
    }
}

/// The words a line may give for "flies" and "does not fly", in both languages.
const YES: [&str; 7] = ["yes", "y", "flies", "haan", "han", "हाँ", "हां"];
const NO: [&str; 7] = ["no", "n", "doesn't fly", "nahi", "nahin", "नहीं", "ना"];

/// The things of `text`, one a line: `name, yes/no, note` (the note optional, and free to hold
/// commas). A name may start with an emoji of `emoji_ok`'s set (else it gets
/// [`DEFAULT_EMOJI`]; a first word of symbols outside the set is [`DeckProblem::Emoji`]); in a deck in both languages it is `English / हिन्दी`, and a Hindi name may
/// carry its Latin spelling in brackets: `कौआ (Kauwa)`. Blank lines are skipped; a line that
/// says neither yes nor no is [`DeckProblem::Unreadable`] at its thing's number.
pub fn parse_lines(
    text: &str,
    lang: DeckLang,
    emoji_ok: impl Fn(&str) -> bool,
) -> Result<Vec<DeckThing>, DeckProblem> {
    let mut things = Vec::new();
    for raw in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let line = things.len() + 1;
        let mut parts = raw.splitn(3, ',');
        let (Some(name), Some(ruling)) = (parts.next(), parts.next()) else {
            return Err(DeckProblem::Unreadable { line });
        };
        let ruling = ruling.trim().to_lowercase();
        let flies = if YES.contains(&ruling.as_str()) {
            true
        } else if NO.contains(&ruling.as_str()) {
            false
        } else {
            return Err(DeckProblem::Unreadable { line });
        };
        let note = parts.next().map(str::trim).filter(|n| !n.is_empty());
        let (emoji, name) = match name.trim().split_once(' ') {
            Some((first, rest)) if emoji_ok(first) => (first.to_owned(), rest.trim()),
            // A first word of symbols alone is an emoji, and not one the pages draw.
            Some((first, _)) if !first.chars().any(char::is_alphanumeric) => {
                return Err(DeckProblem::Emoji { line });
            }
            _ => (DEFAULT_EMOJI.to_owned(), name.trim()),
        };
        let (en, hi) = match lang {
            DeckLang::En => (Some(name), None),
            DeckLang::Hi => (None, Some(name)),
            DeckLang::Both => match name.split_once('/') {
                Some((en, hi)) => (Some(en.trim()), Some(hi.trim())),
                None => (Some(name), None),
            },
        };
        let (hi, hi_latin) = match hi.map(|h| h.split_once('(')) {
            Some(Some((hi, latin))) => (Some(hi.trim()), Some(latin.trim_end_matches(')').trim())),
            Some(None) => (hi, None),
            None => (None, None),
        };
        let owned = |s: Option<&str>| s.filter(|s| !s.is_empty()).map(str::to_owned);
        things.push(DeckThing {
            en: owned(en),
            hi: owned(hi),
            hi_latin: owned(hi_latin),
            emoji,
            flies,
            note: owned(note),
        });
    }
    Ok(things)
}

/// The things as [`parse_lines`] reads them back: the editor's export.
pub fn lines(things: &[DeckThing], lang: DeckLang) -> String {
    let mut out = String::new();
    for thing in things {
        let hi = match (&thing.hi, &thing.hi_latin) {
            (Some(hi), Some(latin)) => Some(format!("{hi} ({latin})")),
            (hi, _) => hi.clone(),
        };
        let name = match lang {
            DeckLang::En => thing.en.clone().unwrap_or_default(),
            DeckLang::Hi => hi.unwrap_or_default(),
            DeckLang::Both => format!(
                "{} / {}",
                thing.en.as_deref().unwrap_or_default(),
                hi.unwrap_or_default()
            ),
        };
        let ruling = if thing.flies { "yes" } else { "no" };
        out.push_str(&format!("{} {name}, {ruling}", thing.emoji));
        if let Some(note) = &thing.note {
            out.push_str(&format!(", {note}"));
        }
        out.push('\n');
    }
    out
}
