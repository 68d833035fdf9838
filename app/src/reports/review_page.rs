//! `/operator`: the operators' review, server-drawn plain forms, a tile per player or result. Reported players (hide, or
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

/// The reasons as the review's rows say them (`name 2 · abuse 1` from the review, each in `l`'s
/// words).
fn reasons(counted: &str, l: Locale) -> String {
    counted
        .split(" · ")
        .filter_map(|part| {
            let (slug, n) = part.split_once(' ')?;
            let reason = crate::reports::Reason::ALL
                .into_iter()
                .find(|r| r.slug() == slug)?;
            Some(format!("{} {n}", reason.label(l)))
        })
        .collect::<Vec<_>>()
        .join(" · ")
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
    let tiles = |testid: &'static str, items: Vec<AnyView>| match items.is_empty() {
        true => Either::Left(none()),
        false => Either::Right(view! { <ul class="tiles" data-testid=testid>{items}</ul> }),
    };
    let reports = review
        .reports
        .into_iter()
        .map(|r| {
            let id = r.user.to_string();
            let counted = format!(
                "{}: {} · {}",
                td_string!(l, reports.col_count),
                r.count,
                reasons(&r.reasons, l)
            );
            view! {
                <li class="tile" data-testid="review-report">
                    <span class="name"><a href=profile_path(&r.user)>{r.name}</a>
                        {r.hidden.then(|| view! { " " <span class="badge">{td_string!(l, reports.hidden_marker).to_string()}</span> })}</span>
                    <span class="meta">{id.clone()}</span>
                    <span>{counted}" · "<Moment ms=r.last_ms /></span>
                    <div class="actions">
                        {(!r.hidden).then(|| act("hide", td_string!(l, reports.hide).to_string(), vec![("player", id.clone())], "review-hide"))}
                        {act("clear", td_string!(l, reports.clear).to_string(), vec![("player", id)], "review-clear")}
                    </div>
                </li>
            }
            .into_any()
        })
        .collect();
    let hidden = review
        .hidden
        .into_iter()
        .map(|h| {
            let id = h.user.to_string();
            let by = match h.by.as_str() {
                "reports" => td_string!(l, reports.by_reports).to_string(),
                _ => td_string!(l, reports.by_operator).to_string(),
            };
            view! {
                <li class="tile">
                    <span class="name"><a href=profile_path(&h.user)>{h.name}</a></span>
                    <span class="meta">{id.clone()}</span>
                    <span>{format!("{}: {by} · ", td_string!(l, reports.col_by))}<Moment ms=h.at_ms /></span>
                    <div class="actions">{act("clear", td_string!(l, reports.clear).to_string(), vec![("player", id)], "review-show")}</div>
                </li>
            }
            .into_any()
        })
        .collect();
    let banned = view! {
        <ul class="plain" data-testid="review-banned">
            {review.banned.into_iter().map(|name| view! {
                <li class="actions">{name.clone()} {act("unban-name", td_string!(l, reports.unban).to_string(), vec![("name", name)], "review-unban")}</li>
            }).collect_view()}
        </ul>
        <form method="post" action=ReviewAct::PATH class="card">
            <input type="hidden" name="act" value="ban-name" />
            <label>{td_string!(l, reports.ban_label).to_string()} <input name="name" required maxlength="24" /></label>
            <button type="submit" data-testid="review-ban">{td_string!(l, reports.ban_button).to_string()}</button>
        </form>
    };
    let flagged = review
        .flagged
        .into_iter()
        .map(|f| {
            let what = match &f.day {
                Some(day) => td_string!(l, reports.daily, day = day.as_str()).to_string(),
                None => td_string!(l, reports.a_match).to_string(),
            };
            let mean = f
                .average_ms
                .map(|ms| format!(" · {} {ms} ms", td_string!(l, reports.col_mean)));
            let key = vec![("pk", f.pk.clone()), ("sk", f.sk.clone())];
            view! {
                <li class="tile">
                    <span class="name">{f.name}</span>
                    <span class="meta">{f.user}</span>
                    <span>{what}{mean}" · "<Moment ms=f.finished_ms /></span>
                    <div class="actions">
                        {act("clear-flag", td_string!(l, reports.clear_flag).to_string(), key.clone(), "review-flag-clear")}
                        {act("confirm-flag", td_string!(l, reports.confirm_flag).to_string(), key, "review-flag-confirm")}
                    </div>
                </li>
            }
            .into_any()
        })
        .collect();
    let decks = review
        .decks
        .into_iter()
        .map(|d| {
            let (code, author) = (d.code.to_string(), d.author.to_string());
            let counted = td_string!(l, reports.deck_reports, count = d.reports).to_string();
            view! {
                <li class="tile" data-testid="review-deck">
                    <span class="name"><a href=crate::decks::api::deck_path(&d.code)>{d.title}</a></span>
                    <span class="meta">{code.clone()}" · "<a href=profile_path(&d.author)>{author.clone()}</a></span>
                    <span>{counted}" · "<Moment ms=d.hidden_ms /></span>
                    <div class="actions">
                        {act("restore-deck", td_string!(l, reports.restore_deck).to_string(), vec![("deck", code.clone())], "review-deck-restore")}
                        {act("keep-deck", td_string!(l, reports.keep_deck).to_string(), vec![("deck", code)], "review-deck-keep")}
                        {act("lift-author", td_string!(l, reports.lift_author).to_string(), vec![("player", author)], "review-deck-lift")}
                    </div>
                </li>
            }
            .into_any()
        })
        .collect();
    view! {
        <section class="review" data-testid="review">
            <h1 class="page-head">{title}</h1>
            <FormError paths=FORM_PATHS />
            <h2>{td_string!(l, reports.reports_heading).to_string()}</h2>
            {tiles("review-reports", reports)}
            <h2>{td_string!(l, reports.hidden_heading).to_string()}</h2>
            {tiles("review-hidden", hidden)}
            <h2>{td_string!(l, reports.banned_heading).to_string()}</h2>
            {banned}
            <h2>{td_string!(l, reports.flagged_heading).to_string()}</h2>
            {tiles("review-flagged", flagged)}
            <h2>{td_string!(l, reports.decks_heading).to_string()}</h2>
            {tiles("review-decks", decks)}
        </section>
    }
}
