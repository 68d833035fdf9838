//! The unit tests of `app::catalog::store`.

use app::catalog::model::Thing;
use app::catalog::store::*;
use app::store::Item;

#[test]
fn the_fingerprint_changes_with_the_hindi_note_and_not_without_one() {
    let seed = app::catalog::seed::SEED;
    let things = app::catalog::model::validate(seed).unwrap();
    let mut changed = things.clone();
    let noted = changed.iter_mut().find(|t| t.note_hi.is_some()).unwrap();
    noted.note_hi = Some("बदला हुआ नोट".into());
    assert_ne!(fingerprint(&things), fingerprint(&changed));

    // A thing without a Hindi note serializes as it did before the field existed, and an
    // item stored then still reads.
    let plain = things.iter().find(|t| t.note.is_none()).unwrap();
    let json = serde_json::to_value(plain).unwrap();
    assert!(json.get("note_hi").is_none(), "{json}");
    let noted = things.iter().find(|t| t.note_hi.is_some()).unwrap();
    let mut old = serde_dynamo::to_item::<_, Item>(ThingItem::from(noted)).unwrap();
    assert!(old.remove("note_hi").is_some());
    assert_eq!(
        decode(old).unwrap(),
        Thing {
            note_hi: None,
            ..noted.clone()
        }
    );
}
