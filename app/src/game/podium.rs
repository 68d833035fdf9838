//! The end of a match on the room page: the standings between rounds, the podium with the new
//! badges, and the forms after the match (play again, start).

use leptos::prelude::*;
use leptos::server_fn::ServerFn;

use crate::browser;
use crate::game::api::StartMatch;
use crate::game::match_page::receipt_line;
use crate::game::model::Match;
use crate::game::sheet::match_path;
use crate::game::words::*;
use crate::i18n::td_string;
use crate::identity::model::UserId;
use crate::inventory::model::Badge;
use crate::lang::Locale;
use crate::rooms::model::RoomId;

/// The standings; `me`'s own row is marked (and says "(you)"), so a player below the podium
/// finds their place.
#[component]
pub fn Standings(game: Match, me: Option<UserId>, l: Locale) -> impl IntoView {
    // When the match is over, what each player earned: the same rules the projector grants by.
    let finished = game.is_finished();
    let emoji_of = |thing: &crate::catalog::ThingId| {
        game.rounds
            .iter()
            .filter_map(|r| r.thing.as_ref())
            .find(|t| &t.id == thing)
            .map(|t| t.emoji.clone())
            .unwrap_or_default()
    };
    let rows = game
        .outcomes()
        .into_iter()
        .map(|(p, outcome)| {
            let reaction = p
                .average_reaction_ms()
                .map_or_else(|| "–".to_owned(), |ms| format!("{ms} ms"));
            let earned = finished.then(|| {
                let rewards = crate::inventory::rules::rewards(&outcome);
                let cards: String = rewards.cards.iter().map(emoji_of).collect();
                // Badges are announced on the podium, to their player, when new to them.
                view! {
                    <td data-testid="earned" data-feathers=rewards.feathers data-cards=rewards.cards.len()>
                        "🪶 "{rewards.feathers}" "<span role="img" aria-label=around(td_string!(l, game.standings.cards), &rewards.cards.len().to_string())>{cards}</span>
                    </td>
                }
            });
            let mine = me.as_ref() == Some(&p.user_id);
            view! {
                <tr data-testid="standing" aria-current=mine.then_some("true")>
                    <td>{outcome.placement}</td>
                    <td><span class=crate::ids::Look::avatar_class(p.look) aria-hidden="true" data-look=p.look.map(|look| look.id())>{p.avatar.emoji()}</span>" "{p.nickname.to_string()}{mine.then(|| view! { <span class="you">{td_string!(l, rooms.lobby.you).to_string()}</span> })}</td>
                    <td class="num" data-testid="score">{p.score}</td>
                    <td class="num wide">{p.correct}</td>
                    <td class="num wide">{reaction}</td>
                    {earned}
                </tr>
            }
        })
        .collect_view();
    let earned_head =
        finished.then(|| view! { <th>{td_string!(l, game.standings.earned).to_string()}</th> });
    view! {
        <table class="standings" data-testid="standings">
            <caption>{td_string!(l, game.standings.caption).to_string()}</caption>
            <thead><tr>
                <th>"#"</th>
                <th>{td_string!(l, game.standings.player).to_string()}</th>
                <th>{td_string!(l, game.standings.score).to_string()}</th>
                <th class="wide">{td_string!(l, game.standings.right).to_string()}</th>
                <th class="wide">{td_string!(l, game.standings.avg).to_string()}</th>
                {earned_head}
            </tr></thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

/// Where this browser remembers the badges announced to `me`.
pub(crate) fn badge_key(me: &UserId) -> String {
    format!("udd-badges-{}", me.as_str())
}

/// The badges the match earned `me` that are new to them: not held before the match began
/// (`held`, from the page's load, plus what this page announced since, which it adds to).
pub(crate) fn new_badges(
    game: &Match,
    me: &UserId,
    held: StoredValue<Vec<(Badge, i64)>>,
) -> Vec<Badge> {
    let Some((_, outcome)) = game.outcomes().into_iter().find(|(p, _)| &p.user_id == me) else {
        return Vec::new();
    };
    let earned = crate::inventory::rules::rewards(&outcome).badges;
    let fresh = held
        .with_value(|held| crate::inventory::rules::new_badges(&earned, held, game.started_at_ms));
    if !fresh.is_empty() {
        held.update_value(|held| held.extend(fresh.iter().map(|b| (*b, game.started_at_ms))));
        browser::remember(&badge_key(me), &held.with_value(|held| Badge::list(held)));
    }
    fresh
}

#[component]
pub fn Podium(
    game: Match,
    room: RoomId,
    badges: Vec<Badge>,
    awake: RwSignal<bool>,
    l: Locale,
) -> impl IntoView {
    let wins = wins_line(&game, l);
    // How often the room's audience was right, over the rounds it called.
    let (mut called, mut right) = (0, 0);
    for r in &game.rounds {
        called += r.crowd;
        right += if r.flies == Some(true) {
            r.crowd_flies
        } else {
            r.crowd - r.crowd_flies
        };
    }
    let crowd = (right * 100).checked_div(called).map(|share| {
        let share = share.to_string();
        view! { <p data-testid="crowd-right">"👥 "{around(td_string!(l, game.podium.crowd), &share)}</p> }
    });
    let standings = game.standings();
    // Each block's step by its position among the three (gold in the middle, then left, then
    // right), its number by the place: by the place alone, two tied seconds both stood left of
    // the winner.
    let places = standings
        .into_iter()
        .take(3)
        .enumerate()
        .map(|(i, (place, p))| {
            view! {
                <li class=format!("place place-{}", i + 1) data-testid="podium-place">
                    <span class=crate::ids::Look::avatar_class(p.look) aria-hidden="true" data-look=p.look.map(|look| look.id())>{p.avatar.emoji()}</span>
                    <span class="nickname">{p.nickname.to_string()}</span>
                    <strong>{p.score}</strong>
                    <span class="rank">{place}</span>
                </li>
            }
        })
        .collect_view();
    // Shown only now: the seed that drew this match's things (nobody knew it before).
    let seed = game.seed.map(|seed| {
        view! { <p class="muted" data-testid="match-seed">{td_string!(l, game.podium.seed).to_string()}" " <code>{seed.to_string()}</code></p> }
    });
    // What the match cost on DynamoDB, as the instances report in.
    let receipt = game.receipt.map(|r| receipt_line(*r, l));
    let detail = match_path(&room, game.first_round);
    let link = StoredValue::new(detail.clone());
    let status = RwSignal::new(String::new());
    // The match's page, whose preview is the match's card: the system share sheet where the
    // browser has one, the clipboard elsewhere.
    let share = move |_| {
        let url = browser::absolute(&link.get_value());
        leptos::task::spawn_local(async move {
            if browser::can_share() {
                browser::share(td_string!(l, game.podium.share), &url).await;
            } else {
                status.set(if browser::copy_text(&url).await {
                    td_string!(l, game.podium.copied).to_string()
                } else {
                    td_string!(l, game.podium.copy_failed).to_string()
                });
            }
        });
    };
    // Worded once awake (the server cannot know the browser's share sheet).
    let share_label = move || {
        if awake.get() && browser::can_share() {
            td_string!(l, game.podium.share)
        } else {
            td_string!(l, game.podium.copy)
        }
    };
    view! {
        <div class="podium-wrap" data-testid="podium">
            <h2>{td_string!(l, game.podium.over).to_string()}</h2>
            <p class="winner" data-testid="winner">"🏆 "{wins}</p>
            <ol class="podium">{places}</ol>
            {crowd}
            {badges.into_iter().map(|b| view! {
                <p class="notice ok" data-testid="new-badge">"🏅 "{around(td_string!(l, game.podium.new_badge), b.name(l))}</p>
            }).collect_view()}
            <p class="actions">
                <a href=detail data-testid="match-detail-link">{td_string!(l, game.podium.every_round).to_string()}</a>
                // Shown once the island is awake (without JavaScript it could do nothing), in a
                // place kept for it from the first paint: appearing, it moved the page (CLS).
                <button type="button" class="secondary" class:asleep=move || !awake.get() data-testid="share-match" on:click=share>{share_label}</button>
            </p>
            <p class="muted" role="status" data-testid="share-match-status">{move || status.get()}</p>
            // Operators' figures, behind a disclosure.
            <details class="ops" data-testid="match-details">
                <summary>{td_string!(l, game.podium.details).to_string()}</summary>
                {seed}
                {receipt}
            </details>
        </div>
    }
}

/// After a match: where its cards and feathers go, and trading with the room (drawn by the
/// server among the room's forms, shown once the room has played).
#[component]
pub fn AfterMatch(code: String) -> impl IntoView {
    let l = crate::lang::locale();
    view! {
        <p class="muted">{td_string!(l, game.standings.arrive).to_string()}" "
            <a href="/inventory" data-testid="see-cards">{td_string!(l, game.standings.your_cards).to_string()}</a>" · "
            <a href=format!("/trades?room={code}") data-testid="trade-room">{td_string!(l, game.standings.trade_room).to_string()}</a>
        </p>
    }
}

/// The host's start form, with an optional fixed order. Its button says "Play again" once the
/// room has played (the stylesheet picks the words by the room's state).
#[component]
pub fn StartForm(code: String) -> impl IntoView {
    let l = crate::lang::locale();
    view! {
        <form method="post" action=StartMatch::PATH class="card start" data-testid="start-match">
            <input type="hidden" name="code" value=code />
            <button type="submit" class="big">
                <span class="fresh">{td_string!(l, game.start.start).to_string()}</span>
                <span class="again">{td_string!(l, game.start.again).to_string()}</span>
            </button>
            <details>
                <summary>{td_string!(l, game.start.fixed_order).to_string()}</summary>
                <label>{td_string!(l, game.start.seed).to_string()}
                    <input name="seed" inputmode="numeric" pattern="[0-9]*" maxlength="19" />
                </label>
            </details>
        </form>
    }
}
