//! The unit tests of `app::store::cursor`.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

use app::store::cursor::*;
use app::store::DataError;

fn key() -> CursorKey {
    CursorKey::new([7; SECRET_LEN])
}

fn last_key() -> HashMap<String, AttributeValue> {
    HashMap::from([
        ("PK".to_owned(), AttributeValue::S("OBJ#crow".into())),
        (
            "GSI1SK".to_owned(),
            AttributeValue::S("FLIES#Y#crow".into()),
        ),
    ])
}

#[test]
fn a_sealed_cursor_opens_to_the_same_key() {
    let cursor = key().seal("catalog", &last_key()).unwrap();
    assert_eq!(key().open("catalog", &cursor).unwrap(), last_key());
}

#[test]
fn a_cursor_is_opaque() {
    let cursor = key().seal("catalog", &last_key()).unwrap();
    assert!(!cursor.contains("OBJ#crow"));
}

#[test]
fn a_changed_payload_is_rejected() {
    let cursor = key().seal("catalog", &last_key()).unwrap();
    let (_, tag) = cursor.split_once('.').unwrap();
    let forged = URL_SAFE_NO_PAD.encode(br#"{"GSI1SK":"FLIES#Y#zzz","PK":"OBJ#zzz"}"#);
    assert!(matches!(
        key().open("catalog", &format!("{forged}.{tag}")),
        Err(DataError::BadCursor)
    ));
}

#[test]
fn a_cursor_does_not_open_for_another_scope_or_secret() {
    let cursor = key().seal("catalog", &last_key()).unwrap();
    assert!(key().open("matches", &cursor).is_err());
    assert!(CursorKey::new([8; SECRET_LEN])
        .open("catalog", &cursor)
        .is_err());
}

#[test]
fn garbage_is_rejected() {
    for junk in ["", ".", "abc", "abc.def", "!!!.???"] {
        assert!(key().open("catalog", junk).is_err(), "{junk:?} opened");
    }
}
