//! The unit tests of `app::decks::card`: what a deck's share card says, and what it must not.

use app::decks::card::{deck_card, NAMED};
use app::decks::model::*;
use app::ids::{DeckCode, UserId};
use app::lang::Locale;

fn deck(count: usize, lang: DeckLang) -> Deck {
    Deck {
        code: DeckCode::parse("K7QX2MP").unwrap(),
        author: UserId::generate(),
        version: 3,
        created_ms: 0,
        updated_ms: 0,
        plays: 5,
        hidden: false,
        draft: DeckDraft {
            title: "Our pets".to_owned(),
            description: String::new(),
            lang,
            visibility: Visibility::Public,
            things: (0..count)
                .map(|i| DeckThing {
                    en: Some(format!("Pet {i}")),
                    hi: (lang != DeckLang::En).then(|| format!("पालतू {i}")),
                    hi_latin: None,
                    emoji: "🐦".to_owned(),
                    flies: i % 3 == 0,
                    note: Some(format!("ruling {i}")),
                })
                .collect(),
        },
    }
}

/// Every text the card draws, joined.
fn words(card: &app::share::ShareImage) -> String {
    let rows = card.rows.iter().map(|(a, b)| format!("{a} {b}"));
    [card.kicker.clone(), card.title.clone(), card.footer.clone()]
        .into_iter()
        .chain(rows)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_decks_card_names_its_first_things_its_author_count_plays_and_code() {
    let deck = deck(12, DeckLang::En);
    let card = deck_card(&deck, "Asha", Locale::en);
    assert_eq!(card.title, "Our pets");
    assert!(card.kicker.contains("K7QX2MP"), "{}", card.kicker);
    assert!(card.kicker.contains("English"), "{}", card.kicker);
    let named: Vec<String> = (0..NAMED).map(|i| format!("Pet {i}")).collect();
    assert_eq!(card.rows[0].0, named.join(" · "));
    assert_eq!(card.rows[0].1, format!("+{} more", 12 - NAMED));
    let text = words(&card);
    assert!(
        !text.contains(&format!("Pet {NAMED}")),
        "only the first {NAMED}"
    );
    for needle in ["Asha", "12", "5"] {
        assert!(
            card.rows.iter().any(|(_, figure)| figure == needle),
            "{needle} in {text}"
        );
    }
    assert!(card.grid.is_empty());
}

#[test]
fn a_card_tells_no_ruling_and_draws_no_emoji() {
    for l in [Locale::en, Locale::hi] {
        let card = deck_card(&deck(10, DeckLang::Both), "Asha", l);
        let text = words(&card);
        assert!(!text.contains("ruling"), "no note: {text}");
        assert!(!text.contains('🐦'), "no emoji: {text}");
    }
}

#[test]
fn a_hindi_card_names_things_in_devanagari_and_an_english_deck_in_english() {
    let both = deck_card(&deck(10, DeckLang::Both), "Asha", Locale::hi);
    assert!(
        both.rows[0].0.starts_with("पालतू 0 · पालतू 1"),
        "{}",
        both.rows[0].0
    );
    let english = deck_card(&deck(10, DeckLang::En), "Asha", Locale::hi);
    assert!(
        english.rows[0].0.starts_with("Pet 0 · Pet 1"),
        "{}",
        english.rows[0].0
    );
    assert!(english.kicker.contains("कोड K7QX2MP"), "{}", english.kicker);
}

#[test]
fn a_deck_of_four_names_them_all_and_no_more_and_an_authorless_card_leaves_the_line_out() {
    let card = deck_card(&deck(4, DeckLang::En), "", Locale::en);
    assert_eq!(
        card.rows[0],
        ("Pet 0 · Pet 1 · Pet 2 · Pet 3".to_owned(), String::new())
    );
    assert_eq!(card.rows.len(), 3, "{:?}", card.rows);
}
