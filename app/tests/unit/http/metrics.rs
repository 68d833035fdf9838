//! The unit tests of `app::http::metrics`.

use app::http::metrics::*;

#[test]
fn methods_the_game_does_not_answer_share_one_label() {
    assert_eq!(method_label(&axum::http::Method::PATCH), "other");
}

/// A request slower than a quarter of a second is counted by its route, as a counter: the
/// CloudWatch agent drops histograms, and the template's slow-tap alarm reads this.
#[tokio::test(flavor = "current_thread")]
async fn a_request_slower_than_a_quarter_second_is_counted_by_its_route() {
    use axum::routing::get;
    use tower::ServiceExt;
    let recorder = metrics_exporter_prometheus::PrometheusBuilder::new().build_recorder();
    let handle = recorder.handle();
    let _local = metrics::set_default_local_recorder(&recorder);
    let app = axum::Router::new()
        .route(
            "/slow/{n}",
            get(|| async {
                tokio::time::sleep(std::time::Duration::from_millis(300)).await;
                "slow"
            }),
        )
        .route("/fast", get(|| async { "fast" }))
        .layer(axum::middleware::from_fn(track));
    for uri in ["/slow/1", "/slow/2", "/fast"] {
        let request = axum::http::Request::get(uri)
            .body(axum::body::Body::empty())
            .unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), 200);
    }
    let text = handle.render();
    assert!(
        text.contains(r#"udd_http_slow_requests_total{route="/slow/{n}"} 2"#),
        "{text}"
    );
    assert!(
        !text.contains(r#"udd_http_slow_requests_total{route="/fast"}"#),
        "{text}"
    );
}
