//! The unit tests of `app::http::cards`.

mod budget;
mod cache;

use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;

use app::http::cards::*;
use app::share::{self, ShareImage};
use app::store::DataError;

fn card(title: &str) -> ShareImage {
    ShareImage {
        kicker: "Player".into(),
        title: title.into(),
        grid: Vec::new(),
        rows: vec![("Matches".into(), "3".into())],
        footer: "udd".into(),
    }
}

/// A source at `address` whose read counts itself in `reads` and finds `found`.
fn source<'a>(
    address: &str,
    fresh_for: Duration,
    reads: &'a AtomicUsize,
    found: Option<ShareImage>,
) -> Source<impl Future<Output = Result<Option<ShareImage>, DataError>> + 'a> {
    Source {
        address: address.into(),
        fresh_for,
        read: async move {
            reads.fetch_add(1, Ordering::SeqCst);
            Ok(found)
        },
    }
}

fn tag(response: &Response) -> String {
    response.headers()[header::ETAG]
        .to_str()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn a_card_is_drawn_again_only_when_what_it_draws_changes() {
    let cards = Cards::default();
    let none = HeaderMap::new();
    let reads = AtomicUsize::new(0);
    let first = answer(
        &cards,
        None,
        &none,
        source("p/a/en", Duration::ZERO, &reads, Some(card("Asha"))),
    )
    .await;
    assert_eq!(first.status(), StatusCode::OK);
    let asha = tag(&first);
    let digest = digest_of(&share::svg(&card("Asha")));
    let kept = cards.cache.picture(&digest).expect("kept by what it draws");

    // Not believed any more (fresh for zero): read again; the same drawing, from the cache.
    let again = answer(
        &cards,
        None,
        &none,
        source("p/a/en", FRESH_FOR, &reads, Some(card("Asha"))),
    )
    .await;
    assert_eq!(
        (again.status(), tag(&again)),
        (StatusCode::OK, asha.clone())
    );
    assert_eq!(reads.load(Ordering::SeqCst), 2);
    assert!(cards.cache.picture(&digest).is_some_and(|p| p == kept));

    // Now believed: no read; a browser holding it gets a 304.
    let mut holding = HeaderMap::new();
    holding.insert(header::IF_NONE_MATCH, HeaderValue::from_str(&asha).unwrap());
    let same = answer(
        &cards,
        None,
        &holding,
        source("p/a/en", FRESH_FOR, &reads, None),
    )
    .await;
    assert_eq!(same.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(tag(&same), asha);
    assert_eq!(reads.load(Ordering::SeqCst), 2, "nothing read");

    // What it draws changed: a new picture, a new tag.
    let other = answer(
        &cards,
        None,
        &holding,
        source("p/b/en", FRESH_FOR, &reads, Some(card("Ravi"))),
    )
    .await;
    assert_eq!(other.status(), StatusCode::OK);
    assert_ne!(tag(&other), asha);
}

#[tokio::test]
async fn misses_spend_the_budget_and_hits_and_remembered_nothing_do_not() {
    let cards = Cards {
        budget: MissBudget::new(3, 1),
        ..Cards::default()
    };
    let none = HeaderMap::new();
    let reads = AtomicUsize::new(0);
    let me = Some("192.0.2.7".parse().unwrap());
    let shown = answer(
        &cards,
        me,
        &none,
        source("p/a/en", FRESH_FOR, &reads, Some(card("Asha"))),
    )
    .await;
    assert_eq!(shown.status(), StatusCode::OK);
    let gone = answer(&cards, me, &none, source("p/x/en", FRESH_FOR, &reads, None)).await;
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);
    let gone = answer(&cards, me, &none, source("p/y/en", FRESH_FOR, &reads, None)).await;
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);
    let refused = answer(&cards, me, &none, source("p/z/en", FRESH_FOR, &reads, None)).await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = refused.headers()[header::RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert_eq!(
        reads.load(Ordering::SeqCst),
        3,
        "the refused one read nothing"
    );
    // From the cache: a card and a remembered 404, never refused, never read.
    let hit = answer(&cards, me, &none, source("p/a/en", FRESH_FOR, &reads, None)).await;
    assert_eq!(hit.status(), StatusCode::OK);
    let remembered = answer(&cards, me, &none, source("p/x/en", FRESH_FOR, &reads, None)).await;
    assert_eq!(remembered.status(), StatusCode::NOT_FOUND);
    assert_eq!(reads.load(Ordering::SeqCst), 3);
    let bystander = Some("192.0.2.8".parse().unwrap());
    let theirs = answer(
        &cards,
        bystander,
        &none,
        source("p/z/en", FRESH_FOR, &reads, Some(card("Zoe"))),
    )
    .await;
    assert_eq!(theirs.status(), StatusCode::OK);
}

/// A crowd of addresses, each well within its own budget, cannot take the instance's cores:
/// the instance's own budget bounds every miss together (a 429 with `Retry-After` past it,
/// nothing read: a rate limit, not a failure), and what the cache holds is still answered to
/// anyone.
#[tokio::test]
async fn a_crowd_of_addresses_spends_the_instances_budget_and_the_cache_still_answers() {
    let cards = Cards::default();
    let none = HeaderMap::new();
    let reads = AtomicUsize::new(0);
    let started = std::time::Instant::now();
    let asks = (0..200u32).map(|i| {
        let client = Some(format!("198.51.100.{}", i % 100).parse().unwrap());
        let title = format!("Player {i}");
        let (cards, none, reads) = (&cards, &none, &reads);
        async move {
            let address = format!("p/{i}/en");
            answer(
                cards,
                client,
                none,
                source(&address, FRESH_FOR, reads, Some(card(&title))),
            )
            .await
        }
    });
    let answers = futures::future::join_all(asks).await;
    let took = started.elapsed().as_secs_f64();
    let drawn = answers
        .iter()
        .filter(|a| a.status() == StatusCode::OK)
        .count();
    let busy: Vec<_> = answers
        .iter()
        .filter(|a| a.status() == StatusCode::TOO_MANY_REQUESTS)
        .collect();
    assert_eq!(drawn + busy.len(), 200, "only drawn or busy");
    let allowed = f64::from(app::http::cards::budget::INSTANCE_BURST)
        + f64::from(app::http::cards::budget::INSTANCE_PER_MINUTE) / 60.0 * took
        + 1.0;
    assert!(
        drawn as f64 <= allowed,
        "{drawn} drawn in {took:.2} s, the instance allows {allowed:.0}"
    );
    assert!(
        !busy.is_empty(),
        "the crowd went past the instance's budget"
    );
    assert!(busy
        .iter()
        .all(|a| a.headers().contains_key(header::RETRY_AFTER)));
    assert_eq!(
        reads.load(Ordering::SeqCst),
        drawn,
        "a refused miss reads nothing"
    );
    // A card drawn before is answered to a newcomer from the cache, budget or not.
    let first_drawn = answers
        .iter()
        .position(|a| a.status() == StatusCode::OK)
        .unwrap();
    let newcomer = Some("203.0.113.9".parse().unwrap());
    let address = format!("p/{first_drawn}/en");
    let hit = answer(
        &cards,
        newcomer,
        &none,
        source(&address, FRESH_FOR, &reads, None),
    )
    .await;
    assert_eq!(hit.status(), StatusCode::OK);
    assert_eq!(reads.load(Ordering::SeqCst), drawn, "from the cache");
}

#[test]
fn if_none_match_is_a_list_of_tags_weak_or_strong() {
    let tag = etag(&[7; 32]);
    let with = |v: &str| {
        let mut h = HeaderMap::new();
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_str(v).unwrap());
        not_modified_since(&h, &tag)
    };
    let t = tag.to_str().unwrap().to_owned();
    assert!(with(&t));
    assert!(with(&format!("\"x\", W/{t}")));
    assert!(with("*"));
    assert!(!with("\"0707\""));
    assert!(!not_modified_since(&HeaderMap::new(), &tag));
}
