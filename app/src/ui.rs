//! Page pieces every feature's pages share: the form helpers, the not-found page, the room code
//! a page's address names, and the wrapper of an island's props.

pub mod forms;
pub mod language;
pub mod not_found;

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An island's props, which travel one way: the server writes them into the page as JSON and
/// the browser reads them. The wrapper Leptos generates for an island serializes its props in
/// the browser too, for an island drawn there anew; Udd's islands are only ever hydrated, and
/// hydration never reads that copy. It put the JSON writer of every type the props hold (the
/// room, its match and rounds, the catalog's things) in the browser bundle, which pays for it
/// on every page with an island. In the browser these props write `null`; on the server they
/// are written as the value itself, so the page's JSON is unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IslandProps<T>(pub T);

impl<T: Serialize> Serialize for IslandProps<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[cfg(feature = "ssr")]
        return self.0.serialize(serializer);
        #[cfg(not(feature = "ssr"))]
        serializer.serialize_unit()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for IslandProps<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize(deserializer).map(IslandProps)
    }
}

/// The `code` segment of the page's address (`/r/<CODE>…`), upper-cased as codes are typed;
/// still to be parsed.
pub fn code_param() -> impl Fn() -> String + Copy + Send + Sync + 'static {
    let params = use_params_map();
    move || {
        params
            .read()
            .get("code")
            .unwrap_or_default()
            .to_ascii_uppercase()
    }
}

/// A page whose address names nothing (or whose read failed): the title, the error as the player
/// reads it, and a way on.
#[component]
pub fn Missing(
    #[prop(into)] title: String,
    err: crate::error::AppError,
    href: &'static str,
    #[prop(into)] link: String,
) -> impl IntoView {
    view! {
        <leptos_meta::Title text=title.clone() />
        <section class="hero">
            <h1>{title}</h1>
            <p class="error" role="alert">{err.localized()}</p>
            <p><a href=href>{link}</a></p>
        </section>
    }
}

/// `path` as an absolute address on the origin players reach us at (for `og:url` and
/// `og:image`, which must be absolute); the path alone when the request named no usable host.
pub fn absolute(path: &str) -> String {
    #[cfg(feature = "ssr")]
    if let Some(origin) = use_context::<http::request::Parts>().and_then(|parts| {
        parts
            .extensions
            .get::<crate::request::PageOrigin>()
            .cloned()
    }) {
        return format!("{}{path}", origin.0);
    }
    path.to_owned()
}

/// A shareable page's head: its title and description, and the tags that make a shared link
/// preview with its card: OpenGraph's title, description, type and `og:url`, `og:image` (a
/// 1200 × 630 PNG at `/og<path>`, in the page's language, see `crate::share`) with its size and
/// type, and Twitter's large card.
#[component]
pub fn ShareTags(
    path: String,
    title: String,
    description: String,
    #[prop(default = "website")] kind: &'static str,
) -> impl IntoView {
    // The card in the page's language (English is the card's default).
    let lang = match crate::lang::locale() {
        crate::lang::Locale::en => "",
        crate::lang::Locale::hi => "?lang=hi",
    };
    let image = absolute(&format!("/og{path}{lang}"));
    let url = absolute(&path);
    view! {
        <leptos_meta::Title text=title.clone() />
        <leptos_meta::Meta name="description" content=description.clone() />
        <leptos_meta::Meta property="og:type" content=kind />
        <leptos_meta::Meta property="og:title" content=title.clone() />
        <leptos_meta::Meta property="og:description" content=description.clone() />
        <leptos_meta::Meta name="twitter:title" content=title />
        <leptos_meta::Meta name="twitter:description" content=description />
        <leptos_meta::Meta property="og:url" content=url />
        <leptos_meta::Meta property="og:image" content=image.clone() />
        <leptos_meta::Meta property="og:image:type" content="image/png" />
        <leptos_meta::Meta property="og:image:width" content="1200" />
        <leptos_meta::Meta property="og:image:height" content="630" />
        <leptos_meta::Meta name="twitter:card" content="summary_large_image" />
        <leptos_meta::Meta name="twitter:image" content=image />
    }
}

/// A moment's UTC calendar date and time of day: (year, month, day, hour, minute), the calendar
/// worked out here, so pages need no date crate in the browser's bundle.
fn civil(ms: i64) -> (i64, i64, i64, i64, i64) {
    let minutes = ms.div_euclid(60_000);
    let (days, minute_of_day) = (minutes.div_euclid(1440), minutes.rem_euclid(1440));
    // Days since 1970-01-01 to a civil date (Howard Hinnant's `civil_from_days`).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day, minute_of_day / 60, minute_of_day % 60)
}

/// A moment as players read it without JavaScript: `2026-11-24 01:37 UTC`.
pub fn when(ms: i64) -> String {
    let (year, month, day, hour, minute) = civil(ms);
    format!("{year}-{month:02}-{day:02} {hour:02}:{minute:02} UTC")
}

/// The same moment for `<time datetime>`: `2026-11-24T01:37Z`.
pub fn when_iso(ms: i64) -> String {
    let (year, month, day, hour, minute) = civil(ms);
    format!("{year}-{month:02}-{day:02}T{hour:02}:{minute:02}Z")
}

/// A moment on a page: written in UTC by the server, and in the player's own time zone and
/// language by the loader script every page runs (`islands.js`, no wasm) when JavaScript is on.
#[component]
pub fn Moment(ms: i64) -> impl IntoView {
    view! { <time datetime=when_iso(ms) data-local="">{when(ms)}</time> }
}

/// Stands for a moment in a phrase drawn around it (`around_moment`).
pub const MOMENT_MARK: &str = "\u{1}";

/// A phrase translated with `MOMENT_MARK` for its moment, drawn with the moment as a `Moment`
/// where the mark was. The phrase keeps its one interpolated string in both languages (two
/// halves of their own would put both languages' text in the browser's bundle).
pub fn around_moment(phrase: &str, ms: i64) -> impl IntoView {
    let (before, after) = phrase.split_once(MOMENT_MARK).unwrap_or((phrase, ""));
    view! { {before.to_owned()}<Moment ms=ms />{after.to_owned()} }
}

/// The names of the players in one list as it shows them: where two players in it share a
/// name, each is told apart by a short tag from their id (`Bilal·7KQ`: its last three
/// characters, random in a ULID); a name nobody else in the list has stays as it is.
pub fn told_apart(players: &[(&crate::ids::UserId, &str)]) -> Vec<String> {
    players
        .iter()
        .map(|(id, name)| {
            let shared = players
                .iter()
                .any(|(other, other_name)| other_name == name && other != id);
            let id = id.as_str();
            match shared {
                true => format!("{name}·{}", &id[id.len().saturating_sub(3)..]),
                false => (*name).to_owned(),
            }
        })
        .collect()
}
