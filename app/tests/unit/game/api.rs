//! The tap's wire form: what the island sends ([`TapTiming::fields`]) is what the server
//! functions read, decoded as server_fn decodes a form post (serde_qs, not strict), and as taps
//! were always sent (flat fields), so a page from before a deploy still taps.

use app::game::api::{Tap, TapAlong, TapTiming};
use app::ids::{OrBlank, RoomCode};

fn form(fields: &[(&'static str, String)]) -> String {
    let mut out = form_urlencoded::Serializer::new(String::new());
    for (name, value) in fields {
        out.append_pair(name, value);
    }
    out.finish()
}

fn decode<T: serde::de::DeserializeOwned>(body: &str) -> Result<T, serde_qs::Error> {
    serde_qs::Config::new(5, false).deserialize_str(body)
}

#[test]
fn the_islands_tap_fields_decode_as_the_server_reads_them() {
    let code = RoomCode::parse("K7QX2").unwrap();
    let timing = TapTiming {
        round: 7,
        reveal_ms: 1_764_400_000_123,
        window_ms: 3_000,
        reaction_ms: 312,
    };
    let body = form(&timing.fields(&code));
    let tap: Tap = decode(&body).unwrap();
    assert_eq!((tap.code, tap.timing), (code.clone(), timing));
    let along: TapAlong = decode(&body).unwrap();
    assert_eq!((along.code, along.timing), (code, timing));
}

#[test]
fn a_tap_as_pages_always_sent_it_still_decodes() {
    let body = "code=K7QX2&round=1&reveal_ms=1700000000000&window_ms=3000&reaction_ms=400";
    let tap: Tap = decode(body).unwrap();
    assert_eq!(tap.code.as_str(), "K7QX2");
    assert_eq!(
        tap.timing,
        TapTiming {
            round: 1,
            reveal_ms: 1_700_000_000_000,
            window_ms: 3000,
            reaction_ms: 400
        }
    );
}

#[test]
fn a_malformed_tap_is_refused_while_it_is_read() {
    for body in [
        "code=K7QX2&round=x&reveal_ms=1&window_ms=3000&reaction_ms=400",
        "code=K7QX2&round=1&reveal_ms=1&window_ms=3000",
        "code=nope!&round=1&reveal_ms=1&window_ms=3000&reaction_ms=400",
    ] {
        assert!(decode::<Tap>(body).is_err(), "{body}");
    }
}

#[test]
fn a_blank_optional_field_is_none_and_a_malformed_one_is_refused() {
    assert_eq!(
        OrBlank::<RoomCode>::parse(Some("  ".into())).unwrap(),
        Some(OrBlank(None))
    );
    assert_eq!(OrBlank::<RoomCode>::parse(None).unwrap(), None);
    assert_eq!(
        OrBlank::<RoomCode>::parse(Some("k7qx2".into()))
            .unwrap()
            .and_then(|f| f.0),
        RoomCode::parse("K7QX2").ok()
    );
    assert!(OrBlank::<RoomCode>::parse(Some("K7".into())).is_err());
}
