//! `/operator`: the operators' review, server-drawn plain forms. Reported players (hide, or
//! clear their reports and show them), hidden players, banned names, and the results fair play
//! flagged (they count, or never). Anyone but an operator reads a 403.

use leptos::either::Either;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;

use crate::codec::Base64Json;
use crate::i18n::td_string;
use crate::identity::profile_path;
use crate::lang::Locale;
use crate::reports::api::{read_review, Review, ReviewAct};
use crate::ui::forms::FormError;
use crate::ui::{Missing, Moment};

const FORM_PATHS: &[&str] = &[ReviewAct::PATH];

#[component]
pub fn ReviewPage() -> impl IntoView {
    let data = Resource::<_, Base64Json>::new_with_options(|| (), |_| read_review(), false);
    let l = crate::lang::locale();
    let title = td_string!(l, reports.review_title).to_string();
    view! {
        <Title text=title.clone() />
        <Suspense fallback=move || view! { <p class="muted">{td_string!(l, reports.reading).to_string()}</p> }>
            {move || {
                let title = title.clone();
                Suspend::new(async move {
                    match data.await {
                        Ok(review) => Either::Left(view! { <Reviewed review title l /> }),
                        Err(err) => Either::Right(view! { <Missing title err href="/" link="Udd" /> }),
                    }
                })
            }}
        </Suspense>
    }
}

/// One act's button: a plain form with the act and its target.
fn act(
    act: &'static str,
    label: String,
    fields: Vec<(&'static str, String)>,
    testid: &'static str,
) -> impl IntoView {
    view! {
        <form method="post" action=ReviewAct::PATH class="inline">
            <input type="hidden" name="act" value=act />
            {fields.into_iter().map(|(name, value)| view! { <input type="hidden" name=name value=value /> }).collect_view()}
            <button type="submit" class="small secondary" data-testid=testid>{label}</button>
        </form>
    }
}

#[component]
fn Reviewed(review: Review, title: String, l: Locale) -> impl IntoView {
    let none = move || view! { <p class="muted">{td_string!(l, reports.none).to_string()}</p> };
    let reports = match review.reports.is_empty() {
        true => Either::Left(none()),
        false => Either::Right(view! {
            <div class="table-scroll"><table data-testid="review-reports">
                <thead><tr>
                    <th scope="col">{td_string!(l, reports.col_player).to_string()}</th>
                    <th scope="col">{td_string!(l, reports.col_count).to_string()}</th>
                    <th scope="col">{td_string!(l, reports.col_reasons).to_string()}</th>
                    <th scope="col">{td_string!(l, reports.col_when).to_string()}</th>
                    <th scope="col">{td_string!(l, reports.col_actions).to_string()}</th>
                </tr></thead>
                <tbody>
                    {review.reports.into_iter().map(|r| {
                        let id = r.user.to_string();
                        view! {
                            <tr data-testid="review-report">
                                <td><a href=profile_path(&r.user)>{r.name}</a>
                                    {r.hidden.then(|| view! { " " <span class="badge">{td_string!(l, reports.hidden_marker).to_string()}</span> })}
                                    <br /><small class="muted">{id.clone()}</small></td>
                                <td>{r.count}</td>
                                <td>{r.reasons}</td>
                                <td><Moment ms=r.last_ms /></td>
                                <td>
                                    {(!r.hidden).then(|| act("hide", td_string!(l, reports.hide).to_string(), vec![("player", id.clone())], "review-hide"))}
                                    {act("clear", td_string!(l, reports.clear).to_string(), vec![("player", id)], "review-clear")}
                                </td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table></div>
        }),
    };
    let hidden = match review.hidden.is_empty() {
        true => Either::Left(none()),
        false => Either::Right(view! {
            <div class="table-scroll"><table data-testid="review-hidden">
                <thead><tr>
                    <th scope="col">{td_string!(l, reports.col_player).to_string()}</th>
                    <th scope="col">{td_string!(l, reports.col_by).to_string()}</th>
                    <th scope="col">{td_string!(l, reports.col_when).to_string()}</th>
                    <th scope="col">{td_string!(l, reports.col_actions).to_string()}</th>
                </tr></thead>
                <tbody>
                    {review.hidden.into_iter().map(|h| {
                        let id = h.user.to_string();
                        view! {
                            <tr>
                                <td><a href=profile_path(&h.user)>{h.name}</a><br /><small class="muted">{id.clone()}</small></td>
                                <td>{h.by}</td>
                                <td><Moment ms=h.at_ms /></td>
                                <td>{act("clear", td_string!(l, reports.clear).to_string(), vec![("player", id)], "review-show")}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table></div>
        }),
    };
    let banned = view! {
        <ul class="banned" data-testid="review-banned">
            {review.banned.into_iter().map(|name| view! {
                <li>{name.clone()} " " {act("unban-name", td_string!(l, reports.unban).to_string(), vec![("name", name)], "review-unban")}</li>
            }).collect_view()}
        </ul>
        <form method="post" action=ReviewAct::PATH class="card">
            <input type="hidden" name="act" value="ban-name" />
            <label>{td_string!(l, reports.ban_label).to_string()} <input name="name" required maxlength="24" /></label>
            <button type="submit" data-testid="review-ban">{td_string!(l, reports.ban_button).to_string()}</button>
        </form>
    };
    let flagged = match review.flagged.is_empty() {
        true => Either::Left(none()),
        false => Either::Right(view! {
            <div class="table-scroll"><table data-testid="review-flagged">
                <thead><tr>
                    <th scope="col">{td_string!(l, reports.col_player).to_string()}</th>
                    <th scope="col">{td_string!(l, reports.col_result).to_string()}</th>
                    <th scope="col">{td_string!(l, reports.col_mean).to_string()}</th>
                    <th scope="col">{td_string!(l, reports.col_when).to_string()}</th>
                    <th scope="col">{td_string!(l, reports.col_actions).to_string()}</th>
                </tr></thead>
                <tbody>
                    {review.flagged.into_iter().map(|f| {
                        let what = match &f.day {
                            Some(day) => td_string!(l, reports.daily, day = day.as_str()).to_string(),
                            None => td_string!(l, reports.a_match).to_string(),
                        };
                        let key = vec![("pk", f.pk.clone()), ("sk", f.sk.clone())];
                        view! {
                            <tr>
                                <td>{f.name}<br /><small class="muted">{f.user}</small></td>
                                <td>{what}</td>
                                <td>{f.average_ms.map(|ms| format!("{ms} ms"))}</td>
                                <td><Moment ms=f.finished_ms /></td>
                                <td>
                                    {act("clear-flag", td_string!(l, reports.clear_flag).to_string(), key.clone(), "review-flag-clear")}
                                    {act("confirm-flag", td_string!(l, reports.confirm_flag).to_string(), key, "review-flag-confirm")}
                                </td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table></div>
        }),
    };
    view! {
        <section class="review" data-testid="review">
            <h1 class="page-head">{title}</h1>
            <FormError paths=FORM_PATHS />
            <h2>{td_string!(l, reports.reports_heading).to_string()}</h2>
            {reports}
            <h2>{td_string!(l, reports.hidden_heading).to_string()}</h2>
            {hidden}
            <h2>{td_string!(l, reports.banned_heading).to_string()}</h2>
            {banned}
            <h2>{td_string!(l, reports.flagged_heading).to_string()}</h2>
            {flagged}
        </section>
    }
}
