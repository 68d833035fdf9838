//! The unit tests of `app::inventory::store`.

use app::inventory::store::Refusal;
use app::lang::Locale;

#[test]
fn a_refusal_reads_in_english_for_logs_and_in_the_pages_language_for_players() {
    let refusal = Refusal::Feathers { held: 1, need: 3 };
    assert_eq!(
        refusal.to_string(),
        "Not enough feathers: you have 1, and it takes 3."
    );
    assert_eq!(
        refusal.localized(),
        refusal.to_string(),
        "English outside a request"
    );
    let hindi = refusal.text(Locale::hi);
    assert!(hindi.contains('1') && hindi.contains('3') && hindi != refusal.to_string());
    assert_eq!(Refusal::Count.to_string(), "between 1 and 9999 cards");
}
