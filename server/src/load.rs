//! `udd-server load`: R rooms × P simulated players over HTTP against K server instances that
//! share one engine, as a party of phones would reach them. Loopback only, bounded in count and
//! time.
//!
//! Each player has its own client address (`X-Forwarded-For`, believed from loopback) and
//! session cookie. The host creates the room, the others join it (players of one room are spread
//! over the instances), everyone listens to the room's live stream, and the host starts. On each
//! reveal a player taps after a human-like reaction: nearly always on a flyer, now and then on a
//! thing that does not fly. With `--matches N` each room plays N matches in a row with the same
//! players: every room plays match k, the projector catches up, then match k + 1 starts.
//!
//! It prints tap acknowledgement latency, push latency (reveal and results reaching each
//! listener, against the schedule), taps acknowledged but missing from the results, 5xx
//! answers, each instance's CPU, and the bill: DynamoDB calls and capacity (from each instance's
//! `/healthz/usage`) by kind of work, per player-round and per player-match, and dollars per
//! 1,000 matches at on-demand prices, for the first match (fresh players), the next ones
//! (returning players) and all together.
//!
//! With `--daily N`, N players then fly today's daily over HTTP, and a burst of finished
//! flights is written straight into the table for the projector to count (see [`daily`]); the
//! daily's bill is printed beside the rooms' player-match.

mod args;
mod bill;
mod daily;
mod fleet;
mod lobby;
mod phone;
mod players;
mod recount;
mod soak;
mod tally;
mod watch;

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, ensure, Context};
use app::game::model::Match;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

pub use args::LoadArgs;
use bill::{catch_up_and_say, print_bill, print_deck_beside, print_live_reads, usage, Snapshot};
use fleet::{cpu_seconds, Fleet};
use phone::Shared;
use players::{play_room, RoomPlan};
use tally::{percentile, Tally};

pub async fn run(args: LoadArgs) -> anyhow::Result<()> {
    let table = format!("load-{}", ulid::Ulid::new().to_string().to_lowercase());
    let engine_name = if args.dynamodb.is_some() {
        "DynamoDB Local"
    } else {
        "embedded engine (udd-server engine)"
    };
    let matches = match args.minutes {
        Some(minutes) => format!("match after match for {minutes} min"),
        None => format!("{} match(es)", args.matches),
    };
    println!(
        "load: {} rooms × {} players ({} players), {matches} of {} rounds each, on {} instance(s) sharing the {engine_name}, table {table}",
        args.rooms,
        args.players,
        args.rooms * args.players,
        args.rounds,
        args.instances
    );
    if args.daily > 0 {
        println!(
            "then: {} players fly today's daily over HTTP, and a burst of {} finished flights is \
             written at once for the projector to count",
            args.daily, args.daily_burst
        );
    }
    ensure!(
        args.rooms > 0 || args.daily > 0,
        "nothing to play: --rooms 0 and no --daily"
    );
    ensure!(
        !args.deck || (args.matches >= 2 && args.minutes.is_none()),
        "--deck sets a deck's match beside a returning built-in one: it needs --matches 2 or \
         more, and no --minutes"
    );
    ensure!(
        args.minutes.is_none() || (args.daily == 0 && args.rooms > 0),
        "a soak (--minutes) plays rooms only: no --daily, no --rooms 0"
    );
    let mut fleet = Fleet::start(&args, &table).await?;
    let outcome = match args.minutes {
        // A soak's time is its own, and an hour for what follows it.
        Some(minutes) => {
            tokio::time::timeout(
                Duration::from_secs(u64::from(minutes) * 60 + 3600),
                soak::soak(&args, &mut fleet, minutes),
            )
            .await
        }
        None => {
            tokio::time::timeout(
                Duration::from_secs(args.timeout_secs),
                drive_all(&args, &fleet),
            )
            .await
        }
    };
    fleet.stop().await;
    match outcome {
        Ok(result) => result,
        Err(_) if args.minutes.is_some() => {
            bail!("the soak took more than an hour longer than its --minutes")
        }
        Err(_) => bail!(
            "the run took longer than --timeout-secs {}",
            args.timeout_secs
        ),
    }
}

/// What every simulated phone shares: one pooled client, the tally, the answers' statuses;
/// in a soak, the instances to send a failed request on to.
fn shared(failover: Option<Vec<String>>) -> Arc<Shared> {
    let mut connector = HttpConnector::new();
    connector.set_nodelay(true);
    // A pooled connection is dropped after 60 s idle, well before the server's keep-alive
    // limit (`UDD_KEEP_ALIVE_SECS`, 130 s): the pool never sends into a closing connection.
    let http = Client::builder(TokioExecutor::new())
        .pool_max_idle_per_host(4096)
        .pool_idle_timeout(Duration::from_secs(60))
        .build(connector);
    Arc::new(Shared {
        http,
        tally: Mutex::new(Tally::default()),
        statuses: Mutex::new(BTreeMap::new()),
        requests: AtomicU64::new(0),
        failover,
    })
}

/// The rooms, then the daily: the daily's bill is read from usage snapshotted after the rooms'
/// projector caught up, so the two are apart.
async fn drive_all(args: &LoadArgs, fleet: &Fleet) -> anyhow::Result<()> {
    let rooms = if args.rooms > 0 {
        Some(drive(args, fleet).await?)
    } else {
        None
    };
    if args.daily > 0 {
        daily::run(args, fleet, rooms.as_ref()).await?;
    }
    Ok(())
}

/// Plays the rooms and prints their figures and bill; returns the usage before and after
/// match 1 (fresh players), for the daily's bill to be set beside.
async fn drive(args: &LoadArgs, fleet: &Fleet) -> anyhow::Result<(Snapshot, Snapshot)> {
    let shared = shared(None);
    let bases = Arc::new(fleet.bases.clone());
    let setup = Instant::now();
    // Rooms start spread over one round's period (parties do not all start on the same
    // second), once everyone has joined; each next match likewise.
    let mut rooms = tokio::task::JoinSet::new();
    let mut room_of_task = HashMap::new();
    let spread = Match::period_ms(3000) as u64;
    let (starts_tx, starts_rx) = tokio::sync::watch::channel(None::<(u32, Instant)>);
    let (ready_tx, mut ready_rx) = tokio::sync::mpsc::unbounded_channel();
    let (finished_tx, mut finished_rx) = tokio::sync::mpsc::unbounded_channel();
    let gate = Arc::new(tokio::sync::Semaphore::new(32));
    for room in 0..args.rooms {
        let plan = RoomPlan {
            room,
            players: args.players,
            audience: args.audience,
            rounds: args.rounds,
            matches: args.matches,
            deck: args.deck,
            lobby_changes: args.lobby_changes,
            seed: args.seed,
            gate: Arc::clone(&gate),
            ready: ready_tx.clone(),
            starts: starts_rx.clone(),
            offset: Duration::from_millis(spread * u64::from(room) / u64::from(args.rooms)),
            finished: finished_tx.clone(),
        };
        let task = rooms.spawn(play_room(Arc::clone(&shared), Arc::clone(&bases), plan));
        room_of_task.insert(task.id(), room as usize);
    }
    drop(ready_tx);
    drop(finished_tx);
    for _ in 0..args.rooms {
        ready_rx.recv().await.context("a room vanished")?;
    }
    println!(
        "setup: {} players joined and listening in {:.1} s",
        args.rooms * args.players,
        setup.elapsed().as_secs_f64()
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    let pids = fleet.pids();
    let mut cpu_used = vec![0.0; pids.len()];
    let mut wall = 0.0;
    let mut snapshots = vec![Snapshot::new(&shared, usage(&fleet.bases).await?)];
    // Matches each room has finished, and the rooms that failed.
    let mut finished = vec![0u32; args.rooms as usize];
    let mut failed = vec![false; args.rooms as usize];
    let mut failures = 0;
    let mut room_ended =
        |done: Result<(tokio::task::Id, anyhow::Result<()>), tokio::task::JoinError>,
         failed: &mut Vec<bool>| {
            let (id, outcome) = match done {
                Ok((id, outcome)) => (id, outcome),
                Err(err) => (err.id(), Err(anyhow::Error::from(err))),
            };
            if let Err(err) = outcome {
                failures += 1;
                if let Some(&room) = room_of_task.get(&id) {
                    failed[room] = true;
                }
                eprintln!("a room failed: {err:#}");
            }
        };
    // With `--deck`, one more match: the rooms' decks.
    let total = args.matches + u32::from(args.deck);
    for k in 0..total {
        let cpu_before: Vec<f64> = pids.iter().map(|&pid| cpu_seconds(pid)).collect();
        let started = Instant::now();
        starts_tx.send_replace(Some((k, Instant::now() + Duration::from_millis(500))));
        // Every room finishes match k (or fails) before anything else.
        while !finished
            .iter()
            .zip(&failed)
            .all(|(&done, &failed)| failed || done > k)
        {
            tokio::select! {
                Some((room, m)) = finished_rx.recv() => finished[room as usize] = m + 1,
                Some(done) = rooms.join_next_with_id() => room_ended(done, &mut failed),
                else => break,
            }
        }
        let played = started.elapsed().as_secs_f64();
        wall += played;
        for (used, (&pid, before)) in cpu_used.iter_mut().zip(pids.iter().zip(&cpu_before)) {
            *used += cpu_seconds(pid) - before;
        }
        // The boards' projector counts the match in the measured window, not after it.
        let match_k = match k == args.matches {
            true => format!("match {} (the rooms' decks)", k + 1),
            false => format!("match {}", k + 1),
        };
        let figures = catch_up_and_say(&fleet.bases, &match_k, "room done", played).await?;
        snapshots.push(Snapshot::new(&shared, figures));
    }
    // The bill is read: the rooms check their audience's seats (reads outside the bill), then end.
    starts_tx.send_replace(Some((total, Instant::now())));
    // The rooms end after their last match.
    while let Some(done) = rooms.join_next_with_id().await {
        room_ended(done, &mut failed);
    }

    let mut tally = std::mem::take(&mut *shared.tally());
    let statuses = shared.statuses();
    println!(
        "played: {} matches ({} a room), {} player-matches, {} player-rounds in {wall:.1} s of play; {} rooms failed; {} players never saw a match end",
        tally.matches, total, tally.player_matches, tally.player_rounds, failures, tally.unfinished
    );
    println!(
        "taps: {} sent, {} acknowledged, refused {:?}",
        tally.tap_ack_ms.len(),
        tally.acked,
        tally.refused_taps
    );
    println!(
        "tap ack      p50 {:7.1} ms  p95 {:7.1} ms  p99 {:7.1} ms  max {:7.1} ms   (target p99 <= 100 ms)",
        percentile(&mut tally.tap_ack_ms, 0.50),
        percentile(&mut tally.tap_ack_ms, 0.95),
        percentile(&mut tally.tap_ack_ms, 0.99),
        percentile(&mut tally.tap_ack_ms, 1.0),
    );
    println!(
        "reveal push  p50 {:7.1} ms  p95 {:7.1} ms  max {:7.1} ms   (after the scheduled reveal; target p95 <= 300 ms)",
        percentile(&mut tally.reveal_push_ms, 0.50),
        percentile(&mut tally.reveal_push_ms, 0.95),
        percentile(&mut tally.reveal_push_ms, 1.0),
    );
    println!(
        "results push p50 {:7.1} ms  p95 {:7.1} ms  max {:7.1} ms   (after the round closed; target p95 <= 300 ms)",
        percentile(&mut tally.results_push_ms, 0.50),
        percentile(&mut tally.results_push_ms, 0.95),
        percentile(&mut tally.results_push_ms, 1.0),
    );
    println!(
        "lobby change, its answer to a listener on another instance seeing it: p50 {:7.1} ms  p95 {:7.1} ms  p99 {:7.1} ms  ({} seen; target p95 <= 300 ms)",
        percentile(&mut tally.lobby_cross_ms, 0.50),
        percentile(&mut tally.lobby_cross_ms, 0.95),
        percentile(&mut tally.lobby_cross_ms, 0.99),
        tally.lobby_cross_ms.len(),
    );
    println!(
        "lobby change, on the same instance:                                 p50 {:7.1} ms  p95 {:7.1} ms  p99 {:7.1} ms  ({} seen; {} listeners never saw a change in 5 s)",
        percentile(&mut tally.lobby_same_ms, 0.50),
        percentile(&mut tally.lobby_same_ms, 0.95),
        percentile(&mut tally.lobby_same_ms, 0.99),
        tally.lobby_same_ms.len(),
        tally.lobby_missed,
    );
    for (kind, samples) in ["settings", "join", "kick"]
        .iter()
        .zip(tally.lobby_answer_ms.iter_mut())
    {
        println!(
            "lobby change, sent to answered ({kind:>8}): p50 {:7.1} ms  p95 {:7.1} ms  ({} changes)",
            percentile(samples, 0.50),
            percentile(samples, 0.95),
            samples.len(),
        );
    }
    println!(
        "acknowledged taps missing from the results: {}   HTTP 5xx: {}   answers {:?}",
        tally.lost, tally.server_errors, statuses
    );
    if args.audience > 0 {
        println!(
            "audience: {} calls acknowledged, {} missing from their seats, {} audience-rounds",
            tally.audience_acked, tally.audience_lost, tally.audience_rounds
        );
    }
    for (i, used) in cpu_used.iter().enumerate() {
        println!(
            "instance {i}: {used:.1} CPU s in {wall:.1} s of play ({:.0}% of one core)",
            100.0 * used / wall
        );
    }
    let pricing = args.pricing();
    println!(
        "DynamoDB, all instances, from the first start to the projector caught up after each \
         match; capacity as the engine reports it, refused writes as AWS bills them; dollars on \
         demand at ${} per million read and ${} per million write units",
        pricing.read_per_million, pricing.write_per_million
    );
    // The built-in matches' last snapshot (a deck's match comes after them).
    let (first, after_one, last) = (
        &snapshots[0],
        &snapshots[1],
        &snapshots[args.matches as usize],
    );
    print_bill(
        "match 1 (fresh players: everyone new on every board)",
        first,
        after_one,
        pricing,
    );
    if args.matches > 1 {
        print_bill(
            &format!("matches 2-{} (returning players)", args.matches),
            after_one,
            last,
            pricing,
        );
        print_bill("all matches", first, last, pricing);
    }
    if args.deck {
        let before_last = &snapshots[args.matches as usize - 1];
        let deck = &snapshots[snapshots.len() - 1];
        print_bill(
            "the rooms' decks: one match each (returning players)",
            last,
            deck,
            pricing,
        );
        print_deck_beside((before_last, last), (last, deck), &tally.starts, pricing);
    }
    println!(
        "  (requests: players' requests; watchers: each instance's room watchers (polls, reads, \
         closes, away hosts' hand-overs); receipts: the match receipts' adds and reads; streams: \
         counting open live streams, by time not rounds; peers: the instances announcing themselves \
         to each other, by time not rounds; projector: counting matches on the boards (entries, counters, markers, the reads), trees: the boards' counting trees, rewards: the inventory's rewards; \
         RefusedWrite: writes refused by their condition, 1 WCU each, 2 per action of a \
         cancelled transaction)"
    );
    print_live_reads(first, last, args.rooms);
    ensure!(failures == 0, "{failures} rooms failed");
    Ok((first.clone(), after_one.clone()))
}
