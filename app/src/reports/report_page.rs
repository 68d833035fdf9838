//! `/report/<id>`: report a player, with a reason from a short list; `/r/<code>/report`: the
//! room's players, each a link to their report. Server-drawn plain forms (no wasm), reached
//! from a player's page, a board's rows and the room page.

use leptos::either::{Either, EitherOf3};
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::codec::Base64Json;
use crate::i18n::td_string;
use crate::identity::profile_path;
use crate::identity::report_path;
use crate::identity::UserId;
use crate::lang::Locale;
use crate::reports::api::{read_report_target, room_targets, ReportPageData, ReportPlayer};
use crate::reports::{Reason, REPORTS_TO_HIDE, REPORT_LIFETIME_DAYS};
use crate::rooms::model::RoomCode;
use crate::ui::forms::FormError;
use crate::ui::Missing;

const FORM_PATHS: &[&str] = &[ReportPlayer::PATH];

#[component]
pub fn ReportPage() -> impl IntoView {
    let params = use_params_map();
    let query = use_query_map();
    let id = move || params.read().get("id").unwrap_or_default();
    let data = Resource::<_, Base64Json>::new_with_options(
        id,
        |id| async move {
            let l = crate::lang::locale();
            let id = UserId::parse(id.trim()).map_err(|_| crate::profiles::api::no_such_player(l));
            read_report_target(crate::error::from_address(id)?).await
        },
        false,
    );
    let sent = move || query.read().get("sent");
    let l = crate::lang::locale();
    view! {
        <Suspense fallback=move || view! { <p class="muted">{td_string!(l, reports.reading).to_string()}</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(data) => Either::Left(view! { <Report data sent=sent() l /> }),
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
fn Report(data: ReportPageData, sent: Option<String>, l: Locale) -> impl IntoView {
    let ReportPageData { target, signed_in } = data;
    let title = td_string!(l, reports.title, name = target.name.as_str()).to_string();
    let status = match sent.as_deref() {
        Some("counted") => Some(td_string!(l, reports.sent_counted).to_string()),
        Some("again") => Some(td_string!(l, reports.sent_again).to_string()),
        _ => None,
    };
    let how = td_string!(
        l,
        reports.how,
        count = REPORTS_TO_HIDE,
        days = REPORT_LIFETIME_DAYS
    )
    .to_string();
    let sent = status.is_some();
    let body = (!sent).then(|| match (target.me, signed_in) {
        (true, _) => EitherOf3::A(
            view! { <p data-testid="report-yourself">{td_string!(l, reports.is_you).to_string()}</p> },
        ),
        (false, false) => EitherOf3::B(view! {
            <p data-testid="report-sign-in"><a href="/">{td_string!(l, reports.sign_in_first).to_string()}</a></p>
        }),
        (false, true) => EitherOf3::C(view! {
            <form method="post" action=ReportPlayer::PATH class="card" data-testid="report-form">
                <input type="hidden" name="player" value=target.id.to_string() />
                <fieldset class="choices">
                    <legend>{td_string!(l, reports.why).to_string()}</legend>
                    {Reason::ALL.into_iter().enumerate().map(|(i, reason)| view! {
                        <label class="check">
                            <input type="radio" name="reason" value=reason.slug() required=i == 0 />
                            " " {reason.label(l)}
                        </label>
                    }).collect_view()}
                </fieldset>
                <button type="submit" data-testid="send-report">{td_string!(l, reports.submit).to_string()}</button>
            </form>
        }),
    });
    view! {
        <Title text=title.clone() />
        <section class="report" data-testid="report">
            <h1 class="page-head">{title}</h1>
            {status.map(|s| view! { <p class="notice ok" role="status" data-testid="report-sent">{s}</p> })}
            <FormError paths=FORM_PATHS />
            {body}
            <p class="muted">{how}</p>
            <p><a href=profile_path(&target.id)>{td_string!(l, reports.their_page).to_string()}</a></p>
        </section>
    }
}

/// The room's players, each with a link to report them.
#[component]
pub fn RoomReportPage() -> impl IntoView {
    let params = use_params_map();
    let code = move || params.read().get("code").unwrap_or_default();
    let players = Resource::<_, Base64Json>::new_with_options(
        code,
        |code| async move {
            let code = RoomCode::parse(code.trim()).map_err(crate::error::AppError::from);
            room_targets(crate::error::from_address(code)?).await
        },
        false,
    );
    let l = crate::lang::locale();
    view! {
        <Suspense fallback=move || view! { <p class="muted">{td_string!(l, reports.reading).to_string()}</p> }>
            {move || Suspend::new(async move {
                let code = code().to_uppercase();
                let title = td_string!(l, reports.room_title, code = code.as_str()).to_string();
                match players.await {
                    Ok(players) => Either::Left(view! {
                        <Title text=title.clone() />
                        <section class="report" data-testid="room-report">
                            <h1 class="page-head">{title}</h1>
                            {match players.is_empty() {
                                true => Either::Left(view! { <p class="muted">{td_string!(l, reports.room_none).to_string()}</p> }),
                                false => Either::Right(view! {
                                    <ul class="report-players">
                                        {players.into_iter().map(|p| view! {
                                            <li>
                                                <span aria-hidden="true">{p.avatar.emoji()}</span>" "
                                                <a href=report_path(&p.id) data-testid="report-player">{td_string!(l, reports.report_label, name = p.name.as_str()).to_string()}</a>
                                            </li>
                                        }).collect_view()}
                                    </ul>
                                }),
                            }}
                            <p><a href=format!("/r/{code}")>{td_string!(l, reports.back_to_room).to_string()}</a></p>
                        </section>
                    }),
                    Err(err) => Either::Right(view! {
                        <Missing title=title err href="/" link=td_string!(l, reports.back_to_room).to_string() />
                    }),
                }
            })}
        </Suspense>
    }
}
