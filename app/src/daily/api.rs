//! The daily flight over HTTP: thin server functions. The player always comes from the session
//! cookie (a visitor becomes a guest by name when they start); the day from the daily's clock;
//! a tap names its flight by the start the page was told, never by a day or a seed.
//!
//! Nothing a flight has not revealed leaves the server: the page is sent the things of the
//! rounds whose reveal time has passed, by the server's clock, and nothing else of the day's
//! draw until the day is over.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;
use crate::game::model::ThingCard;
#[cfg(feature = "ssr")]
use crate::i18n::td_string;
use crate::identity::model::NewName;
use crate::ids::{Day, DayText, OrBlank, UserId};
#[cfg(feature = "ssr")]
use ssr::*;

/// The day's flight as its player may see it now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlightView {
    pub day: Day,
    /// The daily's number (#1 on its first day).
    pub number: i64,
    /// The server's clock when this was made.
    pub now_ms: i64,
    /// `None` until the player starts it.
    pub flight: Option<FlightNow>,
}

/// A started flight: its rounds revealed so far, the next reveal, and once over its result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlightNow {
    pub started_ms: i64,
    pub rounds: Vec<RoundNow>,
    /// When the next thing shows (`None` once the last has shown).
    pub next_reveal_ms: Option<i64>,
    pub result: Option<FlightDone>,
}

/// A revealed round: its thing, the player's tap, and once its window is over whether the thing
/// flies (the catalog's ruling, public anyway) and whether the call was right.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundNow {
    pub reveal_ms: i64,
    pub thing: ThingCard,
    pub tap_ms: Option<u32>,
    pub flies: Option<bool>,
}

/// A finished flight's result, with the player's place among everyone's flights of the day as
/// the board stands (provisional until the projector has counted this flight).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlightDone {
    pub score: i32,
    pub correct: u32,
    pub rounds: u32,
    pub average_ms: Option<u32>,
    /// ✅/❌ per round, in the player's order.
    pub grid: String,
    pub rank: u64,
    pub entries: u64,
    /// Whether the board has counted this flight already (the rank is then exact).
    pub counted: bool,
    /// What "Share" copies: no thing named, and a link to the day's page.
    pub share: String,
    /// Days in a row with this one (as the projector will count it, if it has not yet).
    pub days: u32,
}

/// A day's page: before the day is over only its number; after it, its ten things with their
/// rulings, its seed (which reproduces the draw from the catalog) and its best flights.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DayView {
    pub day: Day,
    pub number: i64,
    pub over: bool,
    /// The things in the draw's order, each with whether it flies.
    pub things: Vec<(ThingCard, bool)>,
    pub seed: Option<String>,
    pub best: Vec<crate::leaderboards::model::Line>,
}

/// A day's things, seed and best flights, once the day is over (`day` as `yyyy-mm-dd`).
#[server(endpoint = "daily/day")]
pub async fn daily_day(day: DayText) -> Result<DayView, AppError> {
    crate::error::answer("daily_day", async move {
        let (db, clock) = daily_context();
        let DayText(day) = day;
        let over = crate::daily::clock::is_over(day, clock.now_ms());
        let mut view = DayView {
            day,
            number: crate::daily::model::number(day),
            over,
            things: Vec::new(),
            seed: None,
            best: Vec::new(),
        };
        if !over || view.number < 1 {
            return Ok(view);
        }
        if let Some(draw) = db.daily().draw_if_any(day).await? {
            view.things = draw.cards.clone();
            view.seed = Some(draw.seed.to_string());
            let board = &crate::leaderboards::period::daily_boards_for(day)[0];
            let start = crate::leaderboards::store::lines::Start::Top;
            if let Some(lines) = db.boards().board_lines(board, start, 3).await? {
                view.best = lines.lines;
            }
        }
        Ok(view)
    })
    .await
}

/// A player's finished flight of a day, as its share link shows it to anyone: who flew, the
/// grid of right and wrong calls, the points and the mean reaction; no thing named.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlownView {
    pub day: Day,
    pub number: i64,
    /// Whether the day is over (its things may then be shown, on the day's page).
    pub over: bool,
    pub nickname: String,
    pub score: i32,
    pub correct: u32,
    pub rounds: u32,
    pub average_ms: Option<u32>,
    /// ✅/❌ per round, in the player's order.
    pub grid: String,
}

/// The finished flight of player `user` on `day` (`yyyy-mm-dd`), for its share link: 404 for
/// one not flown or not finished, 400 for a malformed day or id.
#[server(endpoint = "daily/flown")]
pub async fn flown(day: DayText, user: UserId) -> Result<FlownView, AppError> {
    crate::error::answer("flown", async move {
        let (db, clock) = daily_context();
        let l = crate::lang::locale();
        let DayText(day) = day;
        let none = || AppError::NotFound(td_string!(l, daily.flown.none).to_string());
        let flight = db.daily().flight(&user, day).await?.ok_or_else(none)?;
        let result = flight.result.as_ref().ok_or_else(none)?;
        Ok(FlownView {
            day,
            number: crate::daily::model::number(day),
            over: crate::daily::clock::is_over(day, clock.now_ms()),
            nickname: crate::identity::hidden::shown(&flight.user_id, &flight.nickname).to_string(),
            score: result.score,
            correct: result.correct,
            rounds: result.grid.chars().count() as u32,
            average_ms: result.average_ms,
            grid: grid_of(&result.grid),
        })
    })
    .await
}

/// The day's flight as it stands for the caller (finished first, if it is over).
#[server(endpoint = "daily/now")]
pub async fn my_flight() -> Result<FlightView, AppError> {
    crate::error::answer("my_flight", async move {
        let (db, clock) = daily_context();
        let player = session::current_player(&db).await?;
        view_for(&db, &clock, player.map(|p| p.id).as_ref()).await
    })
    .await
}

/// Starts today's flight (a visitor becomes a guest called `name`): once a day; a second start,
/// from a reload, a tab or another device, is refused.
#[server(endpoint = "daily/start")]
pub async fn start_flight(name: Option<OrBlank<NewName>>) -> Result<FlightView, AppError> {
    crate::error::answer("start_flight", async move {
        use crate::identity::model::{Avatar, DisplayName};
        let (db, clock) = daily_context();
        let player = match session::current_player(&db).await? {
            Some(player) => player,
            None => {
                let name = match OrBlank::value(name) {
                    Some(name) => name.into_inner(),
                    None => DisplayName::parse("")?,
                };
                crate::identity::api::new_guest(&db, &name, Avatar::default()).await?
            }
        };
        let now = clock.now_ms();
        let day = day_of(now);
        db.daily()
            .start(&player.id, &player.display_name, player.avatar, day, now)
            .await?;
        // The draw is made (or read) now: the first reveal needs it.
        draws().get(&db, day, now).await?;
        leptos_axum::redirect("/daily");
        view_for(&db, &clock, Some(&player.id)).await
    })
    .await
}

/// The thing of round `round` (0–9) of the caller's flight that started at `started_ms`, as
/// `emoji|name` in the request's language: only once its reveal time has passed on the
/// server's clock (400 before). Plain text, so the island decodes it without a decoder of its
/// own.
#[server(endpoint = "daily/thing")]
pub async fn flight_thing(started_ms: i64, round: u32) -> Result<String, AppError> {
    crate::error::answer("flight_thing", async move {
        let (db, clock) = daily_context();
        let now = clock.now_ms();
        let user = session::current_user(&db)
            .await?
            .ok_or(AppError::SignInRequired)?;
        let round = round as usize;
        let revealed = round < crate::daily::model::FLIGHT_ROUNDS
            && now >= crate::daily::model::reveal_ms(started_ms, round);
        if !revealed {
            return Err(DailyConflict::Tap(crate::game::timing::TapRejected::TooEarly).into());
        }
        let day = day_of(started_ms);
        let flight = db
            .daily()
            .flight_started_at(&user, day, started_ms)
            .await?
            .ok_or(DailyConflict::NotThisRound)?;
        let draw = draws().get(&db, day, now).await?;
        let thing = things_in_order(&draw, &flight.user_id)
            .get(round)
            .and_then(|id| draw.card_of(id))
            .map(|(card, _)| {
                let name = card.name(crate::lang::locale()).to_owned();
                format!("{}|{name}|{} udd!", card.emoji, card.hi_latin)
            })
            .ok_or(AppError::Internal)?;
        Ok(thing)
    })
    .await
}

/// A tap in the flight that started at `started_ms` (as the page was told), in the round shown
/// at `reveal_ms`, after `reaction_ms` by the browser's measure. Checked as a room's tap is.
/// Answers the reaction that counts.
#[server(endpoint = "daily/tap")]
pub async fn tap_flight(
    started_ms: i64,
    reveal_ms: i64,
    reaction_ms: u32,
) -> Result<u32, AppError> {
    crate::error::answer("tap_flight", async move {
        let (db, clock) = daily_context();
        let received_ms = clock.now_ms();
        let token = session::token_from_request().ok_or(AppError::SignInRequired)?;
        let allowed = use_context::<TapThrottle>().is_none_or(|t| t.0.allow(token.hash().as_str()));
        if !allowed {
            return Err(AppError::RateLimited);
        }
        let (player, latency) = session::current_tapper(&db)
            .await?
            .ok_or(AppError::SignInRequired)?;
        // The flight belongs to the day it started: a tap names no day of its own.
        let (_, reaction_ms) = db
            .daily()
            .tap(
                &player,
                day_of(started_ms),
                started_ms,
                reveal_ms,
                reaction_ms,
                crate::game::timing::Received::at(received_ms, latency),
            )
            .await?;
        Ok(reaction_ms)
    })
    .await
}

#[cfg(feature = "ssr")]
pub(crate) mod ssr {
    pub use crate::daily::clock::DailyClock;
    pub use crate::daily::store::{things_in_order, DailyConflict, Flight, DAILY};
    pub use crate::game::throttle::TapThrottle;
    pub use crate::identity::model::UserId;
    pub use crate::identity::session;
    pub use crate::leaderboards::period::day_of;
    pub use crate::store::Db;

    use super::{FlightDone, FlightNow, FlightView, RoundNow};
    use crate::daily::clock::day_start_ms;
    use crate::daily::model::{
        number, over_ms, reveal_ms, round_at, share_text, FLIGHT_ROUNDS, WINDOW_MS,
    };
    use crate::error::AppError;
    use crate::game::timing::GRACE_MS;
    use crate::i18n::td_string;
    use crate::leaderboards::period::daily_boards_for;
    use leptos::prelude::*;

    /// A result's grid as shared: ✅ for a right call, ❌ for a wrong one.
    pub fn grid_of(stored: &str) -> String {
        stored
            .chars()
            .map(|c| if c == '1' { '✅' } else { '❌' })
            .collect()
    }

    /// A finished flight's share link: its page, whose preview is its card.
    pub fn flown_path(day: crate::ids::Day, user: &UserId) -> String {
        format!("/daily/{day}/{}", user.as_str())
    }

    /// The days' draws as this instance has read them.
    pub fn draws() -> crate::daily::draws::DayDraws {
        use_context::<crate::daily::draws::DayDraws>().unwrap_or_default()
    }

    /// The table (its calls counted as the daily's) and the daily's clock of this request.
    pub fn daily_context() -> (Db, DailyClock) {
        (
            expect_context::<Db>().counted_as(DAILY),
            use_context::<DailyClock>().unwrap_or_default(),
        )
    }

    impl From<DailyConflict> for AppError {
        /// The refusal in the request's language (the conflict's `Display` stays English).
        fn from(conflict: DailyConflict) -> Self {
            let l = crate::lang::locale();
            match conflict {
                DailyConflict::Data(err) => err.into(),
                DailyConflict::NoThings => AppError::Internal,
                DailyConflict::AlreadyFlown => {
                    AppError::Conflict(td_string!(l, daily.errors.already_flown).to_string())
                }
                DailyConflict::NotStarted => {
                    AppError::Conflict(td_string!(l, daily.errors.not_started).to_string())
                }
                DailyConflict::NotThisRound => {
                    AppError::BadRequest(td_string!(l, daily.errors.not_this_round).to_string())
                }
                DailyConflict::AlreadyCalled => {
                    AppError::Conflict(td_string!(l, daily.errors.already_called).to_string())
                }
                DailyConflict::Tap(rejected) => AppError::BadRequest(rejected.words(l)),
            }
        }
    }

    /// The flight `user` may see now: today's, or one started before midnight and still in
    /// the air (a flight belongs to the day it started).
    pub async fn view_for(
        db: &Db,
        clock: &DailyClock,
        user: Option<&UserId>,
    ) -> Result<FlightView, AppError> {
        let now = clock.now_ms();
        let today = day_of(now);
        let mut flight = match user {
            Some(user) => db.daily().flight(user, today).await?,
            None => None,
        };
        // Just past midnight, yesterday's flight may still be in the air.
        let just_after_midnight = now - day_start_ms(today) < over_ms(0) + 60_000;
        if let (None, Some(user), true) = (&flight, user, just_after_midnight) {
            let yesterday = day_of(day_start_ms(today) - 1);
            flight = db
                .daily()
                .flight(user, yesterday)
                .await?
                .filter(|f| f.result.is_none());
        }
        let day = flight.as_ref().map_or(today, |f| f.day);
        let flight = match flight {
            None => None,
            Some(flight) => Some(flight_state(db, flight, now).await?),
        };
        Ok(FlightView {
            day,
            number: number(day),
            now_ms: now,
            flight,
        })
    }

    /// A started flight as its player may see it at `now`: finished first if it is over.
    async fn flight_state(db: &Db, flight: Flight, now: i64) -> Result<FlightNow, AppError> {
        let draw = draws().get(db, flight.day, now).await?;
        let flight = db.daily().finish(flight, &draw, now).await?;
        let things = things_in_order(&draw, &flight.user_id);
        let taps = flight.taps_by_round();
        let shown = round_at(flight.started_ms, now).map_or(0, |i| i + 1);
        let rounds = (0..shown.min(FLIGHT_ROUNDS))
            .filter_map(|i| {
                let (card, flies) = draw.card_of(things.get(i)?)?;
                let reveal = reveal_ms(flight.started_ms, i);
                let closed = now > reveal + i64::from(WINDOW_MS) + i64::from(GRACE_MS);
                Some(RoundNow {
                    reveal_ms: reveal,
                    thing: card.clone(),
                    tap_ms: taps[i],
                    flies: closed.then_some(flies),
                })
            })
            .collect();
        let next_reveal_ms = (shown < FLIGHT_ROUNDS).then(|| reveal_ms(flight.started_ms, shown));
        let result = match &flight.result {
            None => None,
            Some(result) => {
                let board = &daily_boards_for(flight.day)[0];
                let mine = db.boards().my_line(board, &flight.user_id).await?;
                let counted = mine.is_some();
                let (rank, entries) = match mine {
                    Some((line, total)) => (line.rank, total),
                    None => {
                        let (rank, total) =
                            db.boards().rank_of(board, i64::from(result.score)).await?;
                        // Not counted yet: one more among those who played.
                        (rank, total + 1)
                    }
                };
                let grid = grid_of(&result.grid);
                let link = crate::ui::absolute(&flown_path(flight.day, &flight.user_id));
                let run = db.boards().days_in_a_row(&flight.user_id).await?;
                let last = run.and_then(|r| r.last.map(|last| (last, r.run)));
                let days = crate::leaderboards::plan::run_after(last, flight.day)
                    .or(last.map(|(_, run)| run))
                    .unwrap_or(1);
                Some(FlightDone {
                    score: result.score,
                    correct: result.correct,
                    rounds: result.grid.len() as u32,
                    average_ms: result.average_ms,
                    share: share_text(
                        crate::lang::locale(),
                        flight.day,
                        result.correct,
                        result.average_ms,
                        &grid,
                        &link,
                    ),
                    grid,
                    rank,
                    entries,
                    counted,
                    days,
                })
            }
        };
        Ok(FlightNow {
            started_ms: flight.started_ms,
            rounds,
            next_reveal_ms,
            result,
        })
    }
}
