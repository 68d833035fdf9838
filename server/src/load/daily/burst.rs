//! The burst: many finished dailies written at once, straight into the table through the
//! app's store handle (as if that many players' flights ended on the same second), and the
//! time the projector takes to count them all on the day's board.
//!
//! The flights are fresh players of the day, started a minute ago (over by now), each with
//! taps as a player makes them (their ten things' rulings, a human reaction), so the board
//! gets scores of every kind. Starts and taps are written first; then every result at once
//! (`Daily::finish`, [`AT_ONCE`] in flight). The lag runs from the last result's write
//! acknowledged to the day's board counting every one of them (its tree's root, the entry
//! count a result page shows).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context};
use app::daily::model::{reveal_ms, FLIGHT_ROUNDS};
use app::daily::store::{things_in_order, DayDraw, Flight, DAILY};
use app::http::engine::{Engine, EngineConfig};
use app::identity::model::{Avatar, DisplayName, UserId};
use app::ids::Day;
use app::leaderboards::period::{daily_boards_for, day_of};
use app::store::{epoch_millis, Db, Pricing};
use rand::{Rng, SeedableRng};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use super::super::bill::{between, by_work, projector_catch_up, sum_of, usage};
use super::super::fleet::{cpu_seconds, Fleet};
use super::cost::PROJECTOR;

/// Writes in flight at once.
const AT_ONCE: usize = 64;
/// The longest the burst waits for the board to count every flight.
const COUNT_CAP: Duration = Duration::from_secs(600);
/// The lag the issue accepts.
const ACCEPTED: Duration = Duration::from_secs(60);

/// Writes `count` finished flights at once and prints how long the writes took and how long
/// after the last one the projector had counted them all, and what the projector's counting
/// cost per flight.
pub(super) async fn run(
    fleet: &Fleet,
    count: u32,
    seed: u64,
    pricing: Pricing,
) -> anyhow::Result<()> {
    let (endpoint, key, table) = fleet.engine_access();
    // The instances' own client and key (the engine's front checks the key).
    let engine = Engine::start(EngineConfig::Endpoint {
        url: endpoint.to_owned(),
        key: Some(key.to_owned()),
    })
    .await
    .with_context(|| format!("connecting to the engine at {endpoint}"))?;
    let db = Db::new(engine.client.clone(), table);
    let outcome = burst(fleet, &db, count, seed, pricing).await;
    engine.stop().await;
    outcome
}

async fn burst(
    fleet: &Fleet,
    db: &Db,
    count: u32,
    seed: u64,
    pricing: Pricing,
) -> anyhow::Result<()> {
    let writer = db.counted_as(DAILY);
    let now = epoch_millis();
    // A minute ago: every flight is over, and all of them belong to one day (just after
    // midnight, yesterday's: the board watched is the flights' own day's).
    let started_ms = now - 60_000;
    let day = day_of(started_ms);
    let draw = Arc::new(writer.daily().day_draw(day, now).await?);
    let board = daily_boards_for(day)
        .into_iter()
        .next()
        .context("the daily has no day board")?;
    let counted_before = db.boards().board_entries(&board).await?;
    let usage_before = usage(&fleet.bases).await?;

    let prepared_at = Instant::now();
    let flights = prepare(&writer, &draw, day, started_ms, count, seed).await?;
    let prepared = prepared_at.elapsed();

    let pids: Vec<u32> = fleet.pids().into_iter().chain(fleet.engine_pid()).collect();
    let cpu_before: Vec<f64> = pids.iter().map(|&pid| cpu_seconds(pid)).collect();
    let written_at = Instant::now();
    let last_write = finish_all(&writer, &draw, flights).await?;
    let written = last_write - written_at;

    // The day's board counts every flight: its root's entry count.
    let target = counted_before + u64::from(count);
    let mut counted = counted_before;
    while counted < target && last_write.elapsed() < COUNT_CAP {
        tokio::time::sleep(Duration::from_millis(100)).await;
        counted = db.boards().board_entries(&board).await?;
    }
    let lag = last_write.elapsed();
    let cpu: Vec<f64> = pids
        .iter()
        .zip(&cpu_before)
        .map(|(&pid, before)| cpu_seconds(pid) - before)
        .collect();
    println!(
        "burst: {count} finished dailies written in {:.1} s (their starts and taps before, in \
         {:.1} s; {AT_ONCE} writes in flight); counted by the projector {:.1} s after the last \
         write (lag; {} of {count} on the day's board{}; accepted: <= {} s: {})",
        written.as_secs_f64(),
        prepared.as_secs_f64(),
        lag.as_secs_f64(),
        counted - counted_before,
        if counted < target { ", gave up" } else { "" },
        ACCEPTED.as_secs(),
        if counted >= target && lag <= ACCEPTED {
            "holds"
        } else {
            "DOES NOT HOLD"
        },
    );
    let seconds = (written + lag).as_secs_f64();
    let shares: Vec<String> = cpu
        .iter()
        .enumerate()
        .map(|(i, used)| {
            let who = if i < fleet.pids().len() {
                format!("instance {i}")
            } else {
                "the engine".to_owned()
            };
            format!("{who} {:.0}%", 100.0 * used / seconds)
        })
        .collect();
    println!(
        "burst: CPU from the first result written to the last counted ({seconds:.1} s), of one \
         core: {}",
        shares.join(", ")
    );
    // The projector's share of the burst, once it has written everything.
    let (figures, _, settled) = projector_catch_up(&fleet.bases).await?;
    print_cost(
        &by_work(&between(&usage_before, &figures)),
        &writer,
        f64::from(count),
        pricing,
        settled,
    );
    Ok(())
}

/// Starts `count` flights of fresh players at `started_ms`, each with its taps: the flights as
/// they stand before their results.
async fn prepare(
    db: &Db,
    draw: &Arc<DayDraw>,
    day: Day,
    started_ms: i64,
    count: u32,
    seed: u64,
) -> anyhow::Result<Vec<Flight>> {
    let gate = Arc::new(Semaphore::new(AT_ONCE));
    let mut tasks = JoinSet::new();
    for k in 0..count {
        let (db, draw, gate) = (db.clone(), Arc::clone(draw), Arc::clone(&gate));
        tasks.spawn(async move {
            let _permit = gate.acquire_owned().await?;
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0xb0057 ^ u64::from(k));
            let user = UserId::generate();
            let name = DisplayName::parse(&format!("b{k}")).map_err(|e| anyhow!("{e:?}"))?;
            let mut flight = db
                .daily()
                .start(&user, &name, Avatar::default(), day, started_ms)
                .await?;
            for (round, thing) in things_in_order(&draw, &user).iter().enumerate() {
                let flies = draw.card_of(thing).is_some_and(|(_, flies)| flies);
                if !rng.random_bool(if flies { 0.92 } else { 0.12 }) {
                    continue;
                }
                let reaction: u32 = 250 + rng.random_range(0..300) + rng.random_range(0..300);
                let reveal = reveal_ms(started_ms, round);
                let received = reveal + i64::from(reaction) + 40;
                let (round, counted) = db
                    .daily()
                    .tap(&user, day, started_ms, reveal, reaction, received)
                    .await?;
                flight.taps.insert(round.to_string(), counted);
            }
            debug_assert!(flight.taps.len() <= FLIGHT_ROUNDS);
            anyhow::Ok(flight)
        });
    }
    let mut flights = Vec::with_capacity(count as usize);
    while let Some(joined) = tasks.join_next().await {
        flights.push(joined.context("a flight's task failed")??);
    }
    Ok(flights)
}

/// Writes every flight's result, [`AT_ONCE`] at a time: when the last write was acknowledged.
async fn finish_all(db: &Db, draw: &Arc<DayDraw>, flights: Vec<Flight>) -> anyhow::Result<Instant> {
    let gate = Arc::new(Semaphore::new(AT_ONCE));
    let now = epoch_millis();
    let mut tasks = JoinSet::new();
    for flight in flights {
        let (db, draw, gate) = (db.clone(), Arc::clone(draw), Arc::clone(&gate));
        tasks.spawn(async move {
            let _permit = gate.acquire_owned().await?;
            let finished = db.daily().finish(flight, &draw, now).await?;
            anyhow::ensure!(finished.result.is_some(), "a flight was not over");
            anyhow::Ok(Instant::now())
        });
    }
    let mut last = Instant::now();
    while let Some(joined) = tasks.join_next().await {
        last = last.max(joined.context("a result's task failed")??);
    }
    Ok(last)
}

/// The burst's cost per flight: the load's own writes of the flights (what the players'
/// requests would have written) and the instances' counting of them.
fn print_cost(
    works: &BTreeMap<String, super::super::bill::Bill>,
    writer: &Db,
    n: f64,
    pricing: Pricing,
    settled: bool,
) {
    let written = writer
        .usage()
        .report()
        .get(DAILY)
        .map(|w| (w.calls as f64, w.read_units, w.write_units))
        .unwrap_or_default();
    let projector = sum_of(works, &PROJECTOR).per(n);
    println!(
        "burst: per flight, its writes (start, taps, result; from the load): {:.2} calls, {:.2} \
         RCU, {:.2} WCU; the boards' projector all in (projector + trees + rewards): {:.2} \
         calls, {:.2} RCU, {:.2} WCU (${:.7}){}",
        written.0 / n,
        written.1 / n,
        written.2 / n,
        projector.calls,
        projector.read,
        projector.write,
        pricing.price(projector.read, projector.write),
        if settled {
            ""
        } else {
            "; the projector was still writing: its share misses the rest"
        }
    );
    for (work, bill) in works
        .iter()
        .filter(|(w, _)| PROJECTOR.contains(&w.as_str()))
    {
        let per = bill.per(n);
        println!(
            "  {work:9} {:7.3} calls {:7.3} RCU {:7.3} WCU per flight",
            per.calls, per.read, per.write
        );
    }
}
