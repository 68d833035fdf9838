//! A card's text, fitted to its place: which face draws each character, how wide the text is
//! when drawn, and where it is cut.
//!
//! Each text is split into runs of one face, chosen by script: Devanagari letters and signs
//! with Noto Sans Devanagari, every other letter with Noto Sans, and what both scripts use
//! (spaces, digits, punctuation, the joiners) with the run it stands in when that face has it.
//! A run is then shaped (rustybuzz, as resvg shapes it) with the very face that will draw it,
//! so its width is the width drawn, and drawn in pieces each placed where that shaping puts it
//! (see [`shape`]); a text too wide for its place is cut between grapheme
//! clusters (a Devanagari conjunct with its signs is one) and ends in "…".

use std::sync::OnceLock;

use unicode_segmentation::UnicodeSegmentation;

/// The shipped fonts: Noto Sans Regular and Bold, Noto Sans Devanagari Regular and Bold.
pub(crate) const FONTS: [&[u8]; 4] = [
    include_bytes!("../../fonts/NotoSans-Regular.ttf"),
    include_bytes!("../../fonts/NotoSans-Bold.ttf"),
    include_bytes!("../../fonts/NotoSansDevanagari-Regular.ttf"),
    include_bytes!("../../fonts/NotoSansDevanagari-Bold.ttf"),
];

/// The most of a text looked at: more than any place on a card holds.
const MAX_CHARS: usize = 200;

/// A family of the shipped fonts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Noto Sans: Latin, and every other script it has.
    Sans,
    /// Noto Sans Devanagari.
    Devanagari,
}

impl Family {
    /// The family's name, as the SVG asks for it.
    pub fn name(self) -> &'static str {
        match self {
            Family::Sans => "Noto Sans",
            Family::Devanagari => "Noto Sans Devanagari",
        }
    }
}

/// The two weights a card draws in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weight {
    Regular,
    Bold,
}

impl Weight {
    /// The weight as CSS and the fonts number it.
    pub fn number(self) -> u16 {
        match self {
            Weight::Regular => 400,
            Weight::Bold => 700,
        }
    }
}

/// The face of `family` in `weight`, from the shipped fonts.
fn face(family: Family, weight: Weight) -> &'static rustybuzz::Face<'static> {
    static FACES: OnceLock<[rustybuzz::Face<'static>; 4]> = OnceLock::new();
    let faces = FACES.get_or_init(|| {
        FONTS.map(|data| rustybuzz::Face::from_slice(data, 0).expect("a shipped font parses"))
    });
    match (family, weight) {
        (Family::Sans, Weight::Regular) => &faces[0],
        (Family::Sans, Weight::Bold) => &faces[1],
        (Family::Devanagari, Weight::Regular) => &faces[2],
        (Family::Devanagari, Weight::Bold) => &faces[3],
    }
}

/// Whether `family`'s face has a glyph for `c` (both weights have the same characters).
fn has(family: Family, c: char) -> bool {
    face(family, Weight::Regular).glyph_index(c).is_some()
}

/// Devanagari's own characters (its block, the danda and double danda among them; Devanagari
/// Extended; Vedic Extensions).
pub fn is_devanagari(c: char) -> bool {
    matches!(c, '\u{0900}'..='\u{097F}' | '\u{A8E0}'..='\u{A8FF}' | '\u{1CD0}'..='\u{1CFF}')
}

/// Bidi controls could reorder the picture's text: never drawn.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` with only what the shipped fonts draw (the joiners Devanagari needs among them): no
/// bidi or other controls, no character neither face has (emoji among them), spaces collapsed.
pub fn drawable(text: &str) -> String {
    let kept: String = text
        .chars()
        .take(MAX_CHARS)
        .filter_map(|c| {
            if c.is_whitespace() {
                Some(' ')
            } else if c.is_control() || is_bidi_control(c) {
                None
            } else {
                (has(Family::Sans, c) || has(Family::Devanagari, c)).then_some(c)
            }
        })
        .collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Text drawn with one face.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub family: Family,
    pub text: String,
}

/// The face that draws `c` after a run of `current`: Devanagari's own with Noto Sans
/// Devanagari, other letters with Noto Sans, the rest (spaces, digits, punctuation, joiners)
/// with the current face when it has them. `None`: no face has it.
fn family_of(c: char, current: Family) -> Option<Family> {
    let candidates: &[Family] = if is_devanagari(c) {
        &[Family::Devanagari]
    } else if c.is_alphabetic() {
        &[Family::Sans, Family::Devanagari]
    } else if current == Family::Devanagari {
        &[Family::Devanagari, Family::Sans]
    } else {
        &[Family::Sans, Family::Devanagari]
    };
    candidates.iter().copied().find(|&family| has(family, c))
}

/// `text` in runs of one face each (what no face has is left out).
pub fn runs(text: &str) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for c in text.chars() {
        let current = runs.last().map_or(Family::Sans, |run| run.family);
        let Some(family) = family_of(c, current) else {
            continue;
        };
        match runs.last_mut() {
            Some(run) if run.family == family => run.text.push(c),
            _ => runs.push(Run {
                family,
                text: c.to_string(),
            }),
        }
    }
    runs
}

/// `run` shaped in `weight` as resvg shapes it: its advance, and where each of its pieces
/// starts (a byte of `run.text`, and how far in), in ems (multiply by the font size for
/// pixels).
///
/// A piece ends after each cluster of glyphs whose advance is more than its widest glyph's
/// (a consonant with a vowel sign beside it, a half form before a consonant): usvg 0.45 moves
/// on after a cluster by its widest glyph only, so what follows such a cluster would be drawn
/// over it. Each piece is placed by its own `x`, where this shaping puts it.
fn shape(run: &Run, weight: Weight) -> (f32, Vec<(usize, f32)>) {
    let face = face(run.family, weight);
    let mut buffer = rustybuzz::UnicodeBuffer::new();
    buffer.push_str(&run.text);
    buffer.set_direction(rustybuzz::Direction::LeftToRight);
    let shaped = rustybuzz::shape(face, &[], buffer);
    let glyphs = shaped.glyph_infos().iter().zip(shaped.glyph_positions());
    let (mut pieces, mut units, mut cluster) = (vec![(0, 0)], 0, None);
    let (mut sum, mut widest, mut cut_after) = (0, 0, false);
    for (info, position) in glyphs {
        if cluster != Some(info.cluster) {
            if cut_after {
                pieces.push((info.cluster as usize, units));
            }
            (cluster, sum, widest) = (Some(info.cluster), 0, 0);
        }
        sum += position.x_advance;
        widest = widest.max(position.x_advance);
        cut_after = sum != widest;
        units += position.x_advance;
    }
    let em = |units: i32| units as f32 / face.units_per_em() as f32;
    let pieces = pieces.into_iter().map(|(at, u)| (at, em(u))).collect();
    (em(units), pieces)
}

/// `run`'s advance as drawn in `weight`, in ems.
pub fn em_width(run: &Run, weight: Weight) -> f32 {
    shape(run, weight).0
}

/// A text's runs' widths added, in ems.
pub fn text_em_width(text: &str, weight: Weight) -> f32 {
    runs(text).iter().map(|run| em_width(run, weight)).sum()
}

/// Where a text goes: its font size (and the smallest it may shrink to before it is cut), its
/// weight, and the widest it may be, in pixels.
#[derive(Debug, Clone, Copy)]
pub struct Place {
    pub size: u32,
    pub min_size: u32,
    pub weight: Weight,
    pub max_width: f32,
}

/// Part of a line drawn with one face from its own x.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    pub family: Family,
    pub text: String,
    /// Where it starts, in pixels from the line's start.
    pub at: f32,
}

/// A text fitted to its place: the size it is drawn at, its pieces, and its width in pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub size: u32,
    pub pieces: Vec<Piece>,
    pub width: f32,
}

impl Line {
    /// The line's text, every piece in order.
    pub fn text(&self) -> String {
        self.pieces.iter().map(|p| p.text.as_str()).collect()
    }
}

/// `text` fitted to `place`: only what is drawable, at the largest size from `place.size` down
/// to `place.min_size` at which it fits whole, else at the smallest size, cut to fit.
pub fn fit(text: &str, place: Place) -> Line {
    let text = drawable(text);
    let ems = text_em_width(&text, place.weight);
    let fits_at = |size: u32| ems * size as f32 <= place.max_width;
    let size = (place.min_size..=place.size)
        .rev()
        .find(|&size| fits_at(size))
        .unwrap_or(place.min_size);
    let text = if fits_at(size) {
        text
    } else {
        cut(&text, place.weight, place.max_width / size as f32)
    };
    let px = size as f32;
    let (mut pieces, mut width) = (Vec::new(), 0.0);
    for run in runs(&text) {
        let (advance, starts) = shape(&run, place.weight);
        let ends = starts.iter().skip(1).map(|&(at, _)| at);
        for (&(start, offset), end) in starts.iter().zip(ends.chain([run.text.len()])) {
            pieces.push(Piece {
                family: run.family,
                text: run.text[start..end].to_owned(),
                at: width + offset * px,
            });
        }
        width += advance * px;
    }
    Line {
        size,
        pieces,
        width,
    }
}

/// The longest start of `text`, whole grapheme clusters, that with "…" after it is at most
/// `max_ems` wide (just "…" when not even one cluster fits). A cut leaves no space, opening
/// bracket or separator dangling before the "…" ("2026 (…" is "2026…").
pub fn cut(text: &str, weight: Weight, max_ems: f32) -> String {
    let clusters: Vec<&str> = text.graphemes(true).collect();
    let dangling = |c: char| {
        c.is_whitespace() || matches!(c, '(' | '[' | '{' | '·' | ',' | ':' | ';' | '-' | '–' | '—')
    };
    let with_ellipsis =
        |n: usize| format!("{}…", clusters[..n].concat().trim_end_matches(dangling));
    let fits = |n: usize| text_em_width(&with_ellipsis(n), weight) <= max_ems;
    // Wider with every cluster: the most that fits, by halving.
    let (mut fitting, mut too_many) = (0, clusters.len());
    while too_many - fitting > 1 {
        let middle = (fitting + too_many) / 2;
        if fits(middle) {
            fitting = middle;
        } else {
            too_many = middle;
        }
    }
    with_ellipsis(fitting)
}
