//! The unit tests of `app::identity::auth`.

use app::identity::auth::*;
use app::identity::model::Password;

#[test]
fn tokens_are_random_and_only_their_hash_is_kept() {
    let a = SessionToken::generate();
    let b = SessionToken::generate();
    assert_ne!(a, b);
    assert_eq!(a.hash(), a.clone().hash());
    assert_ne!(a.hash(), b.hash());
    assert_eq!(a.hash().as_str().len(), 64);
    assert!(!a.hash().as_str().contains(a.as_str()));
    assert_eq!(format!("{a:?}"), "SessionToken(..)");
}

#[test]
fn cookies_that_cannot_be_tokens_are_refused() {
    let token = SessionToken::generate();
    assert_eq!(SessionToken::from_cookie(token.as_str()), Some(token));
    for bad in [
        "",
        "short",
        &"a".repeat(44),
        &format!("{}!", "a".repeat(42)),
    ] {
        assert!(SessionToken::from_cookie(bad).is_none(), "{bad:?}");
    }
}

#[test]
fn passwords_verify_against_their_argon2id_hash_only() {
    let password = Password::parse("correct horse battery").unwrap();
    let stored = hash_password(&password).unwrap();
    assert!(stored.starts_with("$argon2id$"));
    assert!(verify_password(&password, &stored));
    assert!(!verify_password(
        &Password::parse("wrong horse battery").unwrap(),
        &stored
    ));
    assert!(!verify_password(&password, "not a hash"));
}

#[tokio::test]
async fn an_unknown_login_costs_a_verification_too() {
    let password = Password::parse("correct horse battery").unwrap();
    let started = std::time::Instant::now();
    assert!(!verify_password_limited(password.clone(), None).await);
    let unknown = started.elapsed();
    let stored = hash_password(&password).unwrap();
    let started = std::time::Instant::now();
    assert!(verify_password_limited(password, Some(stored)).await);
    let known = started.elapsed();
    // The dummy hash is made once; after that both paths run one argon2 verification.
    let password = Password::parse("another password").unwrap();
    let started = std::time::Instant::now();
    assert!(!verify_password_limited(password, None).await);
    let unknown_again = started.elapsed();
    assert!(
        unknown_again * 4 > known,
        "an unknown login verified against nothing ({unknown_again:?} vs {known:?}; first {unknown:?})"
    );
}
