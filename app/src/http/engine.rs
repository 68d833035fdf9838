//! Which DynamoDB the server talks to, and the one SDK client for it.
//!
//! By default the server embeds dynoxide (a SQLite-backed DynamoDB API) under a data directory
//! and serves it on a loopback port to holders of a random key ([`front`]), so a newcomer needs
//! no AWS account. An endpoint URL points it at DynamoDB Local or any compatible engine (with
//! `UDD_ENGINE_KEY` as the access key id when set); `aws` uses aws-config's default chain.

pub mod front;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use aws_config::timeout::TimeoutConfig;
use aws_config::BehaviorVersion;
use aws_sdk_dynamodb::config::{Credentials, Region};
use aws_sdk_dynamodb::Client;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// Where the table lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineConfig {
    /// dynoxide in this process, file-backed under `data_dir` (or in memory when `None`).
    Embedded { data_dir: Option<PathBuf> },
    /// Any DynamoDB-compatible endpoint, e.g. DynamoDB Local at `http://127.0.0.1:8000`.
    Endpoint { url: String },
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
    pub client: Client,
    /// Where the embedded engine listens, if there is one.
    pub embedded_addr: Option<SocketAddr>,
    embedded: Option<Embedded>,
}

struct Embedded {
    shutdown: oneshot::Sender<()>,
    server: JoinHandle<Result<(), String>>,
    sweeper: JoinHandle<()>,
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
    let key = std::env::var(ENGINE_KEY_VAR).unwrap_or_else(|_| "uddlocal".to_owned());
    endpoint_client_with_key(url, &key).await
}

/// A client for a local endpoint that presents `key`.
pub async fn endpoint_client_with_key(url: &str, key: &str) -> Client {
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
    Client::new(&loader.load().await)
}

/// Opens the embedded database: `udd.sqlite` under `data_dir`, or in memory. The data file is
/// readable by its owner only (0600; SQLite gives its journal files the same mode), and a data
/// directory the server creates is its owner's only (0700).
fn open_database(data_dir: Option<&std::path::Path>) -> Result<dynoxide::Database, EngineError> {
    match data_dir {
        Some(dir) => {
            let data_dir_error = |source| EngineError::DataDir {
                path: dir.display().to_string(),
                source,
            };
            private_dir(dir).map_err(data_dir_error)?;
            let file = dir.join("udd.sqlite");
            private_file(&file).map_err(data_dir_error)?;
            let path = file.display().to_string();
            dynoxide::Database::new(&path).map_err(|source| EngineError::Open { path, source })
        }
        None => dynoxide::Database::memory().map_err(|source| EngineError::Open {
            path: ":memory:".into(),
            source,
        }),
    }
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
        Engine {
            config: EngineConfig::Embedded {
                data_dir: data_dir.map(ToOwned::to_owned),
            },
            client: endpoint_client_with_key(&format!("http://{addr}"), key).await,
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
                let client = endpoint_client_with_key(&format!("http://{addr}"), &key).await;
                Ok(Self {
                    config,
                    client,
                    embedded_addr: Some(addr),
                    embedded: Some(embedded),
                })
            }
            EngineConfig::Endpoint { url } => Ok(Self {
                client: endpoint_client(url).await,
                config,
                embedded_addr: None,
                embedded: None,
            }),
            EngineConfig::Aws => {
                let shared = aws_config::defaults(BehaviorVersion::latest())
                    .timeout_config(timeouts())
                    .load()
                    .await;
                Ok(Self {
                    client: Client::new(&shared),
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

/// How often the embedded engine deletes expired items, as DynamoDB's TTL sweeper would.
const TTL_SWEEP_EVERY: Duration = Duration::from_secs(30);

async fn serve_embedded(
    database: dynoxide::Database,
    listener: tokio::net::TcpListener,
    key: &str,
) -> Result<(SocketAddr, Embedded), EngineError> {
    let addr = listener.local_addr().map_err(EngineError::Listen)?;
    let (shutdown, stopped) = oneshot::channel::<()>();
    let sweeping = database.clone();
    let sweeper = tokio::spawn(async move {
        let mut every = tokio::time::interval(TTL_SWEEP_EVERY);
        loop {
            every.tick().await;
            let db = sweeping.clone();
            match tokio::task::spawn_blocking(move || db.sweep_ttl()).await {
                Ok(Ok(0)) => {}
                Ok(Ok(n)) => tracing::debug!(deleted = n, "swept expired items"),
                Ok(Err(err)) => tracing::warn!(%err, "TTL sweep failed"),
                Err(err) => tracing::warn!(%err, "TTL sweep task failed"),
            }
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
        },
    ))
}
