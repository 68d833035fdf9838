//! Which board: a metric, a period and a scope, each with a written form that is at once the
//! board's address (`/lb/<metric>/<period>/<scope>`) and part of its key (`LB#<metric>.<period>.
//! <scope>`). Parsing checks the form only; whether a season exists is the server's business.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{invalid, DeckCode, Invalid, RoomCode, RoomId};
use crate::i18n::td_string;

/// What a board ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Metric {
    /// A player's best single-match score.
    Best,
    /// The points a player scored in all their matches added up.
    Total,
}

impl Metric {
    pub const ALL: [Metric; 2] = [Metric::Best, Metric::Total];

    pub fn as_str(self) -> &'static str {
        match self {
            Metric::Best => "best",
            Metric::Total => "total",
        }
    }

    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        match raw {
            "best" => Ok(Metric::Best),
            "total" => Ok(Metric::Total),
            _ => Err(invalid(
                td_string!(crate::lang::locale(), common.invalid.metric).to_string(),
            )),
        }
    }
}

/// A calendar date (UTC), checked to exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Day {
    pub year: i32,
    pub month: u8,
    pub day: u8,
}

impl Day {
    pub fn new(year: i32, month: u8, day: u8) -> Result<Self, Invalid> {
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        let days = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => {
                return Err(invalid(
                    td_string!(crate::lang::locale(), common.invalid.month).to_string(),
                ))
            }
        };
        if !(2000..=9999).contains(&year) || day == 0 || day > days {
            return Err(invalid(
                td_string!(crate::lang::locale(), common.invalid.day).to_string(),
            ));
        }
        Ok(Self { year, month, day })
    }
}

impl Day {
    /// A date as `yyyy-mm-dd` (as a day's board names it).
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        match Period::parse(&format!("day-{raw}"))? {
            Period::Day(day) => Ok(day),
            _ => Err(invalid(
                td_string!(crate::lang::locale(), common.invalid.day).to_string(),
            )),
        }
    }

    /// Days since 1970-01-01 (negative before it), by the proleptic Gregorian calendar
    /// (Howard Hinnant's `days_from_civil`).
    pub fn index(self) -> i64 {
        let y = i64::from(self.year) - i64::from(self.month <= 2);
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = i64::from(self.month);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(self.day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }
}

/// A day as an address writes it (`2026-11-29`): a [`Day`] that crosses the wire as that text,
/// for a server function's argument (a stored [`Day`] keeps its own form).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct DayText(pub Day);

impl TryFrom<String> for DayText {
    type Error = Invalid;
    fn try_from(raw: String) -> Result<Self, Self::Error> {
        Day::parse(&raw).map(DayText)
    }
}

impl From<DayText> for String {
    fn from(day: DayText) -> Self {
        day.0.to_string()
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// A season's id: 1 to 24 of `a-z`, `0-9` and `-`. The default seasons are calendar quarters
/// (`2026-q4`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct SeasonId(String);

impl SeasonId {
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let ok = (1..=24).contains(&raw.len())
            && raw
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if ok {
            Ok(Self(raw.to_owned()))
        } else {
            Err(invalid(
                td_string!(crate::lang::locale(), common.invalid.season_id).to_string(),
            ))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

super::string_newtype_conversions!(SeasonId);

/// The stretch of time a board covers.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Period {
    Day(Day),
    /// An ISO 8601 week: its year and number (1–53).
    Week {
        year: i32,
        week: u8,
    },
    Season(SeasonId),
    AllTime,
}

impl Period {
    /// Which kind of period, as the links name it.
    pub fn kind(&self) -> PeriodKind {
        match self {
            Period::Day(_) => PeriodKind::Day,
            Period::Week { .. } => PeriodKind::Week,
            Period::Season(_) => PeriodKind::Season,
            Period::AllTime => PeriodKind::AllTime,
        }
    }

    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let bad = || invalid(td_string!(crate::lang::locale(), common.invalid.period).to_string());
        if raw == "all" {
            return Ok(Period::AllTime);
        }
        if let Some(date) = raw.strip_prefix("day-") {
            let parts: Vec<&str> = date.split('-').collect();
            let [y, m, d] = parts.as_slice() else {
                return Err(bad());
            };
            if y.len() != 4 || m.len() != 2 || d.len() != 2 {
                return Err(bad());
            }
            let num = |s: &str| s.parse::<u16>().map_err(|_| bad());
            return Day::new(i32::from(num(y)?), num(m)? as u8, num(d)? as u8).map(Period::Day);
        }
        if let Some(week) = raw.strip_prefix("week-") {
            let (y, w) = week.split_once("-W").ok_or_else(bad)?;
            if y.len() != 4
                || w.len() != 2
                || !y.bytes().chain(w.bytes()).all(|b| b.is_ascii_digit())
            {
                return Err(bad());
            }
            let year: i32 = y.parse().map_err(|_| bad())?;
            let week: u8 = w.parse().map_err(|_| bad())?;
            if !(2000..=9999).contains(&year) || !(1..=53).contains(&week) {
                return Err(invalid(
                    td_string!(crate::lang::locale(), common.invalid.week).to_string(),
                ));
            }
            return Ok(Period::Week { year, week });
        }
        if let Some(id) = raw.strip_prefix("season-") {
            return SeasonId::parse(id).map(Period::Season);
        }
        Err(bad())
    }
}

impl fmt::Display for Period {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Period::Day(day) => write!(f, "day-{day}"),
            Period::Week { year, week } => write!(f, "week-{year:04}-W{week:02}"),
            Period::Season(id) => write!(f, "season-{}", id.as_str()),
            Period::AllTime => f.write_str("all"),
        }
    }
}

/// The kinds of period, for the links that pick one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PeriodKind {
    Day,
    Week,
    Season,
    AllTime,
}

impl PeriodKind {
    pub const ALL: [PeriodKind; 4] = [
        PeriodKind::Day,
        PeriodKind::Week,
        PeriodKind::Season,
        PeriodKind::AllTime,
    ];

    pub fn label(self) -> &'static str {
        match self {
            PeriodKind::Day => "Today",
            PeriodKind::Week => "This week",
            PeriodKind::Season => "This season",
            PeriodKind::AllTime => "All time",
        }
    }
}

/// Whose matches a board counts: everyone's, or one room's (by the room's id: a later room
/// with the same code has a board of its own; a room from before rooms had ids, by its code).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Scope {
    Global,
    Room(RoomId),
    /// Everyone's daily flights (a board of best scores: today's, the week's, all time).
    Daily,
    /// One deck's matches, wherever they were played (best scores, all time): a deck's matches
    /// count here and on their room's boards, never on everyone's (`docs/decks.md`).
    Deck(DeckCode),
}

impl Scope {
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        match raw {
            "global" => Ok(Scope::Global),
            "daily" => Ok(Scope::Daily),
            _ if raw.starts_with("deck-") => {
                DeckCode::parse(&raw["deck-".len()..]).map(Scope::Deck)
            }
            _ => match raw.strip_prefix("room-") {
                // A room's id; or a code (typed in any case), the board of a room from before
                // rooms had ids.
                Some(room) => RoomId::parse(room)
                    .or_else(|_| RoomCode::parse(room).map(|code| RoomId::legacy(&code)))
                    .map(Scope::Room),
                None => Err(invalid(
                    td_string!(crate::lang::locale(), common.invalid.scope).to_string(),
                )),
            },
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scope::Global => f.write_str("global"),
            Scope::Daily => f.write_str("daily"),
            Scope::Room(room) => write!(f, "room-{}", room.as_str()),
            Scope::Deck(deck) => write!(f, "deck-{}", deck.as_str()),
        }
    }
}

/// One board. Totals are kept for the global scope over a week, a season or all time; best
/// scores for every period and scope.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BoardId {
    pub metric: Metric,
    pub period: Period,
    pub scope: Scope,
}

impl BoardId {
    pub fn new(metric: Metric, period: Period, scope: Scope) -> Result<Self, Invalid> {
        if metric == Metric::Total && (scope != Scope::Global || period.kind() == PeriodKind::Day) {
            return Err(invalid(
                td_string!(crate::lang::locale(), common.invalid.totals).to_string(),
            ));
        }
        // A deck has one board: best scores of all time.
        if matches!(scope, Scope::Deck(_)) && (metric, &period) != (Metric::Best, &Period::AllTime)
        {
            return Err(invalid(
                td_string!(crate::lang::locale(), common.invalid.board).to_string(),
            ));
        }
        Ok(Self {
            metric,
            period,
            scope,
        })
    }

    /// From an address's three parts.
    pub fn parse(metric: &str, period: &str, scope: &str) -> Result<Self, Invalid> {
        Self::new(
            Metric::parse(metric)?,
            Period::parse(period)?,
            Scope::parse(scope)?,
        )
    }

    /// From the written form `<metric>.<period>.<scope>`.
    pub fn parse_key(raw: &str) -> Result<Self, Invalid> {
        let mut parts = raw.splitn(3, '.');
        match (parts.next(), parts.next(), parts.next()) {
            (Some(m), Some(p), Some(s)) => Self::parse(m, p, s),
            _ => Err(invalid(
                td_string!(crate::lang::locale(), common.invalid.board).to_string(),
            )),
        }
    }

    /// A room's all-time board of best scores (the one `/r/<CODE>/lb` shows).
    pub fn room_best(room: &RoomId) -> Self {
        Self {
            metric: Metric::Best,
            period: Period::AllTime,
            scope: Scope::Room(room.clone()),
        }
    }

    /// A deck's board: best scores of all time on its matches.
    pub fn deck_best(deck: &DeckCode) -> Self {
        Self {
            metric: Metric::Best,
            period: Period::AllTime,
            scope: Scope::Deck(deck.clone()),
        }
    }

    /// Everyone's all-time board of best scores.
    pub fn all_time_best() -> Self {
        Self {
            metric: Metric::Best,
            period: Period::AllTime,
            scope: Scope::Global,
        }
    }

    /// `<metric>.<period>.<scope>`: what the board's key carries.
    pub fn key(&self) -> String {
        format!("{}.{}.{}", self.metric.as_str(), self.period, self.scope)
    }

    /// The board's page.
    pub fn href(&self) -> String {
        format!(
            "/lb/{}/{}/{}",
            self.metric.as_str(),
            self.period,
            self.scope
        )
    }
}

impl fmt::Display for BoardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.key())
    }
}
