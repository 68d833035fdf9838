//! Devanagari read as Latin letters, the way Hindi is written in romanised chat, so one list of
//! words in Latin letters also sees a word written in Devanagari, or half in each ("चूtiya").
//!
//! A consonant carries the vowel "a" unless a vowel sign or the virama follows it. Hindi does not
//! say every one of those vowels: "मादरचोद" is said "madarchod", not "madarachoda". Both readings
//! are given ([`Schwa::Kept`] and [`Schwa::Dropped`]), since romanised spellings use either
//! ("bhosadike" and "bhosdike").

/// Which reading of the inherent vowel.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Schwa {
    /// Every inherent "a" written: "madarachoda".
    Kept,
    /// The inherent "a" dropped at the end of a word and between two spoken vowels as Hindi
    /// does: "madarchod".
    Dropped,
}

pub fn is_devanagari(c: char) -> bool {
    ('\u{0900}'..='\u{097F}').contains(&c)
}

fn consonant(c: char) -> Option<&'static str> {
    Some(match c {
        'क' => "k",
        'ख' => "kh",
        'ग' => "g",
        'घ' => "gh",
        'ङ' => "n",
        'च' => "ch",
        'छ' => "chh",
        'ज' => "j",
        'झ' => "jh",
        'ञ' => "n",
        'ट' => "t",
        'ठ' => "th",
        'ड' => "d",
        'ढ' => "dh",
        'ण' => "n",
        'त' => "t",
        'थ' => "th",
        'द' => "d",
        'ध' => "dh",
        'न' => "n",
        'प' => "p",
        'फ' => "ph",
        'ब' => "b",
        'भ' => "bh",
        'म' => "m",
        'य' => "y",
        'र' => "r",
        'ल' => "l",
        'ळ' => "l",
        'व' => "v",
        'श' => "sh",
        'ष' => "sh",
        'स' => "s",
        'ह' => "h",
        _ => return None,
    })
}

fn vowel_sign(c: char) -> Option<&'static str> {
    Some(match c {
        'ा' => "a",
        'ि' | 'ी' => "i",
        'ु' | 'ू' => "u",
        'ृ' => "ri",
        'े' | 'ॅ' => "e",
        'ै' => "ai",
        'ो' | 'ॉ' => "o",
        'ौ' => "au",
        _ => return None,
    })
}

fn independent_vowel(c: char) -> Option<&'static str> {
    Some(match c {
        'अ' | 'आ' => "a",
        'इ' | 'ई' => "i",
        'उ' | 'ऊ' => "u",
        'ऋ' => "ri",
        'ए' | 'ऍ' => "e",
        'ऐ' => "ai",
        'ओ' | 'ऑ' => "o",
        'औ' => "au",
        _ => return None,
    })
}

/// One syllable: its consonants (empty for a vowel standing alone), its vowel (`None` for the
/// inherent one), whether a virama ended it (no vowel at all) and what follows the vowel (a
/// nasal sign).
#[derive(Default)]
struct Syllable {
    consonants: String,
    vowel: Option<&'static str>,
    bare: bool,
    coda: &'static str,
    dropped: bool,
}

/// The Latin reading of a run of Devanagari (other characters are the caller's).
pub fn to_latin(run: &str, schwa: Schwa) -> String {
    let mut syllables: Vec<Syllable> = Vec::new();
    for c in run.chars() {
        if let Some(latin) = consonant(c) {
            // After a virama the consonant joins the one before it ("क्ष": "ksh").
            match syllables.last_mut() {
                Some(last) if last.bare && !last.consonants.is_empty() => {
                    last.bare = false;
                    last.consonants.push_str(latin);
                }
                _ => syllables.push(Syllable {
                    consonants: latin.to_owned(),
                    ..Syllable::default()
                }),
            }
        } else if let Some(latin) = independent_vowel(c) {
            syllables.push(Syllable {
                vowel: Some(latin),
                ..Syllable::default()
            });
        } else if let Some(last) = syllables.last_mut() {
            match c {
                '्' => last.bare = true,
                // The nukta makes a sound foreign to Hindi: ज़ is "z", फ़ is "f".
                '़' => {
                    if last.consonants.ends_with('j') {
                        last.consonants.pop();
                        last.consonants.push('z');
                    } else if last.consonants.ends_with("ph") {
                        last.consonants.truncate(last.consonants.len() - 2);
                        last.consonants.push('f');
                    }
                }
                'ं' | 'ँ' => last.coda = "n",
                'ः' => last.coda = "h",
                _ => {
                    if let Some(latin) = vowel_sign(c) {
                        last.vowel = Some(latin);
                    }
                }
            }
        }
    }
    if schwa == Schwa::Dropped {
        drop_schwas(&mut syllables);
    }
    let mut out = String::new();
    for s in &syllables {
        out.push_str(&s.consonants);
        if !s.bare && !s.dropped {
            out.push_str(s.vowel.unwrap_or("a"));
        }
        out.push_str(s.coda);
    }
    out
}

/// Hindi's rule for the inherent vowel, from the end of the word: the last one goes (in a word
/// of more than one syllable), and one between two vowels that are said goes.
fn drop_schwas(syllables: &mut [Syllable]) {
    let inherent = |s: &Syllable| s.vowel.is_none() && !s.bare && !s.consonants.is_empty();
    let n = syllables.len();
    if n > 1 && inherent(&syllables[n - 1]) && syllables[n - 1].coda.is_empty() {
        syllables[n - 1].dropped = true;
    }
    for i in (1..n.saturating_sub(1)).rev() {
        let said = |s: &Syllable| !s.bare && !s.dropped;
        if inherent(&syllables[i])
            && syllables[i].coda.is_empty()
            && said(&syllables[i - 1])
            && said(&syllables[i + 1])
        {
            syllables[i].dropped = true;
        }
    }
}
