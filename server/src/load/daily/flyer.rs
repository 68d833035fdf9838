//! One daily player over HTTP, as the page and its script drive the server: start (the result
//! page's data read once, as the page loaded after the start's redirect reads it), each thing
//! asked for at its reveal, a tap after a human reaction, and the page read again once the
//! flight is over, which writes the result. Its acknowledged taps are checked against that
//! last answer.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, ensure, Context};
use app::catalog::seed::SEED;
use app::daily::api::FlightView;
use app::daily::model::{over_ms, reveal_ms, FLIGHT_ROUNDS};
use app::store::epoch_millis;
use rand::Rng;

use super::super::phone::{Phone, Shared};

/// Whether each thing flies, by its name in either language (`daily/thing` answers
/// `emoji|name` in the request's language): the catalog's rulings, as the players know them.
pub(super) fn rulings() -> Arc<HashMap<&'static str, bool>> {
    Arc::new(
        SEED.iter()
            .flat_map(|t| [(t.en, t.flies), (t.hi, t.flies)])
            .collect(),
    )
}

/// Sleeps until `at_ms` by the wall clock (the server's, on loopback).
async fn until_epoch(at_ms: i64) {
    let wait = at_ms - epoch_millis();
    if wait > 0 {
        tokio::time::sleep(Duration::from_millis(wait as u64)).await;
    }
}

/// A form post that must answer 200: its body.
async fn post_ok(phone: &mut Phone, path: &str, form: &str) -> anyhow::Result<String> {
    let (status, body) = phone.post(path, form).await?;
    ensure!(status == 200, "{path} answered {status}: {body}");
    Ok(body)
}

/// One player's flight: starts it, plays its ten rounds and reads its result. Taps are timed
/// and counted in the shared tally; an acknowledged tap the result does not hold is lost.
pub(super) async fn fly(
    shared: Arc<Shared>,
    mut phone: Phone,
    mut rng: rand_chacha::ChaCha8Rng,
    rulings: Arc<HashMap<&'static str, bool>>,
) -> anyhow::Result<()> {
    // Signed in already (a guest): the name is not needed, the session says who flies.
    let started: FlightView =
        serde_json::from_str(&post_ok(&mut phone, "/api/daily/start", "").await?)
            .context("reading the start's answer")?;
    let started_ms = started
        .flight
        .context("the start answered no flight")?
        .started_ms;
    // The page the start redirects to reads the flight once.
    post_ok(&mut phone, "/api/daily/now", "").await?;
    let mut acked: Vec<Option<u32>> = vec![None; FLIGHT_ROUNDS];
    for (round, acked) in acked.iter_mut().enumerate() {
        let reveal = reveal_ms(started_ms, round);
        until_epoch(reveal).await;
        let (thing, seen) = thing(&mut phone, started_ms, round).await?;
        let name = thing.split_once('|').map_or("", |(_, name)| name);
        let tap = match rulings.get(name) {
            Some(true) => rng.random_bool(0.92),
            Some(false) => rng.random_bool(0.12),
            None => rng.random_bool(0.6),
        };
        if !tap {
            continue;
        }
        // A human reaction: 250 ms at the fastest, mostly 350–700 ms, from the thing shown.
        let reaction: u32 = 250 + rng.random_range(0..300) + rng.random_range(0..300);
        tokio::time::sleep_until((seen + Duration::from_millis(u64::from(reaction))).into()).await;
        let form = format!("started_ms={started_ms}&reveal_ms={reveal}&reaction_ms={reaction}");
        let sent = Instant::now();
        let (status, body) = phone.post("/api/daily/tap", &form).await?;
        let took = sent.elapsed().as_secs_f64() * 1e3;
        let mut tally = shared.tally();
        tally.tap_ack_ms.push(took);
        if status == 200 {
            tally.acked += 1;
            *acked = Some(serde_json::from_str(&body).context("reading a tap's answer")?);
        } else {
            *tally.refused_taps.entry(status).or_default() += 1;
        }
    }
    // The page loads again once the flight is over (its script waits for the last window and a
    // little more): that read writes the result.
    until_epoch(over_ms(started_ms) + 600).await;
    let view = result(&mut phone).await?;
    let Some(flight) = view.flight.filter(|f| f.result.is_some()) else {
        shared.tally().unfinished += 1;
        return Ok(());
    };
    let mut tally = shared.tally();
    tally.player_matches += 1;
    tally.player_rounds += FLIGHT_ROUNDS as u64;
    for (round, acked) in acked.iter().enumerate() {
        let held = flight.rounds.get(round).and_then(|r| r.tap_ms);
        if acked.is_some() && held != *acked {
            tally.lost += 1;
        }
    }
    Ok(())
}

/// The thing of `round`, asked for at its reveal (asked again a moment later if the server's
/// clock had not reached it yet), and when it was shown.
async fn thing(
    phone: &mut Phone,
    started_ms: i64,
    round: usize,
) -> anyhow::Result<(String, Instant)> {
    let form = format!("started_ms={started_ms}&round={round}");
    for _ in 0..20 {
        let (status, body) = phone.post("/api/daily/thing", &form).await?;
        match status {
            200 => {
                let thing: String = serde_json::from_str(&body).unwrap_or(body);
                return Ok((thing, Instant::now()));
            }
            400 if epoch_millis() < reveal_ms(started_ms, round) + 500 => {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            _ => bail!("daily/thing answered {status}: {body}"),
        }
    }
    bail!("daily/thing refused round {round} half a second past its reveal")
}

/// The flight as the page reads it once it is over: asked again for a moment if the result is
/// not there yet.
async fn result(phone: &mut Phone) -> anyhow::Result<FlightView> {
    let mut view: FlightView;
    let mut tries = 0;
    loop {
        view = serde_json::from_str(&post_ok(phone, "/api/daily/now", "").await?)
            .context("reading the flight")?;
        let done = view.flight.as_ref().is_some_and(|f| f.result.is_some());
        tries += 1;
        if done || tries >= 10 {
            return Ok(view);
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}
