//! The name filter against names it has never seen: `names/offensive.txt` (written for this
//! test, with the dodges players use) and `names/ordinary.txt` (first names and surnames from a
//! published list). Neither file is read by the filter; its lists live in
//! `app/src/identity/name_filter/lists/`.

use app::identity::name_filter::refuses;
use app::identity::{DisplayName, Username};

fn names(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .collect()
}

fn share(part: usize, whole: usize) -> f64 {
    100.0 * part as f64 / whole as f64
}

#[test]
fn refuses_95_percent_of_offensive_names_and_at_most_half_a_percent_of_ordinary_ones() {
    let offensive = names(include_str!("names/offensive.txt"));
    let ordinary = names(include_str!("names/ordinary.txt"));
    assert!(
        offensive.len() >= 300,
        "{} offensive names",
        offensive.len()
    );
    assert!(ordinary.len() >= 1000, "{} ordinary names", ordinary.len());

    let missed: Vec<&str> = offensive.iter().copied().filter(|n| !refuses(n)).collect();
    let wrongly: Vec<&str> = ordinary.iter().copied().filter(|n| refuses(n)).collect();
    let caught = share(offensive.len() - missed.len(), offensive.len());
    let blocked = share(wrongly.len(), ordinary.len());
    println!(
        "name filter: {caught:.1} % of {} offensive names refused (missed: {missed:?}); \
         {blocked:.2} % of {} ordinary names refused ({wrongly:?})",
        offensive.len(),
        ordinary.len(),
    );
    assert!(
        caught >= 95.0,
        "only {caught:.1} % of offensive names refused"
    );
    assert!(blocked <= 0.5, "{blocked:.2} % of ordinary names refused");
}

#[test]
fn names_that_only_contain_a_bad_word_are_names() {
    for name in [
        "Dikshit",
        "Shitij",
        "Scunthorpe",
        "Cockburn",
        "Lakshmi",
        "Ashit Kumar",
        "Gandhi",
        "Hancock",
        "Sussex",
        "Cassandra",
        "Hassan",
        "Chutki",
        "Kamini",
        "Anal Shah",
        "Nazia",
        "दीक्षित",
        "Fan 455",
        "Player 717",
        "P15",
        "Guest 455",
        "लक्ष्मी",
    ] {
        assert!(!refuses(name), "{name} refused");
    }
}

#[test]
fn a_refused_name_is_refused_as_a_display_name_with_words_that_do_not_repeat_it() {
    let refused = DisplayName::parse("Chu7iya Raj").unwrap_err().to_string();
    assert_eq!(refused, "Please choose another name.");
    assert!(!refused.to_lowercase().contains("chu"));
    assert!(DisplayName::parse("Raj").is_ok());
    // A username is checked when an account is claimed, not when one signs in with it.
    assert!(Username::parse("chutiya_raj").is_ok());
    assert!(refuses("chutiya_raj"));
}
