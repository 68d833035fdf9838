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
    /// (age, resident kB).
    rss: Vec<(Duration, u64)>,
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
    if let Some(kb) = rss_kb(life.pid) {
        life.rss.push((now.saturating_sub(life.born), kb));
    }
    if let Ok(text) = get_text(&fleet.metrics_base(life.instance), "/metrics").await {
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
) {
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
        line.push_str(&format!(
            " | i{} (pid {}) RSS {} MB, {streams} streams",
            life.instance,
            life.pid,
            life.rss.last().map_or(0, |(_, kb)| kb / 1024)
        ));
    }
    println!("{line}");
}

/// Prints each instance's memory after its first `settle` against its last, and returns the
/// largest growth among those that lived at least twice `settle`.
pub(super) fn memory(lives: &[Life], settle: Duration) -> f64 {
    let mut worst: f64 = 0.0;
    println!(
        "memory (resident) of each instance's process, at {} (min:s) of its life and at its end:",
        clock(settle)
    );
    for life in lives {
        let lived = life.ended.unwrap_or_default().saturating_sub(life.born);
        let at_settle = life.rss.iter().find(|(age, _)| *age >= settle);
        let (Some(&(_, base)), Some(&(_, last))) = (at_settle, life.rss.last()) else {
            println!(
                "  instance {} (pid {}, from {} to {}): lived {} min, too short to judge",
                life.instance,
                life.pid,
                clock(life.born),
                clock(life.born + lived),
                lived.as_secs() / 60
            );
            continue;
        };
        let peak = life.rss.iter().map(|(_, kb)| *kb).max().unwrap_or(last);
        let growth = (last as f64 - base as f64) / base as f64;
        let judged = lived >= settle * 2;
        if judged {
            worst = worst.max(growth);
        }
        println!(
            "  instance {} (pid {}, from {} to {}): {} MB at {}, {} MB at the end ({:+.1} %), peak {} MB{}",
            life.instance,
            life.pid,
            clock(life.born),
            clock(life.born + lived),
            base / 1024,
            clock(settle),
            last / 1024,
            growth * 100.0,
            peak / 1024,
            if judged { "" } else { " (lived under twice that: not judged)" }
        );
    }
    println!(
        "memory growth after each instance's first {}, worst: {:+.1} %",
        clock(settle),
        worst * 100.0
    );
    worst
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
