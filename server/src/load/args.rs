//! The run's arguments: how many rooms, players, instances, rounds and matches, where the
//! engine is, and the prices the bill is reckoned at.

use app::store::Pricing;

#[derive(Debug, clap::Args)]
pub struct LoadArgs {
    /// Rooms played at once (0: none, for a run of the daily alone).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub(super) rooms: u32,
    /// Players per room (the host included).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(2..=12))]
    pub(super) players: u32,
    /// Audience members per room: each joins the room's audience (on an instance of its own
    /// choosing, as a visitor with a name) and taps along in every round, as a player would.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=200))]
    pub(super) audience: u32,
    /// Server instances sharing the engine.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=8))]
    pub(super) instances: u32,
    /// Rounds per match.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=30))]
    pub(super) rounds: u8,
    /// A DynamoDB endpoint on this machine (DynamoDB Local); without it the run starts
    /// `udd-server engine` (the embedded engine, alone) for the instances to share.
    #[arg(long)]
    pub(super) dynamodb: Option<String>,
    /// First loopback port: the instances listen from here, the engine on the port after them.
    #[arg(long, default_value_t = 3400)]
    pub(super) port: u16,
    /// The whole run is abandoned after this many seconds.
    #[arg(long, default_value_t = 600)]
    pub(super) timeout_secs: u64,
    /// Random seed of the players' behaviour.
    #[arg(long, default_value_t = 7)]
    pub(super) seed: u64,
    /// Matches each room plays in a row with the same players: the first is billed apart
    /// (fresh players), the next ones together (returning players).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub(super) matches: u32,
    /// After its matches, every room plays one more, of a deck its host made at the set-up
    /// (the catalog's first [`super::players::DECK_THINGS`] things, by their rulings): billed
    /// apart, beside the last built-in match (returning players both), with each kind's start
    /// cost. Needs `--matches 2` or more.
    #[arg(long)]
    pub(super) deck: bool,
    /// On-demand price of a million read capacity units, in US dollars (the bill's dollars;
    /// the instances' match receipts use it too).
    #[arg(
        long,
        env = "UDD_PRICE_READ_PER_MILLION",
        default_value_t = Pricing::default().read_per_million,
        value_parser = parse_price
    )]
    pub(super) read_price: f64,
    /// On-demand price of a million write capacity units, in US dollars.
    #[arg(
        long,
        env = "UDD_PRICE_WRITE_PER_MILLION",
        default_value_t = Pricing::default().write_per_million,
        value_parser = parse_price
    )]
    pub(super) write_price: f64,
    /// Lobby changes per room before its first match (a settings change, a visitor joining
    /// through another instance, the host kicking them, in turn), each timed from the
    /// change's answer to every listener's stream showing it.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(0..=60))]
    pub(super) lobby_changes: u32,
    /// Players who fly today's daily over HTTP, after the rooms (0: none). Each becomes a
    /// guest, starts, plays the ten rounds and reads the result, the starts spread over 10 s;
    /// the bill per daily is printed beside a player-match's of the same run.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub(super) daily: u32,
    /// With `--daily`: after the players, this many finished flights written straight into the
    /// table at once (fresh players, today), timed until the projector has counted them all.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(0..=100_000))]
    pub(super) daily_burst: u32,
    /// A soak of this many minutes instead of a fixed number of matches: rooms play match after
    /// match, a player leaving and another joining between matches, while instances are
    /// replaced under them (see `--deploy-every-mins`, `--kill-at-mins`). `--matches`,
    /// `--lobby-changes` and `--timeout-secs` do not apply.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=600))]
    pub(super) minutes: Option<u32>,
    /// In a soak, one instance is replaced every this many minutes, as a rolling deploy does
    /// (SIGTERM, drain, a new one started), the instances in turn.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=600))]
    pub(super) deploy_every_mins: u32,
    /// In a soak, the minute at which one instance is killed (SIGKILL) in the middle of play;
    /// by default 35/60 of the way.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=600))]
    pub(super) kill_at_mins: Option<u32>,
    /// In a soak, a report every this many minutes.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=600))]
    pub(super) report_every_mins: u32,
}

impl LoadArgs {
    pub(super) fn pricing(&self) -> Pricing {
        Pricing {
            read_per_million: self.read_price,
            write_per_million: self.write_price,
        }
    }
}

fn parse_price(raw: &str) -> Result<f64, String> {
    match raw.parse::<f64>() {
        Ok(price) if price.is_finite() && price >= 0.0 => Ok(price),
        _ => Err(format!("{raw} is not a price (US dollars, 0 or more)")),
    }
}
