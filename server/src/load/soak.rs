//! `udd-server load --minutes N`: the soak. Rooms play match after match for N minutes, a
//! player leaving and another joining between matches; every `--deploy-every-mins` one instance
//! is replaced as a rolling deploy replaces a task (SIGTERM, drain, a new one on its port), and
//! once (`--kill-at-mins`) one is killed (SIGKILL) while rounds are in play. Phones do what
//! browsers behind a load balancer do: a request whose connection failed goes to the next
//! instance, a cut live stream is opened again.
//!
//! Every `--report-every-mins` it prints the taps acknowledged in the window and their p99, the
//! projector's lag (from the instances' `udd_projector_lag_seconds`), each instance's resident
//! memory and open live streams. At the end: acknowledged taps missing from the results, the
//! boards, counters and wallets recounted from the kept match records against what the
//! projector wrote, and each instance's memory growth after its first minutes.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, ensure, Context};
use app::catalog::seed::SEED;
use rand::SeedableRng;

use super::bill::projector_catch_up;
use super::fleet::{Fleet, Stop};
use super::phone::{Phone, Player, Shared};
use super::players::{spawn_match, Ready};
use super::recount::recount;
use super::tally::percentile;
use super::watch::{clock, memory, report, sample, Life, SAMPLE};
use super::LoadArgs;

pub(super) async fn soak(args: &LoadArgs, fleet: &mut Fleet, minutes: u32) -> anyhow::Result<()> {
    let shared = super::shared(Some(fleet.bases.clone()));
    let bases = Arc::new(fleet.bases.clone());
    let total = Duration::from_secs(u64::from(minutes) * 60);
    let deploy_every = Duration::from_secs(u64::from(args.deploy_every_mins) * 60);
    let kill_at =
        Duration::from_secs(60 * u64::from(args.kill_at_mins.unwrap_or(minutes * 35 / 60).max(1)));
    let report_every = Duration::from_secs(u64::from(args.report_every_mins) * 60);
    let events = schedule(total, deploy_every, kill_at, fleet.bases.len());
    println!(
        "soak: {minutes} min; deploys at {} min; a SIGKILL at {} min; a report every {} min",
        events
            .iter()
            .filter(|(_, _, stop)| *stop == Stop::Term)
            .map(|(at, ..)| (at.as_secs() / 60).to_string())
            .collect::<Vec<_>>()
            .join(", "),
        kill_at.as_secs() / 60,
        args.report_every_mins,
    );

    let gate = Arc::new(tokio::sync::Semaphore::new(32));
    let (ready_tx, mut ready_rx) = tokio::sync::mpsc::unbounded_channel::<()>();
    let (go_tx, go_rx) = tokio::sync::watch::channel(None::<Instant>);
    let in_match = Arc::new(AtomicU32::new(0));
    let spread = app::game::model::Match::period_ms(3000) as u64;
    let mut rooms = tokio::task::JoinSet::new();
    for room in 0..args.rooms {
        rooms.spawn(soak_room(
            Arc::clone(&shared),
            Arc::clone(&bases),
            RoomSoak {
                room,
                players: args.players,
                rounds: args.rounds,
                seed: args.seed,
                gate: Arc::clone(&gate),
                ready: ready_tx.clone(),
                go: go_rx.clone(),
                offset: Duration::from_millis(spread * u64::from(room) / u64::from(args.rooms)),
                total,
                in_match: Arc::clone(&in_match),
            },
        ));
    }
    drop(ready_tx);
    for _ in 0..args.rooms {
        ready_rx.recv().await.context("a room vanished")?;
    }
    let t0 = Instant::now();
    go_tx.send_replace(Some(t0));
    println!(
        "setup: {} players joined and listening; the clock starts",
        args.rooms * args.players
    );

    let mut lives: Vec<Life> = (0..fleet.bases.len())
        .map(|i| Life::new(i, fleet.pid(i).unwrap_or_default(), Duration::ZERO))
        .collect();
    let mut current: Vec<usize> = (0..fleet.bases.len()).collect();
    let mut failures = 0u32;
    let mut matches_reported = 0u64;
    let mut next_sample = SAMPLE;
    let mut next_report = report_every;
    let mut events = events.into_iter().peekable();
    let mut marks: Vec<String> = Vec::new();
    // The instances' memory together at each report: (time, kB).
    let mut together: Vec<(Duration, u64)> = Vec::new();
    loop {
        let next_event = events.peek().map_or(total, |(at, ..)| *at);
        let next = next_sample.min(next_report).min(next_event).min(total);
        tokio::select! {
            done = rooms.join_next() => match done {
                Some(outcome) => {
                    if let Some(err) = room_failed(outcome) {
                        failures += 1;
                        eprintln!("[{}] a room failed: {err:#}", clock(t0.elapsed()));
                    }
                    continue;
                }
                None => break,
            },
            () = tokio::time::sleep_until((t0 + next).into()) => {}
        }
        let now = t0.elapsed();
        if now >= next_sample {
            for &l in &current {
                sample(&mut lives[l], fleet, now).await;
            }
            next_sample += SAMPLE;
        }
        // A report due at the moment of a deploy describes the fleet before it.
        if now >= next_report {
            for &l in &current {
                sample(&mut lives[l], fleet, now).await;
            }
            let matches = shared.tally().matches;
            let kb = report(
                &shared,
                fleet,
                &mut lives,
                &current,
                now,
                matches - matches_reported,
            )
            .await;
            together.push((now, kb));
            matches_reported = matches;
            next_report += report_every;
        }
        if now >= next_event && now < total {
            let (_, i, stop) = events.next().context("an event")?;
            let playing = in_match.load(Ordering::Relaxed);
            sample(&mut lives[current[i]], fleet, now).await;
            let (stopped, started) = fleet
                .replace(i, stop)
                .await
                .with_context(|| format!("replacing instance {i}"))?;
            let at = t0.elapsed();
            lives[current[i]].ended = Some(at);
            lives.push(Life::new(i, fleet.pid(i).unwrap_or_default(), at));
            current[i] = lives.len() - 1;
            let mark = match stop {
                Stop::Term => format!(
                    "[{}] deploy: instance {i} told to stop (SIGTERM) with {playing} rooms in a \
                     match; it drained and exited in {:.2} s; its successor answered healthy \
                     {:.1} s later",
                    clock(now),
                    stopped.as_secs_f64(),
                    started.as_secs_f64()
                ),
                Stop::Kill => format!(
                    "[{}] kill: instance {i} killed (SIGKILL) with {playing} rooms in a match; \
                     its successor answered healthy {:.1} s later",
                    clock(now),
                    started.as_secs_f64()
                ),
            };
            println!("{mark}");
            marks.push(mark);
        }
        if now >= total {
            // No room starts another match; each ends its own.
            break;
        }
    }
    println!(
        "[{}] time: no room starts another match; waiting for the matches in play",
        clock(t0.elapsed())
    );
    while let Some(outcome) = rooms.join_next().await {
        if let Some(err) = room_failed(outcome) {
            failures += 1;
            eprintln!("[{}] a room failed: {err:#}", clock(t0.elapsed()));
        }
    }
    let ended = t0.elapsed();
    for &l in &current {
        sample(&mut lives[l], fleet, ended).await;
        lives[l].ended = Some(ended);
    }
    let (_, caught_up, settled) = projector_catch_up(&fleet.bases).await?;
    println!(
        "[{}] every match over; the projector caught up {:.1} s after{}",
        clock(ended),
        caught_up.as_secs_f64(),
        if settled { "" } else { " (still writing)" }
    );

    let mut tally = std::mem::take(&mut *shared.tally());
    let statuses = shared.statuses();
    println!(
        "played: {} matches, {} player-matches, {} player-rounds; {failures} rooms failed; {} \
         players never saw a match end",
        tally.matches, tally.player_matches, tally.player_rounds, tally.unfinished
    );
    println!(
        "taps: {} sent, {} acknowledged, refused {:?}; tap ack p50 {:.1} ms p99 {:.1} ms max {:.1} ms",
        tally.tap_ack_ms.len(),
        tally.acked,
        tally.refused_taps,
        percentile(&mut tally.tap_ack_ms, 0.50),
        percentile(&mut tally.tap_ack_ms, 0.99),
        percentile(&mut tally.tap_ack_ms, 1.0),
    );
    println!(
        "acknowledged taps missing from the results: {}   HTTP 5xx: {}   requests sent again \
         elsewhere: {}   live streams reopened: {}   answers {:?}",
        tally.lost, tally.server_errors, tally.resent, tally.reopened, statuses
    );
    for mark in &marks {
        println!("  {mark}");
    }
    let settle = Duration::from_secs(600).min(total / 6);
    let growth = memory(&lives, settle, &together);
    let seen: Vec<_> = tally.finished_by.values().cloned().collect();
    let (endpoint, key, table) = fleet.engine_access();
    let counted = recount(endpoint, key, table, &seen).await?;
    counted.print();
    ensure!(failures == 0, "{failures} rooms failed");
    ensure!(tally.lost == 0, "{} acknowledged taps lost", tally.lost);
    ensure!(
        tally.server_errors == 0,
        "{} 5xx answers",
        tally.server_errors
    );
    ensure!(
        counted.mismatches.is_empty(),
        "the recount differs from the projector's"
    );
    ensure!(
        growth <= 0.10,
        "the instances' memory grew {:.0} % after the first {}: more than 10 %",
        growth * 100.0,
        clock(settle)
    );
    Ok(())
}

/// When each instance is stopped, and how: a deploy (SIGTERM) at every multiple of
/// `deploy_every` before the end, the instances in turn, and one kill (SIGKILL) at `kill_at` of
/// the instance the first deploy replaced (the one that has run longest since a deploy).
fn schedule(
    total: Duration,
    deploy_every: Duration,
    kill_at: Duration,
    instances: usize,
) -> Vec<(Duration, usize, Stop)> {
    let mut events: Vec<(Duration, usize, Stop)> = (1..)
        .map(|k| deploy_every * k)
        .take_while(|at| *at < total)
        .enumerate()
        .map(|(k, at)| (at, k % instances, Stop::Term))
        .collect();
    if kill_at < total {
        events.push((kill_at, 0, Stop::Kill));
    }
    events.sort_by_key(|(at, ..)| *at);
    events
}

/// One room's soak: its players, and the signals it shares with the driver.
struct RoomSoak {
    room: u32,
    players: u32,
    rounds: u8,
    seed: u64,
    gate: Arc<tokio::sync::Semaphore>,
    ready: tokio::sync::mpsc::UnboundedSender<()>,
    /// The soak's start, once every room is set up.
    go: tokio::sync::watch::Receiver<Option<Instant>>,
    offset: Duration,
    total: Duration,
    /// Rooms in a match now.
    in_match: Arc<AtomicU32>,
}

/// A room that plays match after match until the time is up; between matches its last
/// player leaves and a new one joins (through the next instance) and listens.
async fn soak_room(
    shared: Arc<Shared>,
    bases: Arc<Vec<String>>,
    plan: RoomSoak,
) -> anyhow::Result<()> {
    let RoomSoak {
        room,
        players: count,
        rounds,
        seed,
        gate,
        ready,
        mut go,
        offset,
        total,
        in_match,
    } = plan;
    let flies: HashMap<String, bool> = SEED.iter().map(|t| (t.id.to_owned(), t.flies)).collect();
    let permit = gate.acquire_owned().await?;
    let name = |p: u32| super::phone::nickname(room, 'P', p);
    let phone = |p: u32| Phone {
        shared: Arc::clone(&shared),
        base: bases[((room + p) as usize) % bases.len()].clone(),
        address: format!("10.{}.{}.{}", room / 250, room % 250, p % 250 + 1),
        cookie: None,
    };
    let mut host = phone(0);
    // Whatever becomes of the set-up, the driver hears of it once.
    let ready = Ready(ready);
    let (status, body) = host
        .post("/api/rooms/create", &format!("name={}", name(0)))
        .await?;
    ensure!(status == 200, "creating a room answered {status}: {body}");
    let code: String = serde_json::from_str(&body)?;
    let (status, body) = host
        .post(
            "/api/rooms/settings",
            &format!(
                "code={code}&settings[max_players]=12&settings[rounds]={rounds}\
                 &settings[window_ms]=3000&settings[public]=false"
            ),
        )
        .await?;
    ensure!(status == 200, "settings answered {status}: {body}");
    let mut players = Vec::new();
    let mut listening = Vec::new();
    let mut joined = 0;
    // A player who joins between matches has not played the match just over (their stream's
    // first message shows it): `played` marks it, and they play from the next.
    let seat = |mut phone: Phone, p: u32, played: Option<u32>| {
        let code = code.clone();
        let shared = Arc::clone(&shared);
        async move {
            if p > 0 {
                let (status, body) = phone
                    .post("/api/rooms/join", &format!("code={code}&name={}", name(p)))
                    .await?;
                ensure!(status == 200, "joining answered {status}: {body}");
            }
            let (send, feed) = tokio::sync::mpsc::unbounded_channel();
            let listener = Phone {
                shared: Arc::clone(&shared),
                base: phone.base.clone(),
                address: phone.address.clone(),
                cookie: phone.cookie.clone(),
            };
            let stream = tokio::spawn(async move { listener.listen_on(&code, send).await });
            anyhow::Ok((
                Player {
                    phone,
                    feed,
                    nickname: name(p),
                    rng: rand_chacha::ChaCha8Rng::seed_from_u64(
                        seed ^ (u64::from(room) << 8) ^ u64::from(p),
                    ),
                    played,
                    last: None,
                    along: false,
                    called: (0, Vec::new()),
                },
                stream,
            ))
        }
    };
    let (player, stream) = seat(host, 0, None).await?;
    players.push(player);
    listening.push(stream);
    for p in 1..count {
        let (player, stream) = seat(phone(p), p, None).await?;
        players.push(player);
        listening.push(stream);
        joined = p;
    }
    drop(permit);
    drop(ready);
    let t0 = loop {
        if let Some(t0) = *go.borrow_and_update() {
            break t0;
        }
        go.changed().await?;
    };
    tokio::time::sleep_until((t0 + offset).into()).await;
    while t0.elapsed() < total {
        start(&mut players, &code).await?;
        in_match.fetch_add(1, Ordering::Relaxed);
        let playing = spawn_match(&shared, &mut players, &code, &flies);
        let mut outcome = Ok(());
        for player in playing {
            match player.await {
                Ok(Ok(player)) => players.push(player),
                Ok(Err(err)) => outcome = Err(err),
                Err(err) => outcome = Err(err.into()),
            }
        }
        in_match.fetch_sub(1, Ordering::Relaxed);
        outcome?;
        // Between matches: the last to join leaves, and someone new joins.
        let mut leaving = players.pop().context("a player")?;
        let (status, body) = leaving
            .phone
            .post("/api/rooms/leave", &format!("code={code}"))
            .await?;
        ensure!(status == 200, "leaving answered {status}: {body}");
        listening.pop().context("a stream")?.abort();
        joined += 1;
        let (player, stream) = seat(phone(joined), joined, players[0].played).await?;
        players.push(player);
        listening.push(stream);
        // The podium, then the next match.
        tokio::time::sleep(Duration::from_secs(3)).await;
    }
    for stream in listening {
        stream.abort();
    }
    Ok(())
}

/// Starts the next match: the host does, or, should hosting have been handed on while the
/// host's instance was replaced, whoever hosts now (the others are refused).
async fn start(players: &mut [Player], code: &str) -> anyhow::Result<()> {
    let mut answers = Vec::new();
    for player in players.iter_mut() {
        let (status, body) = player
            .phone
            .post("/api/rooms/start", &format!("code={code}"))
            .await?;
        if status == 200 {
            return Ok(());
        }
        answers.push(format!("{}: {status} {body}", player.nickname));
    }
    bail!("nobody could start the next match: {}", answers.join("; "))
}

fn room_failed(
    outcome: Result<anyhow::Result<()>, tokio::task::JoinError>,
) -> Option<anyhow::Error> {
    match outcome {
        Ok(Ok(())) => None,
        Ok(Err(err)) => Some(err),
        Err(err) => Some(err.into()),
    }
}
