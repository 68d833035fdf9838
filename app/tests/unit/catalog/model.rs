//! The unit tests of `app::catalog::model`.

use app::catalog::model::*;

fn seed_thing(id: &'static str, en: &'static str, flies: bool) -> SeedThing {
    SeedThing {
        id,
        en,
        hi: en,
        hi_latin: en,
        emoji: "🐦",
        flies,
        category: Category::Bird,
        note: None,
        note_hi: None,
    }
}

#[test]
fn thing_ids_are_slugs() {
    for good in ["crow", "flying-fish", "a1"] {
        assert!(ThingId::parse(good).is_ok(), "{good}");
    }
    for bad in [
        "",
        "Crow",
        "-crow",
        "crow-",
        "fly--fish",
        "crow fish",
        "कौआ",
        &"a".repeat(41),
    ] {
        assert!(ThingId::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn a_thing_id_cannot_be_deserialized_unchecked() {
    assert!(serde_json::from_str::<ThingId>("\"NOT OK\"").is_err());
    assert_eq!(
        serde_json::from_str::<ThingId>("\"crow\"")
            .unwrap()
            .as_str(),
        "crow"
    );
}

#[test]
fn validate_reports_duplicates_and_a_short_catalog() {
    let seed = [
        seed_thing("crow", "Crow", true),
        seed_thing("crow-2", "crow", false),
    ];
    let problems = validate(&seed).unwrap_err();
    assert!(
        problems
            .iter()
            .any(|p| p.contains("duplicate name \"crow\"")),
        "{problems:?}"
    );
    assert!(
        problems.iter().any(|p| p.contains("at least 150")),
        "{problems:?}"
    );
}

#[test]
fn validate_reports_control_characters() {
    let mut entry = seed_thing("crow", "Crow", true);
    entry.note = Some("bad\u{7}note");
    let problem = entry.to_thing().unwrap_err();
    assert!(problem.contains("control"), "{problem}");
}

#[test]
fn fly_filter_round_trips_through_the_query_string() {
    for filter in [FlyFilter::All, FlyFilter::Flies, FlyFilter::Grounded] {
        assert_eq!(FlyFilter::from_query(Some(filter.as_query())), filter);
    }
    assert_eq!(FlyFilter::from_query(Some("maybe")), FlyFilter::All);
    assert_eq!(FlyFilter::from_query(None), FlyFilter::All);
}

#[test]
fn search_matches_any_name() {
    let crow = SeedThing {
        hi: "कौआ",
        hi_latin: "Kauwa",
        ..seed_thing("crow", "Crow", true)
    }
    .to_thing()
    .unwrap();
    for query in ["crow", "CRO", "कौआ", "kauwa", "  ", ""] {
        assert!(matches_search(&crow, query), "{query:?}");
    }
    assert!(!matches_search(&crow, "elephant"));
}
