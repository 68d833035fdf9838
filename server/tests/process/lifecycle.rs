//! The real binary, as an operator runs it: it prints where it serves, answers `/healthz`, stops
//! cleanly on SIGTERM (the embedded engine after the HTTP server), and a restart on the same data
//! directory finds everything where it was.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

struct Server {
    child: Child,
    addr: String,
}

/// Runs `udd-server` with `args` and `env`, and reads the address it prints first.
fn spawn(args: &[&str], env: &[(&str, &str)], announces: &str) -> Server {
    let mut command = Command::new(env!("CARGO_BIN_EXE_udd-server"));
    command
        .args(args)
        .env("LEPTOS_SITE_ADDR", "127.0.0.1:0")
        .env("RUST_LOG", "info")
        .env_remove("UDD_ENGINE")
        .env_remove("UDD_DYNAMODB_ENDPOINT")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command.spawn().expect("the server binary starts");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let addr = line
        .trim()
        .strip_prefix(announces)
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
        .to_owned();
    Server { child, addr }
}

fn start(data_dir: &Path) -> Server {
    let dir = data_dir.to_str().unwrap();
    spawn(&[], &[("UDD_DATA_DIR", dir)], "Udd is serving at http://")
}

/// A minimal HTTP/1.1 GET; returns the status code and body.
fn get(addr: &str, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    (status, response)
}

fn stop(mut server: Server) -> String {
    let pid = server.child.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let status = server.child.wait().unwrap();
    let mut log = String::new();
    server
        .child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    assert!(status.success(), "exit {status:?}\n{log}");
    log
}

#[test]
fn serves_stops_cleanly_and_keeps_its_data() {
    let dir = tempfile::tempdir().unwrap();

    let first = start(dir.path());
    let (status, health) = get(&first.addr, "/healthz");
    assert_eq!(status, 200, "{health}");
    assert!(health.contains(r#""engine":"embedded""#), "{health}");
    let (status, page) = get(&first.addr, "/things");
    assert_eq!(status, 200);
    assert!(page.matches(r#"data-testid="thing""#).count() >= 150);
    let log = stop(first);
    assert!(log.contains("seeded the catalog"), "{log}");
    let http_stopped = log
        .find("HTTP server stopped")
        .expect("HTTP server stops first");
    let engine_stopped = log
        .find("embedded engine stopped")
        .expect("then the engine");
    assert!(http_stopped < engine_stopped);

    let second = start(dir.path());
    let (status, _) = get(&second.addr, "/things?flies=yes");
    assert_eq!(status, 200);
    let log = stop(second);
    assert!(
        log.contains("Unchanged"),
        "the restart found the catalog in place:\n{log}"
    );
    assert!(!log.contains("created the table"), "{log}");
}

#[test]
fn two_instances_share_one_table_through_the_standalone_engine() {
    let dir = tempfile::tempdir().unwrap();
    const KEY: &str = "LIFECYCLETESTKEY0123456789";
    let engine = spawn(
        &["engine", "--listen", "127.0.0.1:0"],
        &[
            ("UDD_DATA_DIR", dir.path().to_str().unwrap()),
            ("UDD_ENGINE_KEY", KEY),
        ],
        "Embedded engine serving at http://",
    );
    let endpoint = format!("http://{}", engine.addr);
    let one = spawn(
        &[],
        &[
            ("UDD_DYNAMODB_ENDPOINT", &endpoint),
            ("UDD_ENGINE_KEY", KEY),
        ],
        "Udd is serving at http://",
    );
    let two = spawn(
        &[],
        &[
            ("UDD_DYNAMODB_ENDPOINT", &endpoint),
            ("UDD_ENGINE_KEY", KEY),
        ],
        "Udd is serving at http://",
    );
    // An instance without the key is not served: it cannot open the table, and says so.
    let stranger = Command::new(env!("CARGO_BIN_EXE_udd-server"))
        .env("LEPTOS_SITE_ADDR", "127.0.0.1:0")
        .env("UDD_DYNAMODB_ENDPOINT", &endpoint)
        .env("UDD_ENGINE_KEY", "NOTTHEKEY0123456789")
        .env_remove("UDD_ENGINE")
        .output()
        .unwrap();
    assert!(
        !stranger.status.success(),
        "an instance with the wrong key started"
    );
    // Nor is anything a browser sends, key or no key.
    let mut browser = TcpStream::connect(&engine.addr).unwrap();
    write!(
        browser,
        "POST / HTTP/1.1\r\nHost: {}\r\nOrigin: http://evil.example\r\n\
         X-Amz-Target: DynamoDB_20120810.ListTables\r\n\
         Authorization: AWS4-HMAC-SHA256 Credential={KEY}/x/y/dynamodb/aws4_request\r\n\
         Content-Type: application/x-amz-json-1.0\r\nContent-Length: 2\r\n\
         Connection: close\r\n\r\n{{}}",
        engine.addr
    )
    .unwrap();
    let mut answer = String::new();
    browser.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
    for server in [&one, &two] {
        let (status, health) = get(&server.addr, "/healthz");
        assert_eq!(status, 200, "{health}");
        assert!(health.contains(r#""engine":"endpoint""#), "{health}");
        let (status, page) = get(&server.addr, "/things");
        assert_eq!(status, 200);
        assert!(page.matches(r#"data-testid="thing""#).count() >= 150);
    }
    stop(one);
    let log = stop(two);
    assert!(
        log.contains("Unchanged"),
        "the second instance found the catalog seeded:\n{log}"
    );
    stop(engine);
    assert!(dir.path().join("udd.sqlite").exists());
}

/// On ECS, a task that cannot read its own address from the task metadata would announce
/// 127.0.0.1 to the others and never hear their news: it does not start (ECS starts another)
/// and says why.
#[test]
fn on_ecs_without_an_address_in_the_task_metadata_it_does_not_start() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let uri = format!("http://{}/v4/task", closed.local_addr().unwrap());
    drop(closed);
    let data = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_udd-server"))
        .env("LEPTOS_SITE_ADDR", "127.0.0.1:0")
        .env("UDD_DATA_DIR", data.path())
        .env("ECS_CONTAINER_METADATA_URI_V4", &uri)
        .env("UDD_METRICS_ADDRESS", "off")
        .env_remove("UDD_PEER_ADDRESS")
        .env_remove("UDD_ENGINE")
        .env_remove("UDD_DYNAMODB_ENDPOINT")
        .output()
        .expect("the server binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "it started: {stdout}\n{stderr}");
    assert!(!stdout.contains("Udd is serving"), "{stdout}");
    assert!(
        stderr.contains("no address in the task metadata"),
        "{stderr}"
    );
}
