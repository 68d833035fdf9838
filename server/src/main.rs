//! `udd-server`: serves the game (default), creates the table for operators, prints the
//! CloudFormation template, or runs the benchmark.

mod bench;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use app::catalog::{self, seed::SEED};
use app::data::{table, Db};
use app::engine::{Engine, EngineConfig};
use app::http::{router, AppState};
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
}

/// How the game server runs.
#[derive(Debug, Clone, clap::Args)]
struct ServeArgs {
    /// How often (ms) a watched room is polled for changes made through other instances; the
    /// live-lobby cost is one small consistent read per watched room per interval.
    #[arg(long, env = "UDD_LIVE_POLL_MS", default_value_t = 400, value_parser = clap::value_parser!(u64).range(50..=10_000), global = true)]
    live_poll_ms: u64,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum EngineKind {
    Embedded,
    Endpoint,
    Aws,
}

/// Where the table lives (every option also reads its environment variable).
#[derive(Debug, clap::Args)]
struct StoreArgs {
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
        Command::Engine { listen } => {
            let addr =
                Engine::serve_standalone(Some(&cli.store.data_dir), listen, shutdown_signal())
                    .await?;
            tracing::info!(%addr, "embedded engine stopped");
            Ok(())
        }
    }
}

/// Opens the table (creating and seeding it as needed) on the configured engine.
async fn open_store(store: &StoreArgs) -> anyhow::Result<(Engine, Db)> {
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
    db.ensure_table().await.context("creating the table")?;
    let things = catalog::validate(SEED)
        .map_err(|problems| anyhow::anyhow!("the seed catalog is invalid: {problems:?}"))?;
    let seeded = db
        .seed_catalog(&things)
        .await
        .context("seeding the catalog")?;
    tracing::info!(?seeded, "catalog ready");
    Ok((engine, db))
}

async fn serve(store: &StoreArgs, args: &ServeArgs) -> anyhow::Result<()> {
    let leptos_options = get_configuration(None)?.leptos_options;
    let addr: SocketAddr = leptos_options.site_addr;
    let (engine, db) = open_store(store).await?;
    let state = AppState::with_poll(
        leptos_options,
        db,
        engine.config.kind(),
        Duration::from_millis(args.live_poll_ms),
    );
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("listening on {addr}"))?;
    let bound = listener.local_addr()?;
    tracing::info!("Udd is serving at http://{bound}");
    println!("Udd is serving at http://{bound}");
    // Connection info lets rate limits key on the client's address.
    axum::serve(
        listener,
        router(state).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown_signal())
    .await?;
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
