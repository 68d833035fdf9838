//! Hostile input: generated requests to every server function (the list the server registered,
//! so a new one is fuzzed without a change here) and every page route, with missing fields,
//! wrong types, huge strings, control and bidi characters, extreme numbers, broken encodings,
//! wrong methods, bodies that are not what their content type says and targets that are not a
//! path (`x:1`, `*`: each a 400), from no known connection, one IPv6 /64, or a few IPv4
//! addresses. No answer may be a 5xx, and a refused request (4xx) may write nothing but
//! rate-limit counters: every write the app sends to the table is seen at the SDK, with the keys
//! it touches.
//!
//! `UDD_FUZZ_CASES` sets the number of requests (10,000 by default), `UDD_FUZZ_SEED` the seed
//! (printed, so a failure can be replayed); `./udd fuzz N` runs it longer.

use crate::support;

use std::sync::{Arc, Mutex};

use app::http::engine::{Engine, EngineConfig};
use app::http::{router, AppState, SecurityConfig};
use app::inventory::{Rewards, ThingId};
use app::store::Db;
use aws_sdk_dynamodb::config::interceptors::{
    BeforeDeserializationInterceptorContextRef, BeforeTransmitInterceptorContextRef,
};
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use aws_smithy_types::config_bag::{Storable, StoreReplace};
use axum::body::Body;
use axum::http::{header, Method, Request};
use axum::Router;
use http_body_util::BodyExt;
use leptos::prelude::LeptosOptions;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tower::ServiceExt;

use support::{cookie_pair, post};

/// The partitions a refused request may still write: the rate-limit and stream counters, which
/// count attempts whatever becomes of them.
const COUNTERS: [&str; 2] = ["RATE#", "STREAMS#"];

/// Every write the table applied for the app, as the partition keys it names: an interceptor
/// on the app's own client reads each write request before it leaves and keeps its keys if the
/// answer is a success (a refused condition or a cancelled transaction applies nothing).
#[derive(Debug, Clone, Default)]
struct WriteLog(Arc<Mutex<Vec<String>>>);

/// The partitions of the write in flight, from the request to its answer.
#[derive(Debug, Clone)]
struct InFlight(Vec<String>);

impl Storable for InFlight {
    type Storer = StoreReplace<Self>;
}

impl Intercept for WriteLog {
    fn name(&self) -> &'static str {
        "WriteLog"
    }

    fn read_before_transmit(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let request = context.request();
        let target = request
            .headers()
            .get("x-amz-target")
            .unwrap_or_default()
            .to_owned();
        let write = [
            "PutItem",
            "UpdateItem",
            "DeleteItem",
            "TransactWriteItems",
            "BatchWriteItem",
        ]
        .iter()
        .any(|op| target.ends_with(op));
        if write {
            let body: serde_json::Value = request
                .body()
                .bytes()
                .and_then(|b| serde_json::from_slice(b).ok())
                .unwrap_or_default();
            let mut found = Vec::new();
            partition_keys(&body, &mut found);
            if found.is_empty() {
                found.push(format!("(unreadable {target})"));
            }
            cfg.interceptor_state().store_put(InFlight(found));
        } else {
            cfg.interceptor_state().store_put(InFlight(Vec::new()));
        }
        Ok(())
    }

    fn read_before_deserialization(
        &self,
        context: &BeforeDeserializationInterceptorContextRef<'_>,
        _components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if context.response().status().is_success() {
            if let Some(InFlight(found)) = cfg.load::<InFlight>() {
                self.0.lock().unwrap().extend(found.iter().cloned());
            }
        }
        Ok(())
    }
}

/// Every `"PK": {"S": …}` in a request body, wherever it sits (a key, an item, a transaction).
fn partition_keys(value: &serde_json::Value, found: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (name, inner) in map {
                match (name.as_str(), inner.get("S").and_then(|s| s.as_str())) {
                    ("PK", Some(pk)) => found.push(pk.to_owned()),
                    _ => partition_keys(inner, found),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|i| partition_keys(i, found)),
        _ => {}
    }
}

/// The world the requests land in: two players with cards and feathers, a room they are both
/// in, an open offer between them.
struct World {
    app: Router,
    log: WriteLog,
    cookies: Vec<String>,
    words: Vec<String>,
    /// Valid requests, `(path, form)`: a generated request is often one of these with one
    /// field changed, dropped or doubled, so it gets past parsing to the code behind it.
    valid: Vec<(String, String)>,
    _engine: Engine,
}

async fn world() -> World {
    let engine = Engine::start(EngineConfig::Embedded { data_dir: None })
        .await
        .unwrap();
    let log = WriteLog::default();
    let config = engine
        .client
        .config()
        .to_builder()
        .interceptor(log.clone())
        .build();
    let db = Db::new(aws_sdk_dynamodb::Client::from_conf(config), "udd");
    db.ensure_table().await.unwrap();
    let things = app::catalog::validate(app::catalog::seed::SEED).unwrap();
    db.catalog().seed_catalog(&things).await.unwrap();
    db.inventory().seed_shop().await.unwrap();
    // As the server starts (`open_store`): the shared secret exists before any request.
    db.ensure_secret().await.unwrap();
    let app = router(
        AppState::new(
            LeptosOptions::builder().output_name("udd").build(),
            db.clone(),
            "embedded",
        )
        .with_security(SecurityConfig::default()),
    );

    let guest = post(&app, "/api/guest", "name=Asha", None).await;
    let asha_cookie = cookie_pair(&guest.cookie.unwrap());
    let asha = app::identity::UserId::parse(guest.json["id"].as_str().unwrap()).unwrap();
    let other = post(&app, "/api/guest", "name=Ravi", None).await;
    let ravi_guest = cookie_pair(&other.cookie.unwrap());
    let ravi = other.json["id"].as_str().unwrap().to_owned();
    let claimed = post(
        &app,
        "/api/claim",
        "username=ravi&password=correct+horse",
        Some(&ravi_guest),
    )
    .await;
    let ravi_cookie = cookie_pair(&claimed.cookie.unwrap());
    let created = post(&app, "/api/rooms/create", "name=Asha", Some(&asha_cookie)).await;
    let code = created.json.as_str().unwrap().to_owned();
    post(
        &app,
        "/api/rooms/join",
        &format!("code={code}&name=Ravi"),
        Some(&ravi_cookie),
    )
    .await;
    db.inventory()
        .grant_rewards(
            &asha,
            &Rewards {
                cards: ["crow", "kite", "cow"]
                    .iter()
                    .map(|t| ThingId::parse(t).unwrap())
                    .collect(),
                feathers: 500,
                badges: Vec::new(),
            },
        )
        .await
        .unwrap();
    let offer = post(
        &app,
        "/api/trades/offer",
        "to=ravi&give_cards=crow:1&want_feathers=0&give_feathers=1",
        Some(&asha_cookie),
    )
    .await;
    let offer_id = offer.json["id"].as_str().unwrap_or_default().to_owned();
    assert!(!offer_id.is_empty(), "{}", offer.json);

    // Words worth trying in any field: the world's own ids and codes, and the app's vocabulary.
    let mut words: Vec<String> = [
        code.as_str(),
        &asha.to_string(),
        &ravi,
        &offer_id,
        "crow",
        "kite",
        "no-such-thing",
        "bag",
        "bank",
        "attic",
        "bird",
        "name",
        "category",
        "pack-3",
        "look-night",
        "free-money",
        "ravi",
        "Asha",
        "crow:1",
        "crow:1,kite:2",
        "crow:-1",
        "crow:99999999999",
        "best",
        "total",
        "all",
        "day",
        "week",
        "global",
        "room",
        "best.all.global",
        "best.day-2026-11-23.global",
        "Owl",
        "Kite",
        "true",
        "false",
        "null",
        "{}",
        "[]",
        "correct horse",
    ]
    .iter()
    .map(|w| (*w).to_owned())
    .collect();
    words.sort();
    words.dedup();
    let valid = [
        ("guest", "name=Zed&avatar=Owl".to_owned()),
        ("claim", "username=zed_1&password=correct+horse+battery".to_owned()),
        ("sign-in", "login=ravi&password=correct+horse".to_owned()),
        ("rooms/create", "name=Zed&public=true".to_owned()),
        ("rooms/join", format!("code={code}&name=Zed")),
        ("rooms/leave", format!("code={code}")),
        ("rooms/kick", format!("code={code}&player={ravi}")),
        (
            "rooms/settings",
            format!("code={code}&settings[max_players]=8&settings[rounds]=3&settings[window_ms]=3000&settings[public]=false"),
        ),
        ("rooms/start", format!("code={code}&seed=42")),
        ("rooms/lobby", format!("code={code}")),
        ("rooms/board", format!("code={code}")),
        (
            "rooms/tap",
            format!("code={code}&round=1&reveal_ms=1700000000000&window_ms=3000&reaction_ms=400"),
        ),
        ("boards/view", "metric=best&period=all&scope=global&at=1".to_owned()),
        ("boards/current", "metric=total&period=week&scope=global".to_owned()),
        ("inventory/view", "place=bag&category=bird&sort=name&q=cr".to_owned()),
        ("inventory/card", "thing=crow".to_owned()),
        ("inventory/move", "thing=crow&count=1&from=bag".to_owned()),
        ("inventory/sell", "thing=kite&count=1".to_owned()),
        ("shop/buy", "item=pack-3".to_owned()),
        ("trades/offer", "to=ravi&give_cards=cow:1&want_feathers=2&hours=2".to_owned()),
        ("trades/offer", format!("room={code}&to_player={ravi}&give_feathers=1")),
        ("trades/accept", format!("offer={offer_id}")),
        ("trades/close", format!("offer={offer_id}")),
        ("trades/mine", format!("room={code}")),
    ]
    .into_iter()
    .map(|(path, form)| (format!("/api/{path}"), form))
    .collect();
    World {
        app,
        log,
        cookies: vec![asha_cookie, ravi_cookie],
        words,
        valid,
        _engine: engine,
    }
}

/// Field names: every server function's parameters, and some that are none of them.
const FIELDS: &[&str] = &[
    "name",
    "avatar",
    "login",
    "password",
    "username",
    "email",
    "code",
    "player",
    "settings[max_players]",
    "settings[rounds]",
    "settings[window_ms]",
    "settings[public]",
    "public",
    "seed",
    "round",
    "reveal_ms",
    "window_ms",
    "reaction_ms",
    "offer",
    "room",
    "to",
    "to_player",
    "give_cards",
    "give_feathers",
    "want_cards",
    "want_feathers",
    "hours",
    "place",
    "category",
    "sort",
    "q",
    "after",
    "thing",
    "count",
    "from",
    "item",
    "board",
    "metric",
    "period",
    "scope",
    "at",
    "filter",
    "settings",
    "a[b][c]",
    "[",
    "",
];

/// A value worth sending: extreme numbers, huge or hostile strings, or a word of the world.
fn value(rng: &mut StdRng, words: &[String]) -> String {
    match rng.random_range(0..14) {
        0 => String::new(),
        1 => [
            "0",
            "-1",
            "1",
            "255",
            "256",
            "65536",
            "4294967296",
            "18446744073709551616",
            "-9223372036854775809",
            "9223372036854775807",
            "-9223372036854775808",
            "1e309",
            "-1e309",
            "NaN",
            "inf",
            "-0",
            "0x10",
            " 5 ",
            "1.5",
            "٣",
        ][rng.random_range(0..20)]
        .to_owned(),
        2 => "A".repeat(rng.random_range(100..5_000)),
        3 => "é".repeat(rng.random_range(1_000..30_000)),
        4 => [
            "\u{0}",
            "\u{1}\u{7f}",
            "\r\n\r\n",
            "\u{202e}gnp.exe\u{202c}",
            "\u{200b}\u{2060}\u{feff}",
            "🐦\u{200d}⬛",
            "e\u{301}\u{301}\u{301}\u{301}",
            "\u{3164}",
            "<script>alert(1)</script>",
            "\"'><img src=x>",
            "../../etc/passwd",
            "%00",
            "${jndi:x}",
            "#pk = :pk",
            ":pk",
            "ROOM#ABCDE",
        ][rng.random_range(0..16)]
        .to_owned(),
        5 => (0..rng.random_range(1..40))
            .map(|_| char::from_u32(rng.random_range(0..0x11_0000)).unwrap_or('\u{fffd}'))
            .collect(),
        _ => words[rng.random_range(0..words.len())].clone(),
    }
}

/// Percent-encodes for a form or a query, now and then leaving a raw byte that is not UTF-8 or
/// a broken escape.
fn encode(rng: &mut StdRng, raw: &str) -> String {
    let mut out: String = raw
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    match rng.random_range(0..30) {
        0 => out.push_str("%FF%FE"),
        1 => out.push_str("%G1%"),
        2 => out.push('+'),
        _ => {}
    }
    out
}

fn form_body(rng: &mut StdRng, words: &[String]) -> String {
    (0..rng.random_range(0..8))
        .map(|_| {
            let field = FIELDS[rng.random_range(0..FIELDS.len())];
            let raw = value(rng, words);
            format!("{}={}", encode(rng, field), encode(rng, &raw))
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// A valid form with one change: a field's value replaced (percent-encoded or raw), a field
/// dropped, doubled with another value, or an unknown one added; now and then none at all.
fn mutate(rng: &mut StdRng, form: &str, words: &[String]) -> String {
    let mut fields: Vec<String> = form.split('&').map(str::to_owned).collect();
    let i = rng.random_range(0..fields.len());
    let name = fields[i].split('=').next().unwrap_or_default().to_owned();
    match rng.random_range(0..8) {
        0 => {
            fields.remove(i);
        }
        1 => {
            let raw = value(rng, words);
            fields.push(format!("{name}={}", encode(rng, &raw)));
        }
        2 => {
            let field = FIELDS[rng.random_range(0..FIELDS.len())];
            let raw = value(rng, words);
            fields.push(format!("{}={}", encode(rng, field), encode(rng, &raw)));
        }
        3 => {}
        _ => {
            let raw = value(rng, words);
            fields[i] = format!("{name}={}", encode(rng, &raw));
        }
    }
    fields.join("&")
}

fn json_value(rng: &mut StdRng, words: &[String], depth: u32) -> serde_json::Value {
    use serde_json::Value;
    match rng.random_range(0..if depth > 3 { 5 } else { 8 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.random()),
        2 => serde_json::json!(rng.random::<i64>()),
        3 => serde_json::json!(rng.random::<f64>() * 1e300),
        4 => Value::String(value(rng, words)),
        5 => Value::Array(
            (0..rng.random_range(0..4))
                .map(|_| json_value(rng, words, depth + 1))
                .collect(),
        ),
        _ => Value::Object(
            (0..rng.random_range(0..6))
                .map(|_| {
                    let field = FIELDS[rng.random_range(0..FIELDS.len())];
                    (field.to_owned(), json_value(rng, words, depth + 1))
                })
                .collect(),
        ),
    }
}

/// Page routes as templates: `{}` takes a generated segment.
const PAGES: &[&str] = &[
    "/",
    "/r/{}",
    "/r/{}/lb",
    "/things",
    "/lb",
    "/lb/{}/{}/{}",
    "/me",
    "/inventory",
    "/shop",
    "/trades",
    "/cards/{}",
    "/api/things",
    "/healthz",
    "/{}",
    "/pkg/{}",
];

/// Targets that are not a path (authority form, `*`, schemes without one): a 400 before any
/// handler, whatever the method.
const NOT_PATHS: &[&str] = &[
    "x:1",
    "example.com:443",
    "127.0.0.1:3000",
    "[::1]:80",
    "*",
    "udd.example:65535",
];

/// The connection a generated request comes from: none known (a test calling the router), one
/// IPv6 /64 (whose every address is one client), an IPv4 address written as IPv6, or a few
/// IPv4 addresses.
fn peer(rng: &mut StdRng) -> Option<std::net::SocketAddr> {
    let ip: std::net::IpAddr = match rng.random_range(0..4) {
        0 => return None,
        1 => std::net::Ipv6Addr::from(
            (0x2001_0db8_0056_0064_u128 << 64) | rng.random::<u64>() as u128,
        )
        .into(),
        2 => format!("::ffff:192.0.2.{}", rng.random_range(1..4u8))
            .parse()
            .unwrap(),
        _ => format!("198.51.100.{}", rng.random_range(1..4u8))
            .parse()
            .unwrap(),
    };
    Some(std::net::SocketAddr::new(ip, rng.random_range(1024..65535)))
}

/// One generated request, described for the failure report.
fn request(
    rng: &mut StdRng,
    world: &World,
    functions: &[(String, Method)],
) -> (String, Request<Body>) {
    let cookie = match rng.random_range(0..4) {
        0 => None,
        1 => Some("udd_session=forged; udd_session=twice".to_owned()),
        i => Some(world.cookies[i - 2].clone()),
    };
    let (method, path, content_type, body) = if rng.random_range(0..25) == 0 {
        let method = [Method::CONNECT, Method::GET, Method::POST, Method::OPTIONS]
            [rng.random_range(0..4)]
        .clone();
        let target = NOT_PATHS[rng.random_range(0..NOT_PATHS.len())].to_owned();
        let body = form_body(rng, &world.words);
        (method, target, "application/x-www-form-urlencoded", body)
    } else if rng.random_bool(0.4) {
        let (path, form) = world.valid[rng.random_range(0..world.valid.len())].clone();
        (
            Method::POST,
            path,
            "application/x-www-form-urlencoded",
            mutate(rng, &form, &world.words),
        )
    } else if rng.random_bool(0.6) {
        let (path, method) = functions[rng.random_range(0..functions.len())].clone();
        let method = if rng.random_range(0..10) == 0 {
            Method::GET
        } else {
            method
        };
        let (content_type, body) = match rng.random_range(0..10) {
            0 => (
                "application/json",
                json_value(rng, &world.words, 0).to_string(),
            ),
            1 => (
                "application/x-www-form-urlencoded",
                "[".repeat(rng.random_range(1..3_000)),
            ),
            2 => ("text/plain", value(rng, &world.words)),
            3 => (
                "multipart/form-data; boundary=x",
                form_body(rng, &world.words),
            ),
            _ => (
                "application/x-www-form-urlencoded",
                form_body(rng, &world.words),
            ),
        };
        (method, path, content_type, body)
    } else {
        let template = PAGES[rng.random_range(0..PAGES.len())];
        let mut path = String::new();
        for (i, part) in template.split("{}").enumerate() {
            if i > 0 {
                let raw = value(rng, &world.words);
                path.push_str(&encode(rng, &raw[..raw.len().min(3_000)]));
            }
            path.push_str(part);
        }
        if rng.random_bool(0.6) {
            path.push('?');
            path.push_str(&form_body(rng, &world.words));
        }
        // A room's live stream never ends: its generated segment is left out of the page list,
        // and this one path is only ever a room that does not exist.
        (Method::GET, path, "", String::new())
    };
    let accept = if rng.random_range(0..5) == 0 {
        "text/html"
    } else {
        "application/json"
    };
    let mut builder = Request::builder()
        .method(method.clone())
        .uri(&path)
        .header(header::ACCEPT, accept);
    if !content_type.is_empty() {
        builder = builder.header(header::CONTENT_TYPE, content_type);
    }
    if let Some(cookie) = &cookie {
        builder = builder.header(header::COOKIE, cookie);
    }
    let peer = peer(rng);
    if let Some(peer) = peer {
        builder = builder.extension(axum::extract::ConnectInfo(peer));
    }
    let shown: String = body.chars().take(200).collect();
    let description = format!(
        "{method} {} ({content_type}, cookie {}, from {peer:?}) {shown:?}",
        path.chars().take(200).collect::<String>(),
        cookie.is_some()
    );
    match builder.body(Body::from(body)) {
        Ok(request) => (description, request),
        // A path the HTTP library itself refuses to build is no request at all.
        Err(_) => (
            description,
            Request::get("/healthz").body(Body::empty()).unwrap(),
        ),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_hostile_requests_get_no_5xx_and_refusals_change_nothing() {
    let cases: usize = std::env::var("UDD_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    let seed: u64 = std::env::var("UDD_FUZZ_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(rand::random);
    println!("fuzz: {cases} requests, UDD_FUZZ_SEED={seed}");
    let world = world().await;
    // The log sees the app's writes: setting up the world wrote these players' items.
    let setup = world.log.0.lock().unwrap().clone();
    assert!(
        setup.iter().any(|pk| pk.starts_with("INV#"))
            && setup.iter().any(|pk| pk.starts_with("RATE#")),
        "the write log sees every write: {setup:?}"
    );
    let functions: Vec<(String, Method)> = leptos::server_fn::axum::server_fn_paths()
        .map(|(path, method)| (path.to_owned(), method))
        .collect();
    assert!(
        functions.len() >= 30,
        "every server function is fuzzed: {functions:?}"
    );
    let mut rng = StdRng::seed_from_u64(seed);
    let mut failures = Vec::new();
    let mut statuses = std::collections::BTreeMap::<u16, usize>::new();
    let started = std::time::Instant::now();
    for i in 0..cases {
        let (description, request) = request(&mut rng, &world, &functions);
        let not_a_path = NOT_PATHS.contains(&request.uri().to_string().as_str());
        world.log.0.lock().unwrap().clear();
        let response = tokio::time::timeout(
            std::time::Duration::from_secs(10),
            world.app.clone().oneshot(request),
        )
        .await;
        let Ok(Ok(response)) = response else {
            failures.push(format!("#{i} no answer in 10 s: {description}"));
            continue;
        };
        let status = response.status().as_u16();
        // Read the whole body: a page that fails while streaming must show up too.
        let body = response.into_body().collect().await;
        *statuses.entry(status).or_default() += 1;
        if status >= 500 || body.is_err() || (not_a_path && status != 400) {
            failures.push(format!("#{i} answered {status}: {description}"));
        }
        if status >= 400 {
            let written: Vec<String> = world
                .log
                .0
                .lock()
                .unwrap()
                .iter()
                .filter(|pk| !COUNTERS.iter().any(|c| pk.starts_with(c)))
                .cloned()
                .collect();
            if !written.is_empty() {
                failures.push(format!(
                    "#{i} refused with {status} but wrote {written:?}: {description}"
                ));
            }
        }
    }
    println!(
        "fuzz: {cases} requests in {:.1} s, statuses {statuses:?}",
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} of {cases} requests failed (UDD_FUZZ_SEED={seed}):\n{}",
        failures.len(),
        failures
            .iter()
            .take(25)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
