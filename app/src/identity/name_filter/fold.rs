//! A name (or a list's entry) reduced to the words of Latin letters the filter compares, so the
//! usual dodges change nothing: case; look-alike letters of other scripts (the confusable
//! skeleton of Unicode TS #39, as `DisplayName::folded` uses); digits and symbols for letters
//! ("4" for a, "$" for s); spaces and punctuation between the letters of a word ("f.u.c.k",
//! "f u c k"); letters repeated ("fuuuck"); the spellings romanised Hindi varies between ("oo"
//! and "u", "ee" and "i", "w" and "v", "ph" and "f"); and Devanagari, read as Latin letters.

use unicode_normalization::UnicodeNormalization;

use super::devanagari::{self, Schwa};

/// A character written for a letter.
fn leet(c: char) -> Option<char> {
    Some(match c {
        '0' => 'o',
        '1' | '!' | '|' => 'i',
        '3' | '€' => 'e',
        '4' | '@' => 'a',
        '5' | '$' => 's',
        '7' | '+' => 't',
        '8' => 'b',
        '9' => 'g',
        _ => return None,
    })
}

/// A word of a name, folded.
pub struct Word {
    pub text: String,
    /// Written one letter at a time ("f u c k", "f.u.c.k"): its own word boundaries are lost,
    /// so the filter looks for short entries anywhere in it.
    pub spelled_out: bool,
}

fn separates(c: char) -> bool {
    c.is_whitespace() || (c.is_ascii_punctuation() && leet(c).is_none())
}

/// The name's words, folded, in the given reading of its Devanagari. A run of one-character
/// words (in any script: "च ू त") is one word.
pub fn words(raw: &str, schwa: Schwa) -> Vec<Word> {
    let normal: String = raw.nfkc().collect::<String>().to_lowercase();
    let mut pieces: Vec<(String, bool)> = Vec::new();
    let mut single = String::new();
    for piece in normal.split(separates).filter(|p| !p.is_empty()) {
        if piece.chars().count() == 1 {
            single.push_str(piece);
            continue;
        }
        if !single.is_empty() {
            pieces.push((std::mem::take(&mut single), true));
        }
        pieces.push((piece.to_owned(), false));
    }
    if !single.is_empty() {
        pieces.push((single, true));
    }
    let mut words = Vec::new();
    for (piece, spelled_out) in pieces {
        for text in latin_letters(&piece, schwa)
            .split(' ')
            .filter(|w| !w.is_empty())
        {
            words.push(Word {
                text: spelling(text),
                spelled_out,
            });
        }
    }
    words
}

/// A piece of a name in Latin letters: Devanagari read, digits and symbols for letters and
/// look-alikes of other scripts undone; anything else a space.
fn latin_letters(piece: &str, schwa: Schwa) -> String {
    let mut latin = String::with_capacity(piece.len());
    let mut run = String::new();
    for c in piece.chars() {
        if devanagari::is_devanagari(c) {
            run.push(c);
            continue;
        }
        if !run.is_empty() {
            latin.push_str(&devanagari::to_latin(&run, schwa));
            run.clear();
        }
        latin.push(c);
    }
    latin.push_str(&devanagari::to_latin(&run, schwa));

    // Digits stand for letters only among letters ("sh1t", two of them at least): "Fan 455" is
    // a number, and "P15" a player's number, not "pis".
    let lettered = latin.chars().filter(|c| c.is_alphabetic()).count() >= 2;
    let mut letters = String::with_capacity(latin.len());
    for c in latin.chars() {
        if c.is_ascii_lowercase() {
            letters.push(c);
        } else if let Some(letter) = leet(c).filter(|_| lettered) {
            letters.push(letter);
        } else if c.is_ascii() {
            letters.push(' ');
        } else {
            // A look-alike of another script: its skeleton, if that is Latin letters.
            let skeleton: String = unicode_security::skeleton(c.encode_utf8(&mut [0; 4]))
                .collect::<String>()
                .to_lowercase();
            if !skeleton.is_empty() && skeleton.chars().all(|s| s.is_ascii_lowercase()) {
                letters.push_str(&skeleton);
            } else {
                letters.push(' ');
            }
        }
    }
    letters
}

/// One word's spelling made the same however it is romanised: a letter stretched three times
/// or more is one ("fuuuck"), then "oo" is "u", "ee" is "i", "w" is "v" and "ph" is "f", then
/// every doubled letter is one ("gaand", "gand").
pub fn spelling(word: &str) -> String {
    let stretched = runs(word, |run| if run >= 3 { 1 } else { run });
    let word = stretched
        .replace("ph", "f")
        .replace("oo", "u")
        .replace("ee", "i")
        .replace('w', "v");
    runs(&word, |_| 1)
}

/// `word` with each run of one letter cut to `keep(its length)` letters.
fn runs(word: &str, keep: impl Fn(usize) -> usize) -> String {
    let chars: Vec<char> = word.chars().collect();
    let mut out = String::with_capacity(word.len());
    let mut i = 0;
    while i < chars.len() {
        let run = chars[i..].iter().take_while(|&&c| c == chars[i]).count();
        out.extend(std::iter::repeat_n(chars[i], keep(run)));
        i += run;
    }
    out
}
