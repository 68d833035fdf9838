//! The match inside a room page: the countdown, the thing, the *Udd!* button, each round's
//! results, and at the end the podium.
//!
//! The page draws from the room's live snapshots (the server sends a thing only once it is
//! revealed, and results once resolved) and from the server's clock as estimated on arrival.
//! A tap is shown at once (the button is pressed in the same frame), then sent; the server's
//! answer replaces the local note. When a round closes, each player sees a big right or wrong
//! with their points, their run of right calls and a climb in the standings; the match ends on a
//! podium with the winner's name, a sound and a share button. Sounds are a few tones made in the
//! browser (nothing to download), on unless the player muted them (remembered).
//!
//! A screen reader hears the match from one live region: the thing as it shows, the player's
//! verdict with the round's line and who was fastest, and the winner. Space or Enter taps from
//! anywhere on the page but another control.

use leptos::either::Either;
use leptos::ev;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos::wasm_bindgen::JsCast;

use crate::browser;
use crate::game::api::{ServerTime, Tap, TapAck, TapAlong, TapTiming};
use crate::game::match_page::thing_names;
use crate::game::model::{Match, Room, Round, RoundResult, ThingCard};
use crate::game::podium::{badge_key, new_badges, Podium, Standings};
use crate::game::timing::GRACE_MS;
use crate::game::words::*;
use crate::i18n::td_string;
use crate::identity::model::UserId;
use crate::inventory::model::Badge;
use crate::lang::Locale;
use crate::rooms::model::RoomState;

/// The browser's estimate of the server's clock minus its own, in ms. Three samples; the one
/// with the shortest round trip wins, assuming the server read its clock halfway through. Each
/// sample sends back the server's last answer, so the server times the round trip too (see
/// `server_time`): a tap's reaction is believed only as far as the server's own measure goes.
async fn clock_offset() -> f64 {
    let mut best: Option<(f64, f64)> = None;
    let mut echo = Vec::new();
    for _ in 0..3 {
        let sent = browser::now_ms();
        let Ok(server) = browser::call_server::<i64>(ServerTime::PATH, &echo).await else {
            continue;
        };
        echo = vec![("echo", server.to_string())];
        let back = browser::now_ms();
        let rtt = back - sent;
        let offset = server as f64 + rtt / 2.0 - back;
        if best.is_none_or(|(r, _)| rtt < r) {
            best = Some((rtt, offset));
        }
    }
    best.map_or(0.0, |(_, offset)| offset)
}

/// "Udd! 312 ms, counted." (one copy of its formatting in the bundle for both places it shows).
#[inline(never)]
fn counted(l: Locale, ms: u32) -> String {
    around(td_string!(l, game.board.counted), &ms.to_string())
}

/// What the player's own tap in a round came to, as far as the page knows.
#[derive(Clone, PartialEq)]
struct MyTap {
    round: u32,
    note: String,
}

/// The match of `room`: shown while it runs, and its results after. `held` is the badges the
/// player had when the page loaded, with when each was earned ([`Badge::list`]): a badge a match
/// earns is announced only if the player did not have it before that match began. `tapped` is
/// the reaction time of the player's counted tap in the round open in `room` as first drawn,
/// as the server had it (a reload keeps the button pressed). `along` is set when the viewer is in
/// the room's audience: the rounds they said fly (bit `i` for round `i` of the match); they tap
/// along, scored for themselves alone, over the rounds from `along_from` (the first they could
/// play, by the rule the room's audience figure counts them) and any earlier one they called.
#[component]
pub fn GameBoard(
    room: RwSignal<Room>,
    me: Option<UserId>,
    held: String,
    tapped: Option<u32>,
    along: Option<u32>,
    along_from: u32,
) -> impl IntoView {
    let l = crate::lang::locale();
    let audience = along.is_some();
    let calls = StoredValue::new(along.unwrap_or_default());
    let called = move |g: &Match, n: u32| calls.get_value() >> (n - g.first_round) & 1 == 1;
    // Whether an audience member's call in round `n` counts: a round they could play, or called.
    let counts = move |g: &Match, n: u32| n - g.first_round >= along_from || called(g, n);
    let offset = RwSignal::new(0.0f64);
    let now = RwSignal::new(browser::now_ms() as i64);
    let open_round = room.with_untracked(|r| {
        let g = r.game.as_ref()?;
        g.rounds.get(g.resolved as usize).map(|round| round.n)
    });
    let my_tap = RwSignal::new(open_round.zip(tapped).map(|(round, ms)| MyTap {
        round,
        note: counted(l, ms),
    }));
    // The first round this page showed: a round before it that the player did not tap was
    // played while their page was closed (a page opened after the match shows no one away).
    // Told once the island is awake (a page without JavaScript tells no one they were away).
    let first_seen = open_round.unwrap_or(0);
    // On unless this browser muted it.
    let sound = RwSignal::new(true);
    // True once the island runs in the browser: the tap and sound buttons are drawn only then,
    // so a page without JavaScript shows no control that does nothing.
    let awake = RwSignal::new(false);
    Effect::new(move |_| {
        sound.set(browser::remembered(SOUND_KEY).as_deref() != Some("off"));
        awake.set(true);
    });
    let play = move |notes: &[(f32, u32)]| {
        if sound.get_untracked() {
            browser::tones(notes);
        }
    };
    let me = StoredValue::new(me);
    let held = StoredValue::new(Badge::read_list(&held));
    // Badges this browser saw announced: the projector grants a badge a moment after the match,
    // so a page loaded in between ("Play again" reloads it) does not find it on the server yet.
    Effect::new(move |_| {
        if let Some(id) = me.get_value() {
            let known = browser::remembered(&badge_key(&id)).unwrap_or_default();
            held.update_value(|held| held.extend(Badge::read_list(&known)));
        }
    });
    // Browser-clock moment each round's thing was first drawn, for the reaction time.
    let shown_at = StoredValue::new(None::<(u32, f64)>);

    Effect::new(move |_| {
        leptos::task::spawn_local(async move { offset.set(clock_offset().await) });
        let tick = set_interval_with_handle(
            move || now.set((browser::now_ms() + offset.get_untracked()) as i64),
            std::time::Duration::from_millis(100),
        );
        on_cleanup(move || {
            if let Ok(tick) = tick {
                tick.clear();
            }
        });
    });

    let game = move || room.with(|r| r.game.clone());
    // The round being played: the first without results.
    let current = move || {
        game().and_then(|g| {
            let index = g.resolved as usize;
            g.rounds.get(index).cloned().map(|r| (g.clone(), index, r))
        })
    };
    let plays = move |g: &Match| me.get_value().is_some_and(|id| g.player(&id).is_some());
    // Whether the viewer taps in this match: as a player, or along with the audience.
    let playing = move || game().is_some_and(|g| audience || plays(&g));
    // The viewer's result in the last closed round: a player's from the round's results, an
    // audience member's from their own calls (right or wrong, and no points).
    let mine = move |g: &Match| -> Option<(Round, RoundResult)> {
        let id = me.get_value()?;
        if let Some((round, result)) = g.last_result(&id) {
            return Some((round.clone(), result.clone()));
        }
        let round = g
            .rounds
            .get(g.resolved.checked_sub(1)? as usize)
            .filter(|r| audience && counts(g, r.n))?;
        let called = called(g, round.n);
        Some((
            round.clone(),
            RoundResult {
                user_id: id,
                reaction_ms: called.then_some(0),
                points: 0,
                correct: round.flies == Some(called),
                fastest: false,
            },
        ))
    };

    // Note when a thing first appears, and beep for it.
    Effect::new(move |_| {
        if let Some((_, _, round)) = current() {
            if round.thing.is_some() && shown_at.get_value().is_none_or(|(n, _)| n != round.n) {
                shown_at.set_value(Some((round.n, browser::now_ms())));
                play(sounds::REVEAL);
            }
        }
    });

    // A round's close sounds right or wrong for the player; the match's end, the winner's
    // tune. Only changes seen on this page: a page opened on a finished match stays quiet.
    let heard = StoredValue::new(None::<(u32, u32)>);
    Effect::new(move |_| {
        let Some(g) = game() else { return };
        let now = (g.first_round, g.resolved);
        let before = heard.get_value();
        heard.set_value(Some(now));
        if before.is_none_or(|b| b == now || b.0 != now.0 && now.1 == 0) {
            return;
        }
        let mut notes = match mine(&g).map(|(_, r)| r.correct) {
            Some(true) => sounds::RIGHT.to_vec(),
            Some(false) => {
                browser::vibrate(120);
                sounds::WRONG.to_vec()
            }
            None => Vec::new(),
        };
        if g.is_finished() {
            notes.extend_from_slice(sounds::WINNER);
        }
        play(&notes);
    });

    let send_tap = move || {
        let Some((g, _, round)) = current() else {
            return;
        };
        if round.thing.is_none() || !playing() {
            return;
        }
        if my_tap.with_untracked(|t| t.as_ref().is_some_and(|t| t.round == round.n)) {
            return;
        }
        let closes = round.reveal_ms + i64::from(g.window_ms) + i64::from(GRACE_MS);
        if now.get_untracked() > closes {
            my_tap.set(Some(MyTap {
                round: round.n,
                note: td_string!(l, game.errors.too_late).to_string(),
            }));
            return;
        }
        let Some((_, shown)) = shown_at.get_value().filter(|(n, _)| *n == round.n) else {
            return;
        };
        let reaction = (browser::now_ms() - shown).max(0.0) as u32;
        my_tap.set(Some(MyTap {
            round: round.n,
            note: format!("Udd! {reaction} ms"),
        }));
        browser::vibrate(30);
        play(sounds::TAP);
        let code = room.with_untracked(|r| r.code.clone());
        let player = plays(&g);
        leptos::task::spawn_local(async move {
            let timing = TapTiming {
                round: round.n,
                reveal_ms: round.reveal_ms,
                window_ms: g.window_ms,
                reaction_ms: reaction,
            };
            let fields = timing.fields(&code);
            let path = if player { Tap::PATH } else { TapAlong::PATH };
            let note = match browser::call_server::<TapAck>(path, &fields).await {
                Ok(ack) => match ack.reaction_ms {
                    Some(ms) => {
                        calls.update_value(|c| *c |= 1 << (round.n - g.first_round));
                        counted(l, ms)
                    }
                    None => td_string!(l, game.board.first_counted).to_string(),
                },
                Err(err) => err.localized(),
            };
            my_tap.set(Some(MyTap {
                round: round.n,
                note,
            }));
        });
    };

    // Space or Enter taps from anywhere on the page but another control, which they work as
    // usual (a link, the sound button, a field). On the tap button itself the key taps once:
    // its default (a click) is stopped, as Space would also scroll the page.
    let keys = window_event_listener(ev::keydown, move |event| {
        let key = event.key();
        let other_control = event
            .target()
            .and_then(|t| t.dyn_into::<leptos::web_sys::Element>().ok())
            .is_some_and(|e| {
                matches!(
                    e.closest("a,input,select,textarea,summary,button:not(.udd)"),
                    Ok(Some(_))
                )
            });
        if (key == " " || key == "Enter") && !other_control {
            event.prevent_default();
            send_tap();
        }
    });
    on_cleanup(move || keys.remove());

    let stage = move || {
        let (g, index, round) = current()?;
        let total = g.rounds.len();
        let t = now.get();
        Some(match round.thing.clone() {
            None => {
                // 3-2-1 before every round: the results' pause before a countdown is not
                // counted in it (it showed 5, 4, ...).
                let left = ((round.reveal_ms - t).max(0) + 999) / 1000;
                let left = if left > crate::game::model::COUNTDOWN_MS / 1000 {
                    0
                } else {
                    left
                };
                // Said as a countdown, "Round 4 of 10 starts in": under "Round 4 of 10" alone, a
                // giant 3 read as the round's number on the big screen. (Two strings joined: one
                // with its own interpolation cost 1.7 KB of wasm.)
                let heading = format!(
                    "{} {}",
                    round_heading(l, index, total),
                    td_string!(l, game.board.starts_in)
                );
                Either::Left(view! {
                    <div class="stage countdown" data-testid="countdown">
                        <p class="muted">{heading}</p>
                        <p class="count-num" aria-hidden="true">{if left > 0 { left.to_string() } else { "…".into() }}</p>
                    </div>
                })
            }
            Some(thing) => {
                let heading = round_heading(l, index, total);
                let left = (round.reveal_ms + i64::from(g.window_ms) - t).max(0);
                // In tenths of a percent, as integers: formatting a float would ship its
                // formatter in the bundle (some kilobytes) for one style.
                let share = left * 1000 / i64::from(g.window_ms.max(1));
                Either::Right(view! {
                    <div class="stage reveal" data-testid="reveal" data-round=round.n>
                        <p class="muted">{heading}</p>
                        <Thing thing l />
                        <div class="timer" role="presentation"><span style=format!("width:{}.{}%", share / 10, share % 10)></span></div>
                    </div>
                })
            }
        })
    };

    // Pressed from the moment of the tap (drawn in the same frame) until the next round.
    let pressed = move || {
        let n = current().map(|(_, _, r)| r.n);
        my_tap.with(|t| t.as_ref().is_some_and(|t| Some(t.round) == n))
    };
    // One button for the whole match, drawn again only when it comes or goes: a room update
    // (a reveal, a heartbeat) must not replace the element under a finger between its press
    // and its release, which loses the click.
    let shown =
        Memo::new(move |_| awake.get() && playing() && !game().is_some_and(|g| g.is_finished()));
    let open = Memo::new(move |_| current().is_some_and(|(_, _, r)| r.thing.is_some()));
    let tap_button = move || {
        shown.get().then(|| {
            view! {
                <button type="button" class="udd" class:pressed=pressed data-testid="udd"
                    aria-pressed=move || pressed().to_string() disabled=move || !open.get()
                    on:click=move |_| send_tap()>"Udd!"</button>
            }
        })
    };

    // The last round's verdict for the player, big, until the next thing shows.
    let verdict = move || {
        let id = me.get_value()?;
        let g = game()?;
        if current().is_some_and(|(_, _, r)| r.thing.is_some()) {
            return None;
        }
        let (round, result) = mine(&g)?;
        // A round that closed while this browser's page was closed: the player was away.
        let away = result.reaction_ms.is_none() && awake.get() && round.n < first_seen;
        let streak = g.player(&id).map_or(0, |p| p.streak);
        let why = match (away, result.correct, round.flies, result.reaction_ms) {
            (false, false, Some(true), None) => Some(td_string!(l, game.verdict.missed_it)),
            (_, false, Some(false), Some(_)) => Some(td_string!(l, game.verdict.fell_for_it)),
            _ => None,
        };
        let climbed = g.moved_up_to(&id).map(|place| {
            let place = place_word(l, place);
            around(td_string!(l, game.verdict.moved_up), &place)
        });
        let (class, word) = match (away, result.correct) {
            (true, _) => ("round-verdict away", td_string!(l, game.verdict.away)),
            (_, right) => (
                if right {
                    "round-verdict right"
                } else {
                    "round-verdict wrong"
                },
                verdict_word(l, right),
            ),
        };
        Some(view! {
            <div class=class data-testid="verdict" data-round=round.n data-streak=streak>
                // Which round this was, by its thing: the next round's countdown is already above.
                {round.thing.as_ref().map(|t| view! { <p class="verdict-thing">{format!("{} {}", t.emoji, t.name(l))}</p> })}
                <p class="verdict-word">
                    {word}
                    " "<strong data-testid="verdict-points">{points(result.points)}</strong>
                </p>
                {why.map(|why| view! { <p>{why}</p> })}
                {(streak >= 2 && !away).then(|| view! {
                    <p class="streak" data-testid="streak">{around(td_string!(l, game.verdict.streak), &streak.to_string())}</p>
                })}
                {climbed.map(|line| view! { <p class="climbed" data-testid="moved-up">{line}</p> })}
            </div>
        })
    };

    // What a screen reader hears, in one place and in the page's language: the thing as it
    // shows; when its round closes, the player's verdict, the round's line and who was fastest;
    // at the end, the winner. (A text node is written only when its text changes, so an
    // unchanged line is not announced again.)
    let announce = move || {
        let g = game()?;
        if let Some((_, index, round)) = current() {
            if let Some(thing) = round.thing {
                return Some(format!(
                    "{}: {}",
                    round_heading(l, index, g.rounds.len()),
                    thing.name(l)
                ));
            }
        }
        let results = g
            .rounds
            .get(g.resolved.checked_sub(1)? as usize)?
            .results
            .as_ref()?;
        let mut text = String::new();
        if let Some((_, r)) = mine(&g) {
            // The audience's calls score no points.
            let scored = if plays(&g) {
                points(r.points)
            } else {
                String::new()
            };
            text = format!("{} {scored}. ", verdict_word(l, r.correct));
        }
        text.push_str(&round_line(&g, l)?);
        for r in results.iter().filter(|r| r.fastest) {
            let name = player_name(&g, &r.user_id);
            text = format!(
                "{text} {}",
                around(td_string!(l, game.announce.fastest), &name)
            );
        }
        if g.is_finished() {
            text = format!("{text} {}", wins_line(&g, l));
        }
        Some(text)
    };

    view! {
        <section class="game" data-testid="game">
            <p class="visually-hidden" aria-live="assertive" aria-atomic="true" data-testid="announce">{announce}</p>
            {move || {
                // A member who joined mid-match waits for the next one; a visitor has joined
                // nothing (the room's forms offer them the audience, first).
                let watching = room.with(|r| {
                    r.state == RoomState::Playing
                        && me.get_value().is_some_and(|id| r.player(&id).is_some())
                }) && !playing();
                watching.then(|| view! {
                    <p class="notice" data-testid="spectating">{td_string!(l, game.board.spectating).to_string()}</p>
                })
            }}
            {stage}
            {tap_button}
            <p class="my-tap" data-testid="my-tap" role="status">
                {move || my_tap.get().filter(|t| current().is_some_and(|(_, _, r)| r.n == t.round)).map(|t| t.note)}
            </p>
            <div data-testid="verdict-area">{verdict}</div>
            {move || game().filter(Match::is_finished).map(|g| {
                let badges = me.get_value().map(|id| new_badges(&g, &id, held)).unwrap_or_default();
                // An audience member's own score: their calls that were right.
                let called = (audience && !plays(&g)).then(|| {
                    let (mut right, mut of) = (0, 0);
                    for r in g.rounds.iter().filter(|r| r.flies.is_some() && counts(&g, r.n)) {
                        of += 1;
                        right += u32::from(r.flies == Some(called(&g, r.n)));
                    }
                    view! { <p class="notice ok own" data-testid="your-calls">{around(td_string!(l, game.podium.you_called), &format!("{right}/{of}"))}</p> }
                });
                // A player's own place, first: a fourth of five is not on the podium.
                let place = me.get_value().and_then(|id| {
                    let (place, _) = g.standings().into_iter().find(|(_, p)| p.user_id == id)?;
                    Some(view! { <p class="notice own" data-testid="your-place">{around(td_string!(l, game.podium.your_place), &place.to_string())}</p> })
                });
                view! { {place} {called} <Podium game=g room=room.with(|r| r.id.clone()) badges awake l /> }
            })}
            // The standings before the last round's results: a round's results, drawn at its
            // close, grow below them and move nothing a player is reading (CLS).
            {move || game().map(|g| view! { <Standings game=g me=me.get_value() l /> })}
            <div data-testid="round-results">
                {move || game().and_then(|g| last_results(&g, me.get_value().as_ref(), l))}
            </div>
            <p class="sound" hidden=move || !awake.get()>
                <button type="button" class="small secondary" data-testid="sound"
                    aria-pressed=move || sound.get().to_string()
                    on:click=move |_| {
                        sound.update(|on| *on = !*on);
                        browser::remember(SOUND_KEY, if sound.get_untracked() { "on" } else { "off" });
                    }>
                    {move || if sound.get() { td_string!(l, game.board.sound_on).to_string() } else { td_string!(l, game.board.sound_off).to_string() }}
                </button>
            </p>
        </section>
    }
}

#[component]
fn Thing(thing: ThingCard, l: Locale) -> impl IntoView {
    let label = thing.name(l).to_owned();
    let (id, emoji) = (thing.id.to_string(), thing.emoji.clone());
    let call = format!("{} udd!", thing.hi_latin);
    view! {
        <div class="shown-thing" data-testid="shown-thing" data-thing=id>
            <span class="emoji" role="img" aria-label=label>{emoji}</span>
            <strong class="call">{call}</strong>
            <span class="names">{thing_names(thing, l)}</span>
        </div>
    }
}

/// The latest resolved round: the thing, whether it flies, and what everyone got.
fn last_results(game: &Match, me: Option<&UserId>, l: Locale) -> Option<impl IntoView> {
    let round: &Round = game.rounds.get(game.resolved.checked_sub(1)? as usize)?;
    let results = round.results.clone()?;
    let mut summary = round_line(game, l)?;
    if let Some(r) = me.and_then(|id| results.iter().find(|r| &r.user_id == id)) {
        let yours = points(r.points);
        summary.push(' ');
        summary.push_str(&around(td_string!(l, game.results.you), &yours));
    }
    let rows = results
        .into_iter()
        .map(|r| {
            let name = player_name(game, &r.user_id);
            let tapped = r.reaction_ms.map_or_else(
                || td_string!(l, game.results.held_back).to_string(),
                |ms| around(td_string!(l, game.results.tapped_in), &ms.to_string()),
            );
            let class = if r.correct { "right" } else { "wrong" };
            view! {
                <li class=class data-testid="result">
                    <span class="nickname">{name}</span>" "{tapped}" "
                    <strong>{points(r.points)}</strong>
                    {r.fastest.then(|| format!("\u{a0}{}", td_string!(l, game.results.fastest)))}
                </li>
            }
        })
        .collect_view();
    Some(view! {
        <div class="results card">
            <p data-testid="results-summary"><strong>{summary}</strong></p>
            <ul class="plain">{rows}</ul>
        </div>
    })
}
