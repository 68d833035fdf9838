//! The unit tests of `app::http::guard`.

use std::net::IpAddr;

use axum::http::{HeaderMap, HeaderValue};

use app::http::guard::*;

fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
    let mut map = HeaderMap::new();
    for (name, value) in pairs {
        map.append(*name, HeaderValue::from_str(value).unwrap());
    }
    map
}

#[test]
fn cross_origin_posts_are_told_apart_from_our_own() {
    let open = SecurityConfig::default();
    let ours = [
        ("host", "127.0.0.1:3000"),
        ("origin", "http://127.0.0.1:3000"),
    ];
    assert!(!open.is_cross_origin(&headers(&ours), false));
    assert!(!open.is_cross_origin(&headers(&[("host", "127.0.0.1:3000")]), false));
    for foreign in [
        "http://127.0.0.1:3001",
        "http://evil.example",
        "null",
        "http://127.0.0.1:3000.evil.example",
    ] {
        assert!(
            open.is_cross_origin(
                &headers(&[("host", "127.0.0.1:3000"), ("origin", foreign)]),
                false
            ),
            "{foreign}"
        );
    }
    for site in ["same-site", "cross-site"] {
        assert!(open.is_cross_origin(
            &headers(&[
                ("host", "127.0.0.1:3000"),
                ("origin", "http://127.0.0.1:3000"),
                ("sec-fetch-site", site)
            ]),
            false
        ));
    }
    assert!(!open.is_cross_origin(&headers(&[("sec-fetch-site", "same-origin")]), false));
    // Without a public origin, ours has the scheme the browser reached us by.
    assert!(open.is_cross_origin(
        &headers(&[
            ("host", "127.0.0.1:3000"),
            ("origin", "https://127.0.0.1:3000")
        ]),
        false
    ));
    assert!(!open.is_cross_origin(
        &headers(&[("host", "udd.example"), ("origin", "https://udd.example")]),
        true
    ));
    assert!(open.is_cross_origin(
        &headers(&[("host", "udd.example"), ("origin", "http://udd.example")]),
        true
    ));

    let public = SecurityConfig {
        public_origin: Some(SecurityConfig::parse_origin("https://Udd.example/").unwrap()),
        ..SecurityConfig::default()
    };
    assert!(!public.is_cross_origin(
        &headers(&[("host", "10.0.0.5:3000"), ("origin", "https://udd.example")]),
        false
    ));
    assert!(public.is_cross_origin(
        &headers(&[("host", "udd.example"), ("origin", "http://udd.example")]),
        false
    ));
}

#[test]
fn forwarded_addresses_count_only_from_trusted_proxies() {
    let config = SecurityConfig {
        trusted_proxies: SecurityConfig::parse_proxies("10.0.0.0/8, 127.0.0.1").unwrap(),
        ..SecurityConfig::default()
    };
    let forwarded = headers(&[("x-forwarded-for", "6.6.6.6, 203.0.113.9, 10.1.1.1")]);
    let stranger: IpAddr = "198.51.100.7".parse().unwrap();
    assert_eq!(
        config.client_address(Some(stranger), &forwarded),
        Some(stranger),
        "an untrusted peer's header is ignored"
    );
    assert_eq!(
        config.client_address(Some("127.0.0.1".parse().unwrap()), &forwarded),
        Some("203.0.113.9".parse().unwrap()),
        "the first untrusted hop, not what the client wrote further left"
    );
    assert!(SecurityConfig::parse_proxies("10.0.0.0/33").is_err());
    assert!(SecurityConfig::parse_origin("udd.example").is_err());
    assert!(SecurityConfig::parse_origin("https://udd.example/path").is_err());
}

#[test]
fn redirects_stay_on_our_origin() {
    let own = Some("udd.example");
    assert_eq!(same_origin_location("/r/K7QX2?x=1", own), None);
    assert_eq!(
        same_origin_location("http://evil.example/x", own).as_deref(),
        Some("/")
    );
    assert_eq!(
        same_origin_location("//evil.example/x", own).as_deref(),
        Some("/")
    );
    assert_eq!(
        same_origin_location("/\\evil.example", own).as_deref(),
        Some("/")
    );
    assert_eq!(
        same_origin_location("https://udd.example/me?error=x", own).as_deref(),
        Some("/me?error=x")
    );
    assert_eq!(
        same_origin_location("https://udd.example.evil.example/", own).as_deref(),
        Some("/")
    );
}

#[test]
fn our_own_absolute_url_with_a_backslash_path_goes_home() {
    // A browser reads `/\\evil.example` as `//evil.example`: another site.
    assert_eq!(
        same_origin_location("http://udd.example/\\evil.example", Some("udd.example")).as_deref(),
        Some("/")
    );
}

#[test]
fn a_tab_inside_a_double_slash_goes_home() {
    // A browser drops the tab and reads `//evil.example`.
    for location in ["/\t/evil.example", "https://udd.example/\t/evil.example"] {
        assert_eq!(
            same_origin_location(location, Some("udd.example")).as_deref(),
            Some("/"),
            "{location:?}"
        );
    }
}

#[test]
fn an_encoded_backslash_goes_home() {
    for location in ["/%5Cevil.example", "/%5c%5cevil.example", "/me?to=%5C"] {
        assert_eq!(
            same_origin_location(location, Some("udd.example")).as_deref(),
            Some("/"),
            "{location:?}"
        );
    }
}

#[test]
fn a_double_slash_on_our_own_origin_goes_home() {
    for location in [
        "https://udd.example//evil.example/x",
        "https://udd.example/%2F/evil.example",
        "/%2F/evil.example",
    ] {
        assert_eq!(
            same_origin_location(location, Some("udd.example")).as_deref(),
            Some("/"),
            "{location:?}"
        );
    }
}

/// What browsers do with a `Location` (the URL standard): drop tabs and newlines anywhere,
/// read `\` as `/`. Each of these would leave our origin, or is dubious, and becomes `/`.
#[test]
fn a_location_is_normalised_before_it_is_judged() {
    let own = Some("udd.example");
    for dubious in [
        // The same-origin branch: the path after our own host is checked too.
        "http://udd.example/\\evil.example",
        "https://udd.example//evil.example/x",
        "https://udd.example/\t/evil.example",
        // A raw tab, CR or LF inside `//` (the browser drops it and sees `//evil`).
        "/\t/evil.example",
        "/\r\n/evil.example",
        "/\n/evil.example",
        // Other C0 controls and DEL anywhere.
        "/me\u{0}",
        "/me?x=\u{1f}",
        "/me\u{7f}",
        // Backslashes anywhere, and percent-encoded ones.
        "/me\\x",
        "/%5Cevil.example",
        "/%5cevil.example",
        "/me?to=%5C%5Cevil.example",
        // Percent-encoded controls, and an encoded slash that makes `//`.
        "/%09/evil.example",
        "/me%0d%0aSet-Cookie:x=1",
        "/%2F/evil.example",
        "/%2fevil.example",
        // Leading `//` and `/\`, and a leading space.
        "//evil.example",
        "/\\evil.example",
        " //evil.example",
    ] {
        assert_eq!(
            same_origin_location(dubious, own).as_deref(),
            Some("/"),
            "{dubious:?}"
        );
    }
    // What our own redirects look like is kept as it is.
    for fine in [
        "/",
        "/me?__path=%2Fapi%2Fsign-in&__err=eyJDb25mbGljdCI6IngifQ%3D%3D&__sig=1.x",
        "/r/K7QX2/m/1#podium",
        "/p/01J0000000000000000000000",
    ] {
        assert_eq!(same_origin_location(fine, own), None, "{fine:?}");
    }
    assert_eq!(
        same_origin_location("https://udd.example?x=1", own).as_deref(),
        Some("/?x=1")
    );
    assert_eq!(
        same_origin_location("https://udd.example", own).as_deref(),
        Some("/")
    );
}
