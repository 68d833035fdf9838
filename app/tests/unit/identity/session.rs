//! The unit tests of `app::identity::session`.

use http::header::COOKIE;
use http::HeaderValue;

use app::identity::auth::{SessionHash, SessionToken};
use app::identity::session::*;
use app::identity::UserId;

#[test]
fn a_session_memo_answers_only_for_the_session_it_was_filled_for() {
    let asha = SessionHash::from_hex("a".repeat(64));
    let ravi = SessionHash::from_hex("b".repeat(64));
    let memo = SessionMemo::default();
    assert_eq!(memo.answer_for(&asha), None, "empty: no answer");
    let user = UserId::parse("01M8AZRY1XNJ7ABNX98NHTXQCA").unwrap();
    memo.0.set((asha.clone(), Some(user.clone()))).unwrap();
    assert_eq!(memo.answer_for(&asha), Some(Some(user)));
    assert_eq!(
        memo.answer_for(&ravi),
        None,
        "another session is read, not answered"
    );
}

#[test]
fn the_cookie_is_http_only_and_same_site() {
    let token = SessionToken::generate();
    let plain = cookie_value(&token, false);
    assert!(plain.starts_with(&format!("{COOKIE_NAME}={}", token.as_str())));
    assert!(plain.contains("HttpOnly") && plain.contains("SameSite=Lax"));
    assert!(!plain.contains("Secure"));
    let secure = cookie_value(&token, true);
    assert!(secure.starts_with(SECURE_COOKIE_NAME) && secure.ends_with("; Secure"));
}

#[test]
fn a_second_session_cookie_makes_neither_count() {
    let ours = SessionToken::generate();
    let planted = SessionToken::generate();
    let mut headers = http::HeaderMap::new();
    headers.insert(
        COOKIE,
        HeaderValue::from_str(&format!("theme=dark; {COOKIE_NAME}={}", ours.as_str())).unwrap(),
    );
    assert_eq!(token_from_headers(&headers, false), Some(ours.clone()));
    assert_eq!(
        token_from_headers(&headers, true),
        None,
        "over TLS only the __Host- cookie counts"
    );
    headers.append(
        COOKIE,
        HeaderValue::from_str(&format!("{COOKIE_NAME}={}", planted.as_str())).unwrap(),
    );
    assert_eq!(token_from_headers(&headers, false), None);
}
