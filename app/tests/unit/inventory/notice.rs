//! The unit tests of `app::inventory::notice`.

use app::inventory::notice::server::page_of;

#[test]
fn a_notice_lands_only_on_its_pages_without_an_old_notice() {
    assert_eq!(
        page_of("http://h:3000/inventory?place=bank&note=x&nsig=y&confirm=crow").as_deref(),
        Some("/inventory?place=bank")
    );
    assert_eq!(page_of("https://h/shop").as_deref(), Some("/shop"));
    assert_eq!(
        page_of("https://h/cards/crow").as_deref(),
        Some("/cards/crow")
    );
    assert_eq!(page_of("https://h/trades"), None);
    assert_eq!(page_of("https://h//evil.example/inventory"), None);
}
