//! Throttling at the edge: DynamoDB's `ThrottlingException`, injected at the SDK (no local engine
//! raises it), is retried by the SDK with backoff; when it never clears, every page and server
//! function answers 503 (not 500) and nothing is half-written.

use crate::support;

use app::store::Db;
use axum::http::StatusCode;

use support::faults::{with_faults, THROTTLED};
use support::{app_with_catalog, cookie_pair, get_page, post, router_on, send};

#[tokio::test]
async fn a_throttled_table_is_a_clear_503_everywhere_and_a_passing_one_is_ridden_out() {
    let (app, engine) = app_with_catalog().await;
    let db = Db::new(engine.client.clone(), "udd");
    let host = post(&app, "/api/guest", "name=Host", None).await;
    let host_cookie = cookie_pair(&host.cookie.unwrap());
    let created = post(&app, "/api/rooms/create", "name=Host", Some(&host_cookie)).await;
    let code = created.json.as_str().unwrap().to_owned();
    let code_parsed = app::rooms::RoomCode::parse(&code).unwrap();
    let before = db.rooms().lobby(&code_parsed).await.unwrap().unwrap();

    // An instance whose every call is throttled, however often the SDK tries again.
    let (client, _) = with_faults(&engine.client, None, THROTTLED, u32::MAX);
    let throttled = router_on(Db::new(client, "udd"));
    for (path, form, cookie) in [
        ("/api/rooms/join", format!("code={code}&name=Asha"), None),
        ("/api/guest", "name=Ravi".to_owned(), None),
        (
            "/api/rooms/create",
            "name=Ravi".to_owned(),
            Some(&host_cookie),
        ),
        (
            "/api/rooms/start",
            format!("code={code}"),
            Some(&host_cookie),
        ),
        (
            "/api/trades/offer",
            "to=ravi&give_feathers=1".to_owned(),
            Some(&host_cookie),
        ),
    ] {
        let reply = post(&throttled, path, &form, cookie.map(String::as_str)).await;
        assert_eq!(
            reply.status,
            StatusCode::SERVICE_UNAVAILABLE,
            "{path}: {}",
            reply.json
        );
        assert!(
            reply.cookie.is_none(),
            "{path}: no session from a failed request"
        );
    }
    for page in [
        format!("/r/{code}"),
        "/inventory".to_owned(),
        "/cards/crow".to_owned(),
    ] {
        let answer = send(&throttled, get_page(&page).header("cookie", &host_cookie)).await;
        assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE, "{page}");
    }
    assert_eq!(
        db.rooms().lobby(&code_parsed).await.unwrap().unwrap(),
        before,
        "nothing half-written"
    );

    // Two throttled answers in a row are retried inside the SDK: the join goes through once.
    let (client, remaining) = with_faults(&engine.client, Some("TransactWriteItems"), THROTTLED, 2);
    let passing = router_on(Db::new(client, "udd"));
    let joined = post(
        &passing,
        "/api/rooms/join",
        &format!("code={code}&name=Asha"),
        None,
    )
    .await;
    assert_eq!(joined.status, StatusCode::OK, "{}", joined.json);
    assert_eq!(remaining.load(std::sync::atomic::Ordering::SeqCst), 0);
    let lobby = db.rooms().lobby(&code_parsed).await.unwrap().unwrap();
    assert_eq!(lobby.players.len(), 2, "joined exactly once");
}
