//! Who plays: the typed inputs of identity. Each constructor rejects bad input with a message a
//! player can read; the browser form and the server use the same rules.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Why an input was refused, in words for the player.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{0}")]
pub struct Invalid(pub String);

fn invalid(message: impl Into<String>) -> Invalid {
    Invalid(message.into())
}

/// A player's id: a ULID (26 characters of Crockford base32), sortable by creation time.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct UserId(String);

impl UserId {
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let ok = raw.len() == 26
            && raw
                .bytes()
                .all(|b| b.is_ascii_digit() || (b.is_ascii_uppercase() && !b"ILOU".contains(&b)));
        if ok {
            Ok(Self(raw.to_owned()))
        } else {
            Err(invalid("That is not a player id."))
        }
    }

    /// An id no player has (all zeros: the epoch, no randomness), for reads that must cost
    /// the same whether or not a player exists.
    pub fn nobody() -> Self {
        Self("0".repeat(26))
    }

    /// A fresh id.
    #[cfg(feature = "ssr")]
    pub fn generate() -> Self {
        Self(ulid::Ulid::new().to_string())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The longest name shown in a lobby, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// A name shown to other players: 1 to 24 characters of any script, no control characters,
/// inner runs of spaces collapsed. Used for display names and for nicknames in a room.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct DisplayName(String);

impl DisplayName {
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        if raw
            .chars()
            .any(|c| c.is_control() || is_invisible_format(c))
        {
            return Err(invalid(
                "A name cannot contain control or invisible characters.",
            ));
        }
        #[cfg(feature = "ssr")]
        visible::check(raw)?;
        let name = raw.split_whitespace().collect::<Vec<_>>().join(" ");
        match name.chars().count() {
            0 => Err(invalid("Choose a name.")),
            n if n > MAX_NAME_CHARS => Err(invalid(format!(
                "A name is at most {MAX_NAME_CHARS} characters."
            ))),
            _ => Ok(Self(name)),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The form two names are compared in inside a room, so "Asha", "ASHA " and "Аsha" (with a
    /// Cyrillic А) are the same nickname: compatibility-normalised, lowercased, then reduced to
    /// its confusable skeleton (Unicode TS #39), which maps look-alike letters of other scripts
    /// onto one.
    #[cfg(feature = "ssr")]
    pub fn folded(&self) -> String {
        use unicode_normalization::UnicodeNormalization;
        let lower: String = self.0.nfkc().collect::<String>().to_lowercase();
        unicode_security::skeleton(&lower).collect()
    }
}

/// Bidirectional overrides and zero-width characters that would let two names look alike or
/// scramble the lobby; joiners used inside emoji sequences (U+200D) are allowed. The browser
/// checks these; the server checks every rule in [`visible`].
fn is_invisible_format(c: char) -> bool {
    matches!(c, '\u{200B}' | '\u{200C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// The server's full rules for a name's characters (the browser bundle carries none of their
/// Unicode tables): every format character is refused (the emoji joiner only inside an emoji
/// sequence), and so is every character that renders as nothing (Hangul fillers, the blank
/// Braille pattern, variation selectors outside emoji, private-use and unassigned code points);
/// and a name needs at least one character that is not a combining mark.
#[cfg(feature = "ssr")]
mod visible {
    use unicode_properties::{GeneralCategory as Gc, UnicodeEmoji, UnicodeGeneralCategory};

    use super::{invalid, Invalid};

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

    pub(super) fn check(raw: &str) -> Result<(), Invalid> {
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
                return Err(invalid(
                    "A name cannot contain invisible or blank characters.",
                ));
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
            Err(invalid(
                "A name needs at least one letter, digit or symbol.",
            ))
        }
    }
}

/// A login name: 3 to 20 of `a-z`, `0-9` and `_`, stored lowercase.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Username(String);

impl Username {
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let name = raw.trim().to_lowercase();
        let ok = (3..=20).contains(&name.len())
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if ok {
            Ok(Self(name))
        } else {
            Err(invalid(
                "A username is 3 to 20 letters, digits or underscores.",
            ))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An email address, lowercased; checked for shape only (one `@`, a dot in the domain).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let email = raw.trim().to_lowercase();
        let shaped = match email.split_once('@') {
            Some((local, domain)) => {
                !local.is_empty()
                    && domain.contains('.')
                    && !domain.starts_with('.')
                    && !domain.ends_with('.')
                    && !domain.contains('@')
            }
            None => false,
        };
        if shaped
            && email.len() <= 254
            && !email.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            Ok(Self(email))
        } else {
            Err(invalid("That does not look like an email address."))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What a player signs in with: a username, or an email address (anything with an `@`).
/// Parsed before it is used for anything, so only a well-formed login ever becomes a key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Login {
    Username(Username),
    Email(Email),
}

impl Login {
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        if raw.contains('@') {
            Email::parse(raw).map(Login::Email)
        } else {
            Username::parse(raw).map(Login::Username)
        }
    }

    /// The login as stored (lowercase), for rate-limit keys and logs.
    pub fn as_str(&self) -> &str {
        match self {
            Login::Username(name) => name.as_str(),
            Login::Email(email) => email.as_str(),
        }
    }
}

/// A password as typed: 8 to 128 characters. Never stored; only its argon2id hash is.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(..)")
    }
}

impl Password {
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        match raw.chars().count() {
            n if n < 8 => Err(invalid("A password is at least 8 characters.")),
            n if n > 128 => Err(invalid("A password is at most 128 characters.")),
            _ => Ok(Self(raw.to_owned())),
        }
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

/// A player as others see them (and as they see themselves).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    pub id: UserId,
    pub display_name: DisplayName,
    pub avatar: Avatar,
    /// Set once the guest has claimed an account.
    pub username: Option<Username>,
    /// Milliseconds since the epoch.
    pub created_at_ms: i64,
}

impl Profile {
    pub fn is_guest(&self) -> bool {
        self.username.is_none()
    }
}

/// What a player looks like in a lobby.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Avatar {
    #[default]
    Crow,
    Parrot,
    Peacock,
    Owl,
    Butterfly,
    Bee,
    Kite,
    Rocket,
    Elephant,
    Tiger,
    Monkey,
    Frog,
}

impl Avatar {
    pub const ALL: [Avatar; 12] = [
        Avatar::Crow,
        Avatar::Parrot,
        Avatar::Peacock,
        Avatar::Owl,
        Avatar::Butterfly,
        Avatar::Bee,
        Avatar::Kite,
        Avatar::Rocket,
        Avatar::Elephant,
        Avatar::Tiger,
        Avatar::Monkey,
        Avatar::Frog,
    ];

    /// The name forms and the table use (`crow`, `peacock`, …).
    pub fn slug(self) -> &'static str {
        match self {
            Avatar::Crow => "crow",
            Avatar::Parrot => "parrot",
            Avatar::Peacock => "peacock",
            Avatar::Owl => "owl",
            Avatar::Butterfly => "butterfly",
            Avatar::Bee => "bee",
            Avatar::Kite => "kite",
            Avatar::Rocket => "rocket",
            Avatar::Elephant => "elephant",
            Avatar::Tiger => "tiger",
            Avatar::Monkey => "monkey",
            Avatar::Frog => "frog",
        }
    }

    /// What a screen reader says for it.
    pub fn label(self) -> &'static str {
        match self {
            Avatar::Crow => "Crow",
            Avatar::Parrot => "Parrot",
            Avatar::Peacock => "Peacock",
            Avatar::Owl => "Owl",
            Avatar::Butterfly => "Butterfly",
            Avatar::Bee => "Bee",
            Avatar::Kite => "Kite",
            Avatar::Rocket => "Rocket",
            Avatar::Elephant => "Elephant",
            Avatar::Tiger => "Tiger",
            Avatar::Monkey => "Monkey",
            Avatar::Frog => "Frog",
        }
    }

    pub fn emoji(self) -> &'static str {
        match self {
            Avatar::Crow => "🐦‍⬛",
            Avatar::Parrot => "🦜",
            Avatar::Peacock => "🦚",
            Avatar::Owl => "🦉",
            Avatar::Butterfly => "🦋",
            Avatar::Bee => "🐝",
            Avatar::Kite => "🪁",
            Avatar::Rocket => "🚀",
            Avatar::Elephant => "🐘",
            Avatar::Tiger => "🐯",
            Avatar::Monkey => "🐒",
            Avatar::Frog => "🐸",
        }
    }
}

macro_rules! string_newtype_conversions {
    ($($ty:ident),*) => {$(
        impl TryFrom<String> for $ty {
            type Error = Invalid;
            fn try_from(raw: String) -> Result<Self, Self::Error> {
                Self::parse(&raw)
            }
        }
        impl From<$ty> for String {
            fn from(value: $ty) -> Self {
                value.0
            }
        }
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    )*};
}
string_newtype_conversions!(UserId, DisplayName, Username, Email);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn avatar_slugs_are_their_serde_names() {
        for avatar in Avatar::ALL {
            let json = serde_json::to_string(&avatar).unwrap();
            assert_eq!(json, format!("\"{}\"", avatar.slug()));
            let back: Avatar = serde_json::from_str(&json).unwrap();
            assert_eq!(back, avatar);
        }
    }

    #[test]
    fn display_names_take_any_script_and_tidy_spaces() {
        assert_eq!(
            DisplayName::parse("  Asha   Rao ").unwrap().as_str(),
            "Asha Rao"
        );
        assert_eq!(DisplayName::parse("कौआ").unwrap().as_str(), "कौआ");
        assert_eq!(DisplayName::parse("🐦‍⬛ crow").unwrap().as_str(), "🐦‍⬛ crow");
        assert_eq!(DisplayName::parse("ASHA").unwrap().folded(), "asha");
    }

    #[test]
    fn display_names_refuse_blank_long_control_and_invisible() {
        for bad in [
            "",
            "   ",
            "a\u{7}b",
            "line\nbreak",
            "rtl\u{202E}olleh",
            "zero\u{200B}width",
        ] {
            assert!(DisplayName::parse(bad).is_err(), "{bad:?}");
        }
        assert!(DisplayName::parse(&"x".repeat(MAX_NAME_CHARS)).is_ok());
        assert!(DisplayName::parse(&"x".repeat(MAX_NAME_CHARS + 1)).is_err());
        assert!(
            DisplayName::parse(&"क".repeat(MAX_NAME_CHARS)).is_ok(),
            "counted in characters"
        );
    }

    #[cfg(feature = "ssr")]
    #[test]
    fn names_that_render_blank_or_hide_characters_are_refused() {
        for bad in [
            "\u{3164}",
            "\u{3164}\u{3164}",
            "\u{2800}",
            "Asha\u{2060}",
            "A\u{2061}sha",
            "\u{E0041}\u{E0042}",
            "\u{0301}\u{0301}",
            "\u{115F}\u{1160}",
            "x\u{FE00}",
            "\u{E000}",
            "\u{AD}Asha",
            "a\u{200D}b",
        ] {
            assert!(DisplayName::parse(bad).is_err(), "{bad:?}");
        }
        for good in ["🐦‍⬛ crow", "❤️ Asha", "é", "कौआ", "Zoë", "!!", "😀"] {
            assert!(DisplayName::parse(good).is_ok(), "{good:?}");
        }
    }

    #[cfg(feature = "ssr")]
    #[test]
    fn look_alike_names_fold_to_one_nickname() {
        let fold = |s: &str| DisplayName::parse(s).unwrap().folded();
        assert_eq!(fold("Asha"), fold("ASHA "));
        assert_eq!(fold("Asha"), fold("\u{0410}sha"), "Cyrillic A");
        assert_eq!(fold("Asha"), fold("Ａｓｈａ"), "full-width");
        assert_eq!(fold("rn"), fold("m"), "the skeleton of rn is m");
        assert_ne!(fold("Asha"), fold("Ravi"));
    }

    #[test]
    fn logins_are_usernames_or_emails_and_nothing_longer() {
        assert_eq!(
            Login::parse("Asha_99").unwrap(),
            Login::Username(Username::parse("asha_99").unwrap())
        );
        assert!(matches!(Login::parse("a@b.co"), Ok(Login::Email(_))));
        assert!(Login::parse(&"a".repeat(2048)).is_err());
        assert!(Login::parse(&format!("{}@x.com", "a".repeat(2048))).is_err());
    }

    #[test]
    fn usernames_are_lowercase_slugs() {
        assert_eq!(Username::parse(" Asha_99 ").unwrap().as_str(), "asha_99");
        for bad in ["ab", "a b c", "asha!", "आशा", &"a".repeat(21)] {
            assert!(Username::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn emails_are_lowercased_and_shaped() {
        assert_eq!(
            Email::parse(" Asha@Example.COM ").unwrap().as_str(),
            "asha@example.com"
        );
        for bad in [
            "asha",
            "@x.com",
            "asha@",
            "asha@com",
            "a@b@c.com",
            "a b@c.com",
            "asha@.com",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn passwords_have_bounds_and_never_print() {
        assert!(Password::parse("short").is_err());
        assert!(Password::parse(&"p".repeat(129)).is_err());
        let password = Password::parse("correct horse").unwrap();
        assert_eq!(format!("{password:?}"), "Password(..)");
    }

    #[cfg(feature = "ssr")]
    #[test]
    fn generated_user_ids_parse() {
        let id = UserId::generate();
        assert_eq!(UserId::parse(id.as_str()).unwrap(), id);
        assert!(
            UserId::parse("01ARZ3NDEKTSV4RRFFQ69G5FAI").is_err(),
            "I is not Crockford"
        );
        assert!(UserId::parse("short").is_err());
    }

    #[test]
    fn typed_values_refuse_bad_input_when_deserialized() {
        assert!(serde_json::from_str::<DisplayName>("\"\"").is_err());
        assert!(serde_json::from_str::<Username>("\"A!\"").is_err());
        assert!(serde_json::from_str::<Avatar>("\"dragon\"").is_err());
    }
}
