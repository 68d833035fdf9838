//! The unit tests of `app::catalog::things_page`.

use leptos::prelude::*;

use app::catalog::model::{FlyFilter, Thing};
use app::catalog::things_page::*;
use app::lang::Locale;

#[test]
fn filter_links_keep_the_search_and_escape_it() {
    assert_eq!(filter_href(FlyFilter::Flies, ""), "/things?flies=yes");
    assert_eq!(
        filter_href(FlyFilter::Grounded, " a&b "),
        "/things?flies=no&q=a%26b"
    );
}

fn with_notes(note: Option<&str>, note_hi: Option<&str>) -> Thing {
    Thing {
        id: app::catalog::model::ThingId::parse("crow").unwrap(),
        en: "Crow".into(),
        hi: "कौआ".into(),
        hi_latin: "Kauwa".into(),
        emoji: "🐦".into(),
        flies: true,
        category: app::catalog::model::Category::Bird,
        note: note.map(str::to_owned),
        note_hi: note_hi.map(str::to_owned),
    }
}

#[test]
fn a_page_carries_the_notes_of_its_language() {
    let both = with_notes(Some("A bird."), Some("एक पक्षी।"));
    let english_only = with_notes(Some("A bird."), None);
    let pair = || vec![both.clone(), english_only.clone()];
    assert_eq!(
        notes_for(pair(), Locale::en),
        [with_notes(Some("A bird."), None), english_only.clone()]
    );
    assert_eq!(
        notes_for(pair(), Locale::hi),
        [with_notes(None, Some("एक पक्षी।")), english_only.clone()]
    );
}

#[test]
fn a_card_shows_the_note_in_the_pages_language_else_marked_english() {
    let shows = |thing: Thing, l: Locale, note: &str| {
        let html = Owner::new().with(|| view! { <ThingCard thing l /> }.to_html());
        assert!(html.contains(note), "{l:?}: {note} not in {html}");
    };
    // What a note rendered as before it had a Hindi version, byte for byte.
    let note = |lang: &'static str, text: &str| {
        let text = text.to_owned();
        Owner::new().with(|| view! { <small class="note" lang=lang>{text}</small> }.to_html())
    };
    let english = Owner::new()
        .with(|| view! { <small class="note" lang="en">{"A bird.".to_owned()}</small> }.to_html());
    assert_eq!(note("en", "A bird."), english);
    let both = with_notes(Some("A bird."), Some("एक पक्षी।"));
    shows(both.clone(), Locale::en, &english);
    shows(both, Locale::hi, &note("hi", "एक पक्षी।"));
    shows(with_notes(Some("A bird."), None), Locale::hi, &english);
}
