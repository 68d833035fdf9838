//! The command line: `udd-server`'s commands and the options of serving and of the table, as
//! clap reads them (flags and environment variables alike).

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use app::http::engine::EngineConfig;
use app::http::SecurityConfig;
use clap::{Parser, Subcommand, ValueEnum};

use crate::{bench, load};

#[derive(Debug, Parser)]
#[command(name = "udd-server", version, about = "The Udd game server")]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
    #[command(flatten)]
    pub(crate) store: StoreArgs,
    #[command(flatten)]
    pub(crate) serve: ServeArgs,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Serve the game (the default).
    Serve,
    /// Create the table (idempotent) and exit.
    CreateTable(CreateTableArgs),
    /// Print the table's CloudFormation template.
    Template,
    /// Serve the embedded engine alone, for several server instances to share by endpoint URL
    /// (UDD_DYNAMODB_ENDPOINT=http://ADDR), as they would share DynamoDB Local or AWS.
    Engine {
        /// Address to listen on.
        #[arg(long, env = "UDD_ENGINE_LISTEN", default_value = "127.0.0.1:8000")]
        listen: SocketAddr,
    },
    /// Measure DynamoDB and page latency and the site's download weight, and print them.
    Bench(bench::BenchArgs),
    /// Play R rooms × P simulated players over HTTP against K instances on one engine, and
    /// print tap and push latency, lost taps, 5xx, DynamoDB use per player-round and CPU.
    Load(load::LoadArgs),
    /// Seasons: start one, or list them.
    #[command(subcommand)]
    Season(SeasonCommand),
    /// The boards: rebuild them from the match records, or fill one with synthetic players.
    #[command(subcommand)]
    Boards(BoardsCommand),
    /// Results flagged for review (reactions too fast and steady to be a person's): list them,
    /// clear one (it counts on the boards now) or confirm one (it never counts).
    #[command(subcommand)]
    Flagged(FlaggedCommand),
    /// Players' reports and hidden names: list them, hide a player, clear one (their reports
    /// go and their names show again), ban a name or lift a ban.
    #[command(subcommand)]
    Reports(ReportsCommand),
    /// Give a player cards and feathers (an operator's grant: a make-good, an event prize), in
    /// one transaction, as a match's rewards are given.
    Grant {
        /// The player: a username, or a player id (26 characters).
        player: String,
        /// Feathers to give.
        #[arg(long, default_value_t = 0)]
        feathers: u64,
        /// Cards to give, as thing ids (`crow,kite,kite`); `all` gives one of every card.
        #[arg(long, value_delimiter = ',')]
        cards: Vec<String>,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum SeasonCommand {
    /// Start a season now (or at --start-ms), lasting --days. Refused if it overlaps another.
    Start {
        /// Lowercase letters, digits and dashes, e.g. monsoon-1.
        id: String,
        /// What players read, e.g. "Monsoon".
        name: String,
        #[arg(long, default_value_t = 90)]
        days: i64,
        /// When it starts (epoch ms); now by default. Never in the past.
        #[arg(long)]
        start_ms: Option<i64>,
    },
    /// List the operator's seasons (times outside them fall in calendar-quarter seasons).
    List,
}

#[derive(Debug, Subcommand)]
pub(crate) enum BoardsCommand {
    /// Count every match record in the table on the boards, for when the projector was down
    /// longer than the stream keeps records. Idempotent: safe with projectors running.
    Rebuild,
    /// Convert boards written before the present counting tree (their trees, their entries'
    /// list on GSI1, their closing keys) to the present layout. Servers do it themselves at
    /// start; idempotent.
    Convert,
    /// Fill a board with N synthetic players (written directly, tree and all).
    Seed(bench::SeedArgs),
}

#[derive(Debug, Subcommand)]
pub(crate) enum FlaggedCommand {
    /// The flagged results, oldest first: each line starts with the item's key (PK SK).
    List {
        #[arg(long, default_value_t = 100)]
        limit: i32,
    },
    /// Clear a flagged result (by its PK and SK, as listed): it counts on its boards, counters
    /// and badges now.
    Clear { pk: String, sk: String },
    /// Confirm a flagged result: it stays the player's, never counts, and leaves the list.
    Confirm { pk: String, sk: String },
}

#[derive(Debug, Subcommand)]
pub(crate) enum ReportsCommand {
    /// The reported players (most reported first), the hidden players and the banned names.
    List {
        #[arg(long, default_value_t = 100)]
        limit: usize,
    },
    /// Hide every name of a player (a username or a player id) until they are cleared.
    Hide { player: String },
    /// Forget a player's reports and show their names again.
    Clear { player: String },
    /// Ban a name (and every name that folds the same: case, look-alike letters): hidden
    /// wherever it was copied, refused when typed. `--lift` lifts the ban.
    BanName {
        name: String,
        #[arg(long)]
        lift: bool,
    },
}

/// How the game server runs.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct ServeArgs {
    /// How often (ms) a watched room is polled for changes, as a safety net: changes made
    /// through another instance arrive as its news at once (see "Live rooms"); the poll is one
    /// small eventually consistent read per watched room per interval.
    #[arg(long, env = "UDD_LIVE_POLL_MS", default_value_t = 30_000, value_parser = clap::value_parser!(u64).range(50..=300_000), global = true)]
    pub(crate) live_poll_ms: u64,
    /// Where the other instances reach this one (`http://host:port`) with news of rooms. By
    /// default the address it listens on (127.0.0.1 when it listens on every address): set it
    /// when instances run on different machines.
    #[arg(long, env = "UDD_PEER_ADDRESS", value_parser = parse_peer_address, global = true)]
    pub(crate) peer_address: Option<String>,
    /// The origin players' browsers use (scheme://host[:port]), e.g. https://udd.example behind
    /// a proxy. State-changing requests from any other origin are refused; without it, the
    /// origin must match the request's Host.
    #[arg(long, env = "UDD_PUBLIC_ORIGIN", value_parser = SecurityConfig::parse_origin, global = true)]
    public_origin: Option<String>,
    /// Proxies (addresses or CIDR ranges, comma-separated) whose X-Forwarded-For and
    /// X-Forwarded-Proto are believed. Without it, every limit keys on the connection's address.
    #[arg(long, env = "UDD_TRUSTED_PROXIES", value_parser = parse_proxies, global = true)]
    trusted_proxies: Option<Proxies>,
    /// Send `Server-Timing` (DynamoDB calls and capacity) with every answer: for operators.
    #[arg(
        long,
        env = "UDD_SERVER_TIMING",
        default_value_t = false,
        global = true
    )]
    server_timing: bool,
    /// Run the board projector in this instance (any number may: one holds each stream shard).
    #[arg(long, env = "UDD_PROJECTOR", default_value_t = true, action = clap::ArgAction::Set, global = true)]
    pub(crate) projector: bool,
    /// The on-demand price of a million read capacity units, in US dollars (match receipts).
    #[arg(
        long,
        env = "UDD_PRICE_READ_PER_MILLION",
        default_value_t = 0.125,
        global = true
    )]
    pub(crate) price_read_per_million: f64,
    /// The on-demand price of a million write capacity units, in US dollars (match receipts).
    #[arg(
        long,
        env = "UDD_PRICE_WRITE_PER_MILLION",
        default_value_t = 0.625,
        global = true
    )]
    pub(crate) price_write_per_million: f64,
    /// Where `GET /metrics` (Prometheus text format) is served: an address of its own, loopback
    /// by default (the figures are for operators, not players); `off` for none. If the address
    /// is taken (a second instance on one machine), the instance serves without it and says so.
    #[arg(long, env = "UDD_METRICS_ADDRESS", default_value = "127.0.0.1:9464", value_parser = parse_metrics_address, global = true)]
    pub(crate) metrics_address: MetricsAddress,
    /// How long (ms) a shutdown (SIGTERM) may take: streams end at once and the board
    /// projector's leases are handed over; requests in flight get this long to finish.
    #[arg(long, env = "UDD_SHUTDOWN_GRACE_MS", default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1_000..=300_000), global = true)]
    pub(crate) shutdown_grace_ms: u64,
    /// How long (s) a live stream lives before it ends itself at a quiet moment (the browser
    /// reconnects, to any instance): less than the load balancer's deregistration delay, so a
    /// task being stopped has no stream left for the balancer to cut (see `docs/operating.md`).
    #[arg(long, env = "UDD_STREAM_LIFE_SECS", default_value_t = app::live::hub::stream::STREAM_LIFE.as_secs(), value_parser = clap::value_parser!(u64).range(4..=3_600), global = true)]
    pub(crate) stream_life_secs: u64,
    /// How long (s) an idle keep-alive connection is kept: longer than the idle timeout of any
    /// load balancer or client pool in front (the AWS template's balancer keeps 120 s).
    #[arg(long, env = "UDD_KEEP_ALIVE_SECS", default_value_t = app::http::serve::KEEP_ALIVE_IDLE.as_secs(), value_parser = clap::value_parser!(u64).range(1..=3_600), global = true)]
    pub(crate) keep_alive_secs: u64,
    /// Usernames of the operators (comma-separated): claimed accounts that may open the review
    /// of reports and flagged results at /operator. Nobody, by default.
    #[arg(long, env = "UDD_OPERATORS", value_delimiter = ',', global = true)]
    pub(crate) operators: Vec<String>,
    /// Live streams one client address may hold open across every instance.
    #[arg(long, env = "UDD_STREAMS_PER_CLIENT", default_value_t = app::live::STREAMS_PER_CLIENT, value_parser = clap::value_parser!(u32).range(1..=100_000), global = true)]
    streams_per_client: u32,
}

/// The table `create-table` makes: on demand, with a ceiling if asked (a table that exists is
/// left as it is).
#[derive(Debug, clap::Args)]
pub(crate) struct CreateTableArgs {
    /// The most read request units a second the new table may use (none by default).
    #[arg(long, value_parser = clap::value_parser!(i64).range(1..))]
    pub(crate) max_read_units: Option<i64>,
    /// The most write request units a second the new table may use (none by default).
    #[arg(long, value_parser = clap::value_parser!(i64).range(1..))]
    pub(crate) max_write_units: Option<i64>,
}

impl CreateTableArgs {
    pub(crate) fn ceiling(&self) -> app::store::table::Ceiling {
        app::store::table::Ceiling {
            max_read_units: self.max_read_units,
            max_write_units: self.max_write_units,
        }
    }
}

/// A peer address: `http://host:port`, without a path.
fn parse_peer_address(raw: &str) -> Result<String, String> {
    let rest = raw
        .strip_prefix("http://")
        .ok_or("a peer address is http://host:port")?;
    let valid = !rest.is_empty()
        && rest.contains(':')
        && rest
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
    if valid {
        Ok(raw.to_owned())
    } else {
        Err(format!("{raw:?} is not http://host:port"))
    }
}

/// The metrics address, or none.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MetricsAddress(pub(crate) Option<SocketAddr>);

fn parse_metrics_address(raw: &str) -> Result<MetricsAddress, String> {
    if raw == "off" {
        return Ok(MetricsAddress(None));
    }
    raw.parse()
        .map(|addr| MetricsAddress(Some(addr)))
        .map_err(|_| format!("{raw:?} is not an address (host:port) or `off`"))
}

/// The trusted proxies as one setting (clap would read a bare list as repeated flags).
#[derive(Debug, Clone)]
struct Proxies(Vec<app::http::guard::IpNet>);

fn parse_proxies(raw: &str) -> Result<Proxies, String> {
    SecurityConfig::parse_proxies(raw).map(Proxies)
}

impl ServeArgs {
    /// The operators' usernames, each checked.
    pub(crate) fn operators(&self) -> anyhow::Result<Vec<app::identity::Username>> {
        self.operators
            .iter()
            .filter(|name| !name.trim().is_empty())
            .map(|name| {
                app::identity::Username::parse(name.trim().trim_start_matches('@'))
                    .map_err(|e| anyhow::anyhow!("UDD_OPERATORS: {name}: {e}"))
            })
            .collect()
    }

    pub(crate) fn security(&self) -> SecurityConfig {
        SecurityConfig {
            public_origin: self.public_origin.clone(),
            trusted_proxies: self
                .trusted_proxies
                .clone()
                .map(|p| p.0)
                .unwrap_or_default(),
            server_timing: self.server_timing,
            streams_per_client: self.streams_per_client,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum EngineKind {
    Embedded,
    Endpoint,
    Aws,
}

/// Where the table lives (every option also reads its environment variable).
#[derive(Debug, clap::Args)]
pub(crate) struct StoreArgs {
    /// embedded (default), endpoint (needs UDD_DYNAMODB_ENDPOINT) or aws.
    #[arg(long, env = "UDD_ENGINE", value_enum, global = true)]
    engine: Option<EngineKind>,
    /// A DynamoDB-compatible endpoint, e.g. http://127.0.0.1:8000 for DynamoDB Local.
    #[arg(long, env = "UDD_DYNAMODB_ENDPOINT", global = true)]
    endpoint: Option<String>,
    /// Where the embedded engine keeps its SQLite file.
    #[arg(long, env = "UDD_DATA_DIR", default_value = "data", global = true)]
    pub(crate) data_dir: PathBuf,
    /// The table's name.
    #[arg(long, env = "UDD_TABLE", default_value = "udd", global = true)]
    pub(crate) table: String,
}

impl StoreArgs {
    pub(crate) fn engine_config(&self) -> anyhow::Result<EngineConfig> {
        let kind = self.engine.unwrap_or(if self.endpoint.is_some() {
            EngineKind::Endpoint
        } else {
            EngineKind::Embedded
        });
        Ok(match kind {
            EngineKind::Embedded => EngineConfig::Embedded {
                data_dir: Some(self.data_dir.clone()),
            },
            EngineKind::Endpoint => EngineConfig::Endpoint {
                url: self
                    .endpoint
                    .clone()
                    .context("UDD_ENGINE=endpoint needs UDD_DYNAMODB_ENDPOINT")?,
                key: None,
            },
            EngineKind::Aws => EngineConfig::Aws,
        })
    }
}
