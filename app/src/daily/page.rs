//! `/daily`: today's flight. A server page in each state (not started: what it is and the start
//! form; in the air: the island that plays it; over: the result, the place and the share); the
//! island fetches each thing only once its reveal time has passed on the server's clock.

use leptos::prelude::*;
use leptos_meta::Title;

use crate::browser;
use crate::codec::Base64Json;
use crate::daily::api::{
    daily_day, my_flight, DayView, FlightDone, FlightNow, FlightView, StartFlight,
};
use crate::daily::model::{reveal_ms, FLIGHT_ROUNDS, WINDOW_MS};
use crate::i18n::td_string;
use crate::lang::Locale;
use crate::ui::forms::FormError;
use leptos::server_fn::ServerFn;

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
    let view = Resource::<_, Base64Json>::new_with_options(day, daily_day, false);
    view! {
        <Title text=td_string!(l, daily.title).to_string() />
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match view.await {
                    Ok(view) => day_page(l, view).into_any(),
                    Err(err) => view! { <p class="error">{err.localized()}</p> }.into_any(),
                }
            })}
        </Suspense>
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
            <p><a href=format!("/lb/best/day-{}/daily", view.day)>{td_string!(l, daily.board).to_string()}</a></p>
            <p><a href="/daily">{td_string!(l, daily.title).to_string()}</a></p>
        </section>
    }
}

fn flight_page(l: Locale, view: FlightView) -> impl IntoView {
    let heading = view! {
        <h1>{td_string!(l, daily.title).to_string()}
            " " <span class="muted">{td_string!(l, daily.number, n = view.number).to_string()}</span>
        </h1>
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
            <DailyFlight started_ms=flight.started_ms server_ms=view.now_ms />
            <noscript><p class="notice">{td_string!(l, daily.needs_script).to_string()}</p></noscript>
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
            <label>{td_string!(l, daily.share).to_string()}
                <textarea readonly rows="3" data-testid="share-text">{share.clone()}</textarea>
            </label>
            <ShareFlight text=share />
            <p><a href="/lb?metric=best&period=day&scope=daily">{td_string!(l, daily.board).to_string()}</a></p>
            <p class="muted">{td_string!(l, daily.come_back).to_string()}</p>
        </div>
    }
}

/// Copies the share text (the text area shows it without JavaScript).
#[island]
fn ShareFlight(text: String) -> impl IntoView {
    let l = crate::lang::locale();
    let said = RwSignal::new(String::new());
    let text = StoredValue::new(text);
    view! {
        <button type="button" data-testid="share" on:click=move |_| {
            leptos::task::spawn_local(async move {
                if browser::copy_text(&text.get_value()).await {
                    said.set(td_string!(l, daily.copied).to_string());
                }
            });
        }>{td_string!(l, daily.share).to_string()}</button>
        <p role="status" class="muted">{move || said.get()}</p>
    }
}

/// The flight in the air: a countdown, each thing when its time comes (asked of the server,
/// which shows nothing before its reveal), the Udd! button (Space or Enter too), and each
/// round's verdict once its window is over; the page is loaded again when the flight is over.
#[island]
fn DailyFlight(started_ms: i64, server_ms: i64) -> impl IntoView {
    let l = crate::lang::locale();
    let offset = server_ms as f64 - browser::now_ms();
    let now = RwSignal::new(server_ms);
    let rounds = RwSignal::new(Vec::<crate::daily::api::RoundNow>::new());
    let asked = StoredValue::new(0usize);
    let shown_at = StoredValue::new(None::<(usize, f64)>);
    let note = RwSignal::new(String::new());
    let over = reveal_ms(started_ms, FLIGHT_ROUNDS - 1) + i64::from(WINDOW_MS) + 600;
    Effect::new(move |_| {
        let tick = set_interval_with_handle(
            move || now.set((browser::now_ms() + offset) as i64),
            std::time::Duration::from_millis(100),
        );
        on_cleanup(move || {
            if let Ok(tick) = tick {
                tick.clear();
            }
        });
    });
    // Ask for the next thing once its time has come (and once more after the last window).
    Effect::new(move |_| {
        let t = now.get();
        let next = asked.get_value();
        let due = if next < FLIGHT_ROUNDS {
            reveal_ms(started_ms, next)
        } else {
            over
        };
        if t < due || next > FLIGHT_ROUNDS {
            return;
        }
        asked.set_value(next + 1);
        leptos::task::spawn_local(async move {
            match browser::call_server::<FlightView>("/api/daily/now", &[]).await {
                Ok(view) => match view.flight {
                    Some(flight) if flight.result.is_none() => rounds.set(flight.rounds),
                    _ => browser::reload(),
                },
                Err(err) => note.set(err.localized()),
            }
        });
    });
    let current = move || {
        let t = now.get();
        rounds.with(|r| {
            r.iter()
                .enumerate()
                .rev()
                .find(|(_, round)| round.reveal_ms <= t)
                .map(|(i, round)| (i, round.clone()))
        })
    };
    let send_tap = move || {
        let Some((i, round)) = current() else { return };
        let t = now.get_untracked();
        if t > round.reveal_ms + i64::from(WINDOW_MS) || round.tap_ms.is_some() {
            return;
        }
        let Some((_, shown)) = shown_at.get_value().filter(|(at, _)| *at == i) else {
            return;
        };
        let reaction = (browser::now_ms() - shown).max(0.0) as u32;
        browser::vibrate(30);
        rounds.update(|r| r[i].tap_ms = Some(reaction));
        leptos::task::spawn_local(async move {
            let fields = [
                ("started_ms", started_ms.to_string()),
                ("reveal_ms", round.reveal_ms.to_string()),
                ("reaction_ms", reaction.to_string()),
            ];
            let said = match browser::call_server::<crate::daily::api::FlightTap>(
                "/api/daily/tap",
                &fields,
            )
            .await
            {
                Ok(tap) => format!("Udd! {} ms", tap.reaction_ms),
                Err(err) => err.localized(),
            };
            note.set(said);
        });
    };
    let keys = window_event_listener(leptos::ev::keydown, move |event| {
        let key = event.key();
        if key == " " || key == "Enter" {
            event.prevent_default();
            send_tap();
        }
    });
    on_cleanup(move || keys.remove());
    let stage = move || {
        let t = now.get();
        let total = FLIGHT_ROUNDS;
        match current() {
            Some((i, round)) if t <= round.reveal_ms + i64::from(WINDOW_MS) => {
                if shown_at.get_value().is_none_or(|(at, _)| at != i) {
                    shown_at.set_value(Some((i, browser::now_ms())));
                    note.set(String::new());
                }
                let name = round.thing.name(l).to_owned();
                view! {
                    <p class="muted">{td_string!(l, daily.round, n = i + 1, total = total).to_string()}</p>
                    <p class="thing" data-testid="flight-thing"><span aria-hidden="true">{round.thing.emoji.clone()}</span> {name}</p>
                }
                .into_any()
            }
            _ => {
                let next = (0..FLIGHT_ROUNDS)
                    .map(|i| reveal_ms(started_ms, i))
                    .find(|at| *at > t)
                    .unwrap_or(over);
                let left = ((next - t).max(0) + 999) / 1000;
                view! { <p class="count-num" data-testid="flight-countdown">{td_string!(l, daily.countdown, s = left).to_string()}</p> }.into_any()
            }
        }
    };
    view! {
        <div class="stage daily-stage">{stage}</div>
        <button type="button" class="udd" data-testid="flight-udd" on:click=move |_| send_tap()>"Udd!"</button>
        <p role="status" aria-live="polite" data-testid="flight-note">{move || note.get()}</p>
    }
}
