//! Scale-in protection on ECS (`app::http::ecs::protection`) against a real table: the task asks
//! its agent (a stand-in here, recording what it is sent) to protect it once a match is in play
//! in a room someone follows through it, and lets go when the match is over, not before.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use app::http::ecs::protection;
use app::live::{RoomFeed, RoomHub};
use app::rooms::RoomSettings;
use tokio::time::timeout;

use super::room;

/// A stand-in for the ECS agent: each request's `ProtectionEnabled`, in order.
async fn agent() -> (String, Arc<Mutex<Vec<bool>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&seen);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = axum::Router::new().route(
        "/agent/task-protection/v1/state",
        axum::routing::put(move |body: axum::Json<serde_json::Value>| {
            let record = Arc::clone(&record);
            async move {
                let enabled = body["ProtectionEnabled"].as_bool().expect("a boolean");
                record.lock().unwrap().push(enabled);
                "{}"
            }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}/agent"), seen)
}

#[tokio::test]
async fn a_task_is_protected_from_scale_in_while_a_match_it_serves_is_in_play() {
    let t = super::seeded_table().await;
    let (code, host) = room(
        &t,
        "PRTCT",
        RoomSettings {
            rounds: 1,
            window_ms: 1000,
            ..RoomSettings::default()
        },
    )
    .await;
    let hub = RoomHub::new(t.db.clone(), Duration::from_millis(100), 8);
    let (uri, seen) = agent().await;
    tokio::spawn(protection::run(hub.clone(), uri, Duration::from_millis(50)));
    let asked = || seen.lock().unwrap().clone();

    // A room in its lobby, followed here: nothing to protect.
    let mut feed = hub.subscribe(&code);
    timeout(Duration::from_secs(5), feed.wait_for(|f| f.is_some()))
        .await
        .expect("a first snapshot")
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(hub.matches_in_play(), 0);
    assert_eq!(
        asked(),
        Vec::<bool>::new(),
        "no match in play: nothing asked"
    );

    // The match starts: protected.
    t.db.game()
        .start_match(&code, &host, Some(7))
        .await
        .unwrap();
    hub.poke(&code);
    let in_play = |f: &Option<std::sync::Arc<app::live::hub::Snapshot>>| matches!(f.as_deref().map(|s| &s.feed), Some(RoomFeed::Room(room)) if room.game.as_ref().is_some_and(|g| !g.is_finished()));
    timeout(Duration::from_secs(5), feed.wait_for(in_play))
        .await
        .expect("the start heard")
        .unwrap();
    assert_eq!(hub.matches_in_play(), 1);
    let protected = timeout(Duration::from_secs(2), async {
        while asked().is_empty() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(
        protected.is_ok(),
        "protection asked for once the match is in play"
    );
    // Held while the round goes on (a 3 s countdown, then a 1 s window).
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(in_play(&feed.borrow()), "the match is still in play");
    assert_eq!(asked(), [true], "held, not released, while in play");

    // One round (3 s countdown, 1 s window, grace): over, and let go.
    let over = |f: &Option<std::sync::Arc<app::live::hub::Snapshot>>| matches!(f.as_deref().map(|s| &s.feed), Some(RoomFeed::Room(room)) if room.game.as_ref().is_some_and(|g| g.is_finished()));
    timeout(Duration::from_secs(15), feed.wait_for(over))
        .await
        .expect("the match ends")
        .unwrap();
    let released = timeout(Duration::from_secs(2), async {
        while asked().len() < 2 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(released.is_ok(), "released once the match is over");
    assert_eq!(asked(), [true, false]);
    assert_eq!(hub.matches_in_play(), 0);

    // A match in a room nobody here follows is not this task's to protect.
    drop(feed);
    let started = timeout(Duration::from_secs(5), async {
        // The room is back in its lobby once the closer has written the match's end.
        while t
            .db
            .game()
            .start_match(&code, &host, Some(8))
            .await
            .is_err()
        {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await;
    assert!(started.is_ok(), "a second match starts");
    hub.poke(&code);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(hub.matches_in_play(), 0);
    assert_eq!(asked(), [true, false]);
}
