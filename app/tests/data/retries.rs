//! Retries kept apart (`http::engine::retries`): the board projector's client, its every write
//! throttled until its retry bucket is dry, while a match is played through the players'
//! client, which meets a throttle now and then as any busy table does. Every tap is counted and
//! answered, the players' retries are never refused, and once the throttling stops the
//! projector counts the match. On both local engines (the throttling is injected at the SDK).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use app::http::engine::retries::{apart, on_partition, Partition, RetryCounts};
use app::leaderboards::projector::Projector;
use app::leaderboards::store::lines::Start;
use app::leaderboards::BoardId;
use app::store::Db;

use super::faults::{throttle_while, WRITES};
use super::game::{close_all, game, playing, tap_at};
use super::{seeded_table, TestTable};

/// Every tap write's every third attempt is throttled: a busy table's now and then.
const PLAYERS_THROTTLE_EVERY: u64 = 3;
/// Registry writes hammering the background client at once.
const BACKGROUND_LOOPS: usize = 24;

struct Played {
    /// Each tap: `Ok` or what the player would have been told.
    taps: Vec<Result<(), String>>,
    players: RetryCounts,
    background: RetryCounts,
}

/// Plays a match of four (five rounds) through the players' client while the projector's
/// client runs dry; `shared`: both clients on one retry partition, as before they were apart.
async fn play_while_the_background_runs_dry(t: &TestTable, code: &str, shared: bool) -> Played {
    let (code, host, ids, room) = playing(t, code, 5, &["Asha", "Ravi", "Mina"]).await;
    let faulting = Arc::new(AtomicBool::new(true));
    let (players, _) = throttle_while(
        &t.engine.client,
        &["UpdateItem"],
        PLAYERS_THROTTLE_EVERY,
        faulting.clone(),
    );
    let (background, _) = throttle_while(&t.engine.client, WRITES, 1, faulting.clone());
    let ((players, player_retries), (background, background_retries)) = if shared {
        let one = aws_sdk_dynamodb::config::retry::RetryPartition::new(format!(
            "shared-{}",
            ulid::Ulid::new()
        ));
        (
            on_partition(&players, one.clone(), "players"),
            on_partition(&background, one, "background"),
        )
    } else {
        (
            apart(&players, Partition::Players),
            apart(&background, Partition::Background),
        )
    };
    let players = Db::new(players, t.db.table_name());
    let background = Db::new(background, t.db.table_name());

    // The background: the projector's passes and the instances' registry, all throttled.
    let running = Arc::new(AtomicBool::new(true));
    let mut work = tokio::task::JoinSet::new();
    for i in 0..BACKGROUND_LOOPS {
        let (db, running) = (background.clone(), running.clone());
        work.spawn(async move {
            while running.load(Ordering::SeqCst) {
                let _ = db
                    .live()
                    .announce_instance(&format!("i{i}"), "http://10.0.0.1:3000")
                    .await;
            }
        });
    }
    {
        let (db, streams, running) = (
            background.clone(),
            t.engine.streams.clone(),
            running.clone(),
        );
        work.spawn(async move {
            let mut projector = Projector::new(db, streams);
            while running.load(Ordering::SeqCst) {
                let _ = projector.pass().await;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        });
    }
    // Until the background's retries are refused: its bucket is dry.
    for _ in 0..600 {
        if background_retries.refused() > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        background_retries.refused() > 0,
        "the background's bucket ran dry: {} retries taken",
        background_retries.taken()
    );

    // The match, meanwhile: everyone taps every round.
    let mut taps = Vec::new();
    for index in 0..game(&room).rounds.len() {
        for (i, user) in std::iter::once(&host).chain(&ids).enumerate() {
            let after = 300 + 40 * i as i64;
            let tapped = tap_at(&players, &room, user, index, after, after as u32 - 20).await;
            taps.push(tapped.map(|_| ()).map_err(|err| format!("{err:?}")));
        }
    }
    running.store(false, Ordering::SeqCst);
    while work.join_next().await.is_some() {}
    faulting.store(false, Ordering::SeqCst);
    close_all(t, &code).await;

    // The faults over, the projector on the same client catches up.
    let mut projector = Projector::new(background.clone(), t.engine.streams.clone());
    projector
        .catch_up()
        .await
        .expect("the projector catches up");
    Played {
        taps,
        players: player_retries,
        background: background_retries,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_projector_whose_retries_run_dry_leaves_every_tap_its_retries_and_counts_the_match_after()
{
    let t = seeded_table().await;
    let played = play_while_the_background_runs_dry(&t, "RETRY", false).await;
    let failed: Vec<_> = played.taps.iter().filter(|t| t.is_err()).collect();
    assert!(failed.is_empty(), "every tap answered: {failed:?}");
    assert_eq!(played.taps.len(), 20);
    assert!(
        played.players.taken() > 0,
        "the players' throttled taps were retried"
    );
    assert_eq!(
        played.players.refused(),
        0,
        "no retry of the players' was refused"
    );
    assert!(played.background.refused() > 0);

    // Every tap is in the match: each player tapped all five rounds.
    let code = app::rooms::RoomCode::parse("RETRY").unwrap();
    let room = t.db.game().room(&code).await.unwrap().unwrap();
    let finished = game(&room);
    assert!(finished.is_finished());
    for player in &finished.players {
        assert_eq!(player.taps, 5, "{}: {player:?}", player.nickname);
    }
    // The room's board counts the match: every player, with the match's score.
    let room_id = t.db.rooms().room_id_of(&code).await.unwrap();
    let board =
        t.db.boards()
            .board_lines(&BoardId::room_best(&room_id), Start::Top, 10)
            .await
            .unwrap()
            .unwrap()
            .lines;
    assert_eq!(board.len(), 4, "{board:?}");
    for player in &finished.players {
        let line = board
            .iter()
            .find(|l| l.user_id == player.user_id)
            .expect("on the board");
        assert_eq!(line.score, i64::from(player.score));
    }
}
