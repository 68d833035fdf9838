//! Rooms: their short codes and settings, shared by the server and the browser.

use serde::{Deserialize, Serialize};

use crate::i18n::td_string;
use crate::identity::model::{Avatar, DisplayName, Invalid, UserId};
pub use crate::ids::{RoomCode, RoomId, CODE_ALPHABET, CODE_LEN};

/// What the host chooses for a room.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomSettings {
    pub max_players: u8,
    pub rounds: u8,
    pub window_ms: u16,
    pub public: bool,
}

impl Default for RoomSettings {
    fn default() -> Self {
        Self {
            max_players: 8,
            rounds: 10,
            window_ms: 3000,
            public: false,
        }
    }
}

impl RoomSettings {
    pub const PLAYERS: std::ops::RangeInclusive<u8> = 2..=12;
    pub const ROUNDS: std::ops::RangeInclusive<u8> = 1..=30;
    pub const WINDOW_MS: std::ops::RangeInclusive<u16> = 1000..=10_000;

    /// The same settings, or the first reason they are out of bounds (in the request's
    /// language).
    pub fn validate(self) -> Result<Self, Invalid> {
        let l = crate::lang::locale();
        if !Self::PLAYERS.contains(&self.max_players) {
            return Err(Invalid(td_string!(l, rooms.errors.max_players).to_string()));
        }
        if !Self::ROUNDS.contains(&self.rounds) {
            return Err(Invalid(td_string!(l, rooms.errors.rounds).to_string()));
        }
        if !Self::WINDOW_MS.contains(&self.window_ms) {
            return Err(Invalid(td_string!(l, rooms.errors.window).to_string()));
        }
        Ok(self)
    }
}

/// What a room plays when not the whole built-in catalog (the host chooses it in the lobby): a
/// category of the catalog, or a deck (`decks`). Kept on the room's META as a map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomDeck {
    /// A deck's code, or `cat:<category>` for one category of the catalog (see
    /// [`RoomDeck::pick`]).
    pub pick: String,
    /// What the room's settings call it: a deck's title, a category's name in the language of
    /// the host who chose it.
    pub label: String,
    /// How many things it had when chosen: a room asks for this many rounds at most.
    pub things: u32,
}

/// A [`RoomDeck`]'s pick, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeckPick {
    Category(crate::catalog::model::Category),
    Deck(crate::ids::DeckCode),
}

impl RoomDeck {
    /// The prefix of a category's pick.
    pub const CATEGORY: &'static str = "cat:";

    pub fn pick(&self) -> Option<DeckPick> {
        match self.pick.strip_prefix(Self::CATEGORY) {
            Some(slug) => crate::catalog::model::Category::from_slug(slug).map(DeckPick::Category),
            None => crate::ids::DeckCode::parse(&self.pick)
                .ok()
                .map(DeckPick::Deck),
        }
    }

    /// The deck's code, when the room plays a deck (not the catalog, nor a category of it).
    pub fn deck_code(&self) -> Option<crate::ids::DeckCode> {
        match self.pick()? {
            DeckPick::Deck(code) => Some(code),
            DeckPick::Category(_) => None,
        }
    }
}

/// A rule a host can set for strangers (both off by default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RoomRule {
    /// Players get friendly names: each who joins is given two words in the page's language
    /// (`rooms::friendly`), and nobody types a name.
    Friendly,
    /// The host approves each join: a visitor asks, and waits in a queue the host lets in or
    /// turns away from.
    Approve,
}

/// The host's rules for strangers, as the room keeps them (on META).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RoomRules {
    pub friendly: bool,
    pub approve: bool,
}

/// Where a room is in its life: gathering players (and between matches), or playing a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RoomState {
    Lobby,
    Playing,
}

/// A player in a room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomPlayer {
    pub user_id: UserId,
    pub nickname: DisplayName,
    pub avatar: Avatar,
    /// The look they wear (copied from their profile when they joined).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub look: Option<crate::ids::Look>,
    pub joined_at_ms: i64,
    /// Shown as away: no live page of theirs has been heard from lately, on any instance (see
    /// [`PRESENCE_AWAY_MS`]). Set on the snapshots the live stream sends; never stored.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub away: bool,
}

/// Everything the lobby shows: one Query of the room partition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lobby {
    pub code: RoomCode,
    /// The room itself, for good (its code is issued again after it expires): what its kept
    /// matches, their list and its boards are keyed by.
    pub id: RoomId,
    pub host_id: UserId,
    pub settings: RoomSettings,
    pub state: RoomState,
    /// In join order: the first is the longest present.
    pub players: Vec<RoomPlayer>,
    /// Who asked to join and waits for the host (a room whose host approves each join), oldest
    /// first: their name and avatar as they will join. Sent to browsers, so a host's page knows
    /// that someone waits and an asker's page that they still do (the list itself is drawn by
    /// the server).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub asking: Vec<RoomPlayer>,
    /// The host's rules for strangers. Server-side only: the forms the server draws follow
    /// them, and every page load reads them with the room.
    #[cfg(feature = "ssr")]
    #[serde(skip)]
    pub rules: RoomRules,
    /// Grows with every change to the room; a watcher compares it to see news.
    pub version: u64,
    pub created_at_ms: i64,
    /// What the room plays, when not the whole catalog. (The browser is sent its label alone,
    /// by the room's wire form.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(feature = "ssr"), serde(skip))]
    pub deck: Option<RoomDeck>,
    /// The host locked the room: nobody new may join (players in it stay, and may rejoin).
    #[serde(default)]
    pub locked: bool,
    /// While the host's suggestion box is open (`crate::suggest`): a number that moves with
    /// every suggestion, vote and answer, so a host's page knows its list is out of date.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggest: Option<u32>,
    /// The box's number when the host last put a ruling to the room's vote: a player's page
    /// drawn before it says a vote is open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vote: Option<u32>,
    /// How many joined the room's audience ([`AUDIENCE_LIMIT`] at most): people who tap along
    /// in its matches without a seat in them, scored for themselves alone. Server-side only
    /// (browsers are sent each round's counts), passed between instances by `live::peers`.
    #[serde(skip)]
    pub audience: u32,
    /// When the host was last seen (epoch ms): in the table, when hosting last passed to them
    /// (written only then); on an instance, moved on by the instances' news while a live stream
    /// of theirs is open on any of them (every [`HOST_BEAT_MS`], never written). `None` for a
    /// room from before hosts were seen. Server-side only, and not sent to browsers.
    #[serde(skip)]
    pub host_seen_ms: Option<i64>,
    /// The host the room was last handed on from because they were away: told who hosts now
    /// when they come back, and given the room back if they return in time (see
    /// [`Lobby::may_take_back`]). Cleared when hosting changes any other way. Server-side
    /// only (the page's server-drawn part tells them), passed between instances by
    /// `live::peers`.
    #[cfg(feature = "ssr")]
    #[serde(skip)]
    pub away_host: Option<UserId>,
    /// Until when (epoch ms) the away host gets the room back by coming back: [`HOST_RETURN_MS`]
    /// after the hand-over, and never once a match has started since. Server-side only (the
    /// browser needs only who was away), passed between instances by `live::peers`.
    #[cfg(feature = "ssr")]
    #[serde(skip)]
    pub away_until_ms: Option<i64>,
}

/// A host unseen for longer than this (no live stream of theirs open on any instance, as the
/// instances tell each other) hands the room on to the longest-present other player.
pub const HOST_AWAY_MS: i64 = 30_000;

/// A player none of whose live pages has been heard from for this long (the instances tell each
/// other who listens every [`HOST_BEAT_MS`]) is shown away, greyed, until one is back.
pub const PRESENCE_AWAY_MS: i64 = 20_000;

/// The most people a room's audience takes (a classroom, a hall): past it, joining the audience
/// is refused. Each one's calls are one item, read once at each round's close.
pub const AUDIENCE_LIMIT: u32 = 1_000;

/// A host handed away from comes back within this long, and no match was started meanwhile:
/// the room is theirs again, on their own page load or live stream.
pub const HOST_RETURN_MS: i64 = 10 * 60_000;
/// How often an instance holding one of the host's live streams tells the other instances that
/// the host is here (news between instances: no write, no redraw).
pub const HOST_BEAT_MS: i64 = 10_000;
// A host whose beats all arrive is never judged away: three fit in the grace, so two may be lost.
const _: () = assert!(HOST_BEAT_MS * 3 <= HOST_AWAY_MS);

/// Whether a host last seen at `seen_ms` is away at `now_ms`, after `away_ms` unseen
/// ([`HOST_AWAY_MS`] but in tests). A room with no `host_seen` (made before hosts were seen) is
/// never judged away by it alone.
pub fn host_is_away(seen_ms: Option<i64>, now_ms: i64, away_ms: i64) -> bool {
    seen_ms.is_some_and(|seen| now_ms - seen > away_ms)
}

impl Lobby {
    pub fn player(&self, user: &UserId) -> Option<&RoomPlayer> {
        self.players.iter().find(|p| &p.user_id == user)
    }

    /// The avatar the room's join form offers, already chosen: the first of the twelve, in the
    /// picker's order, that nobody in the room has; with all twelve taken, by join order,
    /// cycling. A player who skips the picker is then not a third identical crow on the podium.
    pub fn free_avatar(&self) -> Avatar {
        Avatar::ALL
            .into_iter()
            .find(|a| self.players.iter().all(|p| p.avatar != *a))
            .unwrap_or(Avatar::ALL[self.players.len() % Avatar::ALL.len()])
    }

    /// Who hosts next if the host goes: the longest-present other player.
    pub fn next_host(&self) -> Option<&RoomPlayer> {
        self.players.iter().find(|p| p.user_id != self.host_id)
    }

    /// The player hosting should pass to at `now_ms` because the host is away (unseen for
    /// `away_ms`), if any.
    pub fn successor_if_host_away(&self, now_ms: i64, away_ms: i64) -> Option<&RoomPlayer> {
        host_is_away(self.host_seen_ms, now_ms, away_ms)
            .then(|| self.next_host())
            .flatten()
    }

    /// Whether `user`, back at `now_ms`, takes back the room handed on while they were away:
    /// they were its host, are still in it, come back within [`HOST_RETURN_MS`], and no match
    /// has started since (nor is one in play).
    #[cfg(feature = "ssr")]
    pub fn may_take_back(&self, user: &UserId, now_ms: i64) -> bool {
        self.state == RoomState::Lobby
            && self.away_host.as_ref() == Some(user)
            && &self.host_id != user
            && self.away_until_ms.is_some_and(|until| now_ms < until)
            && self.player(user).is_some()
    }

    /// Who hosts now, told to `user` when the room was handed on from them while they were
    /// away and they have not got it back.
    #[cfg(feature = "ssr")]
    pub fn handed_on_from(&self, user: &UserId) -> Option<&RoomPlayer> {
        (self.away_host.as_ref() == Some(user) && &self.host_id != user)
            .then(|| self.player(&self.host_id))
            .flatten()
    }

    /// (The browser's copy of a room keeps no away host: the server draws that note.)
    #[cfg(not(feature = "ssr"))]
    pub fn handed_on_from(&self, _user: &UserId) -> Option<&RoomPlayer> {
        None
    }

    /// The host's rules for strangers (the browser's copy keeps none: the server draws the forms
    /// that follow them).
    #[cfg(feature = "ssr")]
    pub fn rules(&self) -> RoomRules {
        self.rules
    }

    #[cfg(not(feature = "ssr"))]
    pub fn rules(&self) -> RoomRules {
        RoomRules::default()
    }

    /// Whether `user` waits to be let in.
    pub fn is_asking(&self, user: &UserId) -> bool {
        self.asking.iter().any(|p| &p.user_id == user)
    }

    pub fn is_full(&self) -> bool {
        self.players.len() >= usize::from(self.settings.max_players)
    }
}

/// A public room with free seats, as the home page lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenRoom {
    pub code: RoomCode,
    pub player_count: u32,
    pub max_players: u8,
    pub created_at_ms: i64,
}
