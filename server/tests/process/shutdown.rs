//! An instance told to stop (SIGTERM) in the middle of a match, beside another on the same table
//! (the standalone embedded engine), as ECS stops a task behind a load balancer:
//!
//! - the board projector's shard lease passes to the other instance within 2 s (released and
//!   told through the instances' news, not left to run out after 10 s);
//! - a listener's live stream on it ends at once, and the listener reconnects to the other;
//! - it exits cleanly within its grace;
//! - players' requests, spread over both instances and moved to the other when the first is
//!   gone, lose nothing: every acknowledged tap is in the results, and the boards count the
//!   match once;
//! - the survivor's `/metrics` (on its own address, not the game's) shows the match: requests by
//!   route template, taps, DynamoDB calls and units by operation, live streams, the projector's
//!   batches and lag; no label carries a room code.

use crate::support;

use std::time::{Duration, Instant};

use app::game::model::Match;
use app::rooms::{RoomCode, RoomState};
use app::store::{epoch_millis, Db};
use aws_sdk_dynamodb::types::AttributeValue;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use support::{engine, free_port, instance, wait_for_port, Http, Phone};

const ROUNDS: u32 = 6;
const STOP_IN_ROUND: u32 = 2;
const GRACE_MS: u64 = 5_000;

/// The projector's shard leases as the table holds them: (shard key, holder, expires ms).
async fn leases(client: &aws_sdk_dynamodb::Client) -> Vec<(String, String, i64)> {
    let pk = app::store::keys::projector_shard("").pk;
    let out = client
        .query()
        .table_name("udd")
        .key_condition_expression("PK = :pk AND begins_with(SK, :shard)")
        .expression_attribute_values(":pk", AttributeValue::S(pk))
        .expression_attribute_values(":shard", AttributeValue::S("SHARD#".into()))
        .consistent_read(true)
        .send()
        .await
        .expect("the leases read");
    out.items()
        .iter()
        .filter_map(|item| {
            Some((
                item.get("SK")?.as_s().ok()?.clone(),
                item.get("holder")?.as_s().ok()?.clone(),
                item.get("expires_ms")?.as_n().ok()?.parse().ok()?,
            ))
        })
        .collect()
}

/// The sum of a series' samples whose labels contain every one of `labels`.
fn sample(metrics: &str, name: &str, labels: &[&str]) -> Option<f64> {
    let values: Vec<f64> = metrics
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter(|line| {
            line.strip_prefix(name)
                .is_some_and(|rest| rest.starts_with('{') || rest.starts_with(' '))
        })
        .filter(|line| labels.iter().all(|label| line.contains(label)))
        .filter_map(|line| line.rsplit(' ').next()?.parse().ok())
        .collect();
    (!values.is_empty()).then(|| values.iter().sum())
}

async fn healthy(http: &Http, port: u16) {
    let mut probe = Phone::new(http, &format!("http://127.0.0.1:{port}"), "10.7.0.99");
    for _ in 0..600 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_ok()
            && probe.get("/healthz").await.0 == 200
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the instance on {port} never came up");
}

/// A live stream's answer, whether it sent an event, when it ended (`None`: still open at
/// `until`), and the name of its last event (`message` unless the event names itself).
async fn listen(http: Http, url: String, until: Duration) -> (u16, bool, Option<Instant>, String) {
    let response = http
        .request(
            http::Request::get(url)
                .header("accept", "text/event-stream")
                .header("x-forwarded-for", "10.7.0.50")
                .body(Full::new(Bytes::new()))
                .unwrap(),
        )
        .await
        .expect("the stream opens");
    let status = response.status().as_u16();
    let mut body = response.into_body();
    let (mut got_event, mut text, mut last) = (false, String::new(), String::new());
    let deadline = tokio::time::Instant::now() + until;
    loop {
        match tokio::time::timeout_at(deadline, body.frame()).await {
            Err(_) => return (status, got_event, None, last),
            Ok(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    text.push_str(&String::from_utf8_lossy(data));
                }
                // Whole events: each ends with a blank line; keep-alives carry no data.
                while let Some(end) = text.find("\n\n") {
                    let block: String = text.drain(..end + 2).collect();
                    if block.lines().any(|l| l.starts_with("data:")) {
                        got_event = true;
                        last = block
                            .lines()
                            .find_map(|l| l.strip_prefix("event:"))
                            .map_or("message".into(), |name| name.trim().to_owned());
                    }
                }
            }
            Ok(_) => return (status, got_event, Some(Instant::now()), last),
        }
    }
}

#[derive(Debug, Clone)]
struct Tap {
    player: usize,
    round: u32,
    status: u16,
    counted: bool,
    via_first: bool,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_hands_the_lease_over_ends_streams_loses_no_tap_and_the_survivor_counts_it_all() {
    let store = tempfile::tempdir().unwrap();
    let key = ulid::Ulid::new().to_string();
    let (engine_port, port_a, port_b, metrics_b) =
        (free_port(), free_port(), free_port(), free_port());
    let endpoint = format!("http://127.0.0.1:{engine_port}");
    let _engine = engine(engine_port, store.path(), &key);
    wait_for_port(engine_port).await;
    let client = app::http::engine::endpoint_client_with_key(&endpoint, &key).await;
    let http: Http = Client::builder(TokioExecutor::new()).build_http();

    // The first instance alone takes the stream's lease.
    let grace = GRACE_MS.to_string();
    let first = instance(
        port_a,
        &endpoint,
        &key,
        &[("UDD_SHUTDOWN_GRACE_MS", grace.as_str())],
    );
    healthy(&http, port_a).await;
    let mut held = Vec::new();
    for _ in 0..200 {
        held = leases(&client).await;
        if !held.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(held.len(), 1, "the first instance took the lease: {held:?}");
    let (shard, first_holder, _) = held[0].clone();
    let metrics_address = format!("127.0.0.1:{metrics_b}");
    let _second = instance(
        port_b,
        &endpoint,
        &key,
        &[("UDD_METRICS_ADDRESS", metrics_address.as_str())],
    );
    healthy(&http, port_b).await;
    let (base_a, base_b) = (
        format!("http://127.0.0.1:{port_a}"),
        format!("http://127.0.0.1:{port_b}"),
    );
    // Each instance has heard of the other (the newcomer's hello; announcements every 5 s).
    tokio::time::sleep(Duration::from_millis(1500)).await;

    // A room of three, made through the first instance; the host starts through the second.
    let mut phones: Vec<Phone> = (1..=3)
        .map(|i| Phone::new(&http, &base_a, &format!("10.7.0.{i}")))
        .collect();
    let code = support::room_of(&mut phones, &["Host", "Asha", "Ravi"], ROUNDS).await;
    // A listener on the first instance.
    let stream_a = tokio::spawn(listen(
        http.clone(),
        format!("{base_a}/r/{code}/events"),
        Duration::from_secs(120),
    ));
    let mut host_b = phones[0].clone();
    host_b.base = base_b.clone();
    let (status, body) = host_b
        .post("/api/rooms/start", &format!("code={code}&seed=9"))
        .await;
    assert_eq!(status, 200, "{body}");

    // Everyone taps every round, alternately through each instance (through the second alone
    // once the first is stopping, as a load balancer would), 150-450 ms after seeing it.
    let mut taps = tokio::task::JoinSet::new();
    let mut tapped = std::collections::HashSet::new();
    let mut first = Some(first);
    let mut stopping_task = None;
    let stopping = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut watcher = host_b.clone();
    let deadline = Instant::now() + Duration::from_secs(120);
    let finished: Match = loop {
        assert!(Instant::now() < deadline, "the match never finished");
        let Ok(data) = watcher.room(&code).await else {
            panic!("the second instance stopped answering");
        };
        let game = data.room.game.clone().expect("a match");
        if data.room.state != RoomState::Playing && game.is_finished() {
            break game;
        }
        for round in game.rounds.iter().filter(|r| r.thing.is_some()) {
            let n = round.n - game.first_round + 1;
            if round.closed_at_ms.is_some() || !tapped.insert(n) {
                continue;
            }
            for (player, phone) in phones.iter().enumerate() {
                let mut phone = phone.clone();
                let (base_a, base_b) = (base_a.clone(), base_b.clone());
                let stopping = stopping.clone();
                let form = format!(
                    "code={code}&round={}&reveal_ms={}&window_ms={}&reaction_ms={}",
                    round.n,
                    round.reveal_ms,
                    game.window_ms,
                    (epoch_millis() - round.reveal_ms + 300).max(300)
                );
                let wait = Duration::from_millis(150 + 150 * player as u64);
                taps.spawn(async move {
                    tokio::time::sleep(wait).await;
                    let first = (player + n as usize).is_multiple_of(2)
                        && !stopping.load(std::sync::atomic::Ordering::SeqCst);
                    phone.base = if first { base_a } else { base_b.clone() };
                    let (via_first, answer) = match phone.try_post("/api/rooms/tap", &form).await {
                        Some(answer) => (first, answer),
                        // Not reached (the first is going): the balancer tries the other.
                        None => {
                            phone.base = base_b;
                            (false, phone.post("/api/rooms/tap", &form).await)
                        }
                    };
                    let (status, body) = answer;
                    let counted = status == 200
                        && serde_json::from_str::<serde_json::Value>(&body)
                            .is_ok_and(|v| v["first"] == true);
                    Tap {
                        player,
                        round: n,
                        status,
                        counted,
                        via_first,
                    }
                });
            }
            if n == STOP_IN_ROUND && stopping_task.is_none() {
                tokio::time::sleep(Duration::from_millis(200)).await;
                let mut first = first.take().expect("running");
                let (client, shard, first_holder) =
                    (client.clone(), shard.clone(), first_holder.clone());
                let stopping = stopping.clone();
                stopping_task = Some(tokio::spawn(async move {
                    // SIGTERM, as ECS stops a task; taps still in flight to it finish there.
                    let pid = first.id().expect("running").to_string();
                    let at = Instant::now();
                    assert!(std::process::Command::new("kill")
                        .args(["-TERM", &pid])
                        .status()
                        .unwrap()
                        .success());
                    stopping.store(true, std::sync::atomic::Ordering::SeqCst);
                    // The lease: another holder, unexpired.
                    let mut handed_over = None;
                    while at.elapsed() < Duration::from_secs(5) {
                        let now = epoch_millis();
                        if leases(&client)
                            .await
                            .iter()
                            .any(|(s, h, e)| s == &shard && h != &first_holder && *e > now)
                        {
                            handed_over = Some(at.elapsed());
                            break;
                        }
                        tokio::time::sleep(Duration::from_millis(25)).await;
                    }
                    let exit =
                        tokio::time::timeout(Duration::from_millis(GRACE_MS + 5_000), first.wait())
                            .await
                            .expect("the first instance exits within its grace")
                            .unwrap();
                    (at, handed_over, at.elapsed(), exit)
                }));
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let taps: Vec<Tap> = taps.join_all().await;
    let (stopped, handed_over, took, exit) = stopping_task
        .expect("the first instance was stopped mid-match")
        .await
        .unwrap();
    let (status, stream_ended) = {
        let (status, got_event, ended, last) = stream_a.await.unwrap();
        assert!(
            got_event,
            "the listener on the first instance heard the room"
        );
        assert_eq!(
            last, "bye",
            "the stream's last event was the server's own end, not a cut"
        );
        (status, ended)
    };
    eprintln!(
        "lease handed over after {handed_over:?}; the first instance exited after {took:?}; its \
         stream ended {:?} after the SIGTERM; taps: {} answered, {} counted, {} through the \
         first instance",
        stream_ended.map(|at| at.saturating_duration_since(stopped)),
        taps.len(),
        taps.iter().filter(|t| t.counted).count(),
        taps.iter().filter(|t| t.via_first).count(),
    );
    assert_eq!(status, 200);
    let handed_over = handed_over.expect("the other instance took the lease");
    assert!(
        handed_over <= Duration::from_secs(2),
        "the lease passed after {handed_over:?}"
    );
    assert!(exit.success(), "a clean exit: {exit:?}");
    assert!(took < Duration::from_millis(GRACE_MS + 2_000), "{took:?}");
    let ended = stream_ended.expect("the stream on the stopping instance ended");
    assert!(
        ended.saturating_duration_since(stopped) < Duration::from_secs(2),
        "the stream ended {:?} after the SIGTERM",
        ended.saturating_duration_since(stopped)
    );
    assert!(
        taps.iter().all(|t| t.status < 500),
        "no tap answered 5xx: {taps:?}"
    );
    assert!(taps.iter().any(|t| t.via_first && t.counted));

    // The listener reconnects: the first instance is gone; the second serves the room's stream.
    assert!(
        tokio::net::TcpStream::connect(("127.0.0.1", port_a))
            .await
            .is_err(),
        "the first instance no longer listens"
    );

    // Every acknowledged tap is in the results; one record per player; the boards count the
    // match once (the second instance's projector, which took the lease).
    let db = Db::new(client.clone(), "udd");
    let room = db
        .game()
        .room(&RoomCode::parse(&code).unwrap())
        .await
        .unwrap()
        .unwrap();
    let game = room.game.expect("the match");
    assert_eq!(game.resolved, ROUNDS, "every round closed");
    assert_eq!(game.players, finished.players);
    let id_of = |player: usize| {
        let nickname = ["Host", "Asha", "Ravi"][player];
        game.players
            .iter()
            .find(|p| p.nickname.as_str() == nickname)
            .unwrap()
            .user_id
            .clone()
    };
    for tap in taps.iter().filter(|t| t.counted) {
        let round = &game.rounds[(tap.round - 1) as usize];
        let result = round
            .results
            .as_ref()
            .expect("results")
            .iter()
            .find(|r| r.user_id == id_of(tap.player))
            .unwrap();
        assert!(
            result.reaction_ms.is_some(),
            "an acknowledged tap is in the results: {tap:?}"
        );
    }
    let counted_by = Instant::now() + Duration::from_secs(30);
    for player in &game.players {
        let records = db
            .game()
            .my_matches(&player.user_id, 10, None)
            .await
            .unwrap();
        assert_eq!(
            records.items.len(),
            1,
            "one record for {}",
            player.nickname.as_str()
        );
        loop {
            let boards = db.boards().my_boards(&player.user_id, 20).await.unwrap();
            let totals: Vec<u64> = boards
                .iter()
                .map(|b| b.line.matches)
                .filter(|m| *m > 0)
                .collect();
            if !totals.is_empty() {
                assert!(totals.iter().all(|m| *m == 1), "counted once: {totals:?}");
                break;
            }
            assert!(
                Instant::now() < counted_by,
                "the boards never counted the match"
            );
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }
    let now = epoch_millis();
    assert!(
        leases(&client)
            .await
            .iter()
            .any(|(s, h, e)| s == &shard && h != &first_holder && *e > now),
        "the second instance still holds the lease"
    );

    let reconnected = tokio::spawn(listen(
        http.clone(),
        format!("{base_b}/r/{code}/events"),
        Duration::from_secs(3),
    ));

    // The survivor's figures, scraped from its metrics address while the stream is open.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut scraper = Phone::new(&http, &format!("http://{metrics_address}"), "127.0.0.1");
    let (status, metrics) = scraper.get("/metrics").await;
    assert_eq!(status, 200);
    let (status, _) = watcher.get("/metrics").await;
    assert_eq!(
        status, 404,
        "the game's own address does not serve the figures"
    );
    let (reconnected_status, reconnected_event, _, _) = reconnected.await.unwrap();
    assert_eq!(reconnected_status, 200);
    assert!(reconnected_event, "the reconnected listener hears the room");
    let moved = |name: &str, labels: &[&str]| {
        let value = sample(&metrics, name, labels)
            .unwrap_or_else(|| panic!("no {name} {labels:?} in:\n{metrics}"));
        assert!(value > 0.0, "{name} {labels:?} = {value}");
    };
    moved(
        "udd_http_requests_total",
        &[r#"route="/r/{code}/events""#, r#"status="200""#],
    );
    moved(
        "udd_http_requests_total",
        &[r#"method="POST""#, r#"status="200""#],
    );
    moved("udd_http_request_duration_seconds_count", &[]);
    moved("udd_taps_total", &[r#"outcome="counted""#]);
    // (The taps' writes: a transaction here came only from the host's own page load handing
    // the room away from them, which no longer happens.)
    moved("udd_dynamodb_capacity_units_count", &[r#"op="UpdateItem""#]);
    moved("udd_dynamodb_capacity_units_count", &[r#"op="GetItem""#]);
    moved("udd_dynamodb_capacity_units_sum", &[]);
    moved(
        "udd_dynamodb_call_duration_seconds_count",
        &[r#"work="projector""#],
    );
    moved("udd_projector_batches_total", &[]);
    moved("udd_projector_records_total", &[]);
    moved("udd_projector_lag_seconds_count", &[]);
    moved("udd_projector_shards_held", &[]);
    moved("udd_live_streams_open", &[]);
    assert!(
        sample(&metrics, "udd_projector_late_total", &[]).is_some(),
        "the late results' counter is there from the start:\n{metrics}"
    );
    // Throttles and conflicts: present from the start (zero here), so alarms have a series.
    for kind in ["throttled", "conflict"] {
        assert!(
            sample(
                &metrics,
                "udd_dynamodb_errors_total",
                &[&format!(r#"kind="{kind}""#), r#"op="TransactWriteItems""#]
            )
            .is_some(),
            "no {kind} series:\n{metrics}"
        );
    }
    assert!(
        !metrics.contains(&code),
        "a label carries the room's code:\n{metrics}"
    );
}
