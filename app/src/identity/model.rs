//! Who plays: the typed inputs of identity. Each constructor rejects bad input with a message a
//! player can read (in the page's language: see `crate::lang`; English outside a request); the
//! browser form and the server use the same rules.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::i18n::td_string;
use crate::ids::invalid;
pub use crate::ids::{Email, Invalid, UserId, Username};
use crate::lang::locale;

/// The longest name shown in a lobby, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// A name shown to other players: 1 to 24 characters of any script, no control characters,
/// inner runs of spaces collapsed. Used for display names and for nicknames in a room.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct DisplayName(String);

impl DisplayName {
    /// A name a player typed: every rule below, and on the server at most
    /// `visible::MAX_MARKS_PER_CHARACTER` combining marks on one character and nothing the name
    /// filter refuses (`identity::name_filter`; the words do not repeat the name).
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let name = Self::parse_stored(raw)?;
        #[cfg(feature = "ssr")]
        crate::identity::visible::check_marks(raw).map_err(invalid)?;
        #[cfg(feature = "ssr")]
        if crate::identity::name_filter::refuses(name.as_str())
            || (crate::identity::name_filter::any_banned()
                && crate::identity::name_filter::banned(&name.folded()))
        {
            return Err(invalid(
                td_string!(locale(), identity.errors.name_refused).to_string(),
            ));
        }
        Ok(name)
    }

    /// A name read back or made by the server (the hidden names' tag): the rules of a stored
    /// name.
    #[cfg(feature = "ssr")]
    pub(crate) fn parse_stored_name(raw: &str) -> Result<Self, Invalid> {
        Self::parse_stored(raw)
    }

    /// A name read back (from the table, or an island's props): the rules without the cap on
    /// combining marks, which came later, so a name stored before it (on a profile or a room
    /// board, which keep it for good) still loads.
    fn parse_stored(raw: &str) -> Result<Self, Invalid> {
        if raw
            .chars()
            .any(|c| c.is_control() || is_invisible_format(c))
        {
            return Err(invalid(
                td_string!(locale(), identity.errors.name_control).to_string(),
            ));
        }
        #[cfg(feature = "ssr")]
        crate::identity::visible::check(raw).map_err(invalid)?;
        let name = raw.split_whitespace().collect::<Vec<_>>().join(" ");
        match name.chars().count() {
            0 => Err(invalid(
                td_string!(locale(), identity.errors.name_empty).to_string(),
            )),
            n if n > MAX_NAME_CHARS => Err(invalid(
                td_string!(
                    locale(),
                    identity.errors.name_too_long,
                    max = MAX_NAME_CHARS
                )
                .to_string(),
            )),
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
/// checks these; the server checks every rule in `identity::visible`.
fn is_invisible_format(c: char) -> bool {
    matches!(c, '\u{200B}' | '\u{200C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
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

/// A password as typed: 8 to 128 characters. Never stored; only its argon2id hash is. It
/// crosses the wire only as a server function's argument.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Password(String);

impl From<Password> for String {
    fn from(password: Password) -> Self {
        password.0
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(..)")
    }
}

impl Password {
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        match raw.chars().count() {
            n if n < 8 => Err(invalid(
                td_string!(locale(), identity.errors.password_short).to_string(),
            )),
            n if n > 128 => Err(invalid(
                td_string!(locale(), identity.errors.password_long).to_string(),
            )),
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
    /// The look the player wears (one they bought in the shop), copied onto their place in a
    /// room when they join it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub look: Option<crate::ids::Look>,
}

impl Profile {
    pub fn is_guest(&self) -> bool {
        self.username.is_none()
    }
}

/// A player's public page (the profiles feature serves it): `/p/<id>`.
pub fn profile_path(user: &UserId) -> String {
    format!("/p/{}", user.as_str())
}

/// The page that reports a player (the reports feature serves it): `/report/<id>`.
pub fn report_path(user: &UserId) -> String {
    format!("/report/{}", user.as_str())
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

    /// What a screen reader says for it, in the page's language.
    pub fn label_in(self, l: crate::lang::Locale) -> String {
        use crate::i18n::td_string;
        match self {
            Avatar::Crow => td_string!(l, identity.avatars.crow).to_string(),
            Avatar::Parrot => td_string!(l, identity.avatars.parrot).to_string(),
            Avatar::Peacock => td_string!(l, identity.avatars.peacock).to_string(),
            Avatar::Owl => td_string!(l, identity.avatars.owl).to_string(),
            Avatar::Butterfly => td_string!(l, identity.avatars.butterfly).to_string(),
            Avatar::Bee => td_string!(l, identity.avatars.bee).to_string(),
            Avatar::Kite => td_string!(l, identity.avatars.kite).to_string(),
            Avatar::Rocket => td_string!(l, identity.avatars.rocket).to_string(),
            Avatar::Elephant => td_string!(l, identity.avatars.elephant).to_string(),
            Avatar::Tiger => td_string!(l, identity.avatars.tiger).to_string(),
            Avatar::Monkey => td_string!(l, identity.avatars.monkey).to_string(),
            Avatar::Frog => td_string!(l, identity.avatars.frog).to_string(),
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

impl TryFrom<String> for DisplayName {
    type Error = Invalid;
    fn try_from(raw: String) -> Result<Self, Self::Error> {
        Self::parse_stored(&raw)
    }
}

impl From<DisplayName> for String {
    fn from(value: DisplayName) -> Self {
        value.0
    }
}

/// A name as a player types it into a form or sends it to a server function: a [`DisplayName`]
/// by every rule of [`DisplayName::parse`] (the cap on combining marks too, which a name read
/// back from the table is spared). It is refused while the arguments are read, with the same
/// words, so a server function that takes one starts with a name it may keep.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct NewName(DisplayName);

impl NewName {
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        DisplayName::parse(raw).map(Self)
    }

    pub fn into_inner(self) -> DisplayName {
        self.0
    }
}

crate::ids::parsed_from_string!(NewName, Password);

impl From<NewName> for String {
    fn from(value: NewName) -> Self {
        value.0 .0
    }
}

impl fmt::Display for DisplayName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
