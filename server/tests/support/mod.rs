//! What the tests that run the real binary share: ports, the standalone engine, an instance,
//! and a player's phone talking HTTP to an instance.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use app::live::api::RoomPageData;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use tokio::process::{Child, Command};

pub const SERVER: &str = env!("CARGO_BIN_EXE_udd-server");

pub type Http = Client<HttpConnector, Full<Bytes>>;

/// A game instance on `port`, on the engine at `endpoint`, with `env` besides.
pub fn instance(port: u16, endpoint: &str, key: &str, env: &[(&str, &str)]) -> Child {
    let mut command = Command::new(SERVER);
    command
        .env("LEPTOS_SITE_ADDR", format!("127.0.0.1:{port}"))
        .env("LEPTOS_OUTPUT_NAME", "udd")
        .env("LEPTOS_SITE_ROOT", "../target/site")
        .env("LEPTOS_SITE_PKG_DIR", "pkg")
        .env("LEPTOS_ENV", "PROD")
        .env("UDD_DYNAMODB_ENDPOINT", endpoint)
        .env("UDD_ENGINE_KEY", key)
        .env("UDD_TRUSTED_PROXIES", "127.0.0.1")
        .env("UDD_METRICS_ADDRESS", "off")
        .env("RUST_LOG", "error")
        .stdout(Stdio::null())
        .kill_on_drop(true);
    for (name, value) in env {
        command.env(name, value);
    }
    command.spawn().expect("the instance starts")
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub fn engine(port: u16, data: &Path, key: &str) -> Child {
    Command::new(SERVER)
        .args(["engine", "--listen", &format!("127.0.0.1:{port}")])
        .env("UDD_DATA_DIR", data)
        .env("UDD_ENGINE_KEY", key)
        .env("RUST_LOG", "error")
        .stdout(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("the engine starts")
}

pub async fn wait_for_port(port: u16) {
    for _ in 0..600 {
        if tokio::net::TcpStream::connect(SocketAddr::from(([127, 0, 0, 1], port)))
            .await
            .is_ok()
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("nothing listens on port {port} after a minute");
}

/// One player's phone: its address (believed from loopback, as behind a proxy) and session.
#[derive(Clone)]
pub struct Phone {
    pub http: Http,
    pub base: String,
    pub address: String,
    pub cookie: Option<String>,
}

impl Phone {
    pub fn new(http: &Http, base: &str, address: &str) -> Self {
        Self {
            http: http.clone(),
            base: base.to_owned(),
            address: address.to_owned(),
            cookie: None,
        }
    }

    pub async fn send(&mut self, request: http::request::Builder, body: &str) -> (u16, String) {
        self.try_send(request, body)
            .await
            .expect("the instance answers")
    }

    /// [`Phone::send`], or `None` when the instance cannot be reached (gone, or going).
    pub async fn try_send(
        &mut self,
        request: http::request::Builder,
        body: &str,
    ) -> Option<(u16, String)> {
        let mut request = request.header("x-forwarded-for", &self.address);
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie);
        }
        let response = self
            .http
            .request(
                request
                    .body(Full::new(Bytes::from(body.to_owned())))
                    .unwrap(),
            )
            .await
            .ok()?;
        let status = response.status().as_u16();
        if let Some(set) = response.headers().get("set-cookie") {
            let pair = set.to_str().unwrap().split(';').next().unwrap_or_default();
            self.cookie = Some(pair.to_owned());
        }
        // A live stream's body never ends: read what is there, not the whole of it.
        let body = tokio::time::timeout(Duration::from_secs(20), response.into_body().collect())
            .await
            .map(|body| body.map(|b| b.to_bytes()).unwrap_or_default())
            .unwrap_or_default();
        Some((status, String::from_utf8_lossy(&body).into_owned()))
    }

    /// A form post to `path` on this phone's instance, as its page would send it.
    fn form_post(&self, path: &str) -> http::request::Builder {
        http::Request::post(format!("{}{path}", self.base))
            .header("content-type", "application/x-www-form-urlencoded")
            .header("accept", "application/json")
            .header("origin", &self.base)
    }

    /// [`Phone::post`], or `None` when the instance cannot be reached (gone, or going).
    pub async fn try_post(&mut self, path: &str, form: &str) -> Option<(u16, String)> {
        let request = self.form_post(path);
        self.try_send(request, form).await
    }

    pub async fn post(&mut self, path: &str, form: &str) -> (u16, String) {
        let request = self.form_post(path);
        self.send(request, form).await
    }

    pub async fn get(&mut self, path: &str) -> (u16, String) {
        self.send(http::Request::get(format!("{}{path}", self.base)), "")
            .await
    }

    /// The room as `/api/rooms/lobby` shows it, or the status it answered instead.
    pub async fn room(&mut self, code: &str) -> Result<RoomPageData, u16> {
        match self.post("/api/rooms/lobby", &format!("code={code}")).await {
            (200, body) => Ok(serde_json::from_str(&body).expect("the room's JSON")),
            (status, _) => Err(status),
        }
    }
}

/// A private room of `phones`' players (the first the host, named `names` in order), set to
/// `rounds` rounds of 2 s each: create, joins and settings through each phone's instance, every
/// answer a 200. Returns the room's code.
pub async fn room_of(phones: &mut [Phone], names: &[&str], rounds: u32) -> String {
    let (status, body) = phones[0]
        .post("/api/rooms/create", &format!("name={}", names[0]))
        .await;
    assert_eq!(status, 200, "{body}");
    let code: String = serde_json::from_str(&body).unwrap();
    for (phone, name) in phones.iter_mut().zip(names).skip(1) {
        let (status, body) = phone
            .post("/api/rooms/join", &format!("code={code}&name={name}"))
            .await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = phones[0]
        .post(
            "/api/rooms/settings",
            &format!(
                "code={code}&settings[max_players]=8&settings[rounds]={rounds}\
                 &settings[window_ms]=2000&settings[public]=false"
            ),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    code
}
