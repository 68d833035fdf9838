//! The re-probe's smaller findings (issue 56: 3, 4, 7, 8 and 9), each attacked as it was found:
//! an authority-form target, a trickled body, many guests from one IPv6 /64, a flood of card
//! misses past the instance's budget, a file name too long for the disk and an origin of the
//! wrong scheme. The ones that need a real connection serve the router on a port of their own.

use crate::support;

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use app::http::engine::{Engine, EngineConfig};
use app::http::{router, AppState, SecurityConfig};
use app::store::Db;
use axum::http::StatusCode;
use axum::Router;
use leptos::prelude::LeptosOptions;
use support::{form, get_page, instances, send};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Every line the app logs while it is held (this thread's, at DEBUG and up).
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<u8>>>);

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Lines {
    /// Captures this thread's log until the guard is dropped (a current-thread runtime's tasks
    /// are all on it).
    fn capture(&self) -> tracing::subscriber::DefaultGuard {
        let writer = self.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_max_level(tracing::Level::DEBUG)
            .with_ansi(false)
            .finish();
        tracing::subscriber::set_default(subscriber)
    }

    /// The lines at ERROR or WARN, or that tell of a panic.
    fn loud(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.0.lock().unwrap())
            .lines()
            .filter(|l| l.contains(" ERROR ") || l.contains(" WARN ") || l.contains("panic"))
            .map(str::to_owned)
            .collect()
    }
}

/// An app on a fresh embedded engine, its state shaped by `shape` (site root, deadlines).
async fn app_with(shape: impl FnOnce(AppState) -> AppState) -> (Router, Engine) {
    let engine = Engine::start(EngineConfig::Embedded { data_dir: None })
        .await
        .unwrap();
    let db = Db::new(engine.client.clone(), "udd");
    db.ensure_table().await.unwrap();
    let state = AppState::new(
        LeptosOptions::builder().output_name("udd").build(),
        db,
        "embedded",
    );
    (router(shape(state)), engine)
}

/// Serves `app` on a port of its own until the sender is used or dropped.
async fn served(app: Router) -> (std::net::SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(app::http::serve::serve(
        listener,
        app,
        app::http::serve::Timeouts::default(),
        async move {
            let _ = stopped.await;
        },
    ));
    (addr, stop)
}

/// Sends `raw` on a new connection and reads until the server closes it (at most 5 s).
async fn exchange(addr: std::net::SocketAddr, raw: &str) -> String {
    let mut client = tokio::net::TcpStream::connect(addr).await.unwrap();
    client.write_all(raw.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), client.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

// Finding 3: a target that is not a path.

#[tokio::test]
async fn a_target_that_is_not_a_path_is_a_400_before_any_handler_and_no_panic() {
    let lines = Lines::default();
    let _log = lines.capture();
    let (app, _engine) = app_with(|state| state).await;
    let (addr, _stop) = served(app).await;
    for target in [
        "CONNECT x:1 HTTP/1.1\r\nHost: x:1\r\n",
        "GET x:1 HTTP/1.1\r\nHost: x\r\n",
        "POST x:1 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n",
        "GET example.com:443 HTTP/1.1\r\nHost: example.com\r\n",
        "OPTIONS * HTTP/1.1\r\nHost: x\r\n",
    ] {
        let answer = exchange(addr, &format!("{target}Connection: close\r\n\r\n")).await;
        assert!(
            answer.starts_with("HTTP/1.1 400"),
            "{target:?} answered {answer:?}"
        );
    }
    // A path, and a full address whose path is one (HTTP/1.1's absolute form), still work.
    for target in [
        "GET /healthz HTTP/1.1\r\nHost: x\r\n",
        "GET http://x/healthz HTTP/1.1\r\nHost: x\r\n",
    ] {
        let answer = exchange(addr, &format!("{target}Connection: close\r\n\r\n")).await;
        assert!(
            answer.starts_with("HTTP/1.1 200"),
            "{target:?} answered {answer:?}"
        );
    }
    let loud = lines.loud();
    assert!(loud.is_empty(), "logged loudly:\n{}", loud.join("\n"));
}

// Finding 4: a body trickled byte by byte.

#[tokio::test]
async fn a_trickled_body_is_cut_at_its_whole_body_deadline() {
    let deadline = Duration::from_millis(1_500);
    let (app, _engine) = app_with(|state| state.with_body_deadline(deadline)).await;
    let (addr, _stop) = served(app).await;
    let client = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (mut reader, mut writer) = client.into_split();
    let started = Instant::now();
    // 40 bytes announced, one sent every 250 ms (each wait far under the per-wait timeout):
    // 10 s for the whole body if nobody cuts it.
    let trickle = tokio::spawn(async move {
        let head = "POST /api/guest HTTP/1.1\r\nHost: x\r\n\
                    Content-Type: application/x-www-form-urlencoded\r\n\
                    Content-Length: 40\r\n\r\n";
        writer.write_all(head.as_bytes()).await.unwrap();
        for _ in 0..40 {
            if writer.write_all(b"a").await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    });
    let mut answer = [0u8; 1024];
    let read = tokio::time::timeout(Duration::from_secs(6), reader.read(&mut answer)).await;
    let elapsed = started.elapsed();
    trickle.abort();
    let Ok(Ok(n)) = read else {
        panic!("no answer {elapsed:?} into a trickled body: {read:?}");
    };
    let answer = String::from_utf8_lossy(&answer[..n]);
    println!("trickled body: answered after {elapsed:?} (deadline {deadline:?})");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?}");
    assert!(
        elapsed >= deadline && elapsed < deadline + Duration::from_millis(1_000),
        "cut after {elapsed:?}, the deadline being {deadline:?}"
    );
}

// Finding 7: an IPv6 client is its /64.

#[tokio::test]
async fn guests_from_one_ipv6_64_share_one_address_limit() {
    // The guests' limit counts in fixed windows of 10 minutes: all of them in one.
    let now = app::store::epoch_seconds();
    if 600 - now.rem_euclid(600) < 60 {
        tokio::time::sleep(Duration::from_secs(61)).await;
    }
    let (mut apps, _engine) = instances(false, 1, SecurityConfig::default()).await;
    let app = apps.remove(0);
    let guest = |address: String| {
        let app = app.clone();
        async move {
            send(
                &app,
                form("/api/guest", "name=Sixty+Four", None).from(&address),
            )
            .await
            .status
        }
    };
    let mut statuses = Vec::new();
    for i in 1..=32 {
        statuses.push(guest(format!("2001:db8:56:7:{i:x}::{i:x}")).await);
    }
    let served = statuses.iter().filter(|s| **s == StatusCode::OK).count();
    println!("one /64: {served} of {} guests served", statuses.len());
    assert_eq!(served, 30, "{statuses:?}");
    assert!(
        statuses[30..]
            .iter()
            .all(|s| *s == StatusCode::TOO_MANY_REQUESTS),
        "{statuses:?}"
    );
    // The next /64 is another client.
    assert_eq!(guest("2001:db8:56:8::1".into()).await, StatusCode::OK);
}

// Finding 8: the instance's card budget is a rate limit.

#[tokio::test]
async fn a_card_flood_past_the_instances_budget_is_a_429_that_does_not_blame_the_database() {
    use app::http::cards::budget::{BURST, INSTANCE_BURST};
    let (mut apps, _engine) = instances(false, 1, SecurityConfig::default()).await;
    let app = apps.remove(0);
    // Enough clients, each within its own budget, to spend the instance's twice over.
    let clients = 2 * INSTANCE_BURST / BURST + 1;
    let mut refused = 0;
    for i in 0..(clients * BURST) {
        let address = format!("198.51.100.{}", 10 + i / BURST);
        let path = format!("/og/p/01ARZ3NDEKTSV4RRFFQ69G{i:04}");
        let answer = send(&app, get_page(&path).from(&address)).await;
        assert!(
            !answer.status.is_server_error(),
            "{path} from {address}: {} {}",
            answer.status,
            answer.body
        );
        if answer.status == StatusCode::NOT_FOUND {
            continue;
        }
        assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS, "{path}");
        let wait: u64 = answer
            .header("retry-after")
            .and_then(|s| s.parse().ok())
            .expect("a 429 says when to come back");
        assert!((1..=60).contains(&wait), "Retry-After: {wait}");
        let words = answer.body.to_lowercase();
        assert!(
            !words.contains("database") && !words.contains("unreachable"),
            "{}",
            answer.body
        );
        refused += 1;
    }
    println!(
        "card flood: {refused} of {} misses refused",
        clients * BURST
    );
    assert!(refused >= 10, "{refused} refused of {}", clients * BURST);
}

// Finding 9: a file name too long for the disk, and an origin of the other scheme.

#[tokio::test]
async fn a_path_too_long_for_a_file_name_is_a_quiet_404() {
    let lines = Lines::default();
    let _log = lines.capture();
    // Files are served from a directory that exists, so the name reaches the disk.
    let root = env!("CARGO_MANIFEST_DIR");
    let (app, _engine) = app_with(|state| AppState {
        leptos_options: LeptosOptions::builder()
            .output_name("udd")
            .site_root(root)
            .build(),
        ..state
    })
    .await;
    let segment = "a".repeat(300);
    let deep = format!("/{}", [&"b".repeat(200)[..]; 30].join("/"));
    for path in [
        format!("/{segment}"),
        format!("/pkg/{segment}.wasm"),
        format!("/{}", "%61".repeat(100)),
        deep,
    ] {
        let answer = send(&app, get_page(&path)).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", &path[..40]);
    }
    let loud = lines.loud();
    assert!(loud.is_empty(), "logged loudly:\n{}", loud.join("\n"));
}

#[tokio::test]
async fn without_a_public_origin_an_origin_of_the_other_scheme_is_refused() {
    let post = |origin: &str, forwarded_proto: Option<&str>| {
        let mut call = form("/api/guest", "name=Scheme", None)
            .header("host", "127.0.0.1:3000")
            .header("origin", origin)
            .from("127.0.0.1");
        if let Some(proto) = forwarded_proto {
            call = call.header("x-forwarded-proto", proto);
        }
        call
    };
    // Plain HTTP, nobody trusted: only `http://` is our origin.
    let (mut apps, _engine) = instances(false, 1, SecurityConfig::default()).await;
    let plain = apps.remove(0);
    let https = send(&plain, post("https://127.0.0.1:3000", None)).await;
    assert_eq!(https.status, StatusCode::FORBIDDEN, "{}", https.body);
    let http = send(&plain, post("http://127.0.0.1:3000", None)).await;
    assert_eq!(http.status, StatusCode::OK, "{}", http.body);
    // Behind a trusted proxy that says TLS: only `https://`.
    let security = SecurityConfig {
        trusted_proxies: SecurityConfig::parse_proxies("127.0.0.1").unwrap(),
        ..SecurityConfig::default()
    };
    let (mut apps, _engine) = instances(false, 1, security).await;
    let proxied = apps.remove(0);
    let https = send(&proxied, post("https://127.0.0.1:3000", Some("https"))).await;
    assert_eq!(https.status, StatusCode::OK, "{}", https.body);
    let http = send(&proxied, post("http://127.0.0.1:3000", Some("https"))).await;
    assert_eq!(http.status, StatusCode::FORBIDDEN, "{}", http.body);
}

/// The read units a `Server-Timing` header reports.
fn read_units(answer: &support::Answer) -> f64 {
    let timing = answer.header("server-timing").expect("server timing is on");
    let units = timing
        .split(", ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok());
    units.unwrap_or_else(|| panic!("no capacity in {timing}"))
}

/// Finding 6: with a full audience (1,000 seats), an anonymous load of the room read every seat
/// (one consistent Query, about 35 read units) each time. Now the seats are read once per
/// close and instance and the figures kept: the next loads cost at most 2 read units and show
/// the same figures, counted from the seats as stored. Loads by nobody signed in are limited per
/// address; a signed-in viewer and another address are not held by that.
#[tokio::test]
async fn with_a_full_audience_an_anonymous_room_load_reads_at_most_two_units() {
    use app::game::{Received, LATENCY_CAP_MS};
    use app::identity::{Avatar, DisplayName, UserId};
    use app::rooms::model::AUDIENCE_LIMIT;
    use app::rooms::RoomCode;

    let security = SecurityConfig {
        server_timing: true,
        ..SecurityConfig::default()
    };
    let (mut apps, engine) = instances(true, 1, security).await;
    let app = apps.remove(0);
    let db = Db::new(engine.client.clone(), "udd");
    let created = support::post(&app, "/api/rooms/create", "name=Host", None).await;
    let host = support::cookie_pair(&created.cookie.expect("a guest session"));
    let code = created.json.as_str().unwrap().to_owned();
    let joined = support::post(
        &app,
        "/api/rooms/join",
        &format!("code={code}&name=Asha"),
        None,
    )
    .await;
    assert!(joined.status.is_success());
    let started = support::post(
        &app,
        "/api/rooms/start",
        &format!("code={code}&seed=7"),
        Some(&host),
    )
    .await;
    assert!(started.status.is_success());
    let room_code = RoomCode::parse(&code).unwrap();
    let fans: Vec<UserId> = (0..AUDIENCE_LIMIT).map(|_| UserId::generate()).collect();
    for (i, fan) in fans.iter().enumerate() {
        let name = DisplayName::parse(&format!("Fan {i}")).unwrap();
        db.game()
            .join_audience(&room_code, fan, &name, Avatar::Bee, None, Vec::new())
            .await
            .unwrap();
    }
    // Seven of them say the first thing flies.
    let room = db.game().room(&room_code).await.unwrap().unwrap();
    let game = room.game.clone().unwrap();
    let first = &game.rounds[0];
    for fan in &fans[..7] {
        let at = Received::at(first.reveal_ms + 400, Some(LATENCY_CAP_MS));
        db.game()
            .tap_along(
                &room_code,
                fan,
                first.n,
                first.reveal_ms,
                game.window_ms,
                400,
                at,
            )
            .await
            .unwrap();
    }
    support::finish_match(&db, &code).await;
    // The oracle: the seats as stored, counted by the rule the page states (joined by the
    // round's window end, or called it).
    let stored = db.game().audience(&room_code).await.unwrap();
    assert_eq!(stored.len(), fans.len());
    let crowd = |n: u32, reveal: i64| {
        let could = stored
            .iter()
            .filter(|s| s.joined_ms <= reveal + i64::from(game.window_ms) || s.call(n).is_some());
        (
            could.clone().count(),
            could.filter(|s| s.call(n).is_some()).count(),
        )
    };

    let load = |cookie: Option<&str>, from: &str| {
        send(
            &app,
            form("/api/rooms/lobby", &format!("code={code}"), cookie).from(from),
        )
    };
    let filling = load(None, "203.0.113.7").await;
    assert_eq!(filling.status, StatusCode::OK, "{}", filling.body);
    println!(
        "anonymous room load, 1,000 seats, the instance's first since the close: {} RCU",
        read_units(&filling)
    );
    for attempt in 0..3 {
        let next = load(None, "203.0.113.7").await;
        assert_eq!(next.status, StatusCode::OK, "{}", next.body);
        let units = read_units(&next);
        println!(
            "anonymous room load, 1,000 seats, load {}: {units} RCU",
            attempt + 2
        );
        assert!(units <= 2.0, "{units} read units for an anonymous load");
        let rounds = next.json()["lobby"]["game"]["rounds"].clone();
        for round in rounds.as_array().unwrap() {
            let (n, reveal) = (
                round["n"].as_u64().unwrap() as u32,
                round["reveal_ms"].as_i64().unwrap(),
            );
            let (could, flies) = crowd(n, reveal);
            assert_eq!(round["crowd"], could, "round {n}");
            assert_eq!(round["crowd_flies"], flies, "round {n}");
        }
        assert_eq!(rounds[0]["crowd_flies"], 7);
    }

    // A flood of anonymous loads from one address is held at its minute's limit, without a
    // read of the table; a signed-in viewer there and another address are not.
    let limit = app::game::throttle::ROOM_LOADS_PER_MINUTE as usize;
    let mut refused = None;
    for i in 5..=limit + 1 {
        let answer = load(None, "203.0.113.7").await;
        if answer.status != StatusCode::OK {
            refused = Some((i, answer));
            break;
        }
    }
    let (at, refusal) = refused.expect("the flood is limited");
    assert_eq!(
        at,
        limit + 1,
        "the first load past the limit is the one refused"
    );
    assert_eq!(
        refusal.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refusal.body
    );
    assert_eq!(read_units(&refusal), 0.0, "a refused load reads nothing");
    assert_eq!(
        load(Some(&host), "203.0.113.7").await.status,
        StatusCode::OK
    );
    assert_eq!(load(None, "198.51.100.9").await.status, StatusCode::OK);
}
