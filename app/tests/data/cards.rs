//! The share cards' narrow reads: each card reads what it draws, no more (a profile ≤ 3 calls
//! where its page takes seven, a match 1, a board 2 or 3), and draws what its page shows.

use app::game::store::detail::match_card;
use app::lang::Locale;
use app::leaderboards::projector::Projector;
use app::leaderboards::{BoardId, SeasonId};
use app::profiles::card::CardFacts;
use app::store::epoch_millis;

use super::game::{close_all, playing, tap_at};
use super::{seeded_table, TestTable};

/// A match in room `raw` where the host taps the first round, played out and counted on the
/// boards. The host.
async fn played(t: &TestTable, raw: &str) -> (app::rooms::RoomCode, app::identity::UserId) {
    let (code, host, _, lobby) = playing(t, raw, 2, &["Asha"]).await;
    tap_at(&t.db, &lobby, &host, 0, 400, 350).await.unwrap();
    close_all(t, &code).await;
    let mut projector = Projector::new(t.db.clone(), t.engine.streams.clone());
    assert_eq!(projector.catch_up().await.unwrap().counted, 2);
    (code, host)
}

fn sorted(mut ops: Vec<&'static str>) -> Vec<&'static str> {
    ops.sort();
    ops
}

#[tokio::test]
async fn a_profile_card_is_four_calls_and_draws_what_the_profile_page_shows() {
    let t = seeded_table().await;
    let (_, host) = played(&t, "CRDPA").await;
    for l in [Locale::en, Locale::hi] {
        t.calls.reset();
        let facts =
            t.db.profiles()
                .profile_card_facts(&host, l)
                .await
                .unwrap()
                .unwrap();
        let mut ops = t.calls.ops();
        ops[..2].sort_unstable();
        assert_eq!(
            ops,
            ["GetItem", "Query", "BatchGetItem", "BatchGetItem"],
            "the counters and seasons, the boards, then who, stats, best score and every \
             board's path at once"
        );
        let page =
            t.db.profiles()
                .profile_page(&host, None, None, l)
                .await
                .unwrap()
                .unwrap();
        assert!(page.boards.len() >= 4, "{:?}", page.boards);
        assert_eq!(
            facts,
            CardFacts::from(&page),
            "the card draws what the page shows"
        );
        t.calls.reset();
        let card =
            t.db.profiles()
                .profile_card(&host, l)
                .await
                .unwrap()
                .unwrap();
        assert!(t.calls.count() <= 4);
        assert_eq!(card, CardFacts::from(&page).card(l));
        assert_eq!(card.rows.len(), 5, "three figures and the two best boards");
    }
    let nobody = app::identity::UserId::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap();
    t.calls.reset();
    assert!(t
        .db
        .profiles()
        .profile_card(&nobody, Locale::en)
        .await
        .unwrap()
        .is_none());
    let mut ops = t.calls.ops();
    ops[..2].sort_unstable();
    assert_eq!(
        ops,
        ["GetItem", "Query", "BatchGetItem"],
        "no counters: no boards to read"
    );
}

#[tokio::test]
async fn a_season_the_operator_named_is_named_on_the_card() {
    let t = seeded_table().await;
    let now = epoch_millis();
    let monsoon = SeasonId::parse("monsoon").unwrap();
    t.db.boards()
        .start_season(&monsoon, "Monsoon", now, now + 10 * 86_400_000)
        .await
        .unwrap();
    let (code, host) = played(&t, "CRDSN").await;

    t.calls.reset();
    let facts =
        t.db.profiles()
            .profile_card_facts(&host, Locale::en)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(
        sorted(t.calls.ops()),
        ["BatchGetItem", "BatchGetItem", "GetItem", "Query"],
        "the seasons are read with the counters, once"
    );
    assert!(
        facts.boards.iter().any(|b| b.name.contains("Monsoon")),
        "{:?}",
        facts.boards
    );
    let page =
        t.db.profiles()
            .profile_page(&host, None, None, Locale::en)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(facts, CardFacts::from(&page));

    // A board's card: its top lines and root, and the seasons only for a named season.
    t.calls.reset();
    let all_time =
        t.db.boards()
            .board_card(&BoardId::all_time_best(), Locale::en)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(sorted(t.calls.ops()), ["GetItem", "Query"]);
    assert!(!all_time.rows.is_empty());
    t.calls.reset();
    let season = BoardId::parse_key("best.season-monsoon.global").unwrap();
    let card =
        t.db.boards()
            .board_card(&season, Locale::en)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(sorted(t.calls.ops()), ["GetItem", "Query", "Query"]);
    assert!(card.title.contains("Monsoon"), "{card:?}");
    // A season the operator never started has no card, as it has no page.
    let unknown = BoardId::parse_key("best.season-nosuch.global").unwrap();
    assert_eq!(
        t.db.boards()
            .board_card(&unknown, Locale::en)
            .await
            .unwrap(),
        None
    );

    // A match's card: its kept summary, one GetItem; the same card as from its page's read.
    let room = t.db.rooms().room_id_of(&code).await.unwrap();
    t.calls.reset();
    let summary = t.db.game().match_summary(&room, 1).await.unwrap().unwrap();
    assert_eq!(t.calls.ops(), ["GetItem"]);
    let detail = t.db.game().match_detail(&room, 1).await.unwrap().unwrap();
    assert_eq!(
        match_card(&summary, Locale::en),
        match_card(&detail.summary, Locale::en)
    );
    t.calls.reset();
    assert!(t
        .db
        .game()
        .match_summary(&room, 33)
        .await
        .unwrap()
        .is_none());
    assert_eq!(t.calls.ops(), ["GetItem"]);
}
