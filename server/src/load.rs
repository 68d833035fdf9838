//! `udd-server load`: R rooms × P simulated players over HTTP against K server instances that
//! share one engine, as a party of phones would reach them. Loopback only, bounded in count and
//! time.
//!
//! Each player has its own client address (`X-Forwarded-For`, believed from loopback) and
//! session cookie. The host creates the room, the others join it (players of one room are spread
//! over the instances), everyone listens to the room's live stream, and the host starts. On each
//! reveal a player taps after a human-like reaction: nearly always on a flyer, now and then on a
//! thing that does not fly. With `--matches N` each room plays N matches in a row with the same
//! players: every room plays match k, the projector catches up, then match k + 1 starts.
//!
//! It prints tap acknowledgement latency, push latency (reveal and results reaching each
//! listener, against the schedule), taps acknowledged but missing from the results, 5xx
//! answers, each instance's CPU, and the bill: DynamoDB calls and capacity (from each instance's
//! `/healthz/usage`) by kind of work, per player-round and per player-match, and dollars per
//! 1,000 matches at on-demand prices, for the first match (fresh players), the next ones
//! (returning players) and all together.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, ensure, Context};
use app::catalog::seed::SEED;
use app::game::model::{Match, Room};
use app::live::RoomFeed;
use app::store::{epoch_millis, Pricing};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use rand::{Rng, SeedableRng};
use tokio::process::{Child, Command};

#[derive(Debug, clap::Args)]
pub struct LoadArgs {
    /// Rooms played at once.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1000))]
    rooms: u32,
    /// Players per room (the host included).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(2..=12))]
    players: u32,
    /// Server instances sharing the engine.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=8))]
    instances: u32,
    /// Rounds per match.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=30))]
    rounds: u8,
    /// A DynamoDB endpoint on this machine (DynamoDB Local); without it the run starts
    /// `udd-server engine` (the embedded engine, alone) for the instances to share.
    #[arg(long)]
    dynamodb: Option<String>,
    /// First loopback port: the instances listen from here, the engine on the port after them.
    #[arg(long, default_value_t = 3400)]
    port: u16,
    /// The whole run is abandoned after this many seconds.
    #[arg(long, default_value_t = 600)]
    timeout_secs: u64,
    /// Random seed of the players' behaviour.
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Matches each room plays in a row with the same players: the first is billed apart
    /// (fresh players), the next ones together (returning players).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=20))]
    matches: u32,
    /// On-demand price of a million read capacity units, in US dollars (the bill's dollars;
    /// the instances' match receipts use it too).
    #[arg(
        long,
        env = "UDD_PRICE_READ_PER_MILLION",
        default_value_t = Pricing::default().read_per_million,
        value_parser = parse_price
    )]
    read_price: f64,
    /// On-demand price of a million write capacity units, in US dollars.
    #[arg(
        long,
        env = "UDD_PRICE_WRITE_PER_MILLION",
        default_value_t = Pricing::default().write_per_million,
        value_parser = parse_price
    )]
    write_price: f64,
    /// Lobby changes per room before its first match (a settings change, a visitor joining
    /// through another instance, the host kicking them, in turn), each timed from the
    /// change's answer to every listener's stream showing it.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(0..=60))]
    lobby_changes: u32,
}

impl LoadArgs {
    fn pricing(&self) -> Pricing {
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

type Http = Client<HttpConnector, Full<Bytes>>;

/// Everything the players measured.
#[derive(Default)]
struct Tally {
    tap_ack_ms: Vec<f64>,
    reveal_push_ms: Vec<f64>,
    results_push_ms: Vec<f64>,
    /// A lobby change's answer to a listener's stream showing it: listeners on another
    /// instance than the one that made the change, and on the same one.
    lobby_cross_ms: Vec<f64>,
    lobby_same_ms: Vec<f64>,
    /// Listeners that had not seen a lobby change 5 s after its answer.
    lobby_missed: u64,
    /// A lobby change's request, sent to answered, by kind (settings, join, kick).
    lobby_answer_ms: [Vec<f64>; 3],
    acked: u64,
    lost: u64,
    refused_taps: BTreeMap<u16, u64>,
    server_errors: u64,
    player_rounds: u64,
    /// One player's one finished match each.
    player_matches: u64,
    matches: u64,
    unfinished: u64,
}

struct Shared {
    http: Http,
    tally: Mutex<Tally>,
    statuses: Mutex<BTreeMap<u16, u64>>,
    requests: AtomicU64,
}

impl Shared {
    fn tally(&self) -> std::sync::MutexGuard<'_, Tally> {
        self.tally.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn count(&self, status: u16) {
        self.requests.fetch_add(1, Ordering::Relaxed);
        *self
            .statuses
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(status)
            .or_default() += 1;
        if status >= 500 {
            self.tally().server_errors += 1;
        }
    }
}

/// One simulated phone: its address, its instance and its session.
struct Phone {
    shared: Arc<Shared>,
    base: String,
    address: String,
    cookie: Option<String>,
}

impl Phone {
    async fn post(&mut self, path: &str, form: &str) -> anyhow::Result<(u16, String)> {
        let mut request = http::Request::post(format!("{}{path}", self.base))
            .header("content-type", "application/x-www-form-urlencoded")
            .header("accept", "application/json")
            .header("origin", &self.base)
            .header("x-forwarded-for", &self.address);
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie);
        }
        let response = self
            .shared
            .http
            .request(request.body(Full::new(Bytes::from(form.to_owned())))?)
            .await?;
        let status = response.status().as_u16();
        self.shared.count(status);
        if let Some(set) = response.headers().get("set-cookie") {
            let pair = set.to_str()?.split(';').next().unwrap_or_default();
            self.cookie = Some(pair.to_owned());
        }
        let body = response.into_body().collect().await?.to_bytes();
        Ok((status, String::from_utf8_lossy(&body).into_owned()))
    }

    /// Opens the room's live stream: each message is parsed and sent on.
    async fn listen(
        &self,
        code: &str,
        feed: tokio::sync::mpsc::UnboundedSender<(Instant, RoomFeed)>,
    ) -> anyhow::Result<()> {
        let mut request = http::Request::get(format!("{}/r/{code}/events", self.base))
            .header("accept", "text/event-stream")
            .header("x-forwarded-for", &self.address);
        // A browser's stream carries its session: the host's keeps them host between matches.
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie);
        }
        let request = request.body(Full::new(Bytes::new()))?;
        let response = self.shared.http.request(request).await?;
        let status = response.status().as_u16();
        self.shared.count(status);
        ensure!(status == 200, "the live stream answered {status}");
        let mut body = response.into_body();
        let mut buffer = String::new();
        while let Some(frame) = body.frame().await {
            let frame = frame?;
            let Some(data) = frame.data_ref() else {
                continue;
            };
            let at = Instant::now();
            buffer.push_str(&String::from_utf8_lossy(data));
            while let Some(end) = buffer.find("\n\n") {
                let message: String = buffer.drain(..end + 2).collect();
                let json: String = message
                    .lines()
                    .filter_map(|line| line.strip_prefix("data:"))
                    .map(str::trim_start)
                    .collect::<Vec<_>>()
                    .join("\n");
                if json.is_empty() {
                    continue;
                }
                let parsed: RoomFeed = serde_json::from_str(&json)?;
                let ended = parsed == RoomFeed::Ended;
                if feed.send((at, parsed)).is_err() || ended {
                    return Ok(());
                }
            }
        }
        Ok(())
    }
}

fn percentile(samples: &mut [f64], q: f64) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    samples.sort_by(f64::total_cmp);
    let at = ((q * samples.len() as f64).ceil() as usize).clamp(1, samples.len()) - 1;
    samples[at]
}

/// The server processes and the engine they share, stopped when dropped.
struct Fleet {
    engine: Option<Child>,
    instances: Vec<Child>,
    bases: Vec<String>,
    _data: tempfile::TempDir,
}

impl Fleet {
    async fn start(args: &LoadArgs, table: &str) -> anyhow::Result<Self> {
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
                    .env("RUST_LOG", "warn")
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
            _data: data,
        };
        for i in 0..args.instances {
            let port = args.port + i as u16;
            let child = Command::new(&exe)
                .env("LEPTOS_SITE_ADDR", format!("127.0.0.1:{port}"))
                .env("LEPTOS_OUTPUT_NAME", "udd")
                .env("LEPTOS_SITE_ROOT", &site_root)
                .env("LEPTOS_SITE_PKG_DIR", "pkg")
                .env("LEPTOS_ENV", "PROD")
                .env("UDD_DYNAMODB_ENDPOINT", &endpoint)
                .env("UDD_ENGINE_KEY", &key)
                .env("UDD_TABLE", table)
                .env("UDD_TRUSTED_PROXIES", "127.0.0.1")
                .env("UDD_PRICE_READ_PER_MILLION", args.read_price.to_string())
                .env("UDD_PRICE_WRITE_PER_MILLION", args.write_price.to_string())
                // UDD_LOAD_LOG=app::game=debug shows what the instances do, on stderr.
                .env(
                    "RUST_LOG",
                    std::env::var("UDD_LOAD_LOG").unwrap_or_else(|_| "warn".into()),
                )
                .stdout(Stdio::null())
                .kill_on_drop(true)
                .spawn()
                .context("starting a server instance")?;
            fleet.instances.push(child);
            let base = format!("http://127.0.0.1:{port}");
            // The first instance creates the table and seeds it; then the next starts.
            wait_for_health(&base).await?;
            fleet.bases.push(base);
        }
        Ok(fleet)
    }

    fn pids(&self) -> Vec<u32> {
        self.instances.iter().filter_map(Child::id).collect()
    }

    async fn stop(mut self) {
        for child in self.instances.iter_mut().chain(self.engine.iter_mut()) {
            let _ = child.kill().await;
        }
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

async fn get_json(base: &str, path: &str) -> anyhow::Result<(u16, serde_json::Value)> {
    let http: Client<HttpConnector, Full<Bytes>> =
        Client::builder(TokioExecutor::new()).build_http();
    let response = http
        .request(http::Request::get(format!("{base}{path}")).body(Full::new(Bytes::new()))?)
        .await?;
    let status = response.status().as_u16();
    let body = response.into_body().collect().await?.to_bytes();
    Ok((status, serde_json::from_slice(&body).unwrap_or_default()))
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

/// Usage of every instance, summed: `(work, op) -> (calls, capacity)`.
type Figures = BTreeMap<(String, String), (f64, f64)>;

/// Usage of every instance, summed.
async fn usage(bases: &[String]) -> anyhow::Result<Figures> {
    let mut sum = BTreeMap::new();
    for base in bases {
        let (status, report) = get_json(base, "/healthz/usage").await?;
        ensure!(status == 200, "{base}/healthz/usage answered {status}");
        let Some(works) = report.as_object() else {
            bail!("unexpected usage report from {base}")
        };
        for (work, share) in works {
            for (op, figures) in share["ops"].as_object().into_iter().flatten() {
                let entry = sum.entry((work.clone(), op.clone())).or_insert((0.0, 0.0));
                entry.0 += figures["calls"].as_f64().unwrap_or(0.0);
                entry.1 += figures["capacity"].as_f64().unwrap_or(0.0);
            }
        }
    }
    Ok(sum)
}

/// CPU seconds (user + system) a process has used.
fn cpu_seconds(pid: u32) -> f64 {
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

/// Sends one `()` when dropped.
struct Ready(tokio::sync::mpsc::UnboundedSender<()>);

impl Drop for Ready {
    fn drop(&mut self) {
        let _ = self.0.send(());
    }
}

fn is_write(op: &str) -> bool {
    app::store::metrics::is_write(op)
}

/// How a room is run: what it plays, and the driver's signals.
struct RoomPlan {
    room: u32,
    players: u32,
    rounds: u8,
    matches: u32,
    lobby_changes: u32,
    seed: u64,
    /// Setting rooms up is paced: this many at a time.
    gate: Arc<tokio::sync::Semaphore>,
    /// Told when the room's players have joined and listen (or the set-up failed).
    ready: tokio::sync::mpsc::UnboundedSender<()>,
    /// Which match starts when (0 is the first); each room starts at its own offset after it.
    starts: tokio::sync::watch::Receiver<Option<(u32, Instant)>>,
    offset: Duration,
    /// Told `(room, match)` when every player of the room has seen that match end.
    finished: tokio::sync::mpsc::UnboundedSender<(u32, u32)>,
}

/// One player across the room's matches: their phone, their live stream's messages, their
/// nickname and behaviour, and the first round of the last match they played.
struct Player {
    phone: Phone,
    feed: tokio::sync::mpsc::UnboundedReceiver<(Instant, RoomFeed)>,
    nickname: String,
    rng: rand_chacha::ChaCha8Rng,
    played: Option<u32>,
    /// The lobby's last message and when it came (only the lobby's changes use it).
    last: Option<(Instant, RoomFeed)>,
}

/// Plays one room from creation to the end of its last match.
async fn play_room(
    shared: Arc<Shared>,
    bases: Arc<Vec<String>>,
    plan: RoomPlan,
) -> anyhow::Result<()> {
    let RoomPlan {
        room,
        players: args_players,
        rounds,
        matches,
        lobby_changes,
        seed,
        gate,
        ready,
        mut starts,
        offset,
        finished,
    } = plan;
    let permit = gate.acquire_owned().await?;
    // Whatever becomes of the set-up, the driver hears of it once.
    let ready = Ready(ready);
    let flies: HashMap<&str, bool> = SEED.iter().map(|t| (t.id, t.flies)).collect();
    let mut phones: Vec<Phone> = (0..args_players)
        .map(|p| Phone {
            shared: Arc::clone(&shared),
            base: bases[((room + p) as usize) % bases.len()].clone(),
            address: format!("10.{}.{}.{}", room / 250, room % 250, p + 1),
            cookie: None,
        })
        .collect();
    let name = |p: u32| format!("R{room}P{p}");
    let (status, body) = phones[0]
        .post("/api/rooms/create", &format!("name={}", name(0)))
        .await?;
    ensure!(status == 200, "creating a room answered {status}: {body}");
    let code: String = serde_json::from_str(&body)?;
    for (p, phone) in phones.iter_mut().enumerate().skip(1) {
        let (status, body) = phone
            .post(
                "/api/rooms/join",
                &format!("code={code}&name={}", name(p as u32)),
            )
            .await?;
        ensure!(status == 200, "joining answered {status}: {body}");
    }
    let (status, body) = phones[0]
        .post(
            "/api/rooms/settings",
            &format!(
                "code={code}&settings[max_players]=12&settings[rounds]={rounds}\
                 &settings[window_ms]=3000&settings[public]=false"
            ),
        )
        .await?;
    ensure!(status == 200, "settings answered {status}: {body}");

    // Everyone listens, each on their own instance, for every match.
    let mut players = Vec::new();
    let mut listeners = tokio::task::JoinSet::new();
    for (p, phone) in phones.into_iter().enumerate() {
        let (send, receive) = tokio::sync::mpsc::unbounded_channel();
        let listener = Phone {
            shared: Arc::clone(&shared),
            base: phone.base.clone(),
            address: phone.address.clone(),
            cookie: phone.cookie.clone(),
        };
        let code = code.clone();
        listeners.spawn(async move {
            if let Err(err) = listener.listen(&code, send).await {
                eprintln!("a live stream failed: {err:#}");
            }
        });
        players.push(Player {
            phone,
            feed: receive,
            nickname: name(p as u32),
            rng: rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ (u64::from(room) << 8) ^ p as u64),
            played: None,
            last: None,
        });
    }
    lobby(
        &shared,
        &bases,
        room,
        &code,
        rounds,
        &mut players,
        lobby_changes,
    )
    .await?;
    // The measured part starts when every room has its players and listeners.
    drop(permit);
    drop(ready);
    for k in 0..matches {
        let start_at = loop {
            if let Some((m, at)) = *starts.borrow_and_update() {
                if m == k {
                    break at + offset;
                }
            }
            starts.changed().await?;
        };
        tokio::time::sleep_until(start_at.into()).await;
        // The host starts the next match of the same room, as after a podium.
        let (status, body) = players[0]
            .phone
            .post("/api/rooms/start", &format!("code={code}"))
            .await?;
        ensure!(
            status == 200,
            "starting match {} answered {status}: {body}",
            k + 1
        );
        let playing: Vec<_> = players
            .drain(..)
            .map(|player| {
                tokio::spawn(play(
                    Arc::clone(&shared),
                    player,
                    code.clone(),
                    flies.clone(),
                ))
            })
            .collect();
        for player in playing {
            players.push(player.await??);
        }
        let _ = finished.send((room, k));
    }
    listeners.shutdown().await;
    Ok(())
}

/// What a lobby change should look like once a listener's stream shows it.
enum Expect {
    MaxPlayers(u8),
    Present(String),
    Absent(String),
}

impl Expect {
    fn seen(&self, feed: &RoomFeed) -> bool {
        let RoomFeed::Room(room) = feed else {
            return false;
        };
        let named = |name: &str| room.players.iter().any(|p| p.nickname.as_str() == name);
        match self {
            Expect::MaxPlayers(n) => room.settings.max_players == *n,
            Expect::Present(name) => named(name),
            Expect::Absent(name) => !named(name),
        }
    }
}

/// The lobby before the first match: `changes` changes made in turn (the host's settings, a
/// visitor joining through the instance after the host's, the host kicking them), each timed
/// from its answer to each listener's stream showing it, split by whether the listener is on
/// the instance that made the change.
async fn lobby(
    shared: &Arc<Shared>,
    bases: &[String],
    room: u32,
    code: &str,
    rounds: u8,
    players: &mut [Player],
    changes: u32,
) -> anyhow::Result<()> {
    if changes == 0 {
        return Ok(());
    }
    // Everyone's first snapshot first: a change is timed against a stream already open.
    for player in players.iter_mut() {
        let first = tokio::time::timeout(Duration::from_secs(10), player.feed.recv()).await;
        let Ok(Some((at, feed))) = first else {
            bail!("a live stream sent nothing");
        };
        player.last = Some((at, feed));
    }
    let host_base = players[0].phone.base.clone();
    let visitor_base = bases[(room as usize + 1) % bases.len()].clone();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(u64::from(room) ^ 0x10bb);
    let mut visitor_name = String::new();
    for i in 0..changes {
        // Changes land at random moments of the watchers' polls.
        tokio::time::sleep(Duration::from_millis(rng.random_range(300..900))).await;
        let sent = Instant::now();
        let (base, expect, (status, body)) = match i % 3 {
            0 => {
                let max = 8 + (i / 3 % 5) as u8;
                let form = format!(
                    "code={code}&settings[max_players]={max}&settings[rounds]={rounds}\
                     &settings[window_ms]=3000&settings[public]=false"
                );
                let answer = players[0].phone.post("/api/rooms/settings", &form).await?;
                (host_base.clone(), Expect::MaxPlayers(max), answer)
            }
            1 => {
                // A new visitor each time: a player kicked from a room may not join it again.
                let mut visitor = Phone {
                    shared: Arc::clone(shared),
                    base: visitor_base.clone(),
                    address: format!("10.{}.{}.{}", room / 250, room % 250, 200 + i % 50),
                    cookie: None,
                };
                visitor_name = format!("R{room}V{i}");
                let answer = visitor
                    .post(
                        "/api/rooms/join",
                        &format!("code={code}&name={visitor_name}"),
                    )
                    .await?;
                (
                    visitor_base.clone(),
                    Expect::Present(visitor_name.clone()),
                    answer,
                )
            }
            _ => {
                // The host kicks the visitor, whose id they know from their own stream.
                let id = players[0]
                    .last
                    .as_ref()
                    .and_then(|(_, feed)| match feed {
                        RoomFeed::Room(room) => room
                            .players
                            .iter()
                            .find(|p| p.nickname.as_str() == visitor_name)
                            .map(|p| p.user_id.to_string()),
                        RoomFeed::Ended => None,
                    })
                    .context("the host's stream never showed the visitor")?;
                let answer = players[0]
                    .phone
                    .post("/api/rooms/kick", &format!("code={code}&player={id}"))
                    .await?;
                (
                    host_base.clone(),
                    Expect::Absent(visitor_name.clone()),
                    answer,
                )
            }
        };
        ensure!(status == 200, "lobby change {i} answered {status}: {body}");
        let answered = Instant::now();
        shared.tally().lobby_answer_ms[(i % 3) as usize]
            .push(answered.duration_since(sent).as_secs_f64() * 1e3);
        for player in players.iter_mut() {
            let cross = player.phone.base != base;
            let deadline = answered + Duration::from_secs(5);
            let seen = loop {
                // The first message since the change was sent that shows it.
                if let Some((at, feed)) = &player.last {
                    if *at >= sent && expect.seen(feed) {
                        break Some(*at);
                    }
                }
                match tokio::time::timeout_at(deadline.into(), player.feed.recv()).await {
                    Ok(Some(message)) => player.last = Some(message),
                    _ => break None,
                }
            };
            let mut tally = shared.tally();
            match seen {
                Some(at) => {
                    // Shown before the answer reached the player: 0 (the stream was quicker).
                    let ms = at.saturating_duration_since(answered).as_secs_f64() * 1e3;
                    if cross {
                        tally.lobby_cross_ms.push(ms);
                    } else {
                        tally.lobby_same_ms.push(ms);
                    }
                }
                None => tally.lobby_missed += 1,
            }
        }
    }
    Ok(())
}

/// One player's match: taps on reveals, measures pushes, and at the end checks its
/// acknowledged taps against the results. Messages of the match before (still queued, or
/// re-sent) are left aside: this match is the first with a later first round.
async fn play(
    shared: Arc<Shared>,
    mut player: Player,
    code: String,
    flies: HashMap<&'static str, bool>,
) -> anyhow::Result<Player> {
    let Player {
        phone,
        feed,
        nickname,
        rng,
        played,
        ..
    } = &mut player;
    let mut seen_reveal = HashSet::new();
    let mut seen_results = HashSet::new();
    let mut acked: HashSet<u32> = HashSet::new();
    let mut taps = tokio::task::JoinSet::new();
    let mut first_round = None;
    let mut last: Option<Match> = None;
    let deadline = Instant::now() + Duration::from_secs(400);
    while let Ok(Some((at, message))) = tokio::time::timeout_at(deadline.into(), feed.recv()).await
    {
        let RoomFeed::Room(Room {
            game: Some(game), ..
        }) = message
        else {
            continue;
        };
        if played.is_some_and(|before| game.first_round <= before) {
            continue;
        }
        if *first_round.get_or_insert(game.first_round) != game.first_round {
            continue;
        }
        let seen_ms = epoch_millis() - at.elapsed().as_millis() as i64;
        for round in &game.rounds {
            if let Some(thing) = &round.thing {
                if seen_reveal.insert(round.n) {
                    shared
                        .tally()
                        .reveal_push_ms
                        .push((seen_ms - round.reveal_ms) as f64);
                    let flyer = flies.get(thing.id.as_str()).copied().unwrap_or(false);
                    let tap = if flyer {
                        rng.random_bool(0.92)
                    } else {
                        rng.random_bool(0.12)
                    };
                    if tap {
                        // A human reaction: 250 ms at the fastest, mostly 350–700 ms.
                        let reaction: u32 =
                            250 + rng.random_range(0..300) + rng.random_range(0..300);
                        let form = format!(
                            "code={code}&round={}&reveal_ms={}&window_ms={}&reaction_ms={reaction}",
                            round.n, round.reveal_ms, game.window_ms
                        );
                        let mut tapper = Phone {
                            shared: Arc::clone(&shared),
                            base: phone.base.clone(),
                            address: phone.address.clone(),
                            cookie: phone.cookie.clone(),
                        };
                        let n = round.n;
                        let at = at + Duration::from_millis(u64::from(reaction));
                        taps.spawn(async move {
                            tokio::time::sleep_until(at.into()).await;
                            let sent = Instant::now();
                            let answer = tapper.post("/api/rooms/tap", &form).await;
                            (n, sent.elapsed(), answer.map(|(status, _)| status))
                        });
                    }
                }
            }
            if round.results.is_some() && seen_results.insert(round.n) {
                let closes = round.reveal_ms + i64::from(game.window_ms) + 400;
                shared
                    .tally()
                    .results_push_ms
                    .push((seen_ms - closes) as f64);
            }
        }
        let done = game.is_finished();
        last = Some(game);
        if done {
            break;
        }
    }
    while let Some(tap) = taps.join_next().await {
        let (n, took, status) = tap?;
        let status = status?;
        let mut tally = shared.tally();
        tally.tap_ack_ms.push(took.as_secs_f64() * 1e3);
        if status == 200 {
            tally.acked += 1;
            acked.insert(n);
        } else {
            *tally.refused_taps.entry(status).or_default() += 1;
        }
    }
    *played = first_round.or(*played);
    {
        let mut tally = shared.tally();
        match last.filter(Match::is_finished) {
            Some(game) => {
                let me = game
                    .players
                    .iter()
                    .find(|p| p.nickname.as_str() == nickname.as_str())
                    .map(|p| p.user_id.clone());
                tally.player_rounds += u64::from(game.len());
                tally.player_matches += 1;
                if nickname.ends_with("P0") {
                    tally.matches += 1;
                }
                for round in &game.rounds {
                    if !acked.contains(&round.n) {
                        continue;
                    }
                    let counted = round
                        .results
                        .iter()
                        .flatten()
                        .any(|r| Some(&r.user_id) == me.as_ref() && r.reaction_ms.is_some());
                    if !counted {
                        tally.lost += 1;
                    }
                }
            }
            None => tally.unfinished += 1,
        }
    }
    Ok(player)
}

pub async fn run(args: LoadArgs) -> anyhow::Result<()> {
    let table = format!("load-{}", ulid::Ulid::new().to_string().to_lowercase());
    let engine_name = if args.dynamodb.is_some() {
        "DynamoDB Local"
    } else {
        "embedded engine (udd-server engine)"
    };
    println!(
        "load: {} rooms × {} players ({} players), {} match(es) of {} rounds each, on {} instance(s) sharing the {engine_name}, table {table}",
        args.rooms,
        args.players,
        args.rooms * args.players,
        args.matches,
        args.rounds,
        args.instances
    );
    let fleet = Fleet::start(&args, &table).await?;
    let outcome =
        tokio::time::timeout(Duration::from_secs(args.timeout_secs), drive(&args, &fleet)).await;
    fleet.stop().await;
    match outcome {
        Ok(result) => result,
        Err(_) => bail!(
            "the run took longer than --timeout-secs {}",
            args.timeout_secs
        ),
    }
}

/// The projector is caught up once its write units have not changed for this long.
const SETTLED: Duration = Duration::from_secs(3);
/// The longest the load waits for the projector after a match.
const CATCH_UP_CAP: Duration = Duration::from_secs(90);

/// What the table had been asked (every instance's usage) and the work done, at one moment.
struct Snapshot {
    figures: Figures,
    /// When the usage was read.
    at: Instant,
    player_rounds: u64,
    player_matches: u64,
    matches: u64,
}

impl Snapshot {
    fn new(shared: &Shared, figures: Figures) -> Self {
        let tally = shared.tally();
        Self {
            figures,
            at: Instant::now(),
            player_rounds: tally.player_rounds,
            player_matches: tally.player_matches,
            matches: tally.matches,
        }
    }
}

/// Waits for the boards' projector to count what was played: reads every instance's usage
/// every 250 ms until the projector's write units have not changed for [`SETTLED`] (at most
/// [`CATCH_UP_CAP`]). The usage as last read, how long after the call the projector's writes
/// last changed, and whether they settled.
async fn projector_catch_up(bases: &[String]) -> anyhow::Result<(Figures, Duration, bool)> {
    let written = |figures: &Figures| -> f64 {
        figures
            .iter()
            .filter(|((work, op), _)| work == "projector" && is_write(op))
            .map(|(_, (_, capacity))| capacity)
            .sum()
    };
    let began = Instant::now();
    let mut figures = usage(bases).await?;
    let mut last = written(&figures);
    let mut changed = began;
    loop {
        if changed.elapsed() >= SETTLED {
            return Ok((figures, changed - began, true));
        }
        if began.elapsed() >= CATCH_UP_CAP {
            return Ok((figures, changed - began, false));
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
        figures = usage(bases).await?;
        let now = written(&figures);
        if now != last {
            last = now;
            changed = Instant::now();
        }
    }
}

/// Calls, read units and write units.
#[derive(Default, Clone, Copy)]
struct Bill {
    calls: f64,
    read: f64,
    write: f64,
}

impl Bill {
    fn add(&mut self, other: Bill) {
        self.calls += other.calls;
        self.read += other.read;
        self.write += other.write;
    }
}

/// Prints what the table was asked between two snapshots, by kind of work and operation, per
/// player-round and per player-match, with each work's dollars per 1,000 matches.
fn print_bill(title: &str, from: &Snapshot, to: &Snapshot, pricing: Pricing) {
    let player_rounds = to.player_rounds - from.player_rounds;
    let player_matches = to.player_matches - from.player_matches;
    let matches = to.matches - from.matches;
    println!(
        "{title}: {matches} matches, {player_matches} player-matches, {player_rounds} player-rounds"
    );
    if player_rounds == 0 || player_matches == 0 || matches == 0 {
        println!("  nothing was played");
        return;
    }
    let (pr, pm, m) = (player_rounds as f64, player_matches as f64, matches as f64);
    println!(
        "  {:9} {:18} {:>25}   {:>25}",
        "work", "operation", "per player-round", "per player-match"
    );
    let mut works: BTreeMap<&str, Bill> = BTreeMap::new();
    for ((work, op), &(calls, capacity)) in &to.figures {
        let (calls0, capacity0) = from
            .figures
            .get(&(work.clone(), op.clone()))
            .copied()
            .unwrap_or_default();
        let (calls, capacity) = (calls - calls0, capacity - capacity0);
        if calls == 0.0 {
            continue;
        }
        let unit = if is_write(op) { "WCU" } else { "RCU" };
        println!(
            "  {work:9} {op:18} {:8.3} calls {:8.3} {unit}   {:8.2} calls {:8.2} {unit}",
            calls / pr,
            capacity / pr,
            calls / pm,
            capacity / pm,
        );
        let (read, write) = if is_write(op) {
            (0.0, capacity)
        } else {
            (capacity, 0.0)
        };
        works
            .entry(work)
            .or_default()
            .add(Bill { calls, read, write });
    }
    println!(
        "  {:9} {:>37}   {:>37}   {:>17}",
        "work", "per player-round", "per player-match", "$ / 1,000 matches"
    );
    let line = |work: &str, bill: &Bill| {
        println!(
            "  {work:9} {:7.3} calls {:7.3} RCU {:7.3} WCU   {:7.2} calls {:7.2} RCU {:7.2} WCU   ${:>16.4}",
            bill.calls / pr,
            bill.read / pr,
            bill.write / pr,
            bill.calls / pm,
            bill.read / pm,
            bill.write / pm,
            pricing.price(bill.read, bill.write) / m * 1000.0,
        )
    };
    let mut all = Bill::default();
    for (work, bill) in &works {
        line(work, bill);
        all.add(*bill);
    }
    line("all", &all);
    let game_writes: f64 = ["requests", "watchers"]
        .iter()
        .filter_map(|work| works.get(work))
        .map(|bill| bill.write)
        .sum();
    println!(
        "  the game's own writes (requests + watchers): {:.3} WCU per player-round (target <= 1.5)",
        game_writes / pr
    );
    let projector: Bill = ["projector", "trees", "rewards"]
        .iter()
        .filter_map(|work| works.get(work))
        .fold(Bill::default(), |mut sum, bill| {
            sum.add(*bill);
            sum
        });
    println!(
        "  the boards' projector all in (projector + trees + rewards): {:.2} WCU and {:.2} RCU \
         per player-match (targets: <= 50 WCU fresh, <= 30 returning)",
        projector.write / pm,
        projector.read / pm
    );
}

async fn drive(args: &LoadArgs, fleet: &Fleet) -> anyhow::Result<()> {
    let mut connector = HttpConnector::new();
    connector.set_nodelay(true);
    let http = Client::builder(TokioExecutor::new())
        .pool_max_idle_per_host(4096)
        .build(connector);
    let shared = Arc::new(Shared {
        http,
        tally: Mutex::new(Tally::default()),
        statuses: Mutex::new(BTreeMap::new()),
        requests: AtomicU64::new(0),
    });
    let bases = Arc::new(fleet.bases.clone());
    let setup = Instant::now();
    // Rooms start spread over one round's period (parties do not all start on the same
    // second), once everyone has joined; each next match likewise.
    let mut rooms = tokio::task::JoinSet::new();
    let mut room_of_task = HashMap::new();
    let spread = Match::period_ms(3000) as u64;
    let (starts_tx, starts_rx) = tokio::sync::watch::channel(None::<(u32, Instant)>);
    let (ready_tx, mut ready_rx) = tokio::sync::mpsc::unbounded_channel();
    let (finished_tx, mut finished_rx) = tokio::sync::mpsc::unbounded_channel();
    let gate = Arc::new(tokio::sync::Semaphore::new(32));
    for room in 0..args.rooms {
        let plan = RoomPlan {
            room,
            players: args.players,
            rounds: args.rounds,
            matches: args.matches,
            lobby_changes: args.lobby_changes,
            seed: args.seed,
            gate: Arc::clone(&gate),
            ready: ready_tx.clone(),
            starts: starts_rx.clone(),
            offset: Duration::from_millis(spread * u64::from(room) / u64::from(args.rooms)),
            finished: finished_tx.clone(),
        };
        let task = rooms.spawn(play_room(Arc::clone(&shared), Arc::clone(&bases), plan));
        room_of_task.insert(task.id(), room as usize);
    }
    drop(ready_tx);
    drop(finished_tx);
    for _ in 0..args.rooms {
        ready_rx.recv().await.context("a room vanished")?;
    }
    println!(
        "setup: {} players joined and listening in {:.1} s",
        args.rooms * args.players,
        setup.elapsed().as_secs_f64()
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    let pids = fleet.pids();
    let mut cpu_used = vec![0.0; pids.len()];
    let mut wall = 0.0;
    let mut snapshots = vec![Snapshot::new(&shared, usage(&fleet.bases).await?)];
    // Matches each room has finished, and the rooms that failed.
    let mut finished = vec![0u32; args.rooms as usize];
    let mut failed = vec![false; args.rooms as usize];
    let mut failures = 0;
    let mut room_ended =
        |done: Result<(tokio::task::Id, anyhow::Result<()>), tokio::task::JoinError>,
         failed: &mut Vec<bool>| {
            let (id, outcome) = match done {
                Ok((id, outcome)) => (id, outcome),
                Err(err) => (err.id(), Err(anyhow::Error::from(err))),
            };
            if let Err(err) = outcome {
                failures += 1;
                if let Some(&room) = room_of_task.get(&id) {
                    failed[room] = true;
                }
                eprintln!("a room failed: {err:#}");
            }
        };
    for k in 0..args.matches {
        let cpu_before: Vec<f64> = pids.iter().map(|&pid| cpu_seconds(pid)).collect();
        let started = Instant::now();
        starts_tx.send_replace(Some((k, Instant::now() + Duration::from_millis(500))));
        // Every room finishes match k (or fails) before anything else.
        while !finished
            .iter()
            .zip(&failed)
            .all(|(&done, &failed)| failed || done > k)
        {
            tokio::select! {
                Some((room, m)) = finished_rx.recv() => finished[room as usize] = m + 1,
                Some(done) = rooms.join_next_with_id() => room_ended(done, &mut failed),
                else => break,
            }
        }
        let played = started.elapsed().as_secs_f64();
        wall += played;
        for (used, (&pid, before)) in cpu_used.iter_mut().zip(pids.iter().zip(&cpu_before)) {
            *used += cpu_seconds(pid) - before;
        }
        // The boards' projector counts the match in the measured window, not after it.
        let waited = Instant::now();
        let (figures, caught_up, settled) = projector_catch_up(&fleet.bases).await?;
        println!(
            "match {}: every room done in {played:.1} s; the projector caught up {:.1} s after \
             (then quiet for {} s; waited {:.1} s{})",
            k + 1,
            caught_up.as_secs_f64(),
            SETTLED.as_secs(),
            waited.elapsed().as_secs_f64(),
            if settled {
                ""
            } else {
                ": it was still writing, and the bill misses the rest"
            }
        );
        snapshots.push(Snapshot::new(&shared, figures));
    }
    // The rooms end after their last match.
    while let Some(done) = rooms.join_next_with_id().await {
        room_ended(done, &mut failed);
    }

    let mut tally = std::mem::take(&mut *shared.tally());
    let statuses = shared
        .statuses
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    println!(
        "played: {} matches ({} a room), {} player-matches, {} player-rounds in {wall:.1} s of play; {} rooms failed; {} players never saw a match end",
        tally.matches, args.matches, tally.player_matches, tally.player_rounds, failures, tally.unfinished
    );
    println!(
        "taps: {} sent, {} acknowledged, refused {:?}",
        tally.tap_ack_ms.len(),
        tally.acked,
        tally.refused_taps
    );
    println!(
        "tap ack      p50 {:7.1} ms  p95 {:7.1} ms  p99 {:7.1} ms  max {:7.1} ms   (target p99 <= 100 ms)",
        percentile(&mut tally.tap_ack_ms, 0.50),
        percentile(&mut tally.tap_ack_ms, 0.95),
        percentile(&mut tally.tap_ack_ms, 0.99),
        percentile(&mut tally.tap_ack_ms, 1.0),
    );
    println!(
        "reveal push  p50 {:7.1} ms  p95 {:7.1} ms  max {:7.1} ms   (after the scheduled reveal; target p95 <= 300 ms)",
        percentile(&mut tally.reveal_push_ms, 0.50),
        percentile(&mut tally.reveal_push_ms, 0.95),
        percentile(&mut tally.reveal_push_ms, 1.0),
    );
    println!(
        "results push p50 {:7.1} ms  p95 {:7.1} ms  max {:7.1} ms   (after the round closed; target p95 <= 300 ms)",
        percentile(&mut tally.results_push_ms, 0.50),
        percentile(&mut tally.results_push_ms, 0.95),
        percentile(&mut tally.results_push_ms, 1.0),
    );
    println!(
        "lobby change, its answer to a listener on another instance seeing it: p50 {:7.1} ms  p95 {:7.1} ms  p99 {:7.1} ms  ({} seen; target p95 <= 300 ms)",
        percentile(&mut tally.lobby_cross_ms, 0.50),
        percentile(&mut tally.lobby_cross_ms, 0.95),
        percentile(&mut tally.lobby_cross_ms, 0.99),
        tally.lobby_cross_ms.len(),
    );
    println!(
        "lobby change, on the same instance:                                 p50 {:7.1} ms  p95 {:7.1} ms  p99 {:7.1} ms  ({} seen; {} listeners never saw a change in 5 s)",
        percentile(&mut tally.lobby_same_ms, 0.50),
        percentile(&mut tally.lobby_same_ms, 0.95),
        percentile(&mut tally.lobby_same_ms, 0.99),
        tally.lobby_same_ms.len(),
        tally.lobby_missed,
    );
    for (kind, samples) in ["settings", "join", "kick"]
        .iter()
        .zip(tally.lobby_answer_ms.iter_mut())
    {
        println!(
            "lobby change, sent to answered ({kind:>8}): p50 {:7.1} ms  p95 {:7.1} ms  ({} changes)",
            percentile(samples, 0.50),
            percentile(samples, 0.95),
            samples.len(),
        );
    }
    println!(
        "acknowledged taps missing from the results: {}   HTTP 5xx: {}   answers {:?}",
        tally.lost, tally.server_errors, statuses
    );
    for (i, used) in cpu_used.iter().enumerate() {
        println!(
            "instance {i}: {used:.1} CPU s in {wall:.1} s of play ({:.0}% of one core)",
            100.0 * used / wall
        );
    }
    let pricing = args.pricing();
    println!(
        "DynamoDB, all instances, from the first start to the projector caught up after each \
         match; capacity as the engine reports it, refused writes as AWS bills them; dollars on \
         demand at ${} per million read and ${} per million write units",
        pricing.read_per_million, pricing.write_per_million
    );
    let (first, after_one, last) = (
        &snapshots[0],
        &snapshots[1],
        &snapshots[snapshots.len() - 1],
    );
    print_bill(
        "match 1 (fresh players: everyone new on every board)",
        first,
        after_one,
        pricing,
    );
    if args.matches > 1 {
        print_bill(
            &format!("matches 2-{} (returning players)", args.matches),
            after_one,
            last,
            pricing,
        );
        print_bill("all matches", first, last, pricing);
    }
    println!(
        "  (requests: players' requests; watchers: each instance's room watchers (polls, reads, \
         closes, the host's heartbeat); receipts: the match receipts' adds and reads; streams: \
         counting open live streams, by time not rounds; peers: the instances announcing themselves \
         to each other, by time not rounds; projector: counting matches on the boards (entries, counters, markers, the reads), trees: the boards' counting trees, rewards: the inventory's rewards; \
         RefusedWrite: writes refused by their condition, 1 WCU each, 2 per action of a \
         cancelled transaction)"
    );
    print_live_reads(first, last, args.rooms);
    ensure!(failures == 0, "{failures} rooms failed");
    Ok(())
}

/// The works that keep rooms live: each instance's watchers, the live streams' bookkeeping and
/// the receipts they read.
const LIVE_WORKS: [&str; 4] = ["watchers", "streams", "receipts", "peers"];

/// Every read the live machinery made between two snapshots, per room-second (the rooms held
/// open the whole window, lobby and matches alike).
fn print_live_reads(from: &Snapshot, to: &Snapshot, rooms: u32) {
    let seconds = to.at.duration_since(from.at).as_secs_f64();
    let room_seconds = f64::from(rooms) * seconds;
    let mut by_work: BTreeMap<&str, (f64, f64)> = BTreeMap::new();
    for ((work, op), &(calls, capacity)) in &to.figures {
        if is_write(op) || !LIVE_WORKS.contains(&work.as_str()) {
            continue;
        }
        let (calls0, capacity0) = from
            .figures
            .get(&(work.clone(), op.clone()))
            .copied()
            .unwrap_or_default();
        let entry = by_work.entry(work).or_default();
        entry.0 += calls - calls0;
        entry.1 += capacity - capacity0;
    }
    let (calls, units) = by_work
        .values()
        .fold((0.0, 0.0), |(c, u), &(calls, units)| (c + calls, u + units));
    println!(
        "live reads (watchers, streams, receipts, peers), all instances, over {seconds:.1} s x {rooms} rooms: \
         {:.3} RCU and {:.3} calls per room-second ({})",
        units / room_seconds,
        calls / room_seconds,
        by_work
            .iter()
            .map(|(work, (_, units))| format!("{work} {:.3}", units / room_seconds))
            .collect::<Vec<_>>()
            .join(", ")
    );
}
