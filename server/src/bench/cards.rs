//! `udd-server bench`'s card flood: what many client addresses drawing share cards at once cost
//! a bystander. Each of `--flood-addresses` addresses (believed through a trusted proxy, as
//! behind a load balancer) asks for share cards nobody has asked for yet (players' profile cards,
//! each a picture to draw), one request at a time: its own budget's burst back to back, then one
//! each time its budget refills (a bot staying within its own budget, as 161 addresses once drew
//! 4,287 cards in 15 s). Meanwhile a bystander loads a page (`GET /things`). Its p95 is printed
//! idle and under the flood, with their ratio against the target (at most 1.5x): the instance's
//! own budget of drawn cards (`http::cards::budget`) is what keeps it there.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::ensure;
use app::http::cards::budget::BURST;
use app::http::guard::SecurityConfig;
use app::http::{router, AppState};
use app::identity::auth::SessionToken;
use app::identity::{Avatar, DisplayName};
use app::store::Db;
use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use leptos::prelude::get_configuration;
use tokio::sync::Mutex;

/// The most a bystander's page p95 may grow under the flood.
pub const TARGET: f64 = 1.5;

#[derive(Debug, clap::Args)]
pub struct CardFloodArgs {
    /// Client addresses drawing cards at once (0: no card flood).
    #[arg(long, default_value_t = 100)]
    flood_addresses: usize,
    /// How long the flood lasts, in seconds.
    #[arg(long, default_value_t = 10)]
    flood_secs: u64,
    /// Only the card flood, none of the rest of the benchmark.
    #[arg(long)]
    pub flood_only: bool,
    /// The bystander's page loads while idle (under the flood, as many as its time allows).
    #[arg(long, default_value_t = 300)]
    bystander_loads: usize,
}

type Http = Client<hyper_util::client::legacy::connect::HttpConnector, Empty<Bytes>>;

/// `GET base+path` from `address` (as a trusted proxy says); the status.
async fn get(http: &Http, base: &str, path: &str, address: Option<&str>) -> anyhow::Result<u16> {
    let mut request = http::Request::get(format!("{base}{path}"));
    if let Some(address) = address {
        request = request.header("x-forwarded-for", address);
    }
    let response = http.request(request.body(Empty::new())?).await?;
    let status = response.status().as_u16();
    response.into_body().collect().await?;
    Ok(status)
}

/// The 95th percentile of `samples`.
fn p95(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[((0.95 * samples.len() as f64).ceil() as usize).clamp(1, samples.len()) - 1]
}

/// The bystander's page loads, one after another, a few milliseconds apart: `loads` of them,
/// or as many as fit before `until`.
async fn bystander(
    http: &Http,
    base: &str,
    loads: usize,
    until: Option<Instant>,
) -> anyhow::Result<Vec<Duration>> {
    let mut samples = Vec::with_capacity(loads);
    while until.map_or(samples.len() < loads, |until| Instant::now() < until) {
        let started = Instant::now();
        let status = get(http, base, "/things", Some("198.51.100.7")).await?;
        ensure!(status == 200, "the bystander's page: HTTP {status}");
        samples.push(started.elapsed());
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    Ok(samples)
}

/// Floods a fresh instance on `db`'s table with card requests and prints what a bystander saw.
/// The flood; with `judge`, a bystander's p95 grown past [`TARGET`] fails the run (a smoke run
/// prints it and goes on).
pub async fn run(args: &CardFloodArgs, db: &Db, judge: bool) -> anyhow::Result<()> {
    if args.flood_addresses == 0 {
        return Ok(());
    }
    // Cards nobody has drawn: each player's profile card, in English and in Hindi.
    let per_address = BURST as usize + args.flood_secs as usize;
    let wanted = args.flood_addresses * per_address;
    let mut cards = Vec::with_capacity(wanted);
    let name = DisplayName::parse("Flood")?;
    while cards.len() < wanted {
        let player = db
            .accounts()
            .create_guest(&name, Avatar::default(), &SessionToken::generate().hash())
            .await?;
        for lang in ["en", "hi"] {
            cards.push(format!("/og/p/{}?lang={lang}", player.id));
        }
    }

    let leptos_options = get_configuration(None)?.leptos_options;
    let security = SecurityConfig {
        trusted_proxies: SecurityConfig::parse_proxies("127.0.0.1/32")
            .map_err(anyhow::Error::msg)?,
        ..SecurityConfig::default()
    };
    let state = AppState::new(leptos_options, db.clone(), "embedded").with_security(security);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let server = tokio::spawn(async move {
        axum::serve(
            listener,
            router(state).into_make_service_with_connect_info::<std::net::SocketAddr>(),
        )
        .await
    });
    let http: Http = Client::builder(TokioExecutor::new()).build_http();

    bystander(&http, &base, 30, None).await?; // warm-up
    let idle = p95(bystander(&http, &base, args.bystander_loads, None).await?);

    // The flood: each address its own cards, one request at a time.
    let answers = Arc::new(Mutex::new(std::collections::BTreeMap::<u16, usize>::new()));
    let until = Instant::now() + Duration::from_secs(args.flood_secs);
    let mut flood = Vec::new();
    for (i, mine) in cards
        .chunks(per_address)
        .take(args.flood_addresses)
        .enumerate()
    {
        let (http, base, answers) = (http.clone(), base.clone(), Arc::clone(&answers));
        let mine = mine.to_vec();
        let address = format!("10.{}.{}.{}", i / 65_536, (i / 256) % 256, i % 256 + 1);
        flood.push(tokio::spawn(async move {
            for (n, card) in mine.iter().enumerate() {
                if Instant::now() >= until {
                    break;
                }
                // Past its burst, the address waits for its budget to refill (30 a minute).
                if n >= BURST as usize {
                    tokio::time::sleep(Duration::from_secs(2)).await;
                }
                if let Ok(status) = get(&http, &base, card, Some(&address)).await {
                    *answers.lock().await.entry(status).or_default() += 1;
                }
            }
        }));
    }
    let flooded = bystander(&http, &base, args.bystander_loads, Some(until)).await?;
    let flood_started = until - Duration::from_secs(args.flood_secs);
    let during = flood_started.elapsed();
    for task in flood {
        task.abort();
    }
    server.abort();
    let loads = flooded.len();
    let flooded = p95(flooded);
    let answers = answers.lock().await.clone();
    let drawn = answers.get(&200).copied().unwrap_or(0);
    let ratio = flooded.as_secs_f64() / idle.as_secs_f64();
    println!(
        "\nShare cards: {} addresses asking for cards nobody had drawn ({} s; each its burst of \
         {BURST}, then one every 2 s)",
        args.flood_addresses, args.flood_secs
    );
    println!(
        "  answers: {}",
        answers
            .iter()
            .map(|(status, n)| format!("{n} x {status}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "  cards drawn: {drawn} in {:.1} s ({:.0} a second)",
        during.as_secs_f64(),
        drawn as f64 / during.as_secs_f64().max(0.001)
    );
    println!(
        "  bystander GET /things p95: idle {:.2} ms, under the flood {:.2} ms ({} loads): \
         {ratio:.2}x (target <= {TARGET}x) {}",
        idle.as_secs_f64() * 1000.0,
        flooded.as_secs_f64() * 1000.0,
        loads,
        if ratio <= TARGET { "OK" } else { "OVER TARGET" }
    );
    ensure!(drawn > 0, "the flood drew no card: {answers:?}");
    ensure!(
        !judge || ratio <= TARGET,
        "a bystander's page p95 grew {ratio:.2}x under the card flood (target <= {TARGET}x)"
    );
    Ok(())
}
