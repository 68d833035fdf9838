//! The fleet: the server instances and the engine they share, started as child processes on
//! loopback, waited for until healthy, and each instance's CPU as the kernel counts it.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use anyhow::{bail, ensure, Context};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use tokio::process::{Child, Command};

use super::LoadArgs;

/// The server processes and the engine they share, stopped when dropped.
pub(super) struct Fleet {
    engine: Option<Child>,
    instances: Vec<Child>,
    pub(super) bases: Vec<String>,
    /// How an instance is started again (a deploy's replacement, a killed one's successor).
    launch: Launch,
    _data: tempfile::TempDir,
}

/// What every instance is started with.
struct Launch {
    exe: PathBuf,
    endpoint: String,
    key: String,
    table: String,
    site_root: PathBuf,
    read_price: f64,
    write_price: f64,
    first_port: u16,
    /// Each instance's `GET /metrics` on its own loopback port from here (`--instances` ports
    /// after the engine's).
    first_metrics_port: u16,
}

/// How an instance is stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stop {
    /// SIGTERM, as a deploy stops a task: it drains (streams end, requests in flight finish).
    Term,
    /// SIGKILL: nothing finishes.
    Kill,
}

impl Fleet {
    pub(super) async fn start(args: &LoadArgs, table: &str) -> anyhow::Result<Self> {
        let exe = std::env::current_exe()?;
        let data = tempfile::tempdir()?;
        let key = ulid::Ulid::new().to_string();
        let engine_port = args.port + args.instances as u16;
        let (endpoint, engine) = match &args.dynamodb {
            Some(url) => {
                let host = url
                    .trim_start_matches("http://")
                    .split(['/', ':'])
                    .next()
                    .unwrap_or_default();
                ensure!(
                    host == "127.0.0.1" || host == "localhost" || host == "[::1]",
                    "the load runs on loopback only: {url} is not on this machine"
                );
                (url.clone(), None)
            }
            None => {
                let engine = Command::new(&exe)
                    .arg("engine")
                    .arg("--listen")
                    .arg(format!("127.0.0.1:{engine_port}"))
                    .env("UDD_DATA_DIR", data.path())
                    .env("UDD_ENGINE_KEY", &key)
                    // UDD_LOAD_ENGINE_LOG=app::http::engine=debug shows its chores (the TTL
                    // sweep, the stream's trim), on stderr.
                    .env(
                        "RUST_LOG",
                        std::env::var("UDD_LOAD_ENGINE_LOG").unwrap_or_else(|_| "warn".into()),
                    )
                    .stdout(Stdio::null())
                    .kill_on_drop(true)
                    .spawn()
                    .context("starting the engine")?;
                wait_for_port(engine_port).await?;
                (format!("http://127.0.0.1:{engine_port}"), Some(engine))
            }
        };
        let site_root: PathBuf = std::env::var("LEPTOS_SITE_ROOT")
            .unwrap_or_else(|_| "target/site".into())
            .into();
        let mut fleet = Fleet {
            engine,
            instances: Vec::new(),
            bases: Vec::new(),
            launch: Launch {
                exe,
                endpoint,
                key,
                table: table.to_owned(),
                site_root,
                read_price: args.read_price,
                write_price: args.write_price,
                first_port: args.port,
                first_metrics_port: engine_port + 1,
            },
            _data: data,
        };
        for i in 0..args.instances as usize {
            let child = fleet.launch.spawn(i)?;
            fleet.instances.push(child);
            let base = fleet.launch.base(i);
            // The first instance creates the table and seeds it; then the next starts.
            wait_for_health(&base).await?;
            fleet.bases.push(base);
        }
        Ok(fleet)
    }

    /// Stops instance `i` (a SIGTERM waits for it to drain and exit) and starts a new one on
    /// its port, healthy when this returns. Returns how long the old one took to exit and the
    /// new one to answer healthy.
    pub(super) async fn replace(
        &mut self,
        i: usize,
        stop: Stop,
    ) -> anyhow::Result<(Duration, Duration)> {
        let child = &mut self.instances[i];
        let at = std::time::Instant::now();
        match stop {
            Stop::Term => {
                let pid = child.id().context("the instance has exited already")?;
                let sent = std::process::Command::new("kill")
                    .args(["-TERM", &pid.to_string()])
                    .status()?;
                ensure!(sent.success(), "kill -TERM {pid} failed");
                // The grace is 25 s by default (`--shutdown-grace-ms`); a minute is plenty.
                tokio::time::timeout(Duration::from_secs(60), child.wait())
                    .await
                    .context("the instance did not exit within a minute of SIGTERM")??;
            }
            Stop::Kill => {
                child.kill().await?;
            }
        }
        let stopped = at.elapsed();
        let at = std::time::Instant::now();
        self.instances[i] = self.launch.spawn(i)?;
        wait_for_health(&self.bases[i]).await?;
        Ok((stopped, at.elapsed()))
    }

    /// Instance `i`'s process id, while it runs.
    pub(super) fn pid(&self, i: usize) -> Option<u32> {
        self.instances[i].id()
    }

    /// The engine's process id, when the fleet started one.
    pub(super) fn engine_pid(&self) -> Option<u32> {
        self.engine.as_ref().and_then(Child::id)
    }

    /// The engine's endpoint, the key of its front, and the table.
    pub(super) fn engine_access(&self) -> (&str, &str, &str) {
        (&self.launch.endpoint, &self.launch.key, &self.launch.table)
    }

    /// Where instance `i` serves `GET /metrics`.
    pub(super) fn metrics_base(&self, i: usize) -> String {
        format!(
            "http://127.0.0.1:{}",
            self.launch.first_metrics_port + i as u16
        )
    }

    pub(super) fn pids(&self) -> Vec<u32> {
        self.instances.iter().filter_map(Child::id).collect()
    }

    pub(super) async fn stop(mut self) {
        for child in self.instances.iter_mut().chain(self.engine.iter_mut()) {
            let _ = child.kill().await;
        }
    }
}

impl Launch {
    fn base(&self, i: usize) -> String {
        format!("http://127.0.0.1:{}", self.first_port + i as u16)
    }

    fn spawn(&self, i: usize) -> anyhow::Result<Child> {
        let port = self.first_port + i as u16;
        Command::new(&self.exe)
            .env("LEPTOS_SITE_ADDR", format!("127.0.0.1:{port}"))
            .env("LEPTOS_OUTPUT_NAME", "udd")
            .env("LEPTOS_SITE_ROOT", &self.site_root)
            .env("LEPTOS_SITE_PKG_DIR", "pkg")
            .env("LEPTOS_ENV", "PROD")
            .env("UDD_DYNAMODB_ENDPOINT", &self.endpoint)
            .env("UDD_ENGINE_KEY", &self.key)
            .env("UDD_TABLE", &self.table)
            .env("UDD_TRUSTED_PROXIES", "127.0.0.1")
            // Each answer says what it cost the table (a start's cost is printed).
            .env("UDD_SERVER_TIMING", "true")
            .env(
                "UDD_METRICS_ADDRESS",
                format!("127.0.0.1:{}", self.first_metrics_port + i as u16),
            )
            .env("UDD_PRICE_READ_PER_MILLION", self.read_price.to_string())
            .env("UDD_PRICE_WRITE_PER_MILLION", self.write_price.to_string())
            // UDD_LOAD_LOG=app::game=debug shows what the instances do, on stderr.
            .env(
                "RUST_LOG",
                std::env::var("UDD_LOAD_LOG").unwrap_or_else(|_| "warn".into()),
            )
            .stdout(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .context("starting a server instance")
    }
}

async fn wait_for_port(port: u16) -> anyhow::Result<()> {
    for _ in 0..600 {
        if tokio::net::TcpStream::connect(SocketAddr::from(([127, 0, 0, 1], port)))
            .await
            .is_ok()
        {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bail!("nothing listens on port {port} after a minute")
}

pub(super) async fn get_json(base: &str, path: &str) -> anyhow::Result<(u16, serde_json::Value)> {
    let http: Client<HttpConnector, Full<Bytes>> =
        Client::builder(TokioExecutor::new()).build_http();
    let response = http
        .request(http::Request::get(format!("{base}{path}")).body(Full::new(Bytes::new()))?)
        .await?;
    let status = response.status().as_u16();
    let body = response.into_body().collect().await?.to_bytes();
    Ok((status, serde_json::from_slice(&body).unwrap_or_default()))
}

/// A page's text (a metrics scrape).
pub(super) async fn get_text(base: &str, path: &str) -> anyhow::Result<String> {
    let http: Client<HttpConnector, Full<Bytes>> =
        Client::builder(TokioExecutor::new()).build_http();
    let response = http
        .request(http::Request::get(format!("{base}{path}")).body(Full::new(Bytes::new()))?)
        .await?;
    ensure!(
        response.status() == 200,
        "{path} answered {}",
        response.status()
    );
    let body = response.into_body().collect().await?.to_bytes();
    Ok(String::from_utf8_lossy(&body).into_owned())
}

async fn wait_for_health(base: &str) -> anyhow::Result<()> {
    for _ in 0..1200 {
        if let Ok((200, _)) = get_json(base, "/healthz").await {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bail!("{base} was not healthy after two minutes")
}

/// CPU seconds (user + system) a process has used.
pub(super) fn cpu_seconds(pid: u32) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return f64::NAN;
    };
    // Fields after the command (which may hold spaces) start after the last ')'.
    let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command; the
    // kernel counts them in USER_HZ, which is 100 on Linux.
    (ticks(11) + ticks(12)) / 100.0
}
