//! The bill: what the table was asked (every instance's usage), snapshotted after the projector
//! catches up, and printed by kind of work, per player-round and per player-match, in dollars.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::{bail, ensure};
use app::store::Pricing;

use super::fleet::get_json;
use super::phone::Shared;

/// Usage of every instance, summed: `(work, op) -> (calls, capacity)`.
pub(super) type Figures = BTreeMap<(String, String), (f64, f64)>;

/// Usage of every instance, summed.
pub(super) async fn usage(bases: &[String]) -> anyhow::Result<Figures> {
    let mut sum = BTreeMap::new();
    for base in bases {
        let (status, report) = get_json(base, "/healthz/usage").await?;
        ensure!(status == 200, "{base}/healthz/usage answered {status}");
        let Some(works) = report.as_object() else {
            bail!("unexpected usage report from {base}")
        };
        for (work, share) in works {
            for (op, figures) in share["ops"].as_object().into_iter().flatten() {
                let entry = sum.entry((work.clone(), op.clone())).or_insert((0.0, 0.0));
                entry.0 += figures["calls"].as_f64().unwrap_or(0.0);
                entry.1 += figures["capacity"].as_f64().unwrap_or(0.0);
            }
        }
    }
    Ok(sum)
}

pub(super) fn is_write(op: &str) -> bool {
    app::store::metrics::is_write(op)
}

/// The projector is caught up once its write units have not changed for this long.
pub(super) const SETTLED: Duration = Duration::from_secs(3);
/// The longest the load waits for the projector after a match.
const CATCH_UP_CAP: Duration = Duration::from_secs(90);

/// What the table had been asked (every instance's usage) and the work done, at one moment.
#[derive(Clone)]
pub(super) struct Snapshot {
    pub(super) figures: Figures,
    /// When the usage was read.
    at: Instant,
    player_rounds: u64,
    pub(super) player_matches: u64,
    matches: u64,
    audience_rounds: u64,
}

impl Snapshot {
    pub(super) fn new(shared: &Shared, figures: Figures) -> Self {
        let tally = shared.tally();
        Self {
            figures,
            at: Instant::now(),
            player_rounds: tally.player_rounds,
            player_matches: tally.player_matches,
            matches: tally.matches,
            audience_rounds: tally.audience_rounds,
        }
    }
}

/// Waits for the boards' projector to count what was played: reads every instance's usage
/// every 250 ms until the projector's write units have not changed for [`SETTLED`] (at most
/// [`CATCH_UP_CAP`]). The usage as last read, how long after the call the projector's writes
/// last changed, and whether they settled.
pub(super) async fn projector_catch_up(
    bases: &[String],
) -> anyhow::Result<(Figures, Duration, bool)> {
    let written = |figures: &Figures| -> f64 {
        figures
            .iter()
            .filter(|((work, op), _)| work == "projector" && is_write(op))
            .map(|(_, (_, capacity))| capacity)
            .sum()
    };
    let began = Instant::now();
    let mut figures = usage(bases).await?;
    let mut last = written(&figures);
    let mut changed = began;
    loop {
        if changed.elapsed() >= SETTLED {
            return Ok((figures, changed - began, true));
        }
        if began.elapsed() >= CATCH_UP_CAP {
            return Ok((figures, changed - began, false));
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
        figures = usage(bases).await?;
        let now = written(&figures);
        if now != last {
            last = now;
            changed = Instant::now();
        }
    }
}

/// [`projector_catch_up`], then says so: "<what>: every <done> in <played> s; the projector
/// caught up …", and whether the bill misses writes still coming. The usage as last read.
pub(super) async fn catch_up_and_say(
    bases: &[String],
    what: &str,
    done: &str,
    played: f64,
) -> anyhow::Result<Figures> {
    let waited = Instant::now();
    let (figures, caught_up, settled) = projector_catch_up(bases).await?;
    println!(
        "{what}: every {done} in {played:.1} s; the projector caught up {:.1} s after (then \
         quiet for {} s; waited {:.1} s{})",
        caught_up.as_secs_f64(),
        SETTLED.as_secs(),
        waited.elapsed().as_secs_f64(),
        if settled {
            ""
        } else {
            ": it was still writing, and the bill misses the rest"
        }
    );
    Ok(figures)
}

/// Calls, read units and write units.
#[derive(Default, Clone, Copy)]
pub(super) struct Bill {
    pub(super) calls: f64,
    pub(super) read: f64,
    pub(super) write: f64,
}

impl Bill {
    pub(super) fn add(&mut self, other: Bill) {
        self.calls += other.calls;
        self.read += other.read;
        self.write += other.write;
    }

    /// The same bill divided by `n` (per daily, per player-match).
    pub(super) fn per(self, n: f64) -> Bill {
        Bill {
            calls: self.calls / n,
            read: self.read / n,
            write: self.write / n,
        }
    }
}

/// What the table was asked between two usage readings, by work and operation (the calls
/// made in between).
pub(super) fn between(from: &Figures, to: &Figures) -> Figures {
    to.iter()
        .filter_map(|(key, &(calls, capacity))| {
            let (calls0, capacity0) = from.get(key).copied().unwrap_or_default();
            let made = (calls - calls0, capacity - capacity0);
            (made.0 > 0.0).then(|| (key.clone(), made))
        })
        .collect()
}

/// Calls and units by kind of work.
pub(super) fn by_work(figures: &Figures) -> BTreeMap<String, Bill> {
    let mut works: BTreeMap<String, Bill> = BTreeMap::new();
    for ((work, op), &(calls, capacity)) in figures {
        let (read, write) = if is_write(op) {
            (0.0, capacity)
        } else {
            (capacity, 0.0)
        };
        works
            .entry(work.clone())
            .or_default()
            .add(Bill { calls, read, write });
    }
    works
}

/// The sum of some works' bills (the projector's three, the game's own two).
pub(super) fn sum_of(works: &BTreeMap<String, Bill>, names: &[&str]) -> Bill {
    names
        .iter()
        .filter_map(|work| works.get(*work))
        .fold(Bill::default(), |mut sum, bill| {
            sum.add(*bill);
            sum
        })
}

/// Prints what the table was asked between two snapshots, by kind of work and operation, per
/// player-round and per player-match, with each work's dollars per 1,000 matches.
pub(super) fn print_bill(title: &str, from: &Snapshot, to: &Snapshot, pricing: Pricing) {
    let player_rounds = to.player_rounds - from.player_rounds;
    let player_matches = to.player_matches - from.player_matches;
    let matches = to.matches - from.matches;
    println!(
        "{title}: {matches} matches, {player_matches} player-matches, {player_rounds} player-rounds"
    );
    if player_rounds == 0 || player_matches == 0 || matches == 0 {
        println!("  nothing was played");
        return;
    }
    let (pr, pm, m) = (player_rounds as f64, player_matches as f64, matches as f64);
    println!(
        "  {:9} {:18} {:>25}   {:>25}",
        "work", "operation", "per player-round", "per player-match"
    );
    let mut works: BTreeMap<&str, Bill> = BTreeMap::new();
    for ((work, op), &(calls, capacity)) in &to.figures {
        let (calls0, capacity0) = from
            .figures
            .get(&(work.clone(), op.clone()))
            .copied()
            .unwrap_or_default();
        let (calls, capacity) = (calls - calls0, capacity - capacity0);
        if calls == 0.0 {
            continue;
        }
        let unit = if is_write(op) { "WCU" } else { "RCU" };
        println!(
            "  {work:9} {op:18} {:8.3} calls {:8.3} {unit}   {:8.2} calls {:8.2} {unit}",
            calls / pr,
            capacity / pr,
            calls / pm,
            capacity / pm,
        );
        let (read, write) = if is_write(op) {
            (0.0, capacity)
        } else {
            (capacity, 0.0)
        };
        works
            .entry(work)
            .or_default()
            .add(Bill { calls, read, write });
    }
    println!(
        "  {:9} {:>37}   {:>37}   {:>17}",
        "work", "per player-round", "per player-match", "$ / 1,000 matches"
    );
    let line = |work: &str, bill: &Bill| {
        println!(
            "  {work:9} {:7.3} calls {:7.3} RCU {:7.3} WCU   {:7.2} calls {:7.2} RCU {:7.2} WCU   ${:>16.4}",
            bill.calls / pr,
            bill.read / pr,
            bill.write / pr,
            bill.calls / pm,
            bill.read / pm,
            bill.write / pm,
            pricing.price(bill.read, bill.write) / m * 1000.0,
        )
    };
    let mut all = Bill::default();
    for (work, bill) in &works {
        line(work, bill);
        all.add(*bill);
    }
    line("all", &all);
    let game_writes: f64 = ["requests", "watchers"]
        .iter()
        .filter_map(|work| works.get(work))
        .map(|bill| bill.write)
        .sum();
    println!(
        "  the game's own writes (requests + watchers): {:.3} WCU per player-round (target <= 1.5)",
        game_writes / pr
    );
    let audience_rounds = to.audience_rounds - from.audience_rounds;
    if let Some(audience) = works.get("audience").filter(|_| audience_rounds > 0) {
        let ar = audience_rounds as f64;
        println!(
            "  the audience (joins, calls and their counting): {:.3} WCU, {:.3} RCU and {:.3} calls \
             per audience-round, beside the players' {:.3} WCU per player-round ({audience_rounds} audience-rounds)",
            audience.write / ar,
            audience.read / ar,
            audience.calls / ar,
            game_writes / pr
        );
    }
    let projector: Bill = ["projector", "trees", "rewards"]
        .iter()
        .filter_map(|work| works.get(work))
        .fold(Bill::default(), |mut sum, bill| {
            sum.add(*bill);
            sum
        });
    println!(
        "  the boards' projector all in (projector + trees + rewards): {:.2} WCU and {:.2} RCU \
         per player-match (targets: <= 50 WCU fresh, <= 30 returning)",
        projector.write / pm,
        projector.read / pm
    );
}

/// The works that keep rooms live: each instance's watchers, the live streams' bookkeeping and
/// the receipts they read.
const LIVE_WORKS: [&str; 4] = ["watchers", "streams", "receipts", "peers"];

/// Every read the live machinery made between two snapshots, per room-second (the rooms held
/// open the whole window, lobby and matches alike).
pub(super) fn print_live_reads(from: &Snapshot, to: &Snapshot, rooms: u32) {
    let seconds = to.at.duration_since(from.at).as_secs_f64();
    let room_seconds = f64::from(rooms) * seconds;
    let mut by_work: BTreeMap<&str, (f64, f64)> = BTreeMap::new();
    for ((work, op), &(calls, capacity)) in &to.figures {
        if is_write(op) || !LIVE_WORKS.contains(&work.as_str()) {
            continue;
        }
        let (calls0, capacity0) = from
            .figures
            .get(&(work.clone(), op.clone()))
            .copied()
            .unwrap_or_default();
        let entry = by_work.entry(work).or_default();
        entry.0 += calls - calls0;
        entry.1 += capacity - capacity0;
    }
    let (calls, units) = by_work
        .values()
        .fold((0.0, 0.0), |(c, u), &(calls, units)| (c + calls, u + units));
    println!(
        "live reads (watchers, streams, receipts, peers), all instances, over {seconds:.1} s x {rooms} rooms: \
         {:.3} RCU and {:.3} calls per room-second ({})",
        units / room_seconds,
        calls / room_seconds,
        by_work
            .iter()
            .map(|(work, (_, units))| format!("{work} {:.3}", units / room_seconds))
            .collect::<Vec<_>>()
            .join(", ")
    );
}

/// A deck's match set beside the built-in match before it (`--deck`; returning players both):
/// each one's whole bill per player-match, the deck's as a share of the built-in's (target:
/// within 10 %), and what a start cost the table, each kind's mean (its answer's
/// `Server-Timing`: calls, and read and write units together).
pub(super) fn print_deck_beside(
    built_in: (&Snapshot, &Snapshot),
    deck: (&Snapshot, &Snapshot),
    starts: &[Vec<(u64, f64)>; 2],
    pricing: Pricing,
) {
    let per_player_match = |(from, to): (&Snapshot, &Snapshot)| {
        let played = (to.player_matches - from.player_matches).max(1) as f64;
        let mut all = Bill::default();
        for bill in by_work(&between(&from.figures, &to.figures)).values() {
            all.add(*bill);
        }
        all.per(played)
    };
    let (ours, theirs) = (per_player_match(built_in), per_player_match(deck));
    let dollars = |bill: &Bill| pricing.price(bill.read, bill.write) * 1000.0;
    println!(
        "a deck's match beside a built-in one, per player-match, all works: deck {:.2} calls \
         {:.2} RCU {:.2} WCU (${:.4} / 1,000 player-matches), built-in {:.2} calls {:.2} RCU \
         {:.2} WCU (${:.4}); the deck's is {:.0}% of the built-in's (target <= 110%)",
        theirs.calls,
        theirs.read,
        theirs.write,
        dollars(&theirs),
        ours.calls,
        ours.read,
        ours.write,
        dollars(&ours),
        100.0 * dollars(&theirs) / dollars(&ours).max(f64::MIN_POSITIVE),
    );
    let mean = |costs: &[(u64, f64)]| {
        let n = costs.len().max(1) as f64;
        let calls: u64 = costs.iter().map(|c| c.0).sum();
        let units: f64 = costs.iter().map(|c| c.1).sum();
        (calls as f64 / n, units / n, costs.len())
    };
    let ((bc, bu, bn), (dc, du, dn)) = (mean(&starts[0]), mean(&starts[1]));
    println!(
        "a start (the host's request, all it asked the table): built-in {bc:.1} calls {bu:.2} \
         units (mean of {bn}), deck {dc:.1} calls {du:.2} units (mean of {dn})"
    );
}
