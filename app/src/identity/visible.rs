//! The server's full rules for a name's characters (the browser bundle carries none of their
//! Unicode tables; it checks the simpler rules in `model`): every format character is refused
//! (the emoji joiner only inside an emoji sequence), and so is every character that renders as
//! nothing (Hangul fillers, the blank Braille pattern, variation selectors outside emoji,
//! private-use and unassigned code points); a name needs at least one character that is not
//! a combining mark; and no character carries more than [`MAX_MARKS_PER_CHARACTER`] combining
//! marks (a tower of them spills over the lines around the name).

use unicode_properties::{GeneralCategory as Gc, UnicodeEmoji, UnicodeGeneralCategory};

fn renders_blank(c: char) -> bool {
    matches!(
        c,
        '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' | '\u{2800}' | '\u{034F}'
            | '\u{17B4}' | '\u{17B5}' | '\u{180B}'..='\u{180F}' | '\u{1D159}'
            | '\u{E0100}'..='\u{E01EF}'
    )
}

fn is_emoji(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_emoji_char() && !c.is_ascii())
}

/// `Err` holds the player-readable reason, in the page's language.
pub(super) fn check(raw: &str) -> Result<(), String> {
    use crate::i18n::td_string;
    let chars: Vec<char> = raw.chars().collect();
    let mut base = false;
    for (i, &c) in chars.iter().enumerate() {
        let before = i.checked_sub(1).and_then(|j| chars.get(j)).copied();
        let after = chars.get(i + 1).copied();
        let category = c.general_category();
        let allowed_in_emoji = match c {
            // The zero-width joiner, between two emoji (🐦‍⬛).
            '\u{200D}' => is_emoji(before) && is_emoji(after),
            // The emoji presentation selector, after an emoji (❤️).
            '\u{FE0F}' => is_emoji(before),
            _ => false,
        };
        let refused = !allowed_in_emoji
            && (matches!(
                category,
                Gc::Format | Gc::PrivateUse | Gc::Unassigned | Gc::Surrogate
            ) || renders_blank(c)
                || ('\u{FE00}'..='\u{FE0F}').contains(&c));
        if refused {
            return Err(
                td_string!(crate::lang::locale(), identity.errors.name_invisible).to_string(),
            );
        }
        let mark = matches!(
            category,
            Gc::NonspacingMark | Gc::SpacingMark | Gc::EnclosingMark
        );
        base |= !mark && !c.is_whitespace() && !allowed_in_emoji;
    }
    if base || raw.trim().is_empty() {
        Ok(())
    } else {
        Err(td_string!(crate::lang::locale(), identity.errors.name_needs_letter).to_string())
    }
}

/// The most combining marks (nonspacing `Mn` and enclosing `Me`) one character may carry. Real
/// names need up to three: in Devanagari a consonant takes a nukta, a vowel sign below or above
/// and a candrabindu or anusvara (`क़ुँ`), and a virama joins a conjunct (`क्ष`, one mark each);
/// decomposed Vietnamese takes two (`ễ`). Spacing vowel signs (`Mc`: `ा`, `ि`, `ो`) take room
/// of their own and are not counted.
pub const MAX_MARKS_PER_CHARACTER: usize = 3;

/// `Err` holds the player-readable reason, in the page's language, when a character carries
/// more than [`MAX_MARKS_PER_CHARACTER`] combining marks (counted since the last character
/// that is not a mark).
pub(super) fn check_marks(raw: &str) -> Result<(), String> {
    use crate::i18n::td_string;
    let mut marks = 0;
    for c in raw.chars() {
        match c.general_category() {
            Gc::NonspacingMark | Gc::EnclosingMark => marks += 1,
            Gc::SpacingMark => {}
            _ => marks = 0,
        }
        if marks > MAX_MARKS_PER_CHARACTER {
            return Err(td_string!(
                crate::lang::locale(),
                identity.errors.name_marks,
                max = MAX_MARKS_PER_CHARACTER
            )
            .to_string());
        }
    }
    Ok(())
}
