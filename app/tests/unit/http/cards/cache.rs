//! The unit tests of `app::http::cards::cache`.

use std::time::Duration;

use axum::body::Bytes;

use app::http::cards::cache::*;

fn digest(n: u8) -> Digest {
    [n; 32]
}

#[test]
fn pictures_are_kept_within_their_bytes_least_recently_used_out_first() {
    let cache = CardCache::with_limits(8, 100);
    for n in 0..4 {
        cache.keep(digest(n), Bytes::from(vec![n; 30]));
    }
    // 120 bytes asked for, 100 kept: the first went.
    assert!(cache.picture(&digest(0)).is_none());
    assert!(cache.picture(&digest(1)).is_some(), "now the most recent");
    cache.keep(digest(9), Bytes::from(vec![9; 30]));
    assert!(
        cache.picture(&digest(2)).is_none(),
        "the least recently used"
    );
    for n in [1, 3, 9] {
        assert_eq!(cache.picture(&digest(n)).unwrap().len(), 30, "{n}");
    }
    cache.keep(digest(7), Bytes::from(vec![7; 101]));
    assert!(
        cache.picture(&digest(7)).is_none(),
        "heavier than the whole budget"
    );
    assert!(
        cache.picture(&digest(9)).is_some(),
        "and it pushed nothing out"
    );
}

#[test]
fn an_address_is_believed_while_fresh_whatever_it_showed() {
    let cache = CardCache::with_limits(2, 100);
    cache.saw("p/a/en".into(), Some(digest(1)), Duration::from_secs(60));
    cache.saw("p/b/en".into(), None, Duration::from_secs(60));
    cache.saw("p/c/en".into(), Some(digest(3)), Duration::ZERO);
    assert_eq!(cache.seen("p/c/en"), None, "no longer believed");
    assert_eq!(
        cache.seen("p/b/en"),
        Some(None),
        "nothing to show, remembered"
    );
    assert_eq!(cache.seen("p/a/en"), None, "pushed out by the third");
    assert_eq!(cache.seen("p/z/en"), None);
    cache.saw("p/b/en".into(), Some(digest(2)), Duration::from_secs(60));
    assert_eq!(cache.seen("p/b/en"), Some(Some(digest(2))), "read again");
}
