//! `/p/<id>`: a player's page, public and shareable, server-rendered with nothing interactive
//! (no wasm). `/me` links to one's own.

use leptos::either::Either;
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::codec::Base64Json;
use crate::game::sheet::match_path;
use crate::identity::profile_path;
use crate::profiles::api::read_profile;
use crate::profiles::model::ProfileView;
use crate::ui::{when, Missing, ShareTags};

#[component]
pub fn ProfilePage() -> impl IntoView {
    let params = use_params_map();
    let query = use_query_map();
    let key = move || {
        (
            params.read().get("id").unwrap_or_default(),
            query.read().get("after"),
        )
    };
    let profile = Resource::<_, Base64Json>::new_with_options(
        key,
        |(id, after)| read_profile(id, after),
        false,
    );
    view! {
        <Suspense fallback=|| view! { <p class="muted">"Reading the profile…"</p> }>
            {move || Suspend::new(async move {
                match profile.await {
                    Ok(profile) => Either::Left(view! { <Profile profile /> }),
                    Err(err) => Either::Right(view! {
                        <Missing title="No such player" err href="/lb" link="The boards" />
                    }),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Profile(profile: ProfileView) -> impl IntoView {
    let ProfileView {
        user_id,
        nickname,
        avatar,
        username,
        joined_ms,
        stats,
        boards,
        sets,
        matches,
        next,
        mine,
    } = profile;
    let name = nickname.to_string();
    let kind = match &username {
        Some(username) => format!("@{username}"),
        None => "Guest".to_owned(),
    };
    let joined = when(joined_ms);
    let average = (stats.matches > 0).then(|| stats.lifetime_score / stats.matches as i64);
    let description = format!(
        "{name} on Udd: {} matches, {} wins, best {}",
        stats.matches,
        stats.wins,
        stats
            .best_score
            .map_or_else(|| "–".to_owned(), |b| b.to_string())
    );
    let path = profile_path(&user_id);
    let board_rows = boards
        .into_iter()
        .map(|b| {
            let top = b.top();
            view! {
                <tr data-testid="profile-board">
                    <td><a href=b.href>{b.name}</a></td>
                    <td class="num" data-testid="profile-rank">{format!("#{} of {}", b.rank, b.entries)}</td>
                    <td class="num">{top}</td>
                    <td class="num">{b.score}</td>
                </tr>
            }
        })
        .collect_view();
    let set_rows = sets
        .into_iter()
        .filter(|s| s.held > 0)
        .map(|s| view! { <li>{format!("{} {}/{}", s.category.label(), s.held, s.of)}</li> })
        .collect_view();
    let match_rows = matches
        .into_iter()
        .map(|m| {
            let ended = when(m.finished_at_ms);
            let link = (m.first_round > 0).then(|| match_path(&m.room, m.first_round));
            let ended = match link {
                Some(href) => Either::Left(
                    view! { <a href=href data-testid="profile-match-link">{ended}</a> },
                ),
                None => Either::Right(ended),
            };
            view! {
                <tr data-testid="profile-match">
                    <td>{ended}</td>
                    <td>{m.room.to_string()}</td>
                    <td class="num">{format!("{} of {}", m.placement, m.players)}</td>
                    <td class="num">{m.score}</td>
                    <td class="num">{format!("{}/{}", m.correct, m.rounds)}</td>
                </tr>
            }
        })
        .collect_view();
    let older = next.map(|cursor| {
        let href = format!("{path}?after={cursor}");
        view! { <p><a href=href rel="next" data-testid="profile-older">"Older matches"</a></p> }
    });
    let own = mine.then(|| view! { <p class="muted" data-testid="profile-mine">"This is you. "<a href="/me">"Your account"</a></p> });
    view! {
        <ShareTags path=path.clone() title=format!("{name} on Udd") description kind="profile" />
        <section class="profile" data-testid="profile-page">
            <div class="who">
                <span class="avatar" role="img" aria-label=avatar.label()>{avatar.emoji()}</span>
                <div>
                    <h1 data-testid="profile-name">{name.clone()}</h1>
                    <p class="muted">{kind}" · joined "{joined}</p>
                </div>
            </div>
            {own}
            <dl class="stats" data-testid="profile-stats">
                <div><dt>"Matches"</dt><dd data-testid="stat-matches">{stats.matches}</dd></div>
                <div><dt>"Wins"</dt><dd data-testid="stat-wins">{stats.wins}</dd></div>
                <div><dt>"Best"</dt><dd>{stats.best_score.map_or_else(|| "–".to_owned(), |b| b.to_string())}</dd></div>
                <div><dt>"Points"</dt><dd>{stats.lifetime_score}</dd></div>
                <div><dt>"Average"</dt><dd>{average.map_or_else(|| "–".to_owned(), |a| a.to_string())}</dd></div>
                <div><dt>"Right calls"</dt><dd>{format!("{}/{}", stats.correct, stats.rounds)}</dd></div>
            </dl>
            <h2>"Boards"</h2>
            <table class="standings" data-testid="profile-boards">
                <thead><tr><th>"Board"</th><th>"Rank"</th><th>"Top"</th><th>"Score"</th></tr></thead>
                <tbody>{board_rows}</tbody>
            </table>
            <h2>"Collection"</h2>
            <ul class="sets" data-testid="profile-sets">{set_rows}</ul>
            <h2>"Matches"</h2>
            <table class="standings" data-testid="profile-matches">
                <thead><tr><th>"Ended"</th><th>"Room"</th><th>"Place"</th><th>"Score"</th><th>"Right"</th></tr></thead>
                <tbody>{match_rows}</tbody>
            </table>
            {older}
        </section>
    }
}
