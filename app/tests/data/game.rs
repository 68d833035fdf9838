//! The game's access patterns: start, tap, resolve exactly once, finish, and the records.
//! Times are passed in (the data layer takes the server's clock as an argument), so no test
//! waits for a countdown. Longer than our usual file because one match's life is one story
//! (start, taps, races, resolution, boards) that its tests share helpers for.

use app::game::store::{GameConflict, Resolution, Tapped};
use app::game::Room;
use app::game::{self, Decision, Match, Received, TapRejected, GRACE_MS, LATENCY_CAP_MS};
use app::identity::{Avatar, UserId};
use app::leaderboards::projector::Projector;
use app::leaderboards::store::lines::Start;
use app::leaderboards::{BoardId, Line};
use app::rooms::store::Joined;
use app::rooms::{RoomCode, RoomSettings, RoomState};
use app::store::{Db, Recorder};

use super::conflicts::{faulty_db, ITEM_CONFLICT};
use super::faults::THROTTLED;
use super::{name, player, seeded_table, TestTable};

pub(super) const SEED: u64 = 7;

pub(super) fn settings(rounds: u8) -> RoomSettings {
    RoomSettings {
        rounds,
        window_ms: 2000,
        ..RoomSettings::default()
    }
}

/// A room with a host and `others`, with a match started from [`SEED`].
pub(super) async fn playing(
    t: &TestTable,
    raw: &str,
    rounds: u8,
    others: &[&str],
) -> (RoomCode, UserId, Vec<UserId>, Room) {
    let (code, host) = super::room(t, raw, settings(rounds)).await;
    let mut ids = Vec::new();
    for other in others {
        let id = player(t, other).await;
        t.db.rooms()
            .join_room(&code, &id, &name(other), Avatar::Owl)
            .await
            .unwrap();
        ids.push(id);
    }
    t.db.game()
        .start_match(&code, &host, Some(SEED))
        .await
        .unwrap();
    let lobby = t.db.game().room(&code).await.unwrap().unwrap();
    t.calls.reset();
    (code, host, ids, lobby)
}

/// A room's all-time board of best scores, top 10.
async fn room_board(t: &TestTable, code: &RoomCode) -> Vec<Line> {
    let room = t.db.rooms().room_id_of(code).await.unwrap();
    t.db.boards()
        .board_lines(&BoardId::room_best(&room), Start::Top, 10)
        .await
        .unwrap()
        .unwrap()
        .lines
}

pub(super) fn game(lobby: &Room) -> &Match {
    lobby.game.as_ref().expect("a match")
}

pub(super) async fn tap_at(
    db: &Db,
    lobby: &Room,
    user: &UserId,
    index: usize,
    after_ms: i64,
    reaction: u32,
) -> Result<Tapped, GameConflict> {
    let g = game(lobby);
    let round = &g.rounds[index];
    db.game()
        .tap(
            &lobby.code,
            user,
            round.n,
            round.reveal_ms,
            g.window_ms,
            reaction,
            Received::at(round.reveal_ms + after_ms, Some(LATENCY_CAP_MS)),
        )
        .await
}

#[tokio::test]
async fn only_the_host_starts_and_the_seed_fixes_the_things() {
    let t = seeded_table().await;
    let (code, host) = super::room(&t, "GMSTA", settings(5)).await;
    let asha = player(&t, "Asha").await;
    t.db.rooms()
        .join_room(&code, &asha, &name("Asha"), Avatar::Owl)
        .await
        .unwrap();
    assert!(matches!(
        t.db.game().start_match(&code, &asha, Some(SEED)).await,
        Err(GameConflict::NotHost)
    ));
    let started =
        t.db.game()
            .start_match(&code, &host, Some(SEED))
            .await
            .unwrap();
    let things_of = |m: &Match| -> Vec<_> {
        m.rounds
            .iter()
            .map(|r| r.thing.as_ref().unwrap().id.clone())
            .collect()
    };
    let shown = things_of(&started);
    assert_ne!(
        shown,
        game::draw_things(&super::seed_things(), 5, SEED),
        "the host's seed alone does not tell the things"
    );
    let seed = started.seed.expect("the match keeps its seed");
    assert_ne!(seed, SEED);
    assert_eq!(
        shown,
        game::draw_things(&super::seed_things(), 5, seed),
        "the kept seed gives the draw, so it can be checked afterwards"
    );
    let stored = t.db.game().room(&code).await.unwrap().unwrap();
    assert_eq!(game(&stored).seed, Some(seed));
    assert_eq!(
        stored
            .visible_at(app::store::epoch_millis())
            .game
            .unwrap()
            .seed,
        None,
        "nobody sees the seed while the match runs"
    );
    // The same chosen number in another room draws other things.
    let (other_code, other_host) = super::room(&t, "GMSTB", settings(5)).await;
    let other =
        t.db.game()
            .start_match(&other_code, &other_host, Some(SEED))
            .await
            .unwrap();
    assert_ne!(things_of(&other), shown);
    assert_eq!(started.players.len(), 2);
    assert!(started
        .rounds
        .windows(2)
        .all(|w| w[1].reveal_ms - w[0].reveal_ms == Match::period_ms(2000)));
    let lobby = t.db.game().room(&code).await.unwrap().unwrap();
    assert_eq!(lobby.state, RoomState::Playing);
    assert!(matches!(
        t.db.game().start_match(&code, &host, Some(SEED)).await,
        Err(GameConflict::AlreadyPlaying)
    ));
}

#[tokio::test]
async fn a_tap_is_one_write_and_a_second_tap_changes_nothing() {
    let t = seeded_table().await;
    let (_, host, _, lobby) = playing(&t, "GMTAP", 3, &["Asha"]).await;
    let first = tap_at(&t.db, &lobby, &host, 0, 500, 420).await.unwrap();
    assert_eq!(first, Tapped::Counted { reaction_ms: 420 });
    assert_eq!(
        t.calls.ops(),
        vec!["UpdateItem"],
        "one write, not a transaction"
    );
    t.calls.reset();
    let again = tap_at(&t.db, &lobby, &host, 0, 900, 150).await.unwrap();
    assert_eq!(again, Tapped::AlreadyCounted);
    assert_eq!(
        t.calls.ops(),
        vec!["RefusedWrite", "GetItem"],
        "a refused tap (billed as a write) reads the round once to say why"
    );
    // Resolve: the first tap's reaction is the one that counts.
    let close = game(&lobby).closes_at(0).unwrap();
    t.db.game().resolve_due(&lobby, close).await.unwrap();
    let after = t.db.game().room(&lobby.code).await.unwrap().unwrap();
    let results = game(&after).rounds[0].results.clone().unwrap();
    let mine = results.iter().find(|r| r.user_id == host).unwrap();
    assert_eq!(mine.reaction_ms, Some(420));
    assert_eq!(
        results.iter().filter(|r| r.reaction_ms.is_some()).count(),
        1
    );
}

#[tokio::test]
async fn taps_out_of_time_or_out_of_turn_are_refused_with_a_reason_and_write_nothing() {
    let t = seeded_table().await;
    let (code, host, others, lobby) = playing(&t, "GMHAT", 3, &["Asha"]).await;
    let window = i64::from(game(&lobby).window_ms);
    let late = tap_at(
        &t.db,
        &lobby,
        &host,
        0,
        window + i64::from(GRACE_MS) + 1,
        500,
    )
    .await;
    match late {
        Err(GameConflict::Tap(TapRejected::TooLate)) => {}
        other => panic!("expected too late, got {other:?}"),
    }
    assert_eq!(
        GameConflict::Tap(TapRejected::TooLate).to_string(),
        "Too late: the round had closed."
    );
    let early = tap_at(&t.db, &lobby, &host, 1, -10, 300).await;
    assert!(matches!(
        early,
        Err(GameConflict::Tap(TapRejected::TooEarly))
    ));
    let fast = tap_at(&t.db, &lobby, &host, 0, 50, 40).await;
    assert!(matches!(fast, Err(GameConflict::Tap(TapRejected::TooFast))));
    assert_eq!(t.calls.count(), 0, "refused before any write");

    // A reveal time the round does not have (a forged or stale request) is refused.
    let g = game(&lobby);
    let forged =
        t.db.game()
            .tap(
                &code,
                &host,
                g.rounds[0].n,
                g.rounds[0].reveal_ms - 1000,
                g.window_ms,
                300,
                g.rounds[0].reveal_ms,
            )
            .await;
    assert!(
        matches!(forged, Err(GameConflict::RoundClosed)),
        "{forged:?}"
    );

    // A player who joins during the match watches it.
    let late_comer = player(&t, "Ravi").await;
    let joined =
        t.db.rooms()
            .join_room(&code, &late_comer, &name("Ravi"), Avatar::Crow)
            .await
            .unwrap();
    assert_eq!(joined, Joined::Joined);
    let watching = tap_at(&t.db, &lobby, &late_comer, 0, 400, 300).await;
    assert!(
        matches!(watching, Err(GameConflict::Spectating)),
        "{watching:?}"
    );

    // After the round is resolved, a tap is too late however it is timed.
    let close = g.closes_at(0).unwrap();
    t.db.game().resolve_due(&lobby, close).await.unwrap();
    let closed = tap_at(&t.db, &lobby, &others[0], 0, 400, 300).await;
    assert!(
        matches!(closed, Err(GameConflict::RoundClosed)),
        "{closed:?}"
    );
    let after = t.db.game().room(&code).await.unwrap().unwrap();
    assert!(
        game(&after).player(&late_comer).is_none(),
        "not in the match"
    );
    assert!(game(&after).rounds[0]
        .results
        .as_ref()
        .unwrap()
        .iter()
        .all(|r| r.reaction_ms.is_none()));
}

#[tokio::test]
async fn a_round_closes_with_one_read_and_one_write_and_scores_by_the_rules() {
    let t = seeded_table().await;
    let (code, host, others, lobby) = playing(&t, "GMRES", 3, &["Asha", "Ravi"]).await;
    let g = game(&lobby);
    tap_at(&t.db, &lobby, &host, 0, 400, 350).await.unwrap();
    tap_at(&t.db, &lobby, &others[0], 0, 900, 800)
        .await
        .unwrap();
    let close = g.closes_at(0).unwrap();
    assert_eq!(
        t.db.game().resolve_due(&lobby, close - 1).await.unwrap(),
        Resolution::NotDue
    );
    t.calls.reset();
    let resolved = t.db.game().resolve_due(&lobby, close).await.unwrap();
    assert_eq!(
        resolved,
        Resolution::Resolved {
            index: 0,
            finished: false
        }
    );
    assert_eq!(t.calls.ops(), vec!["GetItem", "UpdateItem"]);

    let flies = g.rounds[0].flies.unwrap();
    let expected = game::score_round(
        flies,
        g.window_ms,
        &[
            Decision {
                tap_ms: Some(350),
                streak_before: 0,
            },
            Decision {
                tap_ms: Some(800),
                streak_before: 0,
            },
            Decision {
                tap_ms: None,
                streak_before: 0,
            },
        ],
    );
    let after = t.db.game().room(&code).await.unwrap().unwrap();
    let ag = game(&after);
    assert_eq!(ag.resolved, 1);
    for (id, outcome) in [&host, &others[0], &others[1]].iter().zip(&expected) {
        let p = ag.player(id).unwrap();
        assert_eq!(p.score, outcome.points, "{}", p.nickname);
        assert_eq!(p.streak, outcome.streak_after);
    }
    // Nothing is written per player: every reader works the results out from the taps.
    assert_eq!(after.version, lobby.version);
    // The same read again finds nothing to do (and the next round is not due yet).
    assert_eq!(
        t.db.game().resolve_due(&lobby, close).await.unwrap(),
        Resolution::AlreadyResolved
    );
    assert_eq!(
        t.db.game().resolve_due(&after, close).await.unwrap(),
        Resolution::NotDue
    );
}

#[tokio::test]
async fn fifty_resolvers_on_two_instances_resolve_a_round_exactly_once() {
    let t = seeded_table().await;
    let (code, host, others, lobby) = playing(&t, "GMCNC", 3, &["Asha"]).await;
    tap_at(&t.db, &lobby, &host, 0, 300, 280).await.unwrap();
    tap_at(&t.db, &lobby, &others[0], 0, 700, 650)
        .await
        .unwrap();
    let second = Db::new(
        aws_sdk_dynamodb::Client::from_conf(t.engine.client.config().clone()),
        t.db.table_name(),
    );
    let close = game(&lobby).closes_at(0).unwrap();
    let mut tasks = Vec::new();
    for i in 0..50 {
        let db = if i % 2 == 0 {
            t.db.clone()
        } else {
            second.clone()
        };
        let lobby = lobby.clone();
        tasks.push(tokio::spawn(async move {
            db.game().resolve_due(&lobby, close).await
        }));
    }
    let mut resolved = 0;
    for task in tasks {
        match task.await.unwrap() {
            Ok(Resolution::Resolved { index: 0, .. }) => resolved += 1,
            Ok(Resolution::AlreadyResolved | Resolution::Stale) => {}
            // Still contended after the retries: nothing applied, the watcher tries again.
            Err(err) if err.is_retryable() => {}
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(resolved, 1, "exactly one resolver applies the round");
    let g = game(&lobby);
    let expected = game::score_round(
        g.rounds[0].flies.unwrap(),
        g.window_ms,
        &[
            Decision {
                tap_ms: Some(280),
                streak_before: 0,
            },
            Decision {
                tap_ms: Some(650),
                streak_before: 0,
            },
        ],
    );
    let after = t.db.game().room(&code).await.unwrap().unwrap();
    let ag = game(&after);
    assert_eq!(ag.resolved, 1);
    assert_eq!(ag.player(&host).unwrap().score, expected[0].points);
    assert_eq!(ag.player(&others[0]).unwrap().score, expected[1].points);
}

#[tokio::test]
async fn a_close_throttled_twice_is_retried_and_applied_once() {
    let t = seeded_table().await;
    let (code, host, _, lobby) = playing(&t, "GMCNF", 2, &[]).await;
    tap_at(&t.db, &lobby, &host, 0, 300, 280).await.unwrap();
    let calls = Recorder::new();
    let (db, left) = faulty_db(&t, Some("UpdateItem"), THROTTLED, 2, &calls);
    let close = game(&lobby).closes_at(0).unwrap();
    let resolved = db.game().resolve_due(&lobby, close).await.unwrap();
    assert!(matches!(resolved, Resolution::Resolved { index: 0, .. }));
    assert_eq!(
        left.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "both faults met"
    );
    let after = t.db.game().room(&code).await.unwrap().unwrap();
    assert_eq!(game(&after).resolved, 1, "applied once");
    let expected = game::score_round(
        game(&lobby).rounds[0].flies.unwrap(),
        2000,
        &[Decision {
            tap_ms: Some(280),
            streak_before: 0,
        }],
    );
    assert_eq!(
        game(&after).player(&host).unwrap().score,
        expected[0].points
    );
}

#[tokio::test]
async fn a_tap_that_lands_after_the_resolvers_read_is_in_the_results() {
    let t = seeded_table().await;
    let (code, host, others, lobby) = playing(&t, "GMTWX", 2, &["Asha"]).await;
    // The resolver's read of the room is from before any tap; the taps land after it.
    tap_at(&t.db, &lobby, &host, 0, 300, 280).await.unwrap();
    tap_at(&t.db, &lobby, &others[0], 0, 2300, 2250)
        .await
        .unwrap();
    let close = game(&lobby).closes_at(0).unwrap();
    let resolved = t.db.game().resolve_due(&lobby, close).await.unwrap();
    assert!(matches!(resolved, Resolution::Resolved { index: 0, .. }));
    let after = t.db.game().room(&code).await.unwrap().unwrap();
    let results = game(&after).rounds[0].results.clone().unwrap();
    assert_eq!(
        results.iter().filter(|r| r.reaction_ms.is_some()).count(),
        2,
        "both acknowledged taps count"
    );
}

#[tokio::test]
async fn a_match_end_cut_between_its_writes_is_finished_by_the_next_reader_once() {
    let t = seeded_table().await;
    let (code, host, others, lobby) = playing(&t, "GMEND", 1, &["Asha"]).await;
    tap_at(&t.db, &lobby, &host, 0, 300, 280).await.unwrap();
    // The instance that closes the last round cannot write the records (the write keeps
    // failing): the round is closed, and the room is still playing, with no records.
    let calls = Recorder::new();
    let (cut, _) = faulty_db(&t, Some("BatchWriteItem"), ITEM_CONFLICT, 100, &calls);
    let close = game(&lobby).closes_at(0).unwrap();
    assert!(cut.game().resolve_due(&lobby, close).await.is_err());
    let stuck = t.db.game().room(&code).await.unwrap().unwrap();
    assert_eq!(stuck.state, RoomState::Playing);
    assert!(game(&stuck).is_finished() && stuck.needs_finish());
    assert!(t
        .db
        .game()
        .my_matches(&host, 10, None)
        .await
        .unwrap()
        .items
        .is_empty());

    // Readers leave the end to the closer for a moment, then any of them ends it (any
    // instance's watcher or page); doing it twice changes nothing.
    assert!(!stuck.finish_due(close));
    assert!(stuck.finish_due(close + game::FINISH_GRACE_MS));
    t.db.game()
        .finish_match(&code, game(&stuck), &stuck)
        .await
        .unwrap();
    let done = t.db.game().room(&code).await.unwrap().unwrap();
    assert_eq!(done.state, RoomState::Lobby);
    t.db.game()
        .finish_match(&code, game(&stuck), &stuck)
        .await
        .unwrap();
    for who in [&host, &others[0]] {
        let mine = t.db.game().my_matches(who, 10, None).await.unwrap().items;
        assert_eq!(
            mine.len(),
            1,
            "one record each, however often it is written"
        );
    }
    let again = t.db.game().room(&code).await.unwrap().unwrap();
    assert_eq!(
        again.version, done.version,
        "the second end wrote no room change"
    );
    let mut projector = Projector::new(t.db.clone(), t.engine.streams.clone());
    assert_eq!(
        projector.catch_up().await.unwrap().counted,
        2,
        "counted once each"
    );
}

#[tokio::test]
async fn a_player_who_leaves_keeps_their_place_and_no_round_is_skipped() {
    let t = seeded_table().await;
    let (code, _host, others, lobby) = playing(&t, "GMSKP", 2, &["Asha"]).await;
    tap_at(&t.db, &lobby, &others[0], 0, 300, 280)
        .await
        .unwrap();
    t.db.rooms().leave_room(&code, &others[0]).await.unwrap();
    let now = t.db.game().room(&code).await.unwrap().unwrap();
    assert_eq!(now.players.len(), 1, "gone from the room");
    assert_eq!(
        game(&now).players.len(),
        2,
        "still in the match it started in"
    );
    // Long after both rounds closed, resolving goes through them in order, each once.
    let late = game(&now).closes_at(1).unwrap() + 60_000;
    let mut room = now;
    for expected in 0..2 {
        let outcome = t.db.game().resolve_due(&room, late).await.unwrap();
        assert!(
            matches!(outcome, Resolution::Resolved { index, .. } if index == expected),
            "{outcome:?}"
        );
        room = t.db.game().room(&code).await.unwrap().unwrap();
    }
    assert!(game(&room).is_finished());
    assert_eq!(game(&room).resolved, 2);
    let asha = game(&room).player(&others[0]).unwrap();
    assert_eq!(asha.taps, 1, "what they did before leaving counts");
    assert_eq!(
        t.db.game().resolve_due(&room, late).await.unwrap(),
        Resolution::NotDue
    );
    assert_eq!(
        t.db.game()
            .my_matches(&others[0], 10, None)
            .await
            .unwrap()
            .items
            .len(),
        1
    );
}

#[tokio::test]
async fn the_last_round_records_the_match_and_the_projector_counts_it_on_the_boards() {
    let t = seeded_table().await;
    let (code, host, others, lobby) = playing(&t, "GMFNS", 1, &["Asha"]).await;
    let asha = others[0].clone();
    let g = game(&lobby);
    let flies = g.rounds[0].flies.unwrap();
    // The host decides right, Asha wrong.
    if flies {
        tap_at(&t.db, &lobby, &host, 0, 400, 380).await.unwrap();
    } else {
        tap_at(&t.db, &lobby, &asha, 0, 400, 380).await.unwrap();
    }
    let close = g.closes_at(0).unwrap();
    let outcome = t.db.game().resolve_due(&lobby, close).await.unwrap();
    assert_eq!(
        outcome,
        Resolution::Resolved {
            index: 0,
            finished: true
        }
    );
    let done = t.db.game().room(&code).await.unwrap().unwrap();
    assert_eq!(
        done.state,
        RoomState::Lobby,
        "back to the lobby for another"
    );
    let finished = game(&done);
    assert!(finished.is_finished());
    assert!(
        done.visible_at(app::store::epoch_millis())
            .game
            .unwrap()
            .seed
            .is_some(),
        "once the match is over, its seed is shown"
    );

    let mine = t.db.game().my_matches(&host, 10, None).await.unwrap();
    assert_eq!(mine.items.len(), 1);
    assert_eq!(mine.items[0].placement, 1);
    assert_eq!(mine.items[0].room, code);
    assert_eq!(mine.items[0].score, finished.player(&host).unwrap().score);
    let theirs = t.db.game().my_matches(&asha, 10, None).await.unwrap();
    assert_eq!(theirs.items[0].placement, 2);
    // Whom each played with (what the trades page offers to pick from): the other, once, from
    // one Query of their records and one BatchGetItem of the matches' summaries.
    t.calls.reset();
    let partners = t.db.game().played_with(&host, 10).await.unwrap();
    assert_eq!(t.calls.ops(), ["Query", "BatchGetItem"]);
    let ids: Vec<&UserId> = partners.iter().map(|p| &p.user_id).collect();
    assert_eq!(ids, [&asha]);
    assert_eq!(partners[0].last_ms, mine.items[0].finished_at_ms);
    assert_eq!(partners[0].nickname.as_str(), "Asha");
    let back = t.db.game().played_with(&asha, 10).await.unwrap();
    assert_eq!(back.iter().map(|p| &p.user_id).collect::<Vec<_>>(), [&host]);
    let nobody = player(&t, "Mina").await;
    assert!(t
        .db
        .game()
        .played_with(&nobody, 10)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        t.db.boards().stats(&host).await.unwrap().matches,
        0,
        "counting is the projector's work"
    );

    // The projector reads the records from the stream; running it twice counts nothing twice.
    let mut projector = Projector::new(t.db.clone(), t.engine.streams.clone());
    assert_eq!(projector.catch_up().await.unwrap().counted, 2);
    assert_eq!(projector.catch_up().await.unwrap().counted, 0);
    let stats = t.db.boards().stats(&host).await.unwrap();
    assert_eq!((stats.matches, stats.wins), (1, 1));
    assert_eq!(stats.lifetime_score, i64::from(mine.items[0].score));
    assert_eq!(t.db.boards().stats(&asha).await.unwrap().wins, 0);

    // The room's board: an entry per player, best first.
    let board = room_board(&t, &code).await;
    assert_eq!(board.len(), 2);
    assert_eq!(board[0].user_id, host);
    assert_eq!((board[0].rank, board[1].rank), (1, 2));
    assert!(board[0].score > board[1].score);
    let first_best = board[0].score;
    assert_eq!(
        t.db.boards().stats(&host).await.unwrap().best_score,
        Some(first_best)
    );

    // Play again: nobody taps; the old rounds are gone, the board keeps the better score.
    let again =
        t.db.game()
            .start_match(&code, &host, Some(SEED + 1))
            .await
            .unwrap();
    assert_eq!(
        again.first_round,
        1 + app::store::keys::ROUND_SLOTS,
        "round numbers go on across matches, a block each"
    );
    assert_eq!(again.rounds.len(), 1);
    let room = t.db.game().room(&code).await.unwrap().unwrap();
    let close = game(&room).closes_at(0).unwrap();
    t.db.game().resolve_due(&room, close).await.unwrap();
    let room = t.db.game().room(&code).await.unwrap().unwrap();
    let second_score = i64::from(game(&room).player(&host).unwrap().score);
    assert_eq!(projector.catch_up().await.unwrap().counted, 2);
    let board = room_board(&t, &code).await;
    let host_best = board.iter().find(|e| e.user_id == host).unwrap().score;
    assert_eq!(host_best, first_best.max(second_score));
    let stats = t.db.boards().stats(&host).await.unwrap();
    assert_eq!(stats.matches, 2);
    assert_eq!(stats.best_score, Some(first_best.max(second_score)));
    let mine = t.db.game().my_matches(&host, 10, None).await.unwrap();
    assert_eq!(mine.items.len(), 2);
    assert_eq!(i64::from(mine.items[0].score), second_score, "newest first");
}

/// Closes every round of the room's match, in order, as the watchers would.
pub(super) async fn close_all(t: &TestTable, code: &RoomCode) -> Room {
    loop {
        let room = t.db.game().room(code).await.unwrap().unwrap();
        let g = game(&room);
        if g.is_finished() {
            return room;
        }
        let close = g.closes_at(g.resolved as usize).unwrap();
        t.db.game().resolve_due(&room, close).await.unwrap();
    }
}

#[tokio::test]
async fn recent_matches_everywhere_are_one_summary_per_match_newest_first_a_page_at_a_time() {
    let t = seeded_table().await;
    // Three matches: two in one room (two players each), one in another (alone).
    let (code, host, _, _) = playing(&t, "GMPAG", 1, &["Asha"]).await;
    close_all(&t, &code).await;
    t.db.game()
        .start_match(&code, &host, Some(SEED))
        .await
        .unwrap();
    close_all(&t, &code).await;
    let (other, _, _, _) = playing(&t, "GMPAH", 1, &[]).await;
    close_all(&t, &other).await;

    t.calls.reset();
    let first = t.db.game().recent_matches(2, None).await.unwrap();
    // One Query (plus, once per process, the cursor secret's read or creation).
    let ops = t.calls.ops();
    assert_eq!(
        ops.iter().filter(|op| **op == "Query").count(),
        1,
        "{ops:?}"
    );
    assert_eq!(first.items.len(), 2);
    let rest =
        t.db.game()
            .recent_matches(2, first.next.as_deref())
            .await
            .unwrap();
    assert_eq!(rest.items.len(), 1, "one summary per match, not per player");
    let all: Vec<_> = first.items.iter().chain(&rest.items).collect();
    assert!(all
        .windows(2)
        .all(|w| w[0].finished_at_ms >= w[1].finished_at_ms));
    let keys: std::collections::HashSet<_> = all
        .iter()
        .map(|m| (m.room.clone(), m.first_round))
        .collect();
    assert_eq!(keys.len(), 3);
    let sizes: Vec<_> = all
        .iter()
        .map(|m| (m.room.to_string(), m.players.len()))
        .collect();
    assert_eq!(
        sizes
            .iter()
            .filter(|(room, n)| room == "GMPAG" && *n == 2)
            .count(),
        2,
        "{sizes:?}"
    );
    assert!(t.db.game().recent_matches(3, Some("forged")).await.is_err());

    // One room's: its two, newest first, one Query; another list's cursor is refused.
    let id = t.db.rooms().room_id_of(&code).await.unwrap();
    t.calls.reset();
    let mine = t.db.game().room_matches(&id, 10, None).await.unwrap();
    assert_eq!(t.calls.ops(), vec!["Query"]);
    assert_eq!(mine.items.len(), 2);
    assert!(mine.items.iter().all(|m| m.room == code));
    assert!(mine.items[0].first_round > mine.items[1].first_round);
    assert!(t
        .db
        .game()
        .room_matches(&id, 1, first.next.as_deref())
        .await
        .is_err());
}

#[tokio::test]
async fn a_finished_match_keeps_every_round_for_good_and_its_page_is_one_query() {
    let t = seeded_table().await;
    let (code, host, others, lobby) = playing(&t, "GMDET", 3, &["Asha", "Ravi"]).await;
    // The host taps every round, Asha the first only, Ravi never.
    for index in 0..3 {
        tap_at(&t.db, &lobby, &host, index, 400, 350).await.unwrap();
    }
    tap_at(&t.db, &lobby, &others[0], 0, 900, 800)
        .await
        .unwrap();
    let room = close_all(&t, &code).await;
    let finished = game(&room).clone();
    let room = t.db.game().room(&code).await.unwrap().unwrap();
    assert_eq!(
        room.state,
        RoomState::Lobby,
        "the last close ended the match"
    );

    let id = t.db.rooms().room_id_of(&code).await.unwrap();
    t.calls.reset();
    let detail =
        t.db.game()
            .match_detail(&id, finished.first_round)
            .await
            .unwrap()
            .expect("the match is kept");
    assert_eq!(t.calls.ops(), vec!["Query"], "the page is one Query");

    // The summary: everyone, best first, as the podium placed them.
    let standings = finished.standings();
    assert_eq!(detail.summary.players.len(), 3);
    for (i, ((place, player), line)) in standings.iter().zip(&detail.summary.players).enumerate() {
        assert_eq!(line.user_id, player.user_id);
        assert_eq!(line.placement, *place);
        assert_eq!(line.score, player.score);
        // The rest is added up from the rounds, as the match added it up.
        let totals = detail.totals(i);
        assert_eq!(totals.correct, player.correct);
        assert_eq!(totals.taps, player.taps);
        assert_eq!(totals.average_reaction_ms, player.average_reaction_ms());
        let outcome = finished
            .outcomes()
            .into_iter()
            .find(|(p, _)| p.user_id == line.user_id)
            .unwrap()
            .1;
        assert_eq!(totals.best_streak, outcome.best_streak);
    }
    assert_eq!(detail.summary.rounds, 3);
    assert_eq!(detail.summary.room, code);

    // Every round: the thing, whether it flies, and each player's play as the results had it,
    // with the run of right calls worked out round by round.
    assert_eq!(detail.rounds.len(), 3);
    let mut runs = [0u32; 3];
    for (round, sheet) in finished.rounds.iter().zip(&detail.rounds) {
        assert_eq!(Some(&sheet.thing), round.thing.as_ref());
        assert_eq!(Some(sheet.flies), round.flies);
        let results = round.results.as_ref().unwrap();
        for ((line, play), run) in detail
            .summary
            .players
            .iter()
            .zip(&sheet.plays)
            .zip(runs.iter_mut())
        {
            let result = results.iter().find(|r| r.user_id == line.user_id).unwrap();
            assert_eq!(play.reaction_ms, result.reaction_ms);
            assert_eq!(play.points, result.points);
            assert_eq!(play.correct, result.correct);
            assert_eq!(play.fastest, result.fastest);
            *run = if result.correct { *run + 1 } else { 0 };
            assert_eq!(play.streak, *run);
        }
    }
    let host_line = detail
        .summary
        .players
        .iter()
        .position(|p| p.user_id == host)
        .unwrap();
    assert!(detail
        .rounds
        .iter()
        .all(|r| r.plays[host_line].reaction_ms == Some(350)));
    let ravi = detail
        .summary
        .players
        .iter()
        .position(|p| p.user_id == others[1])
        .unwrap();
    assert!(detail
        .rounds
        .iter()
        .all(|r| r.plays[ravi].reaction_ms.is_none()));

    // It outlives the room: the next match overwrites the rounds, and the room may expire.
    t.db.game()
        .start_match(&code, &host, Some(SEED + 1))
        .await
        .unwrap();
    let again =
        t.db.game()
            .match_detail(&id, finished.first_round)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(again.summary, detail.summary);
    assert_eq!(again.rounds, detail.rounds);
    // A match not over has no page.
    let playing_now = t.db.game().room(&code).await.unwrap().unwrap();
    assert!(t
        .db
        .game()
        .match_detail(&id, game(&playing_now).first_round)
        .await
        .unwrap()
        .is_none());
    // Ending it again writes the same items: still one summary in the room's list.
    t.db.game()
        .finish_match(&code, &finished, &room)
        .await
        .unwrap();
    let listed = t.db.game().room_matches(&id, 10, None).await.unwrap();
    assert_eq!(listed.items.len(), 1);
    assert_eq!(listed.items[0], detail.summary);
}

#[tokio::test]
async fn a_match_receipt_adds_up_what_every_instance_spent_on_it_once() {
    let t = seeded_table().await;
    // Two instances: each its own handle, open tallies and recorder.
    let (one_calls, two_calls) = (Recorder::new(), Recorder::new());
    // `one` reports nothing until asked: no watcher runs here.
    let one = Db::new(t.engine.client.clone(), t.db.table_name()).recording(one_calls.clone());
    let two = Db::new(
        aws_sdk_dynamodb::Client::from_conf(t.engine.client.config().clone()),
        t.db.table_name(),
    )
    .recording(two_calls.clone());
    let (code, host) = super::room(&t, "GMRCP", settings(2)).await;
    let asha = player(&t, "Asha").await;
    t.db.rooms()
        .join_room(&code, &asha, &name("Asha"), Avatar::Owl)
        .await
        .unwrap();
    // (The start is on the receipt too: the browser test sees it there.)
    t.db.game()
        .start_match(&code, &host, Some(SEED))
        .await
        .unwrap();
    let room = t.db.game().room(&code).await.unwrap().unwrap();
    let first = game(&room).first_round;
    let id = room.id.clone();
    tap_at(
        &one.game().billed_to_match(&code, first),
        &room,
        &host,
        0,
        400,
        380,
    )
    .await
    .unwrap();
    tap_at(
        &two.game().billed_to_match(&code, first),
        &room,
        &asha,
        0,
        500,
        480,
    )
    .await
    .unwrap();
    let late = game(&room).closes_at(1).unwrap();
    let mine = two.game().billed_to_match(&code, first);
    mine.game().resolve_due(&room, late).await.unwrap();
    let room = t.db.game().room(&code).await.unwrap().unwrap();
    mine.game().resolve_due(&room, late).await.unwrap();
    assert_eq!(
        t.db.game().room(&code).await.unwrap().unwrap().state,
        RoomState::Lobby
    );

    // What the two spent on the match, by their own recorders.
    let spent = |calls: &Recorder| {
        calls.calls().iter().fold((0.0, 0.0), |(r, w), c| {
            if app::store::metrics::is_write(c.op) {
                (r, w + c.capacity)
            } else {
                (r + c.capacity, w)
            }
        })
    };
    let (r1, w1) = spent(&one_calls);
    let (r2, w2) = spent(&two_calls);
    assert!(w1 > 0.0 && w2 > 0.0);
    assert_eq!(
        t.db.game().match_receipt(&id, first).await.unwrap(),
        None,
        "nothing reported yet"
    );
    let (one_count, two_count) = (one_calls.count(), two_calls.count());
    let near = |a: f64, b: f64| (a - b).abs() < 0.01;
    // Each report answers with the receipt as added up so far (what the instance tells the
    // others, so that they need not read it).
    let so_far = one
        .game()
        .add_to_receipt(&id, first)
        .await
        .unwrap()
        .expect("a sum");
    assert!(near(so_far.write_units(), w1), "{so_far:?} vs {w1}");
    assert_eq!(so_far.calls as usize, one_count);
    let so_far = two
        .game()
        .add_to_receipt(&id, first)
        .await
        .unwrap()
        .expect("a sum");
    assert!(near(so_far.write_units(), w1 + w2), "{so_far:?}");
    // A second report has nothing left to add.
    assert_eq!(two.game().add_to_receipt(&id, first).await.unwrap(), None);
    assert_eq!(
        two_calls.count(),
        two_count + 1,
        "one report, then nothing to send"
    );
    let receipt =
        t.db.game()
            .match_receipt(&id, first)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(
        receipt, so_far,
        "the last report's answer is the stored receipt"
    );
    assert!(
        near(receipt.write_units(), w1 + w2),
        "{receipt:?} vs {}",
        w1 + w2
    );
    assert!(near(receipt.read_units(), r1 + r2), "{receipt:?}");
    assert_eq!(
        receipt.calls as usize,
        one_count + two_count,
        "every call but the reports themselves"
    );
    let expected =
        app::store::Pricing::default().price(receipt.read_units(), receipt.write_units());
    assert!((receipt.price_usd() - expected).abs() < 1e-8);
    // Each player's match record leads to it.
    let record = t.db.game().my_matches(&asha, 10, None).await.unwrap().items[0].clone();
    assert_eq!(
        t.db.game()
            .match_receipt(&record.room_id(), record.first_round)
            .await
            .unwrap(),
        Some(receipt)
    );
    // The receipt is apart from the room: it outlives it.
    let kept = t.partition(&format!("MATCH#{id}#{first:05}")).await;
    assert_eq!(kept.len(), 3, "the summary, the rounds and the receipt");
}

#[tokio::test]
async fn a_summary_of_eight_players_is_one_write_unit_on_the_table_and_on_each_index() {
    use app::game::{MatchSummary, SummaryPlayer};
    use app::identity::DisplayName;
    let t = seeded_table().await;
    let code = RoomCode::parse("GMSZE").unwrap();
    let summary = MatchSummary {
        room_id: Some(app::rooms::RoomId::generate(&code)),
        room: code,
        first_round: 99_969,
        started_at_ms: 1_795_483_938_410,
        finished_at_ms: 1_795_484_038_410,
        window_ms: 3000,
        rounds: 30,
        players: (0..8u32)
            .map(|i| SummaryPlayer {
                user_id: UserId::parse(&ulid::Ulid::new().to_string()).unwrap(),
                nickname: DisplayName::parse(&format!("Longername{i:02}")).unwrap(),
                avatar: Avatar::Peacock,
                score: -12_345,
                placement: i + 1,
            })
            .collect(),
        deck: None,
    };
    let out = t
        .engine
        .client
        .put_item()
        .table_name(t.db.table_name())
        .set_item(Some(
            app::game::store::detail::summary_item(&summary).unwrap(),
        ))
        .return_consumed_capacity(aws_sdk_dynamodb::types::ReturnConsumedCapacity::Indexes)
        .send()
        .await
        .unwrap();
    let used = out.consumed_capacity.unwrap();
    assert_eq!(
        used.table.as_ref().and_then(|c| c.capacity_units),
        Some(1.0),
        "{used:?}"
    );
    let indexes = used.global_secondary_indexes.unwrap_or_default();
    assert_eq!(indexes.len(), 2, "{indexes:?}");
    assert!(
        indexes.values().all(|c| c.capacity_units == Some(1.0)),
        "{indexes:?}"
    );
}
