//! The unit tests of `app::codec`.

use codee::{Decoder, Encoder};

use app::codec::*;

#[test]
fn round_trips_any_script_as_plain_ascii() {
    let value = vec![
        "कौआ".to_owned(),
        "🐦‍⬛ crow".to_owned(),
        "quote \" and \\ backslash </script>".to_owned(),
    ];
    let encoded = <Base64Json as Encoder<Vec<String>>>::encode(&value).unwrap();
    assert!(encoded
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/'));
    let decoded: Vec<String> = <Base64Json as Decoder<Vec<String>>>::decode(&encoded).unwrap();
    assert_eq!(decoded, value);
}

#[test]
fn garbage_is_an_error_not_a_panic() {
    assert!(<Base64Json as Decoder<Vec<String>>>::decode("!!!").is_err());
    assert!(<Base64Json as Decoder<Vec<String>>>::decode("bm90IGpzb24").is_err());
}
