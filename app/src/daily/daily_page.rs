//! `/daily`: today's flight. A server page in each state (not started: what it is and the start
//! form; in the air: the island that plays it; over: the result, the place and the share); the
//! island fetches each thing only once its reveal time has passed on the server's clock.

use leptos::prelude::*;
use leptos_meta::Title;

use crate::codec::Base64Json;
use crate::daily::api::{
    daily_day, flown, my_flight, DayView, FlightDone, FlightNow, FlightView, FlownView, StartFlight,
};
use crate::daily::model::{FLIGHT_ROUNDS, LEAD_MS, SLOT_MS, WINDOW_MS};
use crate::error::{from_address, AppError};
use crate::i18n::td_string;
use crate::ids::{Day, DayText, UserId};
use crate::lang::Locale;
use crate::ui::forms::FormError;
use leptos::server_fn::ServerFn;

/// The day an address names, refused in the daily's words ("no daily on that day") when it
/// names none.
fn day_in_address(raw: &str) -> Result<DayText, AppError> {
    Day::parse(raw).map(DayText).map_err(|_| {
        AppError::BadRequest(td_string!(crate::lang::locale(), daily.errors.no_day).to_string())
    })
}

#[component]
pub fn DailyPage() -> impl IntoView {
    let l = crate::lang::locale();
    let view = Resource::<_, Base64Json>::new_with_options(|| (), |_| my_flight(), false);
    view! {
        <Title text=td_string!(l, daily.title).to_string() />
        <FormError paths=&[StartFlight::PATH] />
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match view.await {
                    Ok(view) => flight_page(l, view).into_any(),
                    Err(err) => view! { <p class="error">{err.localized()}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// `/daily/<yyyy-mm-dd>`: a day's daily. Until the day is over, only that its things are shown
/// then; after it, the ten things with their rulings, the seed, and the day's best.
#[component]
pub fn DayPage() -> impl IntoView {
    let l = crate::lang::locale();
    let params = leptos_router::hooks::use_params_map();
    let day = move || params.read().get("day").unwrap_or_default();
    let view = Resource::<_, Base64Json>::new_with_options(
        day,
        |day| async move { daily_day(from_address(day_in_address(&day))?).await },
        false,
    );
    view! {
        <Title text=td_string!(l, daily.title).to_string() />
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match view.await {
                    Ok(view) => day_page(l, view).into_any(),
                    // A day that is not one, or one with no daily: why, and the way to today's.
                    Err(err) => no_daily(l, err).into_any(),
                }
            })}
        </Suspense>
    }
}

/// `/daily/<yyyy-mm-dd>/<id>`: a player's finished flight, the page a shared link opens (its
/// preview is the flight's card): the grid, the points and the mean reaction; the day's things
/// only once the day is over, on the day's page.
#[component]
pub fn FlownPage() -> impl IntoView {
    let l = crate::lang::locale();
    let params = leptos_router::hooks::use_params_map();
    let key = move || {
        let params = params.read();
        (
            params.get("day").unwrap_or_default(),
            params.get("id").unwrap_or_default(),
        )
    };
    let view = Resource::<_, Base64Json>::new_with_options(
        key,
        |(day, id)| async move {
            let (when, who) = (day_in_address(&day), UserId::parse(&id));
            let view = flown(from_address(when)?, from_address(who)?).await?;
            Ok((view, day, id))
        },
        false,
    );
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match view.await {
                    Ok((view, day, id)) => flown_page(l, view, format!("/daily/{day}/{id}")).into_any(),
                    Err(err) => no_daily(l, err).into_any(),
                }
            })}
        </Suspense>
    }
}

/// A daily page that is not there (a day that is not one, one with no daily, a flight nobody
/// flew): why, and the way to today's flight.
fn no_daily(l: Locale, err: AppError) -> impl IntoView {
    view! {
        <crate::ui::Missing
            title=td_string!(l, daily.title).to_string()
            err
            href="/daily"
            link=td_string!(l, daily.flown.play).to_string()
        />
    }
}

fn flown_page(l: Locale, view: FlownView, path: String) -> impl IntoView {
    let name = view.nickname.as_str();
    let title = td_string!(l, daily.flown.title, name = name, n = view.number).to_string();
    let right = td_string!(
        l,
        daily.flown.grid,
        correct = view.correct,
        rounds = view.rounds
    )
    .to_string();
    let description = format!("{right} {}", view.grid);
    let things = if view.over {
        view! { <p><a href=format!("/daily/{}", view.day)>{td_string!(l, daily.flown.things).to_string()}</a></p> }.into_any()
    } else {
        view! { <p class="muted">{td_string!(l, daily.flown.things_later).to_string()}</p> }
            .into_any()
    };
    view! {
        <crate::ui::ShareTags path title=title.clone() description />
        <section class="daily" data-testid="daily-flown">
            <h1>{title}</h1>
            <div class="card daily-done">
                <p class="daily-grid" role="img" aria-label=right.clone()>{view.grid.clone()}</p>
                <p data-testid="flown-score">{td_string!(l, daily.score, score = view.score, correct = view.correct, rounds = view.rounds).to_string()}</p>
                {view.average_ms.map(|ms| view! { <p>{td_string!(l, daily.speed, ms = ms).to_string()}</p> })}
            </div>
            {things}
            <p><a class="button" href="/daily">{td_string!(l, daily.flown.play).to_string()}</a></p>
        </section>
    }
}

fn day_page(l: Locale, view: DayView) -> impl IntoView {
    let heading = td_string!(l, daily.over_title, n = view.number).to_string();
    let body = if !view.over {
        view! { <p class="notice">{td_string!(l, daily.not_over).to_string()}</p> }.into_any()
    } else if view.things.is_empty() {
        view! { <p class="muted">{td_string!(l, daily.no_one).to_string()}</p> }.into_any()
    } else {
        let flies = td_string!(l, daily.flies).to_string();
        let grounded = td_string!(l, daily.grounded).to_string();
        let things = view
            .things
            .iter()
            .map(|(card, fly)| {
                let ruling = if *fly { flies.clone() } else { grounded.clone() };
                view! { <li data-testid="day-thing"><span aria-hidden="true">{card.emoji.clone()}</span> {card.name(l).to_owned()} " — " {ruling}</li> }
            })
            .collect_view();
        let best = view
            .best
            .iter()
            .map(|line| view! { <li>{format!("#{} {} · {}", line.rank, line.nickname, line.score)}</li> })
            .collect_view();
        view! {
            <ol class="day-things">{things}</ol>
            <h2>{td_string!(l, daily.fastest).to_string()}</h2>
            <ol class="day-best" data-testid="day-best">{best}</ol>
            <details><summary>"Seed"</summary>
                <p data-testid="day-seed">{td_string!(l, daily.seed, seed = view.seed.clone().unwrap_or_default()).to_string()}</p>
            </details>
        }
        .into_any()
    };
    view! {
        <section class="daily" data-testid="daily-day">
            <h1>{heading}</h1>
            {body}
            <p><a href=format!("/lb/best/day-{}/daily", view.day)>{td_string!(l, daily.day_board).to_string()}</a></p>
            <p><a href="/daily">{td_string!(l, daily.title).to_string()}</a></p>
        </section>
    }
}

fn flight_page(l: Locale, view: FlightView) -> impl IntoView {
    let heading = view! {
        <p class="muted daily-number">{td_string!(l, daily.number, n = view.number).to_string()}</p>
        <h1>{td_string!(l, daily.title).to_string()}</h1>
    };
    let body = match view.flight {
        None => view! {
            <p class="lead">{td_string!(l, daily.intro).to_string()}</p>
            <form method="post" action=StartFlight::PATH class="card" data-testid="start-flight">
                <label>{td_string!(l, daily.your_name).to_string()}
                    " " <input name="name" maxlength="24" autocomplete="nickname" />
                </label>
                <button type="submit">{td_string!(l, daily.start).to_string()}</button>
            </form>
        }
        .into_any(),
        Some(FlightNow {
            result: Some(done),
            ..
        }) => finished(l, done).into_any(),
        Some(flight) => view! {
            <div id="daily-air" data-started=flight.started_ms data-server=view.now_ms
                data-window=WINDOW_MS data-lead=LEAD_MS data-slot=SLOT_MS data-rounds=FLIGHT_ROUNDS
                data-next=td_string!(l, daily.countdown).to_string()
                data-round=td_string!(l, daily.round, n = "{n}", total = FLIGHT_ROUNDS).to_string()>
                <div class="stage daily-stage" id="daily-stage" hidden>
                    <p class="muted" id="daily-label">{td_string!(l, daily.countdown).to_string()}</p>
                    <p id="daily-shown" class="count-num" data-testid="flight-countdown">
                        <span class="emoji" id="daily-big"></span>" "<strong class="call" id="daily-call"></strong>" "<span class="names" id="daily-name"></span>
                    </p>
                    <div class="timer" role="presentation" id="daily-timer" hidden><span></span></div>
                </div>
                <button type="button" hidden class="udd" data-testid="flight-udd" id="daily-udd">"Udd!"</button>
                <p role="status" aria-live="polite" data-testid="flight-note" id="daily-note"></p>
            </div>
            <noscript><p class="notice">{td_string!(l, daily.needs_script).to_string()}</p></noscript>
            <FlightScript />
        }
        .into_any(),
    };
    view! { <section class="daily" data-testid="daily">{heading}{body}</section> }
}

fn finished(l: Locale, done: FlightDone) -> impl IntoView {
    let share = done.share.clone();
    let place = if done.counted {
        td_string!(l, daily.place, rank = done.rank, entries = done.entries).to_string()
    } else {
        td_string!(
            l,
            daily.place_provisional,
            rank = done.rank,
            entries = done.entries
        )
        .to_string()
    };
    view! {
        <div class="card daily-done" data-testid="flight-done">
            <h2>{td_string!(l, daily.done_title).to_string()}</h2>
            <p class="daily-grid" aria-hidden="true">{done.grid.clone()}</p>
            <p data-testid="flight-score">{td_string!(l, daily.score, score = done.score, correct = done.correct, rounds = done.rounds).to_string()}</p>
            {done.average_ms.map(|ms| view! { <p>{td_string!(l, daily.speed, ms = ms).to_string()}</p> })}
            <p data-testid="flight-place">{place}</p>
            <p data-testid="flight-days">{td_string!(l, daily.days_in_a_row, n = done.days).to_string()}</p>
            <label>{td_string!(l, daily.share).to_string()}
                <textarea readonly rows="5" data-testid="share-text">{share.clone()}</textarea>
            </label>
            <button type="button" hidden data-testid="share" data-share=share data-copied=td_string!(l, daily.copied).to_string()>{td_string!(l, daily.share).to_string()}</button>
            <p role="status" class="muted"></p>
            <FlightScript />
            <p><a href="/lb?metric=best&period=day&scope=daily">{td_string!(l, daily.board).to_string()}</a></p>
            <p class="muted">{td_string!(l, daily.come_back).to_string()}</p>
        </div>
    }
}

/// The daily's script (`flight.js`), inline with the page's nonce: only the daily's pages carry
/// it, and no island page's bundle pays for it.
#[component]
fn FlightScript() -> impl IntoView {
    let nonce = leptos::nonce::use_nonce();
    view! { <script type="module" nonce=nonce>{include_str!("flight.js")}</script> }
}
