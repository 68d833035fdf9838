//! Which DynamoDB the server talks to, and the one SDK client for it.
//!
//! By default the server embeds dynoxide (a SQLite-backed DynamoDB API) under a data directory
//! and serves it on a loopback port to holders of a random key ([`front`]), so a newcomer needs
//! no AWS account. An endpoint URL points it at DynamoDB Local or any compatible engine (with
//! `UDD_ENGINE_KEY` as the access key id when set); `aws` uses aws-config's default chain.

pub mod front;
pub mod retries;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use aws_config::timeout::TimeoutConfig;
use aws_config::BehaviorVersion;
use aws_sdk_dynamodb::config::{Credentials, Region};
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodbstreams::Client as StreamsClient;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// Where the table lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineConfig {
    /// dynoxide in this process, file-backed under `data_dir` (or in memory when `None`).
    Embedded { data_dir: Option<PathBuf> },
    /// Any DynamoDB-compatible endpoint, e.g. DynamoDB Local at `http://127.0.0.1:8000`,
    /// presenting `key` as the access key id (`None`: `UDD_ENGINE_KEY`, else `uddlocal`).
    /// DynamoDB Local keeps a database apart for each access key (and region).
    Endpoint { url: String, key: Option<String> },
    /// Real DynamoDB, configured by the standard AWS environment (region, credentials, profile).
    Aws,
}

impl EngineConfig {
    /// A short name for logs and `/healthz`.
    pub fn kind(&self) -> &'static str {
        match self {
            EngineConfig::Embedded { .. } => "embedded",
            EngineConfig::Endpoint { .. } => "endpoint",
            EngineConfig::Aws => "aws",
        }
    }
}

/// A running engine connection. Dropping it without [`Engine::stop`] abandons the embedded
/// server task; call `stop` on shutdown.
pub struct Engine {
    pub config: EngineConfig,
    /// The players' path: requests and the rooms' watchers ([`retries::Partition::Players`]).
    pub client: Client,
    /// The background work: the board projector, the instances' registry and news, on retries
    /// of its own ([`retries::Partition::Background`]).
    pub background: Client,
    /// The retries each of the two took and was refused.
    pub retries: Retries,
    /// The same engine's DynamoDB Streams API (the board projector reads the table's stream).
    pub streams: StreamsClient,
    /// Where the embedded engine listens, if there is one.
    pub embedded_addr: Option<SocketAddr>,
    embedded: Option<Embedded>,
}

/// The retries of the engine's two clients.
#[derive(Debug, Clone, Default)]
pub struct Retries {
    pub players: retries::RetryCounts,
    pub background: retries::RetryCounts,
}

/// The players' client and the background's, each on its own retry partition, from one
/// configuration.
fn clients(shared: &aws_config::SdkConfig) -> (Client, Client, Retries) {
    use retries::{apart, Partition};
    let base = Client::new(shared);
    let (players, players_retries) = apart(&base, Partition::Players);
    let (background, background_retries) = apart(&base, Partition::Background);
    let retries = Retries {
        players: players_retries,
        background: background_retries,
    };
    (players, background, retries)
}

struct Embedded {
    shutdown: oneshot::Sender<()>,
    server: JoinHandle<Result<(), String>>,
    sweeper: JoinHandle<()>,
    /// The directory of an engine started without one, removed when the engine is dropped.
    _scratch: Option<tempfile::TempDir>,
}

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("could not open the embedded database at {path}")]
    Open {
        path: String,
        #[source]
        source: dynoxide::DynoxideError,
    },
    #[error("could not create the data directory {path}")]
    DataDir {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("could not listen on the embedded engine's address")]
    Listen(#[source] std::io::Error),
    #[error("could not index the stream records in {path}")]
    Tune {
        path: String,
        #[source]
        source: rusqlite::Error,
    },
}

/// The variable that carries the standalone engine's key to every instance that shares it.
pub const ENGINE_KEY_VAR: &str = "UDD_ENGINE_KEY";

/// Credentials for local engines. DynamoDB Local checks only that some are present (and accepts
/// only letters and digits in an access key id); Udd's own engine front checks that the access
/// key id is its key.
fn local_credentials(key: &str) -> Credentials {
    Credentials::new(key, key, None, None, "udd-local")
}

fn timeouts() -> TimeoutConfig {
    TimeoutConfig::builder()
        .connect_timeout(Duration::from_secs(2))
        .operation_attempt_timeout(Duration::from_secs(5))
        .operation_timeout(Duration::from_secs(15))
        .build()
}

/// A client for a local endpoint: fixed region, local credentials unless the environment has
/// real ones. The access key id is `UDD_ENGINE_KEY` when set (a shared standalone engine).
pub async fn endpoint_client(url: &str) -> Client {
    endpoint_client_with_key(url, &default_endpoint_key()).await
}

/// The access key id a local endpoint is given when none is named: `UDD_ENGINE_KEY`, else
/// `uddlocal`.
fn default_endpoint_key() -> String {
    std::env::var(ENGINE_KEY_VAR).unwrap_or_else(|_| "uddlocal".to_owned())
}

/// A client for a local endpoint that presents `key`.
pub async fn endpoint_client_with_key(url: &str, key: &str) -> Client {
    Client::new(&endpoint_config(url, key).await)
}

/// The SDK configuration for a local endpoint that presents `key` (one for both clients).
async fn endpoint_config(url: &str, key: &str) -> aws_config::SdkConfig {
    let has_env_credentials = std::env::var_os("AWS_ACCESS_KEY_ID").is_some();
    let mut loader = aws_config::defaults(BehaviorVersion::latest())
        .endpoint_url(url)
        .timeout_config(timeouts());
    if std::env::var_os("AWS_REGION").is_none() && std::env::var_os("AWS_DEFAULT_REGION").is_none()
    {
        loader = loader.region(Region::from_static("us-east-1"));
    }
    if !has_env_credentials {
        loader = loader.credentials_provider(local_credentials(key));
    }
    loader.load().await
}

/// The embedded database, open: dynoxide's handle, the file it lives in, and the scratch
/// directory holding that file when the caller gave none.
struct Opened {
    database: dynoxide::Database,
    file: PathBuf,
    scratch: Option<tempfile::TempDir>,
}

/// Opens the embedded database: `udd.sqlite` under `data_dir`, or under a scratch directory
/// removed with the engine (the file, not memory, so that [`tune_stream_table`] can reach it).
/// The data file is readable by its owner only (0600; SQLite gives its journal files the same
/// mode), and a data directory the server creates is its owner's only (0700).
fn open_database(data_dir: Option<&std::path::Path>) -> Result<Opened, EngineError> {
    let scratch = match data_dir {
        Some(_) => None,
        None => Some(tempfile::tempdir().map_err(|source| EngineError::DataDir {
            path: std::env::temp_dir().display().to_string(),
            source,
        })?),
    };
    let dir = data_dir.unwrap_or_else(|| scratch.as_ref().expect("made above").path());
    let data_dir_error = |source| EngineError::DataDir {
        path: dir.display().to_string(),
        source,
    };
    private_dir(dir).map_err(data_dir_error)?;
    let file = dir.join("udd.sqlite");
    private_file(&file).map_err(data_dir_error)?;
    let path = file.display().to_string();
    let database = dynoxide::Database::new(&path).map_err(|source| EngineError::Open {
        path: path.clone(),
        source,
    })?;
    tune_stream_table(&file).map_err(|source| EngineError::Tune { path, source })?;
    Ok(Opened {
        database,
        file,
        scratch,
    })
}

/// dynoxide keeps every stream record in one SQLite table and, on every item it writes, finds the
/// next sequence number with `MAX(CAST(sequence_number AS INTEGER))` over that table, which has
/// no index for it; GetRecords orders by the same expression. So each write scans every record
/// ever written: measured at 34 ms per write after 200,000 records (0.01 ms with the index).
/// Udd adds expression indexes that match those queries exactly, from its own connection to the
/// file, once at start-up (idempotent).
fn tune_stream_table(file: &std::path::Path) -> rusqlite::Result<()> {
    let connection = rusqlite::Connection::open(file)?;
    connection.busy_timeout(Duration::from_secs(5))?;
    connection.execute_batch(
        "CREATE INDEX IF NOT EXISTS udd_stream_next \
             ON _stream_records (table_name, CAST(sequence_number AS INTEGER)); \
         CREATE INDEX IF NOT EXISTS udd_stream_shard \
             ON _stream_records (table_name, shard_id, CAST(sequence_number AS INTEGER)); \
         CREATE INDEX IF NOT EXISTS udd_stream_age ON _stream_records (created_at);",
    )
}

/// How long the embedded engine keeps stream records: as long as DynamoDB Streams does.
pub const STREAM_RETENTION_SECS: i64 = 24 * 3600;

/// Deletes stream records older than [`STREAM_RETENTION_SECS`], as DynamoDB Streams trims its
/// shards (dynoxide itself never does, so the table would grow for ever). Returns how many.
fn trim_stream(file: &std::path::Path) -> rusqlite::Result<usize> {
    let connection = rusqlite::Connection::open(file)?;
    connection.busy_timeout(Duration::from_secs(5))?;
    let cutoff = crate::store::epoch_seconds() - STREAM_RETENTION_SECS;
    connection.execute(
        "DELETE FROM _stream_records WHERE created_at < ?1",
        [cutoff],
    )
}

#[cfg(unix)]
fn private_dir(dir: &std::path::Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    if dir.exists() {
        return Ok(());
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

#[cfg(not(unix))]
fn private_dir(dir: &std::path::Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)
}

/// Creates the file owner-only if it is missing, and makes an existing one owner-only.
#[cfg(unix)]
fn private_file(file: &std::path::Path) -> std::io::Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(file)?;
    std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600))?;
    for journal in ["udd.sqlite-wal", "udd.sqlite-shm"] {
        let path = file.with_file_name(journal);
        if path.exists() {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
        }
    }
    Ok(())
}

#[cfg(not(unix))]
fn private_file(_file: &std::path::Path) -> std::io::Result<()> {
    Ok(())
}

impl Engine {
    /// Serves the embedded engine on `listen` for other processes (several server instances
    /// pointing at one table by endpoint URL), until `shutdown` resolves.
    /// Only clients presenting `key` as their access key id are served.
    pub async fn serve_standalone(
        data_dir: Option<&std::path::Path>,
        listen: SocketAddr,
        key: &str,
        shutdown: impl std::future::Future<Output = ()>,
    ) -> Result<SocketAddr, EngineError> {
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .map_err(EngineError::Listen)?;
        let (addr, embedded) = serve_embedded(open_database(data_dir)?, listener, key).await?;
        println!("Embedded engine serving at http://{addr}");
        shutdown.await;
        let shared = endpoint_config(&format!("http://{addr}"), key).await;
        let (client, background, retries) = clients(&shared);
        Engine {
            config: EngineConfig::Embedded {
                data_dir: data_dir.map(ToOwned::to_owned),
            },
            client,
            background,
            retries,
            streams: StreamsClient::new(&shared),
            embedded_addr: Some(addr),
            embedded: Some(embedded),
        }
        .stop()
        .await;
        Ok(addr)
    }

    pub async fn start(config: EngineConfig) -> Result<Self, EngineError> {
        match &config {
            EngineConfig::Embedded { data_dir } => {
                let database = open_database(data_dir.as_deref())?;
                let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
                    .await
                    .map_err(EngineError::Listen)?;
                // A key made for this run: only this process's client ever learns it.
                let key = front::random_key();
                let (addr, embedded) = serve_embedded(database, listener, &key).await?;
                let shared = endpoint_config(&format!("http://{addr}"), &key).await;
                let (client, background, retries) = clients(&shared);
                Ok(Self {
                    config,
                    client,
                    background,
                    retries,
                    streams: StreamsClient::new(&shared),
                    embedded_addr: Some(addr),
                    embedded: Some(embedded),
                })
            }
            EngineConfig::Endpoint { url, key } => {
                let key = key.clone().unwrap_or_else(default_endpoint_key);
                let shared = endpoint_config(url, &key).await;
                let (client, background, retries) = clients(&shared);
                Ok(Self {
                    client,
                    background,
                    retries,
                    streams: StreamsClient::new(&shared),
                    config,
                    embedded_addr: None,
                    embedded: None,
                })
            }
            EngineConfig::Aws => {
                let shared = aws_config::defaults(BehaviorVersion::latest())
                    .timeout_config(timeouts())
                    .load()
                    .await;
                let (client, background, retries) = clients(&shared);
                Ok(Self {
                    client,
                    background,
                    retries,
                    streams: StreamsClient::new(&shared),
                    config,
                    embedded_addr: None,
                    embedded: None,
                })
            }
        }
    }

    /// Stops the embedded engine after its in-flight requests finish.
    pub async fn stop(self) {
        if let Some(embedded) = self.embedded {
            embedded.sweeper.abort();
            let _ = embedded.shutdown.send(());
            match embedded.server.await {
                Ok(Ok(())) => tracing::info!("embedded engine stopped"),
                Ok(Err(err)) => tracing::error!(%err, "embedded engine failed"),
                Err(err) => tracing::error!(%err, "embedded engine task failed"),
            }
        }
    }
}

/// Runs one of the sweeper's blocking chores off the async threads; it reports how many rows it
/// deleted, and a failure is logged and tried again at the next sweep.
async fn chore<E: std::fmt::Display + Send + 'static>(
    done: &'static str,
    work: impl FnOnce() -> Result<usize, E> + Send + 'static,
) {
    match tokio::task::spawn_blocking(work).await {
        Ok(Ok(0)) => {}
        Ok(Ok(n)) => tracing::debug!(deleted = n, "{done}"),
        Ok(Err(err)) => tracing::warn!(%err, "{done}: failed"),
        Err(err) => tracing::warn!(%err, "{done}: task failed"),
    }
}

/// How often the embedded engine deletes expired items, as DynamoDB's TTL sweeper would.
const TTL_SWEEP_EVERY: Duration = Duration::from_secs(30);

async fn serve_embedded(
    opened: Opened,
    listener: tokio::net::TcpListener,
    key: &str,
) -> Result<(SocketAddr, Embedded), EngineError> {
    let Opened {
        database,
        file,
        scratch,
    } = opened;
    let addr = listener.local_addr().map_err(EngineError::Listen)?;
    let (shutdown, stopped) = oneshot::channel::<()>();
    let sweeping = database.clone();
    let sweeper = tokio::spawn(async move {
        let mut every = tokio::time::interval(TTL_SWEEP_EVERY);
        loop {
            every.tick().await;
            let db = sweeping.clone();
            chore("swept expired items", move || db.sweep_ttl()).await;
            let file = file.clone();
            chore("trimmed old stream records", move || trim_stream(&file)).await;
        }
    });
    let app = front::router(database, key);
    let server = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                let _ = stopped.await;
            })
            .await
            .map_err(|e| format!("engine server failed: {e}"))
    });
    Ok((
        addr,
        Embedded {
            shutdown,
            server,
            sweeper,
            _scratch: scratch,
        },
    ))
}
