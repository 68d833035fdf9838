//! `udd-server`: serves the game (default), creates the table for operators, prints the
//! CloudFormation template, or runs the benchmark.

mod bench;
mod ecs;
mod load;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use app::catalog::{self, seed::SEED};
use app::http::engine::{Engine, EngineConfig};
use app::http::{router, AppState, SecurityConfig};
use app::store::{table, Db};
use clap::{Parser, Subcommand, ValueEnum};
use leptos::prelude::get_configuration;
use tracing_subscriber::EnvFilter;

#[derive(Debug, Parser)]
#[command(name = "udd-server", version, about = "The Udd game server")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    store: StoreArgs,
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the game (the default).
    Serve,
    /// Create the table (idempotent) and exit.
    CreateTable,
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
enum SeasonCommand {
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
enum BoardsCommand {
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

/// How the game server runs.
#[derive(Debug, Clone, clap::Args)]
struct ServeArgs {
    /// How often (ms) a watched room is polled for changes, as a safety net: changes made
    /// through another instance arrive as its news at once (see "Live rooms"); the poll is one
    /// small eventually consistent read per watched room per interval.
    #[arg(long, env = "UDD_LIVE_POLL_MS", default_value_t = 30_000, value_parser = clap::value_parser!(u64).range(50..=300_000), global = true)]
    live_poll_ms: u64,
    /// Where the other instances reach this one (`http://host:port`) with news of rooms. By
    /// default the address it listens on (127.0.0.1 when it listens on every address): set it
    /// when instances run on different machines.
    #[arg(long, env = "UDD_PEER_ADDRESS", value_parser = parse_peer_address, global = true)]
    peer_address: Option<String>,
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
    projector: bool,
    /// The on-demand price of a million read capacity units, in US dollars (match receipts).
    #[arg(
        long,
        env = "UDD_PRICE_READ_PER_MILLION",
        default_value_t = 0.125,
        global = true
    )]
    price_read_per_million: f64,
    /// The on-demand price of a million write capacity units, in US dollars (match receipts).
    #[arg(
        long,
        env = "UDD_PRICE_WRITE_PER_MILLION",
        default_value_t = 0.625,
        global = true
    )]
    price_write_per_million: f64,
    /// Where `GET /metrics` (Prometheus text format) is served: an address of its own, loopback
    /// by default (the figures are for operators, not players); `off` for none. If the address
    /// is taken (a second instance on one machine), the instance serves without it and says so.
    #[arg(long, env = "UDD_METRICS_ADDRESS", default_value = "127.0.0.1:9464", value_parser = parse_metrics_address, global = true)]
    metrics_address: MetricsAddress,
    /// How long (ms) a shutdown (SIGTERM) may take: streams end at once and the board
    /// projector's leases are handed over; requests in flight get this long to finish.
    #[arg(long, env = "UDD_SHUTDOWN_GRACE_MS", default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1_000..=300_000), global = true)]
    shutdown_grace_ms: u64,
    /// Live streams one client address may hold open across every instance.
    #[arg(long, env = "UDD_STREAMS_PER_CLIENT", default_value_t = app::live::STREAMS_PER_CLIENT, value_parser = clap::value_parser!(u32).range(1..=100_000), global = true)]
    streams_per_client: u32,
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
struct MetricsAddress(Option<SocketAddr>);

fn parse_metrics_address(raw: &str) -> Result<MetricsAddress, String> {
    if raw == "off" {
        return Ok(MetricsAddress(None));
    }
    raw.parse()
        .map(|addr| MetricsAddress(Some(addr)))
        .map_err(|_| format!("{raw:?} is not an address (host:port) or `off`"))
}

/// Serves `GET /metrics` at `address` (see [`app::http::metrics`]); the address it serves at.
async fn serve_metrics(address: MetricsAddress) -> Option<SocketAddr> {
    let addr = address.0?;
    let handle = app::http::metrics::install()?;
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(listener) => listener,
        Err(err) => {
            tracing::warn!(%addr, %err, "cannot serve /metrics there; serving without it");
            return None;
        }
    };
    let bound = listener.local_addr().ok()?;
    tokio::spawn(async move {
        if let Err(err) = axum::serve(listener, app::http::metrics::router(handle)).await {
            tracing::warn!(%err, "the metrics listener stopped");
        }
    });
    tracing::info!("metrics at http://{bound}/metrics");
    Some(bound)
}

/// The trusted proxies as one setting (clap would read a bare list as repeated flags).
#[derive(Debug, Clone)]
struct Proxies(Vec<app::http::guard::IpNet>);

fn parse_proxies(raw: &str) -> Result<Proxies, String> {
    SecurityConfig::parse_proxies(raw).map(Proxies)
}

impl ServeArgs {
    fn security(&self) -> SecurityConfig {
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
    data_dir: PathBuf,
    /// The table's name.
    #[arg(long, env = "UDD_TABLE", default_value = "udd", global = true)]
    table: String,
}

impl StoreArgs {
    fn engine_config(&self) -> anyhow::Result<EngineConfig> {
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
            },
            EngineKind::Aws => EngineConfig::Aws,
        })
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // Logs go to stderr (stdout carries only the served address), coloured only on a terminal.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(
            EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| EnvFilter::new("info,aws_config=warn,aws_smithy_runtime=warn")),
        )
        .init();
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(&cli.store, &cli.serve).await,
        Command::CreateTable => {
            let engine = Engine::start(cli.store.engine_config()?).await?;
            let outcome = Db::new(engine.client.clone(), cli.store.table.as_str())
                .ensure_table()
                .await;
            engine.stop().await;
            println!("table {}: {:?}", cli.store.table, outcome?);
            Ok(())
        }
        Command::Template => {
            print!("{}", table::cloudformation_template());
            Ok(())
        }
        Command::Bench(args) => bench::run(args).await,
        Command::Load(args) => load::run(args).await,
        Command::Season(command) => {
            let (engine, db) = open_store(&cli.store).await?;
            let outcome = season(&db, command).await;
            engine.stop().await;
            outcome
        }
        Command::Boards(BoardsCommand::Rebuild) => {
            let (engine, db) = open_store(&cli.store).await?;
            let started = std::time::Instant::now();
            let outcome = db.boards().rebuild_boards().await;
            engine.stop().await;
            let applied = outcome?;
            println!(
                "rebuilt the boards: {} match results counted now (the rest were counted \
                 already), {} writes, {} re-planned, {:.1} s",
                applied.counted,
                applied.writes,
                applied.retries,
                started.elapsed().as_secs_f64()
            );
            Ok(())
        }
        Command::Boards(BoardsCommand::Convert) => {
            let (engine, db) = open_store(&cli.store).await?;
            let outcome = db.boards().convert_boards().await;
            engine.stop().await;
            let converted = outcome?;
            println!(
                "converted {} boards ({} entries, {} nodes of the first tree deleted)",
                converted.boards, converted.entries, converted.old_nodes
            );
            Ok(())
        }
        Command::Boards(BoardsCommand::Seed(args)) => bench::seed(&cli.store, args).await,
        Command::Grant {
            player,
            feathers,
            cards,
        } => {
            let (engine, db) = open_store(&cli.store).await?;
            let outcome = grant(&db, &player, feathers, &cards).await;
            engine.stop().await;
            outcome
        }
        Command::Engine { listen } => {
            anyhow::ensure!(
                listen.ip().is_loopback(),
                "the embedded engine listens on loopback only (127.0.0.1 or ::1): its traffic is \
                 not encrypted; share a table across machines with DynamoDB instead"
            );
            let key = match std::env::var(app::http::engine::ENGINE_KEY_VAR) {
                Ok(key) if app::http::engine::front::valid_key(&key) => key,
                Ok(_) => anyhow::bail!(
                    "{} must be 16 to 128 letters and digits",
                    app::http::engine::ENGINE_KEY_VAR
                ),
                Err(_) => {
                    let key = app::http::engine::front::random_key();
                    println!(
                        "Engine key: {key} (give it to every instance as {}={key})",
                        app::http::engine::ENGINE_KEY_VAR
                    );
                    key
                }
            };
            let addr = Engine::serve_standalone(
                Some(&cli.store.data_dir),
                listen,
                &key,
                shutdown_signal(),
            )
            .await?;
            tracing::info!(%addr, "embedded engine stopped");
            Ok(())
        }
    }
}

async fn grant(db: &Db, player: &str, feathers: u64, cards: &[String]) -> anyhow::Result<()> {
    use app::inventory::{Rewards, ThingId};
    let user = match app::identity::UserId::parse(player) {
        Ok(id) => id,
        Err(_) => {
            let name = app::identity::Username::parse(player).map_err(|e| anyhow::anyhow!(e))?;
            db.accounts()
                .user_by_username(&name)
                .await?
                .ok_or_else(|| anyhow::anyhow!("no player has the username {name}"))?
        }
    };
    let cards: Vec<ThingId> = if cards.iter().any(|c| c == "all") {
        app::inventory::store::CARDS.keys().cloned().collect()
    } else {
        cards
            .iter()
            .filter(|c| !c.trim().is_empty())
            .map(|c| {
                let thing =
                    ThingId::parse(c).map_err(|_| anyhow::anyhow!("{c}: not a thing id"))?;
                anyhow::ensure!(
                    app::inventory::store::card(&thing).is_some(),
                    "{c}: there is no such card"
                );
                Ok(thing)
            })
            .collect::<anyhow::Result<_>>()?
    };
    db.inventory()
        .grant_rewards(
            &user,
            &Rewards {
                cards: cards.clone(),
                feathers,
                badges: Vec::new(),
            },
        )
        .await?;
    println!("gave {user} {} cards and {feathers} feathers", cards.len());
    Ok(())
}

async fn season(db: &Db, command: SeasonCommand) -> anyhow::Result<()> {
    match command {
        SeasonCommand::Start {
            id,
            name,
            days,
            start_ms,
        } => {
            let id = app::leaderboards::SeasonId::parse(&id).map_err(|e| anyhow::anyhow!(e))?;
            anyhow::ensure!((1..=3650).contains(&days), "a season lasts 1 to 3650 days");
            let start = start_ms.unwrap_or_else(app::store::epoch_millis);
            let season = db
                .boards()
                .start_season(&id, &name, start, start + days * 86_400_000)
                .await?;
            println!(
                "season {} ({}) starts {} ms, ends {} ms",
                season.id, season.name, season.start_ms, season.end_ms
            );
        }
        SeasonCommand::List => {
            for s in db.boards().seasons().await? {
                println!("{}\t{}\t{}\t{}", s.id, s.name, s.start_ms, s.end_ms);
            }
        }
    }
    Ok(())
}

/// Opens the table (creating and seeding it as needed) on the configured engine.
pub(crate) async fn open_store(store: &StoreArgs) -> anyhow::Result<(Engine, Db)> {
    let config = store.engine_config()?;
    let engine = Engine::start(config.clone())
        .await
        .context("starting the DynamoDB engine")?;
    let db = Db::new(engine.client.clone(), store.table.as_str());
    let where_ = match (&config, engine.embedded_addr) {
        (EngineConfig::Embedded { data_dir }, Some(addr)) => format!(
            "embedded dynoxide at http://{addr}, file {}",
            data_dir
                .as_ref()
                .map(|d| d.join("udd.sqlite").display().to_string())
                .unwrap_or_else(|| ":memory:".into())
        ),
        (EngineConfig::Endpoint { url }, _) => format!("endpoint {url}"),
        _ => "AWS DynamoDB (default credential chain)".to_owned(),
    };
    tracing::info!(
        engine = config.kind(),
        table = db.table_name(),
        "using {where_}"
    );
    // On AWS the table is the operator's (its stack): checked, never created or altered, so
    // the service's role needs no rights over the table's definition.
    if matches!(config, EngineConfig::Aws) {
        db.check_table().await.context("checking the table")?;
    } else {
        db.ensure_table().await.context("creating the table")?;
    }
    let things = catalog::validate(SEED)
        .map_err(|problems| anyhow::anyhow!("the seed catalog is invalid: {problems:?}"))?;
    let seeded = db
        .catalog()
        .seed_catalog(&things)
        .await
        .context("seeding the catalog")?;
    tracing::info!(?seeded, "catalog ready");
    db.inventory()
        .seed_shop()
        .await
        .context("writing the shop's list")?;
    db.ensure_secret()
        .await
        .context("reading the table's shared secret")?;
    Ok((engine, db))
}

async fn serve(store: &StoreArgs, args: &ServeArgs) -> anyhow::Result<()> {
    let leptos_options = get_configuration(None)?.leptos_options;
    let addr: SocketAddr = leptos_options.site_addr;
    let (engine, db) = open_store(store).await?;
    anyhow::ensure!(
        args.price_read_per_million >= 0.0 && args.price_write_per_million >= 0.0,
        "prices cannot be negative"
    );
    let db = db.with_pricing(app::store::Pricing {
        read_per_million: args.price_read_per_million,
        write_per_million: args.price_write_per_million,
    });
    let (stop_projector, projector_stopped) = tokio::sync::oneshot::channel::<()>();
    let projector = args.projector.then(|| {
        app::leaderboards::projector::Projector::new(
            db.counted_as("projector"),
            engine.streams.clone(),
        )
    });
    let handover = projector.as_ref().map(|p| p.handover());
    let projector = projector.map(|projector| {
        tokio::spawn(projector.run(async {
            let _ = projector_stopped.await;
        }))
    });
    let state = AppState::with_poll(
        leptos_options,
        db,
        engine.config.kind(),
        Duration::from_millis(args.live_poll_ms),
    )
    .with_security(args.security());
    let hub = state.hub.clone();
    // Shards another instance let go of as it shut down: taken now, not when their leases end.
    if let Some(handover) = handover {
        hub.on_leases_released(move |shards| handover.offer(shards));
    }
    serve_metrics(args.metrics_address).await;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("listening on {addr}"))?;
    let bound = listener.local_addr()?;
    // Join the other instances on the table, to pass each other news of rooms.
    // On ECS the task's private address, from its metadata; else the listening address.
    let on_ecs = match (&args.peer_address, std::env::var(ecs::METADATA_VAR)) {
        (None, Ok(uri)) => {
            let found = ecs::peer_address(&uri, bound.port()).await;
            if found.is_none() {
                tracing::warn!("no address in the ECS task metadata; set UDD_PEER_ADDRESS");
            }
            found
        }
        _ => None,
    };
    let peer_address = args.peer_address.clone().or(on_ecs).unwrap_or_else(|| {
        let mut reachable = bound;
        if reachable.ip().is_unspecified() {
            reachable.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
        }
        format!("http://{reachable}")
    });
    hub.join_peers(ulid::Ulid::new().to_string(), peer_address);
    tracing::info!("Udd is serving at http://{bound}");
    println!("Udd is serving at http://{bound}");
    // On SIGTERM: streams end (browsers reconnect elsewhere) and new ones are refused; the
    // projector lets go of its shards and the others are told at once; requests in flight
    // get the grace to finish.
    let grace = Duration::from_millis(args.shutdown_grace_ms);
    let (stopping, stop_requested) = tokio::sync::oneshot::channel::<std::time::Instant>();
    let handing_over = {
        let hub = hub.clone();
        tokio::spawn(async move {
            let released = match projector {
                Some(projector) => projector.await.unwrap_or_default(),
                None => Vec::new(),
            };
            hub.tell_released(released).await;
        })
    };
    let draining = {
        let hub = hub.clone();
        async move {
            shutdown_signal().await;
            let _ = stopping.send(std::time::Instant::now());
            hub.drain();
            let _ = stop_projector.send(());
        }
    };
    // With timeouts on headers and bodies; connection info lets limits key on the client.
    app::http::serve::serve_with_grace(
        listener,
        router(state),
        app::http::serve::HEADER_READ_TIMEOUT,
        draining,
        Some(grace),
    )
    .await?;
    let left = stop_requested
        .await
        .map_or(grace, |at| grace.saturating_sub(at.elapsed()));
    if tokio::time::timeout(left, handing_over).await.is_err() {
        tracing::warn!("the board projector did not stop within the grace");
    }
    hub.leave_peers().await;
    tracing::info!("HTTP server stopped; stopping the engine");
    engine.stop().await;
    Ok(())
}

/// Resolves on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(err) = tokio::signal::ctrl_c().await {
            tracing::error!(%err, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(err) => {
                tracing::error!(%err, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutdown requested");
}
