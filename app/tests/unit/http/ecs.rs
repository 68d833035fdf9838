//! Tests of `app::http::ecs`: the task's address read from a served copy of the container metadata.

use app::http::ecs::peer_address;

/// Serves `body` at `/v4/abc` on a loopback port; the URI to ask.
async fn metadata(body: &'static str) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = axum::Router::new().route("/v4/abc", axum::routing::get(move || async move { body }));
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}/v4/abc")
}

#[tokio::test]
async fn the_task_address_comes_from_the_container_metadata() {
    // The shape of AWS's documented example response (awsvpc network mode), trimmed.
    let uri = metadata(
        r#"{"DockerId":"ea32192c8553fbff06c9340478a2ff089b2bb5646fb718b4ee206641c9086d66",
            "Name":"udd","Networks":[{"NetworkMode":"awsvpc",
            "IPv4Addresses":["10.0.2.106"],"AttachmentIndex":0,
            "PrivateDNSName":"ip-10-0-2-106.us-west-2.compute.internal"}]}"#,
    )
    .await;
    assert_eq!(
        peer_address(&uri, 3000).await.as_deref(),
        Some("http://10.0.2.106:3000")
    );
}

#[tokio::test]
async fn metadata_without_an_address_gives_none() {
    let uri = metadata(r#"{"Name":"udd","Networks":[]}"#).await;
    assert_eq!(peer_address(&uri, 3000).await, None);
    let uri = metadata("not json").await;
    assert_eq!(peer_address(&uri, 3000).await, None);
}
