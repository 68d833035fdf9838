//! Running on Amazon ECS: where the other instances reach this one. A Fargate task's address is
//! known only once it runs; the ECS agent serves it at `$ECS_CONTAINER_METADATA_URI_V4` (the
//! container's metadata: `Networks[].IPv4Addresses`). And while a match is in play here, the
//! task protects itself from scale-in (`protection`).

pub mod protection;

use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde::Deserialize;

/// The variable the ECS agent sets in every container (task metadata endpoint version 4).
pub const METADATA_VAR: &str = "ECS_CONTAINER_METADATA_URI_V4";

/// How many times a starting task reads its metadata (a second apart) before it gives up.
pub const ATTEMPTS: u32 = 5;

#[derive(Deserialize)]
struct Container {
    #[serde(rename = "Networks", default)]
    networks: Vec<Network>,
}

#[derive(Deserialize)]
struct Network {
    #[serde(rename = "IPv4Addresses", default)]
    ipv4: Vec<String>,
}

/// `http://<the task's private address>:<port>`, read from the container metadata at `uri`;
/// `None` when it cannot be read (the caller falls back and says so).
pub async fn peer_address(uri: &str, port: u16) -> Option<String> {
    let client: Client<_, Empty<Bytes>> = Client::builder(TokioExecutor::new()).build_http();
    let request = tokio::time::timeout(
        std::time::Duration::from_secs(3),
        client.get(uri.parse().ok()?),
    );
    let response = request.await.ok()?.ok()?;
    if !response.status().is_success() {
        return None;
    }
    let body = response.into_body().collect().await.ok()?.to_bytes();
    let container: Container = serde_json::from_slice(&body).ok()?;
    let ip: std::net::Ipv4Addr = container
        .networks
        .iter()
        .flat_map(|n| &n.ipv4)
        .find_map(|ip| ip.parse().ok())?;
    Some(format!("http://{ip}:{port}"))
}
