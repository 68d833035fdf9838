//! What the players measured, summed over every room, and the percentiles it is reported by.

use std::collections::BTreeMap;

/// Everything the players measured.
#[derive(Default)]
pub(super) struct Tally {
    pub(super) tap_ack_ms: Vec<f64>,
    pub(super) reveal_push_ms: Vec<f64>,
    pub(super) results_push_ms: Vec<f64>,
    /// A lobby change's answer to a listener's stream showing it: listeners on another
    /// instance than the one that made the change, and on the same one.
    pub(super) lobby_cross_ms: Vec<f64>,
    pub(super) lobby_same_ms: Vec<f64>,
    /// Listeners that had not seen a lobby change 5 s after its answer.
    pub(super) lobby_missed: u64,
    /// A lobby change's request, sent to answered, by kind (settings, join, kick).
    pub(super) lobby_answer_ms: [Vec<f64>; 3],
    pub(super) acked: u64,
    pub(super) lost: u64,
    pub(super) refused_taps: BTreeMap<u16, u64>,
    pub(super) server_errors: u64,
    pub(super) player_rounds: u64,
    /// One audience member's one round each, of finished matches.
    pub(super) audience_rounds: u64,
    /// Audience calls acknowledged, and those of them their seat does not hold.
    pub(super) audience_acked: u64,
    pub(super) audience_lost: u64,
    /// One player's one finished match each.
    pub(super) player_matches: u64,
    pub(super) matches: u64,
    pub(super) unfinished: u64,
    /// Each start's cost to the table, as its answer's `Server-Timing` said: `(calls, capacity
    /// units)`, of built-in matches and of deck matches (`--deck`).
    pub(super) starts: [Vec<(u64, f64)>; 2],
    /// Requests sent again to another instance after their connection failed (a soak only).
    pub(super) resent: u64,
    /// Live streams opened again after they were cut (a soak only).
    pub(super) reopened: u64,
    /// Tap acknowledgements since the soak's last report, in ms.
    pub(super) window_tap_ms: Vec<f64>,
    /// Each player's id, by nickname, and the matches they were seen to finish (a soak's
    /// recount reads these).
    pub(super) finished_by: std::collections::HashMap<String, (app::identity::model::UserId, u64)>,
}

pub(super) fn percentile(samples: &mut [f64], q: f64) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    samples.sort_by(f64::total_cmp);
    let at = ((q * samples.len() as f64).ceil() as usize).clamp(1, samples.len()) - 1;
    samples[at]
}
