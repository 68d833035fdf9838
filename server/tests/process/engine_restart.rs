//! The engine stops mid-match and comes back: `udd-server engine` (the embedded engine, alone,
//! file-backed) is SIGKILLed while a server instance runs a match of three players, and started
//! again on the same port and data a few seconds later. Meanwhile every page, server function,
//! live stream and the health probe answer 503 (never 500); afterwards the instance recovers by
//! itself, the match finishes, every acknowledged tap is in the results, every round is closed
//! once, each player has one match record, and the boards count the match once.

use crate::support;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use app::game::model::Match;
use app::identity::UserId;
use app::rooms::{RoomCode, RoomState};
use app::store::{epoch_millis, Db};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use support::{engine, free_port, instance, wait_for_port, Http, Phone};

const ROUNDS: u32 = 8;
const KILL_IN_ROUND: u32 = 3;
const DOWN_FOR: Duration = Duration::from_secs(8);

/// A tap the instance answered: which round, the status and whether it counted.
#[derive(Debug, Clone)]
struct Tap {
    player: usize,
    round: u32,
    status: u16,
    counted: bool,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_stopping_mid_match_is_a_503_then_the_match_finishes_with_nothing_lost_or_half_written(
) {
    let store = tempfile::tempdir().unwrap();
    let key = ulid::Ulid::new().to_string();
    let (engine_port, port) = (free_port(), free_port());
    let endpoint = format!("http://127.0.0.1:{engine_port}");
    let mut running_engine = engine(engine_port, store.path(), &key);
    wait_for_port(engine_port).await;
    let _instance = instance(port, &endpoint, &key, &[]);
    let http: Http = Client::builder(TokioExecutor::new()).build_http();
    let base = format!("http://127.0.0.1:{port}");
    let mut probe = Phone::new(&http, &base, "10.9.0.99");
    let mut healthy = false;
    for _ in 0..600 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_ok()
            && probe.get("/healthz").await.0 == 200
        {
            healthy = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(healthy, "the instance came up");

    // A room of three; the host starts a match.
    let mut phones: Vec<Phone> = (1..=3)
        .map(|i| Phone::new(&http, &base, &format!("10.9.0.{i}")))
        .collect();
    let code = support::room_of(&mut phones, &["Host", "Asha", "Ravi"], ROUNDS).await;
    let (status, body) = phones[0]
        .post("/api/rooms/start", &format!("code={code}&seed=5"))
        .await;
    assert_eq!(status, 200, "{body}");

    // Everyone taps every round they see, 150-450 ms after they see it; the host's phone
    // watches the room (as its page would) and the engine is killed in round KILL_IN_ROUND.
    let mut taps = tokio::task::JoinSet::new();
    let mut tapped = std::collections::HashSet::new();
    let mut statuses: BTreeMap<u16, u32> = BTreeMap::new();
    let mut down: Option<Instant> = None;
    let mut down_answers: Vec<(String, u16)> = Vec::new();
    let mut restarted: Option<Instant> = None;
    let mut recovered_after: Option<Duration> = None;
    let deadline = Instant::now() + Duration::from_secs(120);
    let finished: Match = loop {
        assert!(Instant::now() < deadline, "the match never finished");
        let seen = phones[0].room(&code).await;
        *statuses
            .entry(seen.as_ref().err().copied().unwrap_or(200))
            .or_default() += 1;
        if let Ok(data) = &seen {
            if let (Some(at), None) = (restarted, recovered_after) {
                recovered_after = Some(at.elapsed());
            }
            let game = data.room.game.clone().expect("a match");
            if data.room.state != RoomState::Playing && game.is_finished() {
                break game;
            }
            for round in game.rounds.iter().filter(|r| r.thing.is_some()) {
                let n = round.n - game.first_round + 1;
                if round.closed_at_ms.is_some() || !tapped.insert(n) {
                    continue;
                }
                for (player, phone) in phones.iter().enumerate() {
                    let mut phone = phone.clone();
                    let form = format!(
                        "code={code}&round={}&reveal_ms={}&window_ms={}&reaction_ms={}",
                        round.n,
                        round.reveal_ms,
                        game.window_ms,
                        (epoch_millis() - round.reveal_ms + 300).max(300)
                    );
                    let wait = Duration::from_millis(150 + 150 * player as u64);
                    taps.spawn(async move {
                        tokio::time::sleep(wait).await;
                        let (status, body) = phone.post("/api/rooms/tap", &form).await;
                        let counted = status == 200
                            && serde_json::from_str::<serde_json::Value>(&body)
                                .is_ok_and(|v| v["first"] == true);
                        Tap {
                            player,
                            round: n,
                            status,
                            counted,
                        }
                    });
                }
                if n == KILL_IN_ROUND && down.is_none() {
                    tokio::time::sleep(Duration::from_millis(300)).await;
                    running_engine.start_kill().unwrap();
                    running_engine.wait().await.unwrap();
                    down = Some(Instant::now());
                    // While it is down: pages, server functions, the live stream and the
                    // health probe all say "unavailable", none "internal error".
                    let mut newcomer = Phone::new(&http, &base, "10.9.0.50");
                    let current = format!(
                        "code={code}&round={}&reveal_ms={}&window_ms={}&reaction_ms=400",
                        round.n, round.reveal_ms, game.window_ms
                    );
                    let (mut reader, mut watcher) = (phones[0].clone(), phones[0].clone());
                    let mut tapper = phones[1].clone();
                    let (mut joiner, mut guest) = (newcomer.clone(), newcomer.clone());
                    let mut health = probe.clone();
                    let page = format!("/r/{code}");
                    let events = format!("/r/{code}/events");
                    let join = format!("code={code}&name=Late");
                    let answers = tokio::join!(
                        health.get("/healthz"),
                        reader.get(&page),
                        newcomer.get(&events),
                        watcher.room(&code),
                        tapper.post("/api/rooms/tap", &current),
                        joiner.post("/api/rooms/join", &join),
                        guest.post("/api/guest", "name=Late"),
                    );
                    down_answers.extend([
                        ("GET /healthz".to_owned(), answers.0 .0),
                        ("GET /r/CODE".to_owned(), answers.1 .0),
                        ("GET /r/CODE/events".to_owned(), answers.2 .0),
                        (
                            "POST /api/rooms/lobby".to_owned(),
                            answers.3.err().unwrap_or(200),
                        ),
                        ("POST /api/rooms/tap".to_owned(), answers.4 .0),
                        ("POST /api/rooms/join".to_owned(), answers.5 .0),
                        ("POST /api/guest".to_owned(), answers.6 .0),
                    ]);
                    let left = DOWN_FOR.saturating_sub(down.unwrap().elapsed());
                    tokio::time::sleep(left).await;
                    running_engine = engine(engine_port, store.path(), &key);
                    wait_for_port(engine_port).await;
                    restarted = Some(Instant::now());
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let taps: Vec<Tap> = taps.join_all().await;
    eprintln!(
        "while the engine was down: {down_answers:?}; the room's reads answered {statuses:?}; \
         the room read again {recovered_after:?} after the engine was back; taps: {} answered, {} counted",
        taps.len(),
        taps.iter().filter(|t| t.counted).count()
    );
    assert!(down.is_some(), "the engine was killed mid-match");
    for (what, status) in &down_answers {
        assert_eq!(*status, 503, "{what} while the engine was down");
    }
    assert!(
        statuses.keys().all(|s| *s == 200 || *s == 503),
        "only 200 and 503 from the room: {statuses:?}"
    );
    assert!(
        taps.iter().all(|t| t.status < 500 || t.status == 503),
        "no tap was answered 500: {taps:?}"
    );
    let recovered = recovered_after.expect("the instance recovered by itself");
    assert!(recovered < Duration::from_secs(20), "{recovered:?}");
    assert_eq!(probe.get("/healthz").await.0, 200);

    // The match as the table keeps it: every round closed once with every player's result,
    // every acknowledged tap in it, each score the sum of its rounds.
    let db = Db::new(
        app::http::engine::endpoint_client_with_key(&endpoint, &key).await,
        "udd",
    );
    let room_code = RoomCode::parse(&code).unwrap();
    let room = db.game().room(&room_code).await.unwrap().unwrap();
    assert_eq!(room.state, RoomState::Lobby, "back in the lobby");
    let game = room.game.expect("the match");
    // The page leaves out the table's bookkeeping (counts, close times): compare what it shows.
    assert_eq!(
        game.players, finished.players,
        "the table and the page agree"
    );
    let results = |g: &Match| {
        g.rounds
            .iter()
            .map(|r| r.results.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        results(&game),
        results(&finished),
        "the table and the page agree"
    );
    assert_eq!(game.resolved, ROUNDS, "no round skipped");
    let players: Vec<UserId> = game.players.iter().map(|p| p.user_id.clone()).collect();
    assert_eq!(players.len(), 3);
    for round in &game.rounds {
        assert!(round.closed_at_ms.is_some(), "round {} closed", round.n);
        let results = round.results.as_ref().expect("results");
        let mut ids: Vec<_> = results.iter().map(|r| r.user_id.clone()).collect();
        ids.sort();
        let mut expected = players.clone();
        expected.sort();
        assert_eq!(ids, expected, "round {}: one result per player", round.n);
    }
    let id_of = |player: usize| {
        let nickname = ["Host", "Asha", "Ravi"][player];
        game.players
            .iter()
            .find(|p| p.nickname.as_str() == nickname)
            .unwrap()
            .user_id
            .clone()
    };
    for tap in taps.iter().filter(|t| t.counted) {
        let round = &game.rounds[(tap.round - 1) as usize];
        let result = round
            .results
            .as_ref()
            .unwrap()
            .iter()
            .find(|r| r.user_id == id_of(tap.player))
            .unwrap();
        assert!(
            result.reaction_ms.is_some(),
            "an acknowledged tap is in the results: {tap:?}"
        );
    }
    assert!(
        taps.iter()
            .any(|t| t.counted && t.round > KILL_IN_ROUND + 1),
        "taps counted after the engine came back: {taps:?}"
    );
    for player in &game.players {
        let sum: i32 = game
            .rounds
            .iter()
            .flat_map(|r| r.results.iter().flatten())
            .filter(|r| r.user_id == player.user_id)
            .map(|r| r.points)
            .sum();
        assert_eq!(
            player.score,
            sum,
            "{}'s score is the sum of their rounds",
            player.nickname.as_str()
        );
    }

    // One match record per player, and the boards count it once (the projector, reading the
    // restarted engine's stream, catches up by itself).
    for player in &game.players {
        let records = db
            .game()
            .my_matches(&player.user_id, 10, None)
            .await
            .unwrap();
        assert_eq!(
            records.items.len(),
            1,
            "one record for {}",
            player.nickname.as_str()
        );
        assert_eq!(records.items[0].score, player.score);
    }
    let counted = Instant::now() + Duration::from_secs(30);
    for player in &game.players {
        loop {
            let boards = db.boards().my_boards(&player.user_id, 20).await.unwrap();
            let totals: Vec<u64> = boards
                .iter()
                .map(|b| b.line.matches)
                .filter(|m| *m > 0)
                .collect();
            if !totals.is_empty() {
                assert!(
                    totals.iter().all(|m| *m == 1),
                    "{}'s match counted once on every board: {totals:?}",
                    player.nickname.as_str()
                );
                break;
            }
            assert!(
                Instant::now() < counted,
                "the boards never counted {}'s match",
                player.nickname.as_str()
            );
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }
}
