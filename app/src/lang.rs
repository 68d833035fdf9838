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

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::*;

    fn headers(pairs: &[(http::HeaderName, &str)]) -> http::HeaderMap {
        let mut map = http::HeaderMap::new();
        for (name, value) in pairs {
            map.append(name.clone(), value.parse().unwrap());
        }
        map
    }

    #[test]
    fn accept_language_picks_the_best_of_ours_by_quality_then_order() {
        assert_eq!(from_accept_language("hi-IN,hi;q=0.9,en;q=0.8"), Locale::hi);
        assert_eq!(from_accept_language("en-GB,en;q=0.9,hi;q=0.8"), Locale::en);
        assert_eq!(
            from_accept_language("fr;q=1, hi;q=0.5, en;q=0.4"),
            Locale::hi
        );
        assert_eq!(from_accept_language("en;q=0.2, hi;q=0.7"), Locale::hi);
        assert_eq!(from_accept_language("hi;q=0, en-US"), Locale::en);
        assert_eq!(from_accept_language("de, fr"), Locale::en);
        assert_eq!(from_accept_language(""), Locale::en);
        assert_eq!(from_accept_language("hi;q=abc, *;q=0.1"), Locale::en);
    }

    #[test]
    fn a_remembered_choice_wins_over_the_browser() {
        use http::header::{ACCEPT_LANGUAGE, COOKIE};
        let browser_hindi = (ACCEPT_LANGUAGE, "hi-IN,hi;q=0.9");
        assert_eq!(
            of_request(&headers(std::slice::from_ref(&browser_hindi))),
            Locale::hi
        );
        assert_eq!(
            of_request(&headers(&[
                browser_hindi.clone(),
                (COOKIE, "a=b; udd_lang=en")
            ])),
            Locale::en
        );
        assert_eq!(
            of_request(&headers(&[
                (ACCEPT_LANGUAGE, "en"),
                (COOKIE, "udd_lang=hi")
            ])),
            Locale::hi
        );
        // A cookie that names no language of ours is ignored.
        assert_eq!(
            of_request(&headers(&[browser_hindi, (COOKIE, "udd_lang=xx")])),
            Locale::hi
        );
        assert_eq!(of_request(&headers(&[])), Locale::en);
    }

    /// Every key of every namespace in every language, with the `{{ values }}` its text names.
    fn keys(locale: &str) -> std::collections::BTreeMap<String, Vec<String>> {
        fn walk(
            prefix: &str,
            value: &serde_json::Value,
            out: &mut std::collections::BTreeMap<String, Vec<String>>,
        ) {
            match value {
                serde_json::Value::Object(map) => {
                    for (key, value) in map {
                        walk(&format!("{prefix}.{key}"), value, out);
                    }
                }
                serde_json::Value::String(text) => {
                    let mut values: Vec<String> = text
                        .split("{{")
                        .skip(1)
                        .filter_map(|rest| rest.split_once("}}"))
                        .map(|(name, _)| name.trim().to_owned())
                        .collect();
                    values.sort();
                    assert!(!text.trim().is_empty(), "{prefix} is empty");
                    out.insert(prefix.to_owned(), values);
                }
                other => panic!("{prefix}: not a string or an object: {other}"),
            }
        }
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("locales")
            .join(locale);
        let mut out = std::collections::BTreeMap::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let namespace = path.file_stem().unwrap().to_string_lossy().into_owned();
            let json: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            walk(&namespace, &json, &mut out);
        }
        out
    }

    #[test]
    fn hindi_has_every_english_string_with_the_same_values_in_it() {
        let (en, hi) = (keys("en"), keys("hi"));
        let missing: Vec<_> = en.keys().filter(|k| !hi.contains_key(*k)).collect();
        let extra: Vec<_> = hi.keys().filter(|k| !en.contains_key(*k)).collect();
        assert!(missing.is_empty(), "not translated to Hindi: {missing:?}");
        assert!(extra.is_empty(), "only in Hindi: {extra:?}");
        for (key, values) in &en {
            assert_eq!(&hi[key], values, "{key}: the Hindi names other values");
        }
        assert!(en.len() > 20, "{} strings", en.len());
    }

    #[test]
    fn the_choice_cookie_is_http_only_and_same_site() {
        let plain = cookie_value(Locale::hi, false);
        assert!(plain.starts_with("udd_lang=hi; Path=/;"), "{plain}");
        assert!(plain.contains("HttpOnly") && plain.contains("SameSite=Lax"));
        assert!(cookie_value(Locale::en, true).ends_with("; Secure"));
    }
}
