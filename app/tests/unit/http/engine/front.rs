//! The unit tests of `app::http::engine::front`.

use axum::http::{header, HeaderMap};

use app::http::engine::front::*;

#[test]
fn the_credential_is_read_from_a_sigv4_header() {
    let mut headers = HeaderMap::new();
    headers.insert(
        header::AUTHORIZATION,
        "AWS4-HMAC-SHA256 Credential=ABC123/20261123/us-east-1/dynamodb/aws4_request, \
         SignedHeaders=host, Signature=00"
            .parse()
            .unwrap(),
    );
    assert_eq!(credential(&headers), Some("ABC123"));
    assert_eq!(credential(&HeaderMap::new()), None);
}

#[test]
fn keys_are_random_letters_and_digits() {
    let (a, b) = (random_key(), random_key());
    assert_ne!(a, b);
    assert!(valid_key(&a));
    assert!(!valid_key("short"));
    assert!(!valid_key(&format!("{a}!")));
}
