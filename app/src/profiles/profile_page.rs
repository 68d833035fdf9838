//! `/p/<id>`: a player's page, public and shareable, server-rendered with nothing interactive
//! (no wasm). `/me` links to one's own.

use leptos::either::Either;
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::codec::Base64Json;
use crate::game::sheet::match_path;
use crate::i18n::td_string;
use crate::identity::profile_path;
use crate::identity::UserId;
use crate::profiles::api::{no_such_player, read_profile};
use crate::profiles::model::{ProfileBoard, ProfileView};
use crate::ui::{around_moment, Missing, Moment, ShareTags, MOMENT_MARK};

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
        |(id, after)| async move {
            let l = crate::lang::locale();
            let id = UserId::parse(id.trim()).map_err(|_| no_such_player(l));
            read_profile(crate::error::from_address(id)?, after).await
        },
        false,
    );
    let l = crate::lang::locale();
    view! {
        <Suspense fallback=move || view! { <p class="muted">{td_string!(l, profiles.reading).to_string()}</p> }>
            {move || Suspend::new(async move {
                match profile.await {
                    Ok(profile) => Either::Left(view! { <Profile profile /> }),
                    Err(err) => Either::Right(view! {
                        <Missing
                            title=td_string!(l, profiles.no_such_player_title).to_string()
                            err
                            href="/lb"
                            link=td_string!(l, profiles.the_boards).to_string()
                        />
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
        name_hidden,
        days,
    } = profile;
    let l = crate::lang::locale();
    let name = nickname.to_string();
    let kind = match &username {
        Some(username) => format!("@{username}"),
        None => td_string!(l, profiles.guest).to_string(),
    };
    // When they joined is a moment like every other on a page (`Moment`).
    let joined =
        td_string!(l, profiles.joined, kind = kind.as_str(), date = MOMENT_MARK).to_string();
    // The run as the server saw it today (see `read_profile`).
    let days_in_a_row = {
        let run = days.run;
        if days.best > run {
            format!(
                "{run} · {} {}",
                td_string!(l, profiles.stat.best),
                days.best
            )
        } else {
            run.to_string()
        }
    };
    let average = (stats.matches > 0).then(|| stats.lifetime_score / stats.matches as i64);
    let best = stats
        .best_score
        .map_or_else(|| "–".to_owned(), |b| b.to_string());
    let description = td_string!(
        l,
        profiles.description,
        name = name.as_str(),
        matches = stats.matches,
        wins = stats.wins,
        best = best.as_str()
    )
    .to_string();
    let title = td_string!(l, profiles.title, name = name.as_str()).to_string();
    let path = profile_path(&user_id);
    // The boards grouped by metric and scope (in the order they came), each named by its period.
    let mut groups: Vec<(String, Vec<ProfileBoard>)> = Vec::new();
    for board in boards {
        match groups.iter_mut().find(|(name, _)| *name == board.group) {
            Some((_, members)) => members.push(board),
            None => groups.push((board.group.clone(), vec![board])),
        }
    }
    let no_boards = groups.is_empty();
    let board_groups = groups
        .into_iter()
        .map(|(group, members)| {
            let rows = members
                .into_iter()
                .map(|b| {
                    let top = b.top_in(l);
                    let rank = td_string!(l, profiles.rank_of, rank = b.rank, entries = b.entries)
                        .to_string();
                    view! {
                        <tr data-testid="profile-board">
                            <td><a href=b.href title=b.name>{b.period}</a></td>
                            <td class="num" data-testid="profile-rank">{rank}</td>
                            <td class="num">{top}</td>
                            <td class="num">{b.score}</td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <li class="tile" data-testid="profile-board-group">
                    <h3 class="name">{group}</h3>
                    <table class="table">
                        <thead><tr>
                            <th>{td_string!(l, profiles.col.period).to_string()}</th>
                            <th class="num">{td_string!(l, profiles.col.rank).to_string()}</th>
                            <th class="num">{td_string!(l, profiles.col.top).to_string()}</th>
                            <th class="num">{td_string!(l, profiles.col.score).to_string()}</th>
                        </tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </li>
            }
        })
        .collect_view();
    let set_rows = sets
        .into_iter()
        .filter(|s| s.held > 0)
        .map(|s| {
            let share = s.held.saturating_mul(100) / s.of.max(1);
            view! {
                <li class="tile">
                    <span class="name">{s.category.label_in(l)}" "<span class="meta">{format!("{}/{}", s.held, s.of)}</span></span>
                    <div class="meter" role="presentation"><span style=format!("width:{share}%")></span></div>
                </li>
            }
        })
        .collect_view();
    let no_matches = matches.is_empty();
    let match_rows = matches
        .into_iter()
        .map(|m| {
            let at = m.finished_at_ms;
            let link = (m.first_round > 0).then(|| match_path(&m.room_id(), m.first_round));
            let ended = match link {
                Some(href) => Either::Left(
                    view! { <a href=href data-testid="profile-match-link"><Moment ms=at /></a> },
                ),
                None => Either::Right(view! { <Moment ms=at /> }),
            };
            let place = td_string!(
                l,
                profiles.place_of,
                place = m.placement,
                players = m.players
            )
            .to_string();
            view! {
                <tr data-testid="profile-match">
                    <td>{ended}</td>
                    <td>{m.room.to_string()}</td>
                    <td class="num">{place}</td>
                    <td class="num">{m.score}</td>
                    <td class="num">{format!("{}/{}", m.correct, m.rounds)}</td>
                </tr>
            }
        })
        .collect_view();
    let older = next.map(|cursor| {
        let href = format!("{path}?after={cursor}");
        view! { <p><a href=href rel="next" data-testid="profile-older">{td_string!(l, profiles.older).to_string()}</a></p> }
    });
    let own = mine.then(|| {
        let hidden = name_hidden.then(|| {
            let notice = td_string!(l, identity.hidden.notice, tag = name.as_str()).to_string();
            view! {
                <p class="notice" role="status" data-testid="name-hidden">
                    {notice}" "<a href="/me">{td_string!(l, identity.hidden.rename_heading).to_string()}</a>
                </p>
            }
        });
        view! {
            {hidden}
            <p class="muted" data-testid="profile-mine">
                {td_string!(l, profiles.this_is_you).to_string()}
                <a href="/me">{td_string!(l, profiles.your_account).to_string()}</a>
            </p>
        }
    });
    let report = (!mine).then(|| {
        let label = td_string!(l, reports.report_label, name = name.as_str()).to_string();
        view! { <p><a href=crate::identity::report_path(&user_id) data-testid="report-link">{label}</a></p> }
    });
    view! {
        <ShareTags path=path.clone() title description kind="profile" />
        <section class="profile" data-testid="profile-page">
            <div class="who">
                <span class="avatar" role="img" aria-label=avatar.label_in(l)>{avatar.emoji()}</span>
                <div>
                    <h1 data-testid="profile-name">{name.clone()}</h1>
                    <p class="muted" data-testid="profile-joined">{around_moment(&joined, joined_ms)}</p>
                </div>
            </div>
            {own}
            {crate::inventory::trades_page::offer_link(&user_id, mine)}
            {report}
            <dl class="stats" data-testid="profile-stats">
                <div><dt>{td_string!(l, profiles.stat.matches).to_string()}</dt><dd data-testid="stat-matches">{stats.matches}</dd></div>
                <div><dt>{td_string!(l, profiles.stat.wins).to_string()}</dt><dd data-testid="stat-wins">{stats.wins}</dd></div>
                <div><dt>{td_string!(l, profiles.stat.best).to_string()}</dt><dd>{best}</dd></div>
                <div><dt>{td_string!(l, profiles.stat.points).to_string()}</dt><dd>{stats.lifetime_score}</dd></div>
                <div><dt>{td_string!(l, profiles.stat.average).to_string()}</dt><dd>{average.map_or_else(|| "–".to_owned(), |a| a.to_string())}</dd></div>
                <div><dt>{td_string!(l, profiles.stat.right_calls).to_string()}</dt><dd>{format!("{}/{}", stats.correct, stats.rounds)}</dd></div>
                <div><dt>{td_string!(l, profiles.stat.days).to_string()}</dt><dd data-testid="stat-days">{days_in_a_row}</dd></div>
            </dl>
            <h2>{td_string!(l, profiles.boards).to_string()}</h2>
            {no_boards.then(|| view! { <p class="empty">{td_string!(l, profiles.no_boards).to_string()}</p> })}
            <ul class="tiles board-groups" data-testid="profile-boards">{board_groups}</ul>
            <h2>{td_string!(l, profiles.collection).to_string()}</h2>
            <ul class="tiles sets" data-testid="profile-sets">{set_rows}</ul>
            <h2>{td_string!(l, profiles.matches).to_string()}</h2>
            {no_matches.then(|| view! { <p class="empty">{td_string!(l, profiles.no_matches).to_string()}</p> })}
            <table class="table standings" data-testid="profile-matches" hidden=no_matches>
                <thead><tr>
                    <th>{td_string!(l, profiles.col.ended).to_string()}</th>
                    <th>{td_string!(l, profiles.col.room).to_string()}</th>
                    <th>{td_string!(l, profiles.col.place).to_string()}</th>
                    <th>{td_string!(l, profiles.col.score).to_string()}</th>
                    <th>{td_string!(l, profiles.col.right).to_string()}</th>
                </tr></thead>
                <tbody>{match_rows}</tbody>
            </table>
            {older}
        </section>
    }
}
