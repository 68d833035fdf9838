//! The unit tests of `app::http::router`.

use app::http::router::{is_hashed_bundle_file, is_static_file};

#[test]
fn only_a_bundle_file_named_after_its_contents_is_kept_for_a_year() {
    assert!(is_hashed_bundle_file("/pkg/udd.0123456789abcdef.wasm"));
    assert!(is_hashed_bundle_file("/pkg/udd.0123456789abcdef.css"));
    for plain in [
        "/pkg/udd.wasm",
        "/pkg/udd.css",
        "/pkg/udd.0123456789ABCDEF.js",
        "/pkg/udd.0123456789abcde.js",
        "/pkg/a/udd.0123456789abcdef.js",
        "/favicon.svg",
        "/udd.0123456789abcdef.js",
        "/pkg/.0123456789abcdef.js",
    ] {
        assert!(!is_hashed_bundle_file(plain), "{plain}");
    }
}

#[test]
fn a_static_file_is_named_with_its_kind_and_a_page_is_not() {
    for file in [
        "/screen.css",
        "/room.css",
        "/favicon.svg",
        "/favicon.ico",
        "/pkg/udd.wasm",
    ] {
        assert!(is_static_file(file), "{file}");
    }
    for page in [
        "/",
        "/things",
        "/r/ABCD",
        "/api/tap",
        "/api/x.js",
        "/.css",
        "/r/ABCD/lb",
    ] {
        assert!(!is_static_file(page), "{page}");
    }
}
