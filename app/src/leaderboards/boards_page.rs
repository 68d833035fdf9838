//! The board pages, public and shareable, server-rendered with nothing interactive (no wasm):
//!
//! - `/lb` picks a board by links (metric, period, scope) and shows the current one, with its
//!   permanent address;
//! - `/lb/<metric>/<period>/<scope>` is one board, for good (closed periods included);
//! - `/r/<CODE>/lb` is a room's all-time board of best scores.
//!
//! Each shows the top lines with exact ranks, "next page" and "go to position" (plain links and
//! a GET form), the reader's rank with the players around them when signed in, when the period
//! resets, and how fresh the boards are. OpenGraph and Twitter tags name the top three.

use leptos::either::{Either, EitherOf3};
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::codec::Base64Json;
use crate::game::api::list_matches;
use crate::game::matches_page::MatchTable;
use crate::i18n::td_string;
use crate::identity::profile_path;
use crate::ids::RoomCode;
use crate::lang::Locale;
use crate::leaderboards::api::{current_board, read_board, room_leaderboard};
use crate::leaderboards::model::{
    metric_label, period_label, top_percent, BoardId, BoardView, Line, Metric, PeriodKind, Scope,
    Standing,
};
use crate::ui::{code_param, Missing, ShareTags};

/// "1. Asha 3200 · 2. Ravi 2900 · 3. Mei 1500", or a note that nobody is on the board yet.
pub fn top_three(l: Locale, name: &str, lines: &[Line]) -> String {
    if lines.is_empty() {
        return td_string!(l, leaderboards.nobody_on, name = name).to_string();
    }
    lines
        .iter()
        .take(3)
        .map(|l| format!("{}. {} {}", l.rank, l.nickname, l.score))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A duration in words, to the two largest units: "3 d 4 h", "2 h 5 min", "40 s".
pub fn span(l: Locale, ms: i64) -> String {
    let s = ms.max(0) / 1000;
    let (d, h, m) = (s / 86_400, s % 86_400 / 3600, s % 3600 / 60);
    match (d, h, m) {
        (0, 0, 0) => td_string!(l, leaderboards.span.s, s = s).to_string(),
        (0, 0, m) => td_string!(l, leaderboards.span.min, m = m).to_string(),
        (0, h, m) => td_string!(l, leaderboards.span.h_min, h = h, m = m).to_string(),
        (d, h, _) => td_string!(l, leaderboards.span.d_h, d = d, h = h).to_string(),
    }
}

/// The `after` and `at` query parameters of the page's address.
fn paging() -> impl Fn() -> (Option<String>, Option<u64>) + Copy + Send + Sync + 'static {
    let query = use_query_map();
    move || {
        let query = query.read();
        let after = query.get("after").filter(|c| !c.is_empty());
        // A position that is not a number is left to the server to refuse.
        let at = query
            .get("at")
            .filter(|a| !a.is_empty())
            .map(|a| a.trim().parse::<u64>().unwrap_or(0));
        (after, at)
    }
}

/// `/lb/<metric>/<period>/<scope>`; a room's board lists the room's last matches too.
#[component]
pub fn BoardPage() -> impl IntoView {
    let params = use_params_map();
    let room = params
        .read_untracked()
        .get("scope")
        .and_then(|s| s.strip_prefix("room-").map(str::to_owned));
    let paging = paging();
    let key = move || {
        let p = params.read();
        let part = |name: &str| p.get(name).unwrap_or_default();
        let (after, at) = paging();
        (part("metric"), part("period"), part("scope"), after, at)
    };
    let view = Resource::<_, Base64Json>::new_with_options(
        key,
        |(metric, period, scope, after, at)| read_board(metric, period, scope, after, at),
        false,
    );
    view! {
        <BoardOrError view />
        {room.map(|code| view! { <RoomMatches code /> })}
    }
}

/// `/lb?metric=…&period=…&scope=…`: the current board of that kind.
#[component]
pub fn BoardsIndex() -> impl IntoView {
    let query = use_query_map();
    let paging = paging();
    let key = move || {
        let q = query.read();
        let part = |name: &str, default: &str| q.get(name).unwrap_or_else(|| default.to_owned());
        let (after, at) = paging();
        (
            part("metric", "best"),
            part("period", "week"),
            part("scope", "global"),
            after,
            at,
        )
    };
    let view = Resource::<_, Base64Json>::new_with_options(
        key,
        |(metric, period, scope, after, at)| current_board(metric, period, scope, after, at),
        false,
    );
    view! { <BoardOrError view /> }
}

/// `/r/<CODE>/lb`.
#[component]
pub fn RoomBoardPage() -> impl IntoView {
    let code = code_param();
    let paging = paging();
    let view = Resource::<_, Base64Json>::new_with_options(
        move || (code(), paging()),
        |(code, (after, at))| async move {
            room_leaderboard(
                crate::error::from_address(RoomCode::parse(&code))?,
                after,
                at,
            )
            .await
        },
        false,
    );
    view! {
        <BoardOrError view />
        <RoomMatches code=code() />
    }
}

/// The room's latest finished matches, each linked to its rounds.
#[component]
fn RoomMatches(code: String) -> impl IntoView {
    const SHOWN: usize = 5;
    let l = crate::lang::locale();
    let list = Resource::<_, Base64Json>::new_with_options(
        move || code.clone(),
        |code| list_matches(Some(code), None),
        false,
    );
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                list.await.ok().filter(|list| !list.matches.is_empty()).map(|mut list| {
                    let room = list.matches[0].room_id();
                    list.matches.truncate(SHOWN);
                    view! {
                        <section data-testid="room-matches">
                            <h2>{td_string!(l, leaderboards.room_matches).to_string()}</h2>
                            <MatchTable matches=list.matches />
                            <p><a href=format!("/matches?room={room}")>{td_string!(l, leaderboards.all_room_matches).to_string()}</a></p>
                        </section>
                    }
                })
            })}
        </Suspense>
    }
}

#[component]
fn BoardOrError(
    view: Resource<Result<BoardView, crate::error::AppError>, Base64Json>,
) -> impl IntoView {
    let l = crate::lang::locale();
    view! {
        <Suspense fallback=move || view! { <p class="muted">{td_string!(l, leaderboards.reading).to_string()}</p> }>
            {move || Suspend::new(async move {
                match view.await {
                    Ok(board) => Either::Left(view! { <Board board /> }),
                    Err(err) => Either::Right(view! {
                        <Missing
                            title=td_string!(l, leaderboards.no_such_board).to_string()
                            err
                            href="/lb"
                            link=td_string!(l, leaderboards.see_this_week).to_string()
                        />
                    }),
                }
            })}
        </Suspense>
    }
}

/// The links that pick a board: metric, period and scope, each keeping the other two.
fn picker(l: Locale, board: &BoardId) -> impl IntoView {
    let scope = board.scope.to_string();
    let kind = board.period.kind();
    let metric = board.metric;
    let link = |m: Metric, k: PeriodKind, s: &str| {
        let period = match k {
            PeriodKind::Day => "day",
            PeriodKind::Week => "week",
            PeriodKind::Season => "season",
            PeriodKind::AllTime => "all",
        };
        format!("/lb?metric={}&period={period}&scope={s}", m.as_str())
    };
    // The daily's boards are best flights by day, week or all time.
    let daily = board.scope == Scope::Daily;
    let allowed = move |m: Metric, k: PeriodKind, global: bool| {
        if daily {
            return m == Metric::Best && k != PeriodKind::Season;
        }
        m == Metric::Best || (global && k != PeriodKind::Day)
    };
    let global = board.scope == Scope::Global;
    let metrics = Metric::ALL
        .into_iter()
        .map(|m| {
            let k = if allowed(m, kind, global) {
                kind
            } else {
                PeriodKind::Week
            };
            let s = if allowed(m, k, global) {
                scope.clone()
            } else {
                "global".to_owned()
            };
            let label = metric_label(l, m);
            let current = (m == metric).then_some("page");
            view! { <a href=link(m, k, &s) aria-current=current>{label}</a> }
        })
        .collect_view();
    let periods = PeriodKind::ALL
        .into_iter()
        .filter(|k| allowed(metric, *k, global))
        .map(|k| {
            let current = (k == kind).then_some("page");
            view! { <a href=link(metric, k, &scope) aria-current=current>{period_label(l, k)}</a> }
        })
        .collect_view();
    // Everyone's boards beside the daily flight's (best scores, by day, week or all time), or
    // beside the room's.
    let everyone = (
        link(metric, kind, "global"),
        td_string!(l, leaderboards.everyone).to_string(),
        board.scope == Scope::Global,
    );
    let scopes = match &board.scope {
        Scope::Global | Scope::Daily if metric == Metric::Best && kind != PeriodKind::Season => {
            vec![
                everyone,
                (
                    link(metric, kind, "daily"),
                    td_string!(l, leaderboards.daily).to_string(),
                    board.scope == Scope::Daily,
                ),
            ]
        }
        Scope::Global | Scope::Daily | Scope::Deck(_) => Vec::new(),
        Scope::Room(room) => {
            let code = room.code();
            vec![
                everyone,
                (
                    link(metric, kind, &format!("room-{room}")),
                    td_string!(l, leaderboards.room, code = code.as_str()).to_string(),
                    true,
                ),
            ]
        }
    };
    let scopes = (!scopes.is_empty()).then(|| {
        scopes
            .into_iter()
            .map(|(href, label, current)| {
                view! { <a href=href aria-current=current.then_some("page")>{label}</a> }
            })
            .collect_view()
    });
    view! {
        <nav class="board-picker" aria-label=td_string!(l, leaderboards.picker_label).to_string()>
            <div class="tabs" data-testid="metric-links">{metrics}</div>
            <div class="tabs" data-testid="period-links">{periods}</div>
            {scopes.map(|s| view! { <div class="tabs" data-testid="scope-links">{s}</div> })}
        </nav>
    }
}

fn row(
    line: Line,
    name: String,
    totals: bool,
    me: Option<&crate::identity::UserId>,
    asked: bool,
) -> impl IntoView {
    let mine = me.is_some_and(|id| *id == line.user_id);
    view! {
        <tr data-testid="board-entry" class:me=mine class:at=asked id=asked.then_some("at-row")
            aria-current=mine.then_some("true")>
            <td class="num" data-testid="board-rank">{line.rank}</td>
            <td><span class="avatar" aria-hidden="true">{line.avatar.emoji()}</span>" "<a href=profile_path(&line.user_id)>{name.clone()}</a>
                {(!mine).then(|| {
                    let label = td_string!(crate::lang::locale(), reports.report_label, name = name.as_str()).to_string();
                    view! { " " <a class="report-link" href=crate::identity::report_path(&line.user_id) aria-label=label.clone() title=label data-testid="board-report">"⚐"</a> }
                })}
            </td>
            <td class="num" data-testid="board-score">{line.score}</td>
            {totals.then(|| view! { <td class="num">{line.matches}</td> })}
        </tr>
    }
}

/// The lines as a table; `at` is the position asked for ("go to position") and its row, marked
/// (`#at-row`, where the form's address scrolls) and named in the caption.
fn table(
    l: Locale,
    lines: Vec<Line>,
    totals: bool,
    me: Option<&crate::identity::UserId>,
    testid: &'static str,
    at: Option<(u64, usize)>,
) -> impl IntoView {
    // Two players of one name on the board are told apart.
    let names = crate::ui::told_apart(
        &lines
            .iter()
            .map(|line| (&line.user_id, line.nickname.as_str()))
            .collect::<Vec<_>>(),
    );
    let rows = lines
        .into_iter()
        .zip(names)
        .enumerate()
        .map(|(i, (line, name))| row(line, name, totals, me, at.is_some_and(|(_, row)| row == i)))
        .collect_view();
    let caption = at.map(|(n, _)| {
        view! { <caption>{td_string!(l, leaderboards.around_position, n = n).to_string()}</caption> }
    });
    view! {
        <table class="table standings" data-testid=testid>
            {caption}
            <thead><tr>
                <th>"#"</th><th>{td_string!(l, leaderboards.col_player).to_string()}</th><th>{if totals {
                    td_string!(l, leaderboards.col_points).to_string()
                } else {
                    td_string!(l, leaderboards.col_best).to_string()
                }}</th>
                {totals.then(|| view! { <th>{td_string!(l, leaderboards.col_matches).to_string()}</th> })}
            </tr></thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

/// The reader's rank, and the players around them unless their row is already among the lines
/// shown (the board would then show the same rows twice): there their row is marked instead.
fn standing(l: Locale, mine: Standing, entries: u64, totals: bool, shown: bool) -> impl IntoView {
    let Standing { me, above, below } = mine;
    let percent = format!("{:.1}", top_percent(me.rank, entries));
    let headline = td_string!(
        l,
        leaderboards.my_rank,
        rank = me.rank,
        entries = entries,
        percent = percent.as_str()
    )
    .to_string();
    let id = me.user_id.clone();
    let lines: Vec<Line> = above.into_iter().chain([me]).chain(below).collect();
    view! {
        <section class="section mine" data-testid="my-standing">
            <h2>{td_string!(l, leaderboards.you).to_string()}</h2>
            <p data-testid="my-rank">{headline}</p>
            {(!shown).then(|| table(l, lines, totals, Some(&id), "around-me", None))}
        </section>
    }
}

#[component]
fn Board(board: BoardView) -> impl IntoView {
    let BoardView {
        summary,
        lines,
        next,
        mine,
        updated_ms,
        now_ms,
        archived,
        at,
        past_end,
    } = board;
    let l = crate::lang::locale();
    let totals = summary.board.metric == Metric::Total;
    let title = td_string!(l, leaderboards.title, name = summary.name.as_str()).to_string();
    let description = top_three(l, &summary.name, &lines);
    let href = summary.board.href();
    let me = mine.as_ref().map(|m| m.me.user_id.clone());
    let mut facts = vec![td_string!(l, leaderboards.players, n = summary.entries).to_string()];
    match summary.bounds {
        Some((_, end)) if end <= now_ms => {
            facts.push(td_string!(l, leaderboards.closed).to_string())
        }
        Some((_, end)) => {
            let time = span(l, end - now_ms);
            facts.push(td_string!(l, leaderboards.next_reset, time = time.as_str()).to_string())
        }
        None => {}
    }
    if archived {
        facts.push(td_string!(l, leaderboards.top_kept).to_string());
    }
    let updated = match updated_ms {
        Some(at) => {
            let time = span(l, now_ms - at);
            td_string!(l, leaderboards.updated, time = time.as_str()).to_string()
        }
        None => td_string!(l, leaderboards.none_counted).to_string(),
    };
    let room = match &summary.board.scope {
        Scope::Room(room) => Some(view! {
            <p><a href=format!("/r/{}", room.code())>{td_string!(l, leaderboards.back_to_room).to_string()}</a></p>
        }),
        Scope::Deck(deck) => Some(view! {
            <p><a href=format!("/d/{}", deck.as_str())>{td_string!(l, leaderboards.back_to_deck).to_string()}</a></p>
        }),
        Scope::Global | Scope::Daily => None,
    };
    let next_link = next.map(|cursor| {
        view! { <p><a href=format!("{href}?after={cursor}") rel="next" data-testid="next-page">{td_string!(l, leaderboards.next_page).to_string()}</a></p> }
    });
    // One table: the rows around the reader are left out where the lines show them, or where
    // the reader asked for a position.
    let shown = at.is_some()
        || me
            .as_ref()
            .is_some_and(|id| lines.iter().any(|line| line.user_id == *id));
    let body = if lines.is_empty() {
        EitherOf3::A(
            view! { <p class="empty" data-testid="board-empty">{td_string!(l, leaderboards.empty).to_string()}" "<a href="/">{td_string!(l, leaderboards.play_to_get_on).to_string()}</a></p> },
        )
    } else if mine.is_some() {
        EitherOf3::B(table(l, lines, totals, me.as_ref(), "board", at))
    } else {
        EitherOf3::C(table(l, lines, totals, None, "board", at))
    };
    let past_end = past_end.map(|asked| {
        let text = td_string!(
            l,
            leaderboards.past_end,
            entries = summary.entries,
            asked = asked
        )
        .to_string();
        view! { <p class="notice" role="status" data-testid="past-end">{text}</p> }
    });
    view! {
        <ShareTags path=href.clone() title=title.clone() description=description />
        <section class="board" data-testid="board-page">
            <div class="page-head"><h1>{summary.name.clone()}</h1></div>
            <p class="muted" data-testid="board-facts">{facts.join(" · ")}" · "<span data-testid="board-updated">{updated}</span></p>
            {picker(l, &summary.board)}
            {mine.map(|m| standing(l, m, summary.entries, totals, shown))}
            {past_end}
            {body}
            {next_link}
            <form method="get" action=format!("{href}#at-row") class="jump actions">
                <label class="field">{td_string!(l, leaderboards.go_to_position).to_string()}
                    <input type="number" name="at" min="1" inputmode="numeric" required
                        placeholder=td_string!(l, leaderboards.position_hint).to_string() />
                </label>
                <button type="submit" class="secondary">{td_string!(l, leaderboards.go).to_string()}</button>
            </form>
            // The address breaks only after a slash, never inside a word.
            <p class="muted share">{td_string!(l, leaderboards.permanent_link).to_string()}<a href=href.clone() lang="en" data-testid="board-address" class="address">
                {href.split_inclusive('/').map(|part| view! { {part.to_owned()}<wbr /> }).collect_view()}
            </a></p>
            {room}
        </section>
    }
}

/// The room leaderboard's link (its board's own address, `href`: the code's would lead to
/// another room once the code is issued again). A plain link, drawn by the server among the room
/// page's forms: the board's page has its own share card.
#[component]
pub fn BoardLink(href: String) -> impl IntoView {
    let l = crate::lang::locale();
    view! {
        <p class="board-link">
            <a href=href data-testid="board-link">{td_string!(l, leaderboards.room_leaderboard).to_string()}</a>
        </p>
    }
}
