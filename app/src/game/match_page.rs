//! `/m/<room id>/<first round>`: one finished match, public and shareable, server-rendered with
//! nothing interactive (no wasm): every round as a table (the thing, whether it flies, each
//! player's tap or hold, reaction, points and streak), the final placings and what the match
//! cost. `/r/<CODE>/m/<first round>`, the address before rooms had ids, still opens the match it
//! named.

use leptos::either::Either;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

use crate::codec::Base64Json;
use crate::game::api::read_match;
use crate::game::model::{MatchReceipt, ThingCard};
use crate::game::sheet::{MatchDetail, MatchSummary, Play};
use crate::i18n::{td, td_string};
use crate::identity::profile_path;
use crate::ids::{BoardId, RoomId};
use crate::lang::Locale;
use crate::ui::{around_moment, code_param, when, Missing, ShareTags, MOMENT_MARK};

/// `/m/<room id>/<first round>`, and `/r/<CODE>/m/<first round>` (a match kept under its room's
/// code, before rooms had ids).
#[component]
pub fn MatchPage() -> impl IntoView {
    let l = crate::lang::locale();
    let code = code_param();
    let params = use_params_map();
    let room = move || params.read().get("room").unwrap_or_else(code);
    // Not a number: no match has it (rounds are numbered from 1).
    let first = move || {
        params
            .read()
            .get("first")
            .and_then(|f| f.parse::<u32>().ok())
            .unwrap_or(0)
    };
    let detail = Resource::<_, Base64Json>::new_with_options(
        move || (room(), first()),
        |(room, first)| async move {
            read_match(crate::error::from_address(RoomId::parse(&room))?, first).await
        },
        false,
    );
    view! {
        <Suspense fallback=move || view! { <p class="muted">{td_string!(l, game.sheet.reading).to_string()}</p> }>
            {move || Suspend::new(async move {
                match detail.await {
                    Ok(detail) => Either::Left(view! { <MatchSheet detail l /> }),
                    Err(err) => Either::Right(view! {
                        <Missing
                            title=td_string!(l, game.sheet.no_match).to_string()
                            err
                            href="/matches"
                            link=td_string!(l, game.list.recent).to_string()
                        />
                    }),
                }
            })}
        </Suspense>
    }
}

/// "Asha 3200 · Ravi 2900 · Mei 1500": the top three of a match, with " · …" after them when
/// more played, so a line beside "4 players" never reads as the whole match.
pub fn podium_line(summary: &MatchSummary) -> String {
    let mut line = summary
        .players
        .iter()
        .take(3)
        .map(|p| format!("{} {}", p.nickname, p.score))
        .collect::<Vec<_>>()
        .join(" · ");
    if summary.players.len() > 3 {
        line.push_str(" · …");
    }
    line
}

#[component]
fn MatchSheet(detail: MatchDetail, l: Locale) -> impl IntoView {
    let totals: Vec<_> = (0..detail.summary.players.len())
        .map(|i| detail.totals(i))
        .collect();
    let MatchDetail {
        summary,
        rounds,
        receipt,
    } = detail;
    let code = summary.room.to_string();
    let room = summary.room_id();
    let finished = when(summary.finished_at_ms);
    let title = td_string!(
        l,
        game.sheet.title,
        code = code.as_str(),
        when = finished.as_str()
    )
    .to_string();
    // The heading's moment is a `Moment` like every other on a page (the reader's own time with
    // JavaScript); the page's title and share tags keep the UTC text.
    let heading = td_string!(
        l,
        game.sheet.title,
        code = code.as_str(),
        when = MOMENT_MARK
    )
    .to_string();
    let finished_ms = summary.finished_at_ms;
    let podium = podium_line(&summary);
    let description = td_string!(
        l,
        game.sheet.description,
        rounds = summary.rounds,
        players = summary.players.len(),
        podium = podium.as_str()
    )
    .to_string();
    let path = summary.path();
    let places = summary
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let totals = totals[i];
            let average = totals
                .average_reaction_ms
                .map_or_else(|| "–".to_owned(), |ms| format!("{ms} ms"));
            view! {
                <tr data-testid="match-player">
                    <td class="num">{p.placement}</td>
                    <td><span class="avatar" aria-hidden="true">{p.avatar.emoji()}</span>" "<a class="nickname" href=profile_path(&p.user_id) data-testid="player-link">{p.nickname.to_string()}</a></td>
                    <td class="num" data-testid="match-score">{p.score}</td>
                    <td class="num">{format!("{}/{}", totals.correct, summary.rounds)}</td>
                    <td class="num">{totals.best_streak}</td>
                    <td class="num">{average}</td>
                </tr>
            }
        })
        .collect_view();
    let heads = summary
        .players
        .iter()
        .map(|p| view! { <th scope="col">{p.nickname.to_string()}</th> })
        .collect_view();
    let names: Vec<String> = summary
        .players
        .iter()
        .map(|p| p.nickname.to_string())
        .collect();
    let rows = rounds
        .into_iter()
        .enumerate()
        .map(|(i, round)| {
            let plays = round
                .plays
                .into_iter()
                .enumerate()
                .map(|(p, play)| play_cell(play, names.get(p).cloned().unwrap_or_default(), l))
                .collect_view();
            let emoji = round.thing.emoji.clone();
            let note = ruling_note(&round.thing, l)
                .map(|n| view! { <br /><small class="muted" data-testid="round-note">{n}</small> });
            let verdict = if round.flies {
                td_string!(l, game.sheet.flies).to_string()
            } else {
                td_string!(l, game.sheet.grounded).to_string()
            };
            view! {
                <tr data-testid="match-round">
                    <th scope="row" class="num">{i + 1}</th>
                    <td class="named">
                        <span class="emoji" aria-hidden="true">{emoji}</span>" "
                        {thing_names(round.thing, l)}
                    </td>
                    <td class="verdict-cell" data-testid="round-flies">{verdict}{note}</td>
                    {plays}
                </tr>
            }
        })
        .collect_view();
    view! {
        <ShareTags path=path.clone() title=title.clone() description=description.clone() />
        <section class="match-sheet" data-testid="match-page">
            <h1>{around_moment(&heading, finished_ms)}</h1>
            <p class="muted">{description}</p>
            <table class="table standings" data-testid="match-players">
                <caption>{td_string!(l, game.sheet.placings).to_string()}</caption>
                <thead><tr>
                    <th class="num">"#"</th>
                    <th>{td_string!(l, game.standings.player).to_string()}</th>
                    <th class="num">{td_string!(l, game.standings.score).to_string()}</th>
                    <th class="num">{td_string!(l, game.standings.right).to_string()}</th>
                    <th class="num">{td_string!(l, game.sheet.best_run).to_string()}</th>
                    <th class="num">{td_string!(l, game.standings.avg).to_string()}</th>
                </tr></thead>
                <tbody>{places}</tbody>
            </table>
            <div class="scroll">
                <table class="rounds stacked" data-testid="match-rounds">
                    <caption>{td_string!(l, game.sheet.rounds_caption).to_string()}</caption>
                    <thead><tr>
                        <th>"#"</th>
                        <th>{td_string!(l, game.sheet.thing).to_string()}</th>
                        <th>{td_string!(l, game.sheet.it).to_string()}</th>
                        {heads}
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            {receipt.map(|r| view! {
                <details class="ops">
                    <summary>{td_string!(l, game.podium.details).to_string()}</summary>
                    {receipt_line(r, l)}
                </details>
            })}
            <p>
                <a href=BoardId::room_best(&room).href() data-testid="room-board-link">{td_string!(l, game.sheet.room_board).to_string()}</a>" · "
                <a href=format!("/matches?room={room}")>{td_string!(l, game.sheet.room_matches).to_string()}</a>" · "
                <a href="/matches">{td_string!(l, game.list.recent).to_string()}</a>
            </p>
        </section>
    }
}

/// One player's round: "tap 312 ms" or "held", the points, and the run when it is 2 or more.
/// `player` labels the cell where the table is read as a list of rounds (on a phone).
fn play_cell(play: Play, player: String, l: Locale) -> impl IntoView {
    let what = play.reaction_ms.map_or_else(
        || td_string!(l, game.sheet.held).to_string(),
        |ms| td_string!(l, game.sheet.tap_ms, ms = ms).to_string(),
    );
    let points = if play.points > 0 {
        format!("+{}", play.points)
    } else {
        play.points.to_string()
    };
    let run = (play.streak >= 2)
        .then(|| format!(" · {}", td_string!(l, game.sheet.run, n = play.streak)));
    let fastest = play
        .fastest
        .then(|| format!(" · {}", td_string!(l, game.sheet.fastest)));
    view! {
        <td class:right=play.correct class:wrong=!play.correct data-testid="play" data-label=player>
            {what}<br /><strong>{points}</strong>{run}{fastest}
        </td>
    }
}

/// Why a round's thing was ruled so, in `l` where there is one: a deck's note as its round kept
/// it, a catalog thing's from the catalog as the game ships it (its rounds do not copy it).
fn ruling_note(thing: &ThingCard, l: Locale) -> Option<String> {
    let (note, note_hi) = match (&thing.note, &thing.note_hi) {
        (None, None) => catalog_note(thing)?,
        (note, note_hi) => (note.clone(), note_hi.clone()),
    };
    match l {
        Locale::hi => note_hi.or(note),
        Locale::en => note,
    }
}

/// A catalog thing's note and its Hindi, as the game ships them (the page is drawn on the
/// server: the browser's build has no catalog).
#[cfg(feature = "ssr")]
fn catalog_note(thing: &ThingCard) -> Option<(Option<String>, Option<String>)> {
    let seed = crate::catalog::seed::SEED
        .iter()
        .filter(|_| !thing.id.is_deck_thing())
        .find(|seed| seed.id == thing.id.as_str())?;
    Some((
        seed.note.map(str::to_owned),
        seed.note_hi.map(str::to_owned),
    ))
}

#[cfg(not(feature = "ssr"))]
fn catalog_note(_: &ThingCard) -> Option<(Option<String>, Option<String>)> {
    None
}

/// A thing's names: the English and the Devanagari on an English page, the Devanagari alone on
/// a Hindi one; its one name once when it has no other (a deck's thing named in one language).
pub fn thing_names(thing: ThingCard, l: Locale) -> impl IntoView {
    use leptos::either::EitherOf3;
    match l {
        _ if thing.hi == thing.en => EitherOf3::A(view! { <span class="en">{thing.en}</span> }),
        Locale::hi => EitherOf3::B(view! { <span lang="hi">{thing.hi}</span> }),
        _ => EitherOf3::C(view! {
            <span class="en">{thing.en}</span>" · "<span lang="hi">{thing.hi}</span>
        }),
    }
}

/// What a match cost on DynamoDB (integer maths only: float formatting would add to every
/// phone's download where the podium shows it).
pub fn receipt_line(r: MatchReceipt, l: Locale) -> impl IntoView {
    let tenths = |milli: u64| format!("{}.{}", milli / 1000, milli % 1000 / 100);
    let micro = r.price_nano_usd.div_ceil(1000);
    let (write, read) = (tenths(r.write_milli), tenths(r.read_milli));
    let price = format!("{}.{:06}", micro / 1_000_000, micro % 1_000_000);
    let calls = r.calls;
    // The product's name stays as it is, marked as English.
    let service = || view! { <span lang="en">"DynamoDB"</span> };
    view! {
        <p class="muted" data-testid="receipt">
            {td!(l, game.sheet.receipt, write, read, calls, price, service)}
        </p>
    }
}
