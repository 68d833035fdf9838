//! `--daily N`: N players fly today's daily over HTTP against the fleet's instances, after the
//! rooms, and then a burst of finished flights is written straight into the table for the
//! projector to count.
//!
//! Each player has its own client address and session, as a room's player has, on an
//! instance of their own (spread over the fleet). They become guests first (`/api/guest`, its
//! cost billed apart: a room's player-match bill has no guest in it either, the rooms' players
//! are made before its window), then start, spread over 10 s so the day's flights do not all
//! begin on one instant. The bill is every instance's usage from the first start until the
//! projector has counted the flights (the whole cost, not only the flights' requests), per
//! daily, beside a player-match's of the same run.

mod burst;
mod cost;
mod flyer;

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{ensure, Context};
use rand::SeedableRng;

use super::bill::{catch_up_and_say, usage, Snapshot};
use super::fleet::{cpu_seconds, Fleet};
use super::phone::{Phone, Shared};
use super::tally::percentile;
use super::LoadArgs;

/// The daily players' starts are spread over this long.
const SPREAD: Duration = Duration::from_secs(10);
/// Guests made at once before the flights.
const GUESTS_AT_ONCE: usize = 32;

/// Runs the daily players, prints their figures and the bill (beside `rooms`, the usage before
/// and after the rooms' first match, when the run had rooms), then the burst.
pub(super) async fn run(
    args: &LoadArgs,
    fleet: &Fleet,
    rooms: Option<&(Snapshot, Snapshot)>,
) -> anyhow::Result<()> {
    let shared = super::shared(None);
    let before_guests = Snapshot::new(&shared, usage(&fleet.bases).await?);
    let phones = guests(&shared, &fleet.bases, args.daily).await?;
    let before_flights = Snapshot::new(&shared, usage(&fleet.bases).await?);
    let (played, cpu) = fly_all(&shared, fleet, phones, args.seed).await?;
    let figures = catch_up_and_say(&fleet.bases, "daily", "flight done", played).await?;
    let after_flights = Snapshot::new(&shared, figures);
    print_flights(&shared, &cpu, played);
    cost::print(
        (&before_guests, &before_flights),
        (&before_flights, &after_flights),
        rooms,
        args,
    );
    let (unfinished, lost) = {
        let tally = shared.tally();
        (tally.unfinished, tally.lost)
    };
    if args.daily_burst > 0 {
        burst::run(fleet, args.daily_burst, args.seed, args.pricing()).await?;
    }
    ensure!(
        unfinished == 0 && lost == 0,
        "{unfinished} flights unfinished, {lost} acknowledged taps lost"
    );
    Ok(())
}

/// Makes `n` guests (`d0`, `d1`, …), each on an instance of their own and from an address of
/// their own, `GUESTS_AT_ONCE` at a time: their phones, signed in.
async fn guests(shared: &Arc<Shared>, bases: &[String], n: u32) -> anyhow::Result<Vec<Phone>> {
    let gate = Arc::new(tokio::sync::Semaphore::new(GUESTS_AT_ONCE));
    let mut made = tokio::task::JoinSet::new();
    for i in 0..n {
        let mut phone = Phone {
            shared: Arc::clone(shared),
            base: bases[i as usize % bases.len()].clone(),
            address: format!("11.{}.{}.{}", i / 62_500, i / 250 % 250, i % 250 + 1),
            cookie: None,
        };
        let gate = Arc::clone(&gate);
        made.spawn(async move {
            let _permit = gate.acquire_owned().await?;
            let (status, body) = phone.post("/api/guest", &format!("name=d{i}")).await?;
            ensure!(status == 200, "/api/guest answered {status}: {body}");
            ensure!(phone.cookie.is_some(), "/api/guest set no session");
            anyhow::Ok((i, phone))
        });
    }
    let mut phones = Vec::with_capacity(n as usize);
    while let Some(joined) = made.join_next().await {
        phones.push(joined.context("a guest's task failed")??);
    }
    phones.sort_by_key(|(i, _)| *i);
    Ok(phones.into_iter().map(|(_, phone)| phone).collect())
}

/// Each instance's and the engine's CPU seconds over the flights.
struct Cpu {
    instances: Vec<f64>,
    engine: Option<f64>,
}

/// Flies every player, the starts spread over [`SPREAD`]: how long from the first start to the
/// last flight's result, and the CPU the instances and the engine used meanwhile.
async fn fly_all(
    shared: &Arc<Shared>,
    fleet: &Fleet,
    phones: Vec<Phone>,
    seed: u64,
) -> anyhow::Result<(f64, Cpu)> {
    let pids = fleet.pids();
    let engine = fleet.engine_pid();
    let cpu_before: Vec<f64> = pids.iter().map(|&pid| cpu_seconds(pid)).collect();
    let engine_before = engine.map(cpu_seconds);
    let rulings = flyer::rulings();
    let n = phones.len().max(1) as u32;
    let began = Instant::now();
    let mut flights = tokio::task::JoinSet::new();
    for (i, phone) in phones.into_iter().enumerate() {
        let at = began + SPREAD * i as u32 / n;
        let rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0xda11 ^ ((i as u64) << 16));
        let (shared, rulings) = (Arc::clone(shared), Arc::clone(&rulings));
        flights.spawn(async move {
            tokio::time::sleep_until(at.into()).await;
            flyer::fly(shared, phone, rng, rulings).await
        });
    }
    let mut failures = 0;
    while let Some(joined) = flights.join_next().await {
        if let Err(err) = joined.map_err(anyhow::Error::from).and_then(|flown| flown) {
            failures += 1;
            eprintln!("a daily player failed: {err:#}");
        }
    }
    let played = began.elapsed().as_secs_f64();
    let cpu = Cpu {
        instances: pids
            .iter()
            .zip(&cpu_before)
            .map(|(&pid, before)| cpu_seconds(pid) - before)
            .collect(),
        engine: engine
            .zip(engine_before)
            .map(|(pid, b)| cpu_seconds(pid) - b),
    };
    ensure!(failures == 0, "{failures} daily players failed");
    Ok((played, cpu))
}

/// The flights' figures: taps, their acknowledgement, refusals, losses, 5xx and CPU.
fn print_flights(shared: &Shared, cpu: &Cpu, played: f64) {
    let tally = shared.tally();
    let mut acks = tally.tap_ack_ms.clone();
    println!(
        "daily: {} flights finished ({} player-rounds), {} never finished",
        tally.player_matches, tally.player_rounds, tally.unfinished
    );
    println!(
        "daily taps: {} sent, {} acknowledged, refused {:?}",
        tally.tap_ack_ms.len(),
        tally.acked,
        tally.refused_taps
    );
    println!(
        "daily tap ack p50 {:7.1} ms  p95 {:7.1} ms  p99 {:7.1} ms  max {:7.1} ms   (target p99 <= 100 ms)",
        percentile(&mut acks, 0.50),
        percentile(&mut acks, 0.95),
        percentile(&mut acks, 0.99),
        percentile(&mut acks, 1.0),
    );
    println!(
        "daily: acknowledged taps missing from the flights' results: {}   HTTP 5xx: {}   answers {:?}",
        tally.lost,
        tally.server_errors,
        shared.statuses()
    );
    for (i, used) in cpu.instances.iter().enumerate() {
        println!(
            "daily: instance {i}: {used:.1} CPU s in {played:.1} s of flights ({:.0}% of one core)",
            100.0 * used / played
        );
    }
    if let Some(used) = cpu.engine {
        println!(
            "daily: the engine: {used:.1} CPU s ({:.0}% of one core)",
            100.0 * used / played
        );
    }
}
