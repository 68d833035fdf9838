//! The interface's language: English or Hindi. The strings live in `app/locales` (one file per
//! language and feature) and are compiled in by `leptos_i18n`; a page names its strings with
//! `td!(lang, namespace.key)` / `td_string!(…)` for the locale this module hands it.
//!
//! Which language a request gets: the player's remembered choice (the `udd_lang` cookie, set by
//! the toggle in the top bar) if there is one, else the best match in the browser's
//! `Accept-Language`, else English. The request guard works it out once per request; the server
//! renders with it and writes it on `<html lang>`, where the islands read it back.

pub use crate::i18n::Locale;

/// The cookie that remembers a player's choice of language.
pub const LANG_COOKIE: &str = "udd_lang";

/// The language of the page being rendered (on the server: the request's, as the guard worked
/// it out; in the browser: the one the server wrote on `<html lang>`).
pub fn locale() -> Locale {
    #[cfg(feature = "ssr")]
    {
        use leptos::prelude::use_context;
        use_context::<http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Locale>().copied())
            .unwrap_or_default()
    }
    #[cfg(not(feature = "ssr"))]
    {
        web_lang().and_then(|tag| parse(&tag)).unwrap_or_default()
    }
}

#[cfg(all(feature = "hydrate", not(feature = "ssr")))]
fn web_lang() -> Option<String> {
    leptos::prelude::document()
        .document_element()?
        .get_attribute("lang")
}

#[cfg(not(any(feature = "hydrate", feature = "ssr")))]
fn web_lang() -> Option<String> {
    None
}

/// One of our languages by its exact tag (`en`, `hi`): what the cookie and the toggle carry.
pub fn parse(tag: &str) -> Option<Locale> {
    match tag {
        "en" => Some(Locale::en),
        "hi" => Some(Locale::hi),
        _ => None,
    }
}

/// The other language: what the toggle offers.
pub fn other(locale: Locale) -> Locale {
    match locale {
        Locale::en => Locale::hi,
        Locale::hi => Locale::en,
    }
}

/// The language for a request: its `udd_lang` cookie when that names one of ours, else the best
/// of `Accept-Language` (by quality, then order; `hi-IN` matches `hi`), else English.
#[cfg(feature = "ssr")]
pub fn of_request(headers: &http::HeaderMap) -> Locale {
    let chosen = headers
        .get_all(http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|header| header.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == LANG_COOKIE)
        .and_then(|(_, value)| parse(value));
    chosen.unwrap_or_else(|| {
        let accepted = headers
            .get_all(http::header::ACCEPT_LANGUAGE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .collect::<Vec<_>>()
            .join(",");
        from_accept_language(&accepted)
    })
}

/// The best of our languages for an `Accept-Language` value: its tags in order of quality
/// (ties keep their order, `q=0` means "not this"), matched by `leptos_i18n` (`hi-IN` → `hi`).
#[cfg(feature = "ssr")]
pub fn from_accept_language(header: &str) -> Locale {
    use leptos_i18n::Locale as _;
    let mut ranges: Vec<(&str, u16)> = header
        .split(',')
        .take(32)
        .filter_map(|range| {
            let mut parts = range.split(';');
            let tag = parts.next()?.trim();
            let quality = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .next()
                .map_or(Some(1000), quality)?;
            (!tag.is_empty() && tag != "*" && quality > 0).then_some((tag, quality))
        })
        .collect();
    ranges.sort_by_key(|range| std::cmp::Reverse(range.1));
    let tags: Vec<&str> = ranges.into_iter().map(|(tag, _)| tag).collect();
    Locale::find_locale(&tags)
}

/// An `Accept-Language` quality (`0`, `0.8`, `1.000`) in thousandths; `None` if malformed.
#[cfg(feature = "ssr")]
fn quality(raw: &str) -> Option<u16> {
    let value: f32 = raw.trim().parse().ok()?;
    (0.0..=1.0)
        .contains(&value)
        .then(|| (value * 1000.0).round() as u16)
}

/// The `Set-Cookie` value that remembers `locale` for a year (the browser never needs to read
/// it: HttpOnly; sent on top-level navigations: SameSite=Lax).
#[cfg(feature = "ssr")]
pub fn cookie_value(locale: Locale, secure: bool) -> String {
    use leptos_i18n::Locale as _;
    format!(
        "{LANG_COOKIE}={}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax{}",
        locale.as_str(),
        if secure { "; Secure" } else { "" }
    )
}
