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

mod protection {
    //! Scale-in protection: when the task asks (the decision, on a made-up clock), and what the
    //! agent is sent (a served stand-in that records each request).

    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use app::http::ecs::protection::{
        send, Ask, Protection, AT_MOST, BREAK, PROTECT_MINUTES, RENEW_EVERY,
    };
    use axum::http::StatusCode;

    const PROTECT: Option<Ask> = Some(Ask::Protect {
        minutes: PROTECT_MINUTES,
    });

    #[test]
    fn protected_while_a_match_is_in_play_renewed_in_time_and_released_after() {
        let start = Instant::now();
        let at = |secs: u64| start + Duration::from_secs(secs);
        let mut p = Protection::new();
        assert_eq!(p.next(false, at(0)), None, "nothing in play: nothing asked");
        assert_eq!(
            p.next(true, at(15)),
            PROTECT,
            "a match starts: protected at once"
        );
        assert!(p.held());
        assert_eq!(p.next(true, at(30)), None, "not renewed before its time");
        // Renewed before it lapses: the renewal comes at most a check after RENEW_EVERY.
        assert!(
            RENEW_EVERY + Duration::from_secs(15)
                < Duration::from_secs(60 * u64::from(PROTECT_MINUTES))
        );
        assert_eq!(p.next(true, at(15) + RENEW_EVERY), PROTECT);
        assert_eq!(
            p.next(false, at(100)),
            Some(Ask::Release),
            "no match in play: let go"
        );
        assert!(!p.held());
        assert_eq!(p.next(false, at(115)), None, "released once");
    }

    #[test]
    fn a_protection_the_agent_refused_is_asked_again_at_the_next_check() {
        let start = Instant::now();
        let mut p = Protection::new();
        let ask = p.next(true, start).unwrap();
        p.failed(ask);
        assert_eq!(p.next(true, start + Duration::from_secs(15)), PROTECT);
    }

    #[test]
    fn a_task_always_in_play_lets_go_for_a_break_so_a_deployment_can_stop_it() {
        let start = Instant::now();
        let mut p = Protection::new();
        let mut asks = Vec::new();
        let mut now = start;
        // Always in play, checked every 15 s, for an hour.
        while now < start + Duration::from_secs(3600) {
            if let Some(ask) = p.next(true, now) {
                asks.push((now.duration_since(start), ask));
            }
            now += Duration::from_secs(15);
        }
        let releases: Vec<Duration> = asks
            .iter()
            .filter(|(_, ask)| *ask == Ask::Release)
            .map(|(at, _)| *at)
            .collect();
        assert!(!releases.is_empty(), "let go at least once in an hour");
        assert!(releases[0] >= AT_MOST && releases[0] < AT_MOST + Duration::from_secs(15));
        // Nothing asked during the break; protected again at its end.
        let after: Vec<_> = asks.iter().filter(|(at, _)| *at > releases[0]).collect();
        assert!(
            after[0].0 >= releases[0] + BREAK,
            "protected again only after the break: {after:?}"
        );
        assert_eq!(Some(after[0].1), PROTECT);
    }

    /// A stand-in for the ECS agent: records each request's method, path and body, and answers
    /// `answer`.
    async fn agent(
        answer: &'static str,
    ) -> (String, Arc<Mutex<Vec<(String, String, serde_json::Value)>>>) {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let record = Arc::clone(&seen);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let app = axum::Router::new().fallback(move |request: axum::extract::Request| {
            let record = Arc::clone(&record);
            async move {
                let method = request.method().to_string();
                let path = request.uri().path().to_owned();
                let bytes = axum::body::to_bytes(request.into_body(), 4096)
                    .await
                    .unwrap();
                let body = serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null);
                record.lock().unwrap().push((method, path, body));
                (StatusCode::OK, answer)
            }
        });
        tokio::spawn(async move { axum::serve(listener, app).await });
        (format!("http://{addr}/api/abc-123"), seen)
    }

    #[tokio::test]
    async fn the_agent_is_sent_the_documented_request() {
        let (uri, seen) = agent(r#"{"protection":{"ProtectionEnabled":true}}"#).await;
        send(&uri, Ask::Protect { minutes: 2 }).await.unwrap();
        send(&uri, Ask::Release).await.unwrap();
        let seen = seen.lock().unwrap().clone();
        // As AWS documents the endpoint: PUT $ECS_AGENT_URI/task-protection/v1/state.
        let path = "/api/abc-123/task-protection/v1/state";
        assert_eq!(
            seen,
            [
                (
                    "PUT".to_owned(),
                    path.to_owned(),
                    serde_json::json!({"ProtectionEnabled": true, "ExpiresInMinutes": 2})
                ),
                (
                    "PUT".to_owned(),
                    path.to_owned(),
                    serde_json::json!({"ProtectionEnabled": false})
                ),
            ]
        );
    }

    #[tokio::test]
    async fn a_refusal_from_ecs_is_an_error() {
        // The agent passes on ECS's refusal (here, the task role lacking the permission).
        let (uri, _) =
            agent(r#"{"failure":{"Arn":"arn:aws:ecs:…","Reason":"ACCESS_DENIED"}}"#).await;
        let err = send(&uri, Ask::Protect { minutes: 2 }).await.unwrap_err();
        assert!(err.contains("ACCESS_DENIED"), "{err}");
        // Nobody listening: an error, not a hang.
        assert!(send("http://127.0.0.1:9", Ask::Release).await.is_err());
    }
}
