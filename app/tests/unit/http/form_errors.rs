//! The unit tests of `app::http::form_errors`.

use axum::http::{header, HeaderMap, HeaderValue};

use app::http::form_errors::*;
use app::identity::sealed::Binding;

#[test]
fn a_query_keeps_one_error_and_everything_else() {
    let query =
        Query::parse("a=1&__path=%2Fapi%2Fx&__err=e1&b=two+words&__path=%2Fapi%2Fy&__err=e2");
    assert_eq!(query.paths, ["/api/x", "/api/y"]);
    assert_eq!(query.errs, ["e1", "e2"]);
    assert_eq!(query.single(), None, "two errors are none");
    assert_eq!(
        query.with(Some(("/api/y", "e2=", Some("1.x")))),
        "a=1&b=two+words&__path=%2Fapi%2Fy&__err=e2%3D&__sig=1.x"
    );
    assert_eq!(query.with(None), "a=1&b=two+words");
    let one = Query::parse("__path=/api/x&__err=e&__sig=5.t");
    assert_eq!(one.single(), Some(("/api/x", "e", "5.t")));
    assert_eq!(Query::parse("__path=/api/x&__err=e").single(), None);
}

#[test]
fn a_location_splits_around_its_query() {
    assert_eq!(
        split_location("http://h/me?a=1#top"),
        ("http://h/me", "a=1", "#top")
    );
    assert_eq!(split_location("/me#x?y"), ("/me", "", "#x?y"));
    assert_eq!(join_location("/me", "", "#x"), "/me#x");
    assert_eq!(join_location("/me", "a=1", ""), "/me?a=1");
}

#[test]
fn a_browser_is_its_session_else_its_form_cookie() {
    let token = "a".repeat(43);
    let id = "b".repeat(22);
    let headers = |cookie: &str| {
        let mut map = HeaderMap::new();
        map.insert(header::COOKIE, HeaderValue::from_str(cookie).unwrap());
        map
    };
    assert!(matches!(
        Binding::of_request(
            &headers(&format!("udd_form={id}; udd_session={token}")),
            false
        ),
        Some(Binding::Session(_))
    ));
    assert_eq!(
        Binding::of_request(&headers(&format!("udd_form={id}")), false),
        Some(Binding::Browser(id.clone()))
    );
    assert_eq!(
        Binding::of_request(&headers(&format!("udd_form={id}")), true),
        None
    );
    assert_eq!(Binding::of_request(&headers("udd_form=short"), false), None);
    assert_eq!(
        Binding::of_request(&headers(&format!("udd_form={id}; udd_form={id}")), false),
        None
    );
}

#[test]
fn a_response_sets_clears_or_leaves_the_session() {
    let token = "c".repeat(43);
    let mut headers = HeaderMap::new();
    assert_eq!(session_after(&headers, false), None);
    headers.append(
        header::SET_COOKIE,
        HeaderValue::from_str(&format!("udd_session={token}; Path=/; HttpOnly")).unwrap(),
    );
    assert_eq!(
        session_after(&headers, false)
            .flatten()
            .map(|t| t.as_str().to_owned()),
        Some(token)
    );
    assert_eq!(session_after(&headers, true), None);
    headers.append(
        header::SET_COOKIE,
        HeaderValue::from_static("udd_session=; Path=/; Max-Age=0"),
    );
    assert!(matches!(session_after(&headers, false), Some(None)));
}
