//! What the soak watches on each instance: its resident memory, its open live streams and the
//! projector's lag from its metrics, printed every report and judged at the end.

use std::time::Duration;

use super::fleet::{get_text, Fleet};
use super::phone::Shared;
use super::tally::percentile;

/// How often each instance's memory is sampled between reports.
pub(super) const SAMPLE: Duration = Duration::from_secs(30);

/// One instance's process, from its start to its replacement (or the end).
pub(super) struct Life {
    pub(super) instance: usize,
    pub(super) pid: u32,
    /// Since the soak's start.
    born: Duration,
    pub(super) ended: Option<Duration>,
    /// (age, resident kB, whether it held the projector's shards then).
    rss: Vec<(Duration, u64, bool)>,
    /// The projector's lag histogram as last scraped: (bucket bounds and cumulative counts,
    /// sum, count), and as at the last report.
    lag: Lag,
    lag_reported: Lag,
}

#[derive(Clone, Default)]
struct Lag {
    buckets: Vec<(f64, f64)>,
    sum: f64,
    count: f64,
}

impl Life {
    pub(super) fn new(instance: usize, pid: u32, born: Duration) -> Self {
        Life {
            instance,
            pid,
            born,
            ended: None,
            rss: Vec::new(),
            lag: Lag::default(),
            lag_reported: Lag::default(),
        }
    }
}

/// Samples an instance's memory and scrapes its projector lag.
pub(super) async fn sample(life: &mut Life, fleet: &Fleet, now: Duration) {
    let text = get_text(&fleet.metrics_base(life.instance), "/metrics")
        .await
        .ok();
    let projector = text
        .as_deref()
        .and_then(|t| series(t, "udd_projector_shards_held"))
        .is_some_and(|held| held > 0.0);
    if let Some(kb) = rss_kb(life.pid) {
        life.rss
            .push((now.saturating_sub(life.born), kb, projector));
    }
    if let Some(text) = text {
        life.lag = Lag::parse(&text);
    }
}

/// Prints one report: the window's taps, the projector's lag, each instance's memory and open
/// streams.
pub(super) async fn report(
    shared: &Shared,
    fleet: &Fleet,
    lives: &mut [Life],
    current: &[usize],
    now: Duration,
    matches: u64,
) -> u64 {
    let (mut taps, resent, reopened, lost, errors) = {
        let mut tally = shared.tally();
        (
            std::mem::take(&mut tally.window_tap_ms),
            tally.resent,
            tally.reopened,
            tally.lost,
            tally.server_errors,
        )
    };
    // The lag counted in the window, over every instance that counted any.
    let mut window = Lag::default();
    for life in lives.iter_mut() {
        window.add(&life.lag, &life.lag_reported);
        life.lag_reported = life.lag.clone();
    }
    println!(
        "[{}] {matches} matches ended; taps acknowledged {} p99 {:.1} ms; projector lag mean \
         {:.2} s p95 <= {} s ({} results); so far: lost {lost}, 5xx {errors}, resent \
         {resent}, streams reopened {reopened}",
        clock(now),
        taps.len(),
        percentile(&mut taps, 0.99),
        if window.count > 0.0 {
            window.sum / window.count
        } else {
            f64::NAN
        },
        window.quantile(0.95).map_or("-".into(), |b| format!("{b}")),
        window.count,
    );
    let engine = fleet
        .engine_pid()
        .and_then(rss_kb)
        .map_or(String::from("-"), |kb| format!("{} MB", kb / 1024));
    let mut line = format!("         engine RSS {engine}");
    for &l in current {
        let life = &lives[l];
        let streams = match get_text(&fleet.metrics_base(life.instance), "/metrics").await {
            Ok(text) => {
                series(&text, "udd_live_streams_open").map_or("-".into(), |n| n.to_string())
            }
            Err(_) => "-".into(),
        };
        let last = life.rss.last();
        line.push_str(&format!(
            " | i{} (pid {}) RSS {} MB, {streams} streams{}",
            life.instance,
            life.pid,
            last.map_or(0, |(_, kb, _)| kb / 1024),
            if last.is_some_and(|(.., projector)| *projector) {
                ", the projector"
            } else {
                ""
            }
        ));
    }
    let fleet_kb: u64 = current
        .iter()
        .filter_map(|&l| lives[l].rss.last())
        .map(|(_, kb, _)| kb)
        .sum();
    println!("{line} | instances together {} MB", fleet_kb / 1024);
    fleet_kb
}

/// Prints each instance's memory after its first `settle` against its last, and the instances'
/// memory together (at each report: `together`, (time, kB)) from the first report after
/// `settle` to the last; returns the latter's growth, the soak's judgement. Players move
/// between instances as they are replaced (a cut stream reopens on another), and an instance's
/// memory follows its streams and whether it holds the projector: one instance's growth is
/// load moving, the sum's is a leak. An instance is compared like
/// with like: its base is its first sample after `settle` in the role it ended in (holding the
/// board projector's shards or not: the holder keeps the shards' batches and the trees' nodes
/// in hand), so an instance that took the projector over midway is not a leak.
pub(super) fn memory(lives: &[Life], settle: Duration, together: &[(Duration, u64)]) -> f64 {
    let mut worst: f64 = 0.0;
    println!(
        "memory (resident) of each instance's process, from {} (min:s) of its life in the role it ended in, to its end:",
        clock(settle)
    );
    for life in lives {
        let lived = life.ended.unwrap_or_default().saturating_sub(life.born);
        let role = life.rss.last().is_some_and(|(.., projector)| *projector);
        let at_settle = life
            .rss
            .iter()
            .find(|(age, _, projector)| *age >= settle && *projector == role);
        let (Some(&(since, base, _)), Some(&(_, last, _))) = (at_settle, life.rss.last()) else {
            println!(
                "  instance {} (pid {}, from {} to {}): lived {}, too short to judge",
                life.instance,
                life.pid,
                clock(life.born),
                clock(life.born + lived),
                clock(lived)
            );
            continue;
        };
        let peak = life.rss.iter().map(|(_, kb, _)| *kb).max().unwrap_or(last);
        let growth = (last as f64 - base as f64) / base as f64;
        let judged = lived.saturating_sub(since) >= settle;
        if judged {
            worst = worst.max(growth);
        }
        println!(
            "  instance {} (pid {}, from {} to {}{}): {} MB at {} of its life, {} MB at the end ({:+.1} %), peak {} MB{}",
            life.instance,
            life.pid,
            clock(life.born),
            clock(life.born + lived),
            if role { ", the projector at its end" } else { "" },
            base / 1024,
            clock(since),
            last / 1024,
            growth * 100.0,
            peak / 1024,
            if judged { "" } else { " (under a settling time since: not judged)" }
        );
    }
    println!(
        "one instance's growth after its first {}, the most: {:+.1} % (load moving between instances, or a leak)",
        clock(settle),
        worst * 100.0
    );
    let base = together.iter().find(|(at, _)| *at >= settle);
    let (Some(&(since, base)), Some(&(until, last))) = (base, together.last()) else {
        println!("the instances together: too short to judge");
        return 0.0;
    };
    let growth = (last as f64 - base as f64) / base as f64;
    println!(
        "the instances together: {} MB at {}, {} MB at {} ({:+.1} %), the soak's memory growth",
        base / 1024,
        clock(since),
        last / 1024,
        clock(until),
        growth * 100.0
    );
    growth
}

impl Lag {
    fn parse(text: &str) -> Self {
        let name = "udd_projector_lag_seconds";
        let mut lag = Lag::default();
        for line in text.lines().filter(|l| l.starts_with(name)) {
            let Some((key, value)) = line.rsplit_once(' ') else {
                continue;
            };
            let Ok(value) = value.parse::<f64>() else {
                continue;
            };
            if let Some(rest) = key.strip_prefix(&format!("{name}_bucket{{le=\"")) {
                let bound = rest.trim_end_matches("\"}");
                let bound = if bound == "+Inf" {
                    f64::INFINITY
                } else {
                    bound.parse().unwrap_or(f64::INFINITY)
                };
                lag.buckets.push((bound, value));
            } else if key == format!("{name}_sum") {
                lag.sum = value;
            } else if key == format!("{name}_count") {
                lag.count = value;
            }
        }
        lag
    }

    /// Adds what `now` counted since `before` (the same process's earlier scrape).
    fn add(&mut self, now: &Lag, before: &Lag) {
        self.sum += now.sum - before.sum;
        self.count += now.count - before.count;
        for (i, (bound, n)) in now.buckets.iter().enumerate() {
            let was = before.buckets.get(i).map_or(0.0, |(_, n)| *n);
            match self.buckets.get_mut(i) {
                Some((_, total)) => *total += n - was,
                None => self.buckets.push((*bound, n - was)),
            }
        }
    }

    /// The smallest bucket bound under which at least `q` of the window's lags fell.
    fn quantile(&self, q: f64) -> Option<f64> {
        if self.count <= 0.0 {
            return None;
        }
        self.buckets
            .iter()
            .find(|(_, n)| *n >= q * self.count)
            .map(|(bound, _)| *bound)
    }
}

/// A series' value (summed over its labels) in a Prometheus text exposition.
fn series(text: &str, name: &str) -> Option<f64> {
    let values: Vec<f64> = text
        .lines()
        .filter(|l| {
            l.strip_prefix(name)
                .is_some_and(|rest| rest.starts_with(' ') || rest.starts_with('{'))
        })
        .filter_map(|l| l.rsplit_once(' ')?.1.parse().ok())
        .collect();
    (!values.is_empty()).then(|| values.iter().sum())
}

/// A process's resident memory in kB.
fn rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// mm:ss since the soak's start.
pub(super) fn clock(at: Duration) -> String {
    format!("{:02}:{:02}", at.as_secs() / 60, at.as_secs() % 60)
}
