//! The unit tests of `app::lang`.

use app::lang::*;

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
        .join("../locales")
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
