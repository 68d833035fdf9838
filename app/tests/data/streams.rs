//! Live streams counted per client across instances: the cap holds under a race of two
//! instances, closed streams give their place back, and open ones carry into the next window.

use app::live::store::streams::stream_window;
use app::store::{epoch_seconds, Db};

use super::test_table;

#[tokio::test]
async fn forty_racing_opens_on_two_instances_admit_exactly_the_cap() {
    let t = test_table().await;
    let one = t.db.clone();
    let two = Db::new(t.engine.client.clone(), t.db.table_name().to_owned());
    let window = stream_window(epoch_seconds());
    let mut opens = tokio::task::JoinSet::new();
    for i in 0..40 {
        let db = if i % 2 == 0 { one.clone() } else { two.clone() };
        opens.spawn(async move { db.live().count_stream("203.0.113.7", 10).await.unwrap() });
    }
    let admitted: Vec<i64> = opens.join_all().await.into_iter().flatten().collect();
    if stream_window(epoch_seconds()) != window {
        return; // the window turned mid-race (one test in 300 s): the count started over
    }
    assert_eq!(admitted.len(), 10, "exactly the cap: {admitted:?}");
    assert_eq!(
        t.db.live()
            .streams_counted("203.0.113.7", window)
            .await
            .unwrap(),
        10
    );
    assert!(
        t.db.live()
            .count_stream("198.51.100.1", 10)
            .await
            .unwrap()
            .is_some(),
        "another client has its own count"
    );

    // Three close: three more may open.
    for _ in 0..3 {
        t.db.live()
            .release_stream("203.0.113.7", window, window)
            .await
            .unwrap();
    }
    let mut again = 0;
    for _ in 0..5 {
        again += usize::from(
            t.db.live()
                .count_stream("203.0.113.7", 10)
                .await
                .unwrap()
                .is_some(),
        );
    }
    assert_eq!(again, 3);
}

#[tokio::test]
async fn an_open_stream_is_counted_in_the_next_window_before_it_begins() {
    let t = test_table().await;
    let window = stream_window(epoch_seconds());
    t.db.live()
        .renew_stream("203.0.113.8", window + 1)
        .await
        .unwrap();
    t.db.live()
        .renew_stream("203.0.113.8", window + 1)
        .await
        .unwrap();
    assert_eq!(
        t.db.live()
            .streams_counted("203.0.113.8", window + 1)
            .await
            .unwrap(),
        2
    );
    // A cap of two is reached in that window by the streams carried over.
    assert_eq!(
        t.db.live()
            .streams_counted("203.0.113.8", window)
            .await
            .unwrap(),
        0
    );
}
