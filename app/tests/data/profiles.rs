//! A player's profile page: who, stats, boards with ranks, collection, matches, in one burst of
//! calls sent at once.

use app::lang::Locale;
use app::leaderboards::projector::Projector;

use super::game::{close_all, playing, tap_at};
use super::seeded_table;

#[tokio::test]
async fn a_profile_is_eight_calls_and_shows_what_the_player_did() {
    let t = seeded_table().await;
    let (code, host, others, lobby) = playing(&t, "PRFAB", 2, &["Asha"]).await;
    tap_at(&t.db, &lobby, &host, 0, 400, 350).await.unwrap();
    close_all(&t, &code).await;
    let mut projector = Projector::new(t.db.clone(), t.engine.streams.clone());
    assert_eq!(projector.catch_up().await.unwrap().counted, 2);

    t.calls.reset();
    let page =
        t.db.profiles()
            .profile_page(&host, Some(&others[0]), None, Locale::en)
            .await
            .unwrap()
            .expect("the host's page");
    let mut ops = t.calls.ops();
    ops.sort();
    assert_eq!(
        ops,
        vec![
            "BatchGetItem",
            "BatchGetItem",
            "BatchGetItem",
            "GetItem",
            "GetItem",
            "Query",
            "Query",
            "Query"
        ],
        "profile, stats, boards (counters, seasons, entries, paths), collection, matches"
    );
    assert_eq!(page.user_id, host);
    assert!(!page.mine, "read by someone else");
    assert!(page.username.is_none(), "a guest has a page too");
    assert_eq!(page.stats.matches, 1);
    assert_eq!(page.matches.len(), 1);
    let record = &page.matches[0];
    assert_eq!((record.room.clone(), record.first_round), (code.clone(), 1));
    // Every board they are on (the week's, the season's and all time, best and total, everyone's
    // and the room's), each with an exact rank among its entries.
    assert!(page.boards.len() >= 4, "{:?}", page.boards);
    assert!(page
        .boards
        .iter()
        .all(|b| b.rank >= 1 && b.rank <= b.entries));
    assert!(page.boards.iter().any(|b| b.href.contains("room-PRFAB")));
    assert!(!page.sets.is_empty());

    let own =
        t.db.profiles()
            .profile_page(&host, Some(&host), None, Locale::en)
            .await
            .unwrap()
            .unwrap();
    assert!(own.mine);
    let nobody = app::identity::UserId::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap();
    assert!(t
        .db
        .profiles()
        .profile_page(&nobody, None, None, Locale::en)
        .await
        .unwrap()
        .is_none());
}

#[tokio::test]
async fn a_profiles_matches_page_newest_first_with_a_cursor() {
    let t = seeded_table().await;
    let (code, host, _, _) = playing(&t, "PRFPG", 1, &[]).await;
    close_all(&t, &code).await;
    let size = app::profiles::store::MATCHES_PER_PAGE as usize;
    for seed in 0..size as u64 {
        t.db.game()
            .start_match(&code, &host, Some(seed))
            .await
            .unwrap();
        close_all(&t, &code).await;
    }
    // size + 1 matches: a full page, then one more.
    let first =
        t.db.profiles()
            .profile_page(&host, None, None, Locale::en)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(first.matches.len(), size);
    let rest =
        t.db.profiles()
            .profile_page(&host, None, first.next.as_deref(), Locale::en)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(rest.matches.len(), 1);
    assert!(rest.next.is_none());
    let all: Vec<_> = first.matches.iter().chain(&rest.matches).collect();
    assert!(all
        .windows(2)
        .all(|w| w[0].finished_at_ms >= w[1].finished_at_ms && w[0].record_id > w[1].record_id));
    assert!(t
        .db
        .profiles()
        .profile_page(&host, None, Some("forged"), Locale::en)
        .await
        .is_err());
}
