//! When a board's period starts and ends, which boards a finished match counts on, and the
//! seasons: plain functions of a time and the operator's season list.
//!
//! Days are UTC dates and weeks ISO 8601 weeks (Monday to Sunday, UTC). A season is what the
//! operator started (`udd-server season start`) and covers a time, or else the calendar quarter
//! (`2026-q4`, from 1 October to 1 January): with no seasons defined, every quarter is one.

use time::{Date, Month, OffsetDateTime, Time, Weekday};

use crate::i18n::td_string;
use crate::ids::{BoardId, Day, Metric, Period, PeriodKind, RoomId, Scope, SeasonId};
use crate::lang::Locale;
use crate::leaderboards::model::metric_label;

pub const DAY_MS: i64 = 86_400_000;

/// A season: its id, name and the time it covers (`start_ms` inclusive, `end_ms` exclusive).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Season {
    pub id: SeasonId,
    pub name: String,
    pub start_ms: i64,
    pub end_ms: i64,
}

fn date_of(ms: i64) -> Date {
    OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000))
        .unwrap_or(OffsetDateTime::UNIX_EPOCH)
        .date()
}

fn ms_of(date: Date) -> i64 {
    (date.with_time(Time::MIDNIGHT).assume_utc().unix_timestamp()) * 1000
}

fn to_date(day: Day) -> Option<Date> {
    Date::from_calendar_date(day.year, Month::try_from(day.month).ok()?, day.day).ok()
}

/// The UTC date of a time.
pub fn day_of(ms: i64) -> Day {
    let date = date_of(ms);
    Day {
        year: date.year(),
        month: u8::from(date.month()),
        day: date.day(),
    }
}

/// The ISO week of a time.
pub fn week_of(ms: i64) -> Period {
    let (year, week, _) = date_of(ms).to_iso_week_date();
    Period::Week { year, week }
}

/// Whether a year has an ISO week 53.
fn week_exists(year: i32, week: u8) -> bool {
    Date::from_iso_week_date(year, week, Weekday::Monday).is_ok()
}

/// The calendar quarter holding a time, as a season.
pub fn quarter_of(ms: i64) -> Season {
    let date = date_of(ms);
    let q = (u8::from(date.month()) - 1) / 3;
    quarter(date.year(), q + 1).expect("a date's quarter exists")
}

/// Quarter `q` (1–4) of `year`.
fn quarter(year: i32, q: u8) -> Option<Season> {
    let month = |m: u8| Month::try_from(m).ok();
    let start = Date::from_calendar_date(year, month(3 * (q - 1) + 1)?, 1).ok()?;
    let end = if q == 4 {
        Date::from_calendar_date(year + 1, Month::January, 1).ok()?
    } else {
        Date::from_calendar_date(year, month(3 * q + 1)?, 1).ok()?
    };
    Some(Season {
        id: SeasonId::parse(&format!("{year:04}-q{q}")).ok()?,
        name: format!("{year} Q{q}"),
        start_ms: ms_of(start),
        end_ms: ms_of(end),
    })
}

/// A default season's quarter from its id (`2026-q4`), if it is one.
fn quarter_named(id: &SeasonId) -> Option<Season> {
    let (year, q) = id.as_str().split_once("-q")?;
    if year.len() != 4 || q.len() != 1 {
        return None;
    }
    quarter(
        year.parse().ok()?,
        q.parse().ok().filter(|q| (1..=4).contains(q))?,
    )
}

/// Whether an id is reserved for the default quarter seasons.
pub fn is_quarter_id(id: &SeasonId) -> bool {
    quarter_named(id).is_some()
}

/// The season covering a time: the operator's season that does, else the quarter.
pub fn season_at(seasons: &[Season], ms: i64) -> Season {
    seasons
        .iter()
        .find(|s| s.start_ms <= ms && ms < s.end_ms)
        .cloned()
        .unwrap_or_else(|| quarter_of(ms))
}

/// A season by id: one of the operator's, or a quarter.
pub fn season_named(seasons: &[Season], id: &SeasonId) -> Option<Season> {
    seasons
        .iter()
        .find(|s| &s.id == id)
        .cloned()
        .or_else(|| quarter_named(id))
}

/// The period of `kind` holding a time.
pub fn period_at(kind: PeriodKind, seasons: &[Season], ms: i64) -> Period {
    match kind {
        PeriodKind::Day => Period::Day(day_of(ms)),
        PeriodKind::Week => week_of(ms),
        PeriodKind::Season => Period::Season(season_at(seasons, ms).id),
        PeriodKind::AllTime => Period::AllTime,
    }
}

/// What a period covers: `Ok(None)` for all time, `Ok(Some((start, end)))` otherwise, and an
/// error for a period that does not exist (week 53 of a 52-week year, an unknown season).
pub fn bounds(period: &Period, seasons: &[Season]) -> Result<Option<(i64, i64)>, &'static str> {
    match period {
        Period::AllTime => Ok(None),
        Period::Day(day) => {
            let start = ms_of(to_date(*day).ok_or("That day does not exist.")?);
            Ok(Some((start, start + DAY_MS)))
        }
        Period::Week { year, week } => {
            if !week_exists(*year, *week) {
                return Err("That week does not exist.");
            }
            let monday = Date::from_iso_week_date(*year, *week, Weekday::Monday)
                .map_err(|_| "That week does not exist.")?;
            let start = ms_of(monday);
            Ok(Some((start, start + 7 * DAY_MS)))
        }
        Period::Season(id) => season_named(seasons, id)
            .map(|s| Some((s.start_ms, s.end_ms)))
            .ok_or("There is no such season."),
    }
}

/// The boards one player's finished match counts on: best score on every period in the world
/// and in the room, and total points on the week, the season and all time in the world.
pub fn boards_for(finished_ms: i64, room: &RoomId, seasons: &[Season]) -> Vec<BoardId> {
    boards_in(finished_ms, Some(room), seasons)
}

/// The daily's boards a flight of `day` counts on: that day's, its ISO week's and all time's
/// best flights (by the day the flight belongs to, whenever it is counted).
pub fn daily_boards_for(day: Day) -> Vec<BoardId> {
    let week = week_of(day.index() * DAY_MS);
    [Period::Day(day), week, Period::AllTime]
        .into_iter()
        .map(|period| BoardId {
            metric: Metric::Best,
            period,
            scope: Scope::Daily,
        })
        .collect()
}

/// The boards a deck's match counts on (see `docs/decks.md`): best score on every period in
/// the room, and best score of all time on the deck's own board; never everyone's, where a
/// deck in which everything flies would be a ladder.
pub fn deck_boards_for(
    finished_ms: i64,
    room: &RoomId,
    deck: &crate::ids::DeckCode,
    seasons: &[Season],
) -> Vec<BoardId> {
    let mut boards: Vec<BoardId> = boards_in(finished_ms, Some(room), seasons)
        .into_iter()
        .filter(|board| matches!(board.scope, Scope::Room(_)))
        .collect();
    boards.push(BoardId::deck_best(deck));
    boards
}

/// The global boards among [`boards_for`]'s (a player's boards wherever they played).
pub fn global_boards_for(finished_ms: i64, seasons: &[Season]) -> Vec<BoardId> {
    boards_in(finished_ms, None, seasons)
}

fn boards_in(finished_ms: i64, room: Option<&RoomId>, seasons: &[Season]) -> Vec<BoardId> {
    let periods = PeriodKind::ALL.map(|kind| period_at(kind, seasons, finished_ms));
    let mut boards = Vec::with_capacity(11);
    let scopes = std::iter::once(Scope::Global).chain(room.cloned().map(Scope::Room));
    for scope in scopes {
        for period in &periods {
            boards.push(BoardId {
                metric: Metric::Best,
                period: period.clone(),
                scope: scope.clone(),
            });
        }
    }
    for period in periods.into_iter().filter(|p| p.kind() != PeriodKind::Day) {
        boards.push(BoardId {
            metric: Metric::Total,
            period,
            scope: Scope::Global,
        });
    }
    boards
}

/// A board's name for people: "Best match · week 48, 2026 · everyone". English: what the
/// projector stores and the share cards show; pages use [`board_name_in`].
pub fn board_name(board: &BoardId, seasons: &[Season]) -> String {
    board_name_in(Locale::en, board, seasons)
}

/// A board's name in `l`'s language. An operator's season keeps the name it was given; a
/// default season is named as its quarter.
pub fn board_name_in(l: Locale, board: &BoardId, seasons: &[Season]) -> String {
    let (metric, period, scope) = board_parts_in(l, board, seasons);
    td_string!(
        l,
        leaderboards.name.full,
        metric = metric.as_str(),
        period = period.as_str(),
        scope = scope.as_str()
    )
    .to_string()
}

/// A board's name in its three parts (metric, period, scope), in `l`'s language: a page that
/// lists many boards groups them by metric and scope and names each by its period.
pub fn board_parts_in(l: Locale, board: &BoardId, seasons: &[Season]) -> (String, String, String) {
    let metric = metric_label(l, board.metric);
    let period = match &board.period {
        Period::AllTime => td_string!(l, leaderboards.name.all_time).to_string(),
        Period::Day(day) => day.to_string(),
        Period::Week { year, week } => {
            td_string!(l, leaderboards.name.week, week = week, year = year).to_string()
        }
        Period::Season(id) => match seasons.iter().find(|s| &s.id == id) {
            Some(season) => season.name.clone(),
            None => match quarter_named(id) {
                Some(_) => {
                    let (year, q) = id.as_str().split_once("-q").unwrap_or_default();
                    td_string!(l, leaderboards.name.quarter, year = year, q = q).to_string()
                }
                None => id.to_string(),
            },
        },
    };
    let scope = match &board.scope {
        Scope::Global => td_string!(l, leaderboards.name.everyone).to_string(),
        Scope::Daily => td_string!(l, leaderboards.name.daily).to_string(),
        Scope::Room(room) => {
            let code = room.code();
            td_string!(l, leaderboards.name.room, code = code.as_str()).to_string()
        }
        Scope::Deck(deck) => {
            td_string!(l, leaderboards.name.deck, code = deck.as_str()).to_string()
        }
    };
    (metric, period, scope)
}

/// Why [`bounds`] refused a period, in `l`'s language.
pub fn bounds_error_in(l: Locale, message: &'static str) -> String {
    match message {
        "That day does not exist." => td_string!(l, leaderboards.errors.no_day).to_string(),
        "That week does not exist." => td_string!(l, leaderboards.errors.no_week).to_string(),
        "There is no such season." => td_string!(l, leaderboards.errors.no_season).to_string(),
        other => other.to_owned(),
    }
}
