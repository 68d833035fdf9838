//! The unit tests of `app::request`.

use app::request::PageOrigin;

#[test]
fn the_page_origin_is_the_public_one_or_a_well_formed_host() {
    let of = |public, tls, host| PageOrigin::of(public, tls, host).map(|o| o.0.to_string());
    assert_eq!(
        of(Some("https://udd.example"), false, Some("evil")),
        Some("https://udd.example".into())
    );
    assert_eq!(
        of(None, false, Some("127.0.0.1:3000")),
        Some("http://127.0.0.1:3000".into())
    );
    assert_eq!(
        of(None, true, Some("udd.example")),
        Some("https://udd.example".into())
    );
    assert_eq!(of(None, false, Some("a\"><script>")), None);
    assert_eq!(of(None, false, Some("x/y")), None);
    assert_eq!(of(None, false, None), None);
}
