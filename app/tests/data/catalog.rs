//! The catalog: seeding, listing, paging, getting; cursors; TTL on reads; the Scan guard.

use std::collections::BTreeSet;

use app::catalog::store::SeedOutcome;
use app::catalog::{FlyFilter, Thing, ThingId};
use app::http::engine::endpoint_client;
use app::store::table::{TableOutcome, GLOBAL_INDEXES, LOCAL_INDEXES};
use app::store::{DataError, Db};
use aws_sdk_dynamodb::types::{StreamViewType, TimeToLiveStatus};

use super::{seed_things, seeded_table, set_ttl, test_table, unique_table_name};

fn ids(things: &[Thing]) -> BTreeSet<String> {
    things.iter().map(|t| t.id.to_string()).collect()
}

#[tokio::test]
async fn check_table_accepts_the_designed_table_and_names_a_missing_one_without_creating_it() {
    let t = test_table().await;
    t.db.check_table().await.unwrap();
    let missing = Db::new(t.engine.client.clone(), unique_table_name().as_str());
    let err = format!("{:?}", missing.check_table().await.unwrap_err());
    assert!(err.contains("does not exist"), "{err}");
    assert_eq!(
        missing.table_status().await.unwrap(),
        None,
        "checking created nothing"
    );
}

#[tokio::test]
async fn ensure_table_creates_the_designed_table_once() {
    let t = test_table().await;
    assert_eq!(
        t.db.ensure_table().await.unwrap(),
        TableOutcome::AlreadyExisted
    );

    let described = t
        .engine
        .client
        .describe_table()
        .table_name(t.db.table_name())
        .send()
        .await
        .unwrap()
        .table
        .unwrap();
    let gsis: BTreeSet<_> = described
        .global_secondary_indexes()
        .iter()
        .filter_map(|ix| ix.index_name())
        .collect();
    let lsis: BTreeSet<_> = described
        .local_secondary_indexes()
        .iter()
        .filter_map(|ix| ix.index_name())
        .collect();
    assert_eq!(gsis, GLOBAL_INDEXES.iter().map(|ix| ix.name).collect());
    assert_eq!(lsis, LOCAL_INDEXES.iter().map(|ix| ix.name).collect());
    let stream = described.stream_specification().expect("a stream");
    assert_eq!(
        stream.stream_view_type(),
        Some(&StreamViewType::NewAndOldImages)
    );

    let ttl = t
        .engine
        .client
        .describe_time_to_live()
        .table_name(t.db.table_name())
        .send()
        .await
        .unwrap()
        .time_to_live_description
        .unwrap();
    assert_eq!(ttl.attribute_name(), Some("ttl"));
    assert!(matches!(
        ttl.time_to_live_status(),
        Some(TimeToLiveStatus::Enabled | TimeToLiveStatus::Enabling)
    ));
}

#[tokio::test]
async fn seeding_writes_the_catalog_once() {
    let t = test_table().await;
    let things = seed_things();
    assert_eq!(
        t.db.catalog().seed_catalog(&things).await.unwrap(),
        SeedOutcome::Seeded {
            written: things.len(),
            removed: 0
        }
    );
    t.calls.reset();
    assert_eq!(
        t.db.catalog().seed_catalog(&things).await.unwrap(),
        SeedOutcome::Unchanged
    );
    assert_eq!(
        t.calls.ops(),
        ["GetItem"],
        "an up-to-date seed costs one read"
    );
}

#[tokio::test]
async fn reseeding_removes_things_dropped_from_the_catalog() {
    let t = seeded_table().await;
    let fewer = seed_things()[..160].to_vec();
    let dropped = seed_things().len() - fewer.len();
    assert_eq!(
        t.db.catalog().seed_catalog(&fewer).await.unwrap(),
        SeedOutcome::Seeded {
            written: 160,
            removed: dropped
        }
    );
    assert_eq!(
        ids(&t.db.catalog().list_things(FlyFilter::All).await.unwrap()),
        ids(&fewer)
    );
}

#[tokio::test]
async fn listing_things_is_one_query_per_filter() {
    let t = seeded_table().await;
    let seed = seed_things();
    for filter in [FlyFilter::All, FlyFilter::Flies, FlyFilter::Grounded] {
        t.calls.reset();
        let listed = t.db.catalog().list_things(filter).await.unwrap();
        let expected: Vec<_> = seed.iter().filter(|s| filter.matches(s)).cloned().collect();
        assert_eq!(ids(&listed), ids(&expected), "{filter:?}");
        assert_eq!(t.calls.ops(), ["Query"], "{filter:?}");
        assert!(
            t.calls.capacity() > 0.0,
            "the engine reports consumed capacity"
        );
    }
    let all = t.db.catalog().list_things(FlyFilter::All).await.unwrap();
    let crow = all.iter().find(|t| t.id.as_str() == "crow").unwrap();
    assert_eq!(crow, seed.iter().find(|t| t.id.as_str() == "crow").unwrap());
    let names: Vec<_> = all.iter().map(|t| t.en.to_lowercase()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "listed in display order");
}

/// The benchmark times the Query behind `/things` sent bare through the SDK, as the store hands
/// it out: addressed to the table, it answers every thing in one page (without the table's
/// name the SDK refused to build it, and `./udd bench` stopped at its first probe).
#[tokio::test]
async fn the_bare_listing_query_is_addressed_and_answers_every_thing() {
    let t = seeded_table().await;
    let request = t.db.catalog().list_things_request();
    assert_eq!(
        request.as_input().get_table_name().as_deref(),
        Some(t.db.table_name())
    );
    let out = request
        .send()
        .await
        .expect("the bare Query is sent as built");
    assert_eq!(out.count() as usize, seed_things().len());
    assert!(out.last_evaluated_key().is_none(), "one page");
}

#[tokio::test]
async fn no_data_path_scans_and_the_health_probe_does() {
    let t = test_table().await;
    let crow = ThingId::parse("crow").unwrap();
    t.db.catalog().seed_catalog(&seed_things()).await.unwrap();
    t.db.catalog().seed_catalog(&seed_things()).await.unwrap();
    for filter in [FlyFilter::All, FlyFilter::Flies, FlyFilter::Grounded] {
        t.db.catalog().list_things(filter).await.unwrap();
        let page = t.db.catalog().things_page(filter, 10, None).await.unwrap();
        t.db.catalog()
            .things_page(filter, 10, page.next.as_deref())
            .await
            .unwrap();
    }
    t.db.catalog().get_thing(&crow).await.unwrap();
    let ops = t.calls.ops();
    assert!(!ops.is_empty());
    assert!(!ops.contains(&"Scan"), "a data path scanned: {ops:?}");

    t.calls.reset();
    let health = t.db.health_probe().await.unwrap();
    assert_eq!(health.status, "ACTIVE");
    assert!(health.probe_ms.is_some());
    assert_eq!(t.calls.ops(), ["DescribeTable", "Scan"]);
}

#[tokio::test]
async fn pages_cover_the_list_and_cursors_cannot_be_forged() {
    let t = seeded_table().await;
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let page =
            t.db.catalog()
                .things_page(FlyFilter::Flies, 25, cursor.as_deref())
                .await
                .unwrap();
        assert!(page.items.len() <= 25);
        seen.extend(page.items);
        pages += 1;
        match page.next {
            Some(next) => cursor = Some(next),
            None => break,
        }
        assert!(pages < 50, "pagination does not end");
    }
    let flyers = t.db.catalog().list_things(FlyFilter::Flies).await.unwrap();
    assert_eq!(seen.len(), flyers.len(), "no thing twice");
    assert_eq!(ids(&seen), ids(&flyers));
    assert!(pages >= 3);

    let first =
        t.db.catalog()
            .things_page(FlyFilter::Flies, 5, None)
            .await
            .unwrap();
    let cursor = first.next.expect("more than five flyers");
    let tampered = format!("x{cursor}");
    assert!(matches!(
        t.db.catalog()
            .things_page(FlyFilter::Flies, 5, Some(&tampered))
            .await,
        Err(DataError::BadCursor)
    ));
    assert!(
        matches!(
            t.db.catalog()
                .things_page(FlyFilter::Grounded, 5, Some(&cursor))
                .await,
            Err(DataError::BadCursor)
        ),
        "a cursor only works for the query it came from"
    );
}

#[tokio::test]
async fn every_instance_on_a_table_shares_the_cursor_secret() {
    let t = seeded_table().await;
    // Ten fresh handles (ten "instances") race to create the secret.
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..10 {
        let db = Db::new(t.engine.client.clone(), t.db.table_name());
        tasks.spawn(async move { db.catalog().things_page(FlyFilter::All, 3, None).await });
    }
    let cursors: Vec<String> = tasks
        .join_all()
        .await
        .into_iter()
        .map(|page| page.unwrap().next.unwrap())
        .collect();
    let other = Db::new(t.engine.client.clone(), t.db.table_name());
    for cursor in &cursors {
        other
            .catalog()
            .things_page(FlyFilter::All, 3, Some(cursor))
            .await
            .expect("a cursor from one instance works on another");
    }
}

#[tokio::test]
async fn get_thing_reads_one_item() {
    let t = seeded_table().await;
    let crow =
        t.db.catalog()
            .get_thing(&ThingId::parse("crow").unwrap())
            .await
            .unwrap();
    assert_eq!(crow.map(|c| c.flies), Some(true));
    let none =
        t.db.catalog()
            .get_thing(&ThingId::parse("no-such-thing").unwrap())
            .await
            .unwrap();
    assert_eq!(none, None);
    assert_eq!(t.calls.ops(), ["GetItem", "GetItem"]);
}

#[tokio::test]
async fn expired_items_read_as_absent_before_the_engine_deletes_them() {
    let t = seeded_table().await;
    set_ttl(&t, "OBJ#crow", "META", app::store::epoch_seconds() - 60).await;
    let crow = ThingId::parse("crow").unwrap();
    assert_eq!(t.db.catalog().get_thing(&crow).await.unwrap(), None);
    let flyers = t.db.catalog().list_things(FlyFilter::Flies).await.unwrap();
    assert!(!flyers.iter().any(|t| t.id == crow));
    assert!(flyers.len() > 50, "only the expired thing is gone");
}

#[tokio::test]
async fn an_unreachable_engine_is_unavailable_not_an_internal_error() {
    // A port that nothing listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let db = Db::new(endpoint_client(&url).await, "udd");
    let err = db.catalog().list_things(FlyFilter::All).await.unwrap_err();
    assert!(matches!(err, DataError::Unavailable(_)), "{err:?}");
    assert!(err.is_retryable());
    assert!(matches!(
        db.health_probe().await,
        Err(DataError::Unavailable(_))
    ));
}

#[tokio::test]
async fn a_missing_table_reports_missing_in_health() {
    let t = test_table().await;
    let other = Db::new(t.engine.client.clone(), unique_table_name());
    assert_eq!(other.health_probe().await.unwrap().status, "MISSING");
}

/// The JSON bodies of the `CreateTable` calls a client sends.
#[derive(Debug, Clone, Default)]
struct CreateTables(std::sync::Arc<std::sync::Mutex<Vec<serde_json::Value>>>);

impl aws_sdk_dynamodb::config::Intercept for CreateTables {
    fn name(&self) -> &'static str {
        "CreateTables"
    }

    fn read_before_transmit(
        &self,
        context: &aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef<'_>,
        _components: &aws_sdk_dynamodb::config::RuntimeComponents,
        _cfg: &mut aws_sdk_dynamodb::config::ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        let request = context.request();
        let target = request.headers().get("x-amz-target").unwrap_or_default();
        if target.ends_with(".CreateTable") {
            let body = request.body().bytes().unwrap_or_default();
            self.0.lock().unwrap().push(serde_json::from_slice(body)?);
        }
        Ok(())
    }
}

#[tokio::test]
async fn a_table_created_with_a_ceiling_asks_for_it_and_one_without_asks_for_none() {
    use app::store::table::Ceiling;
    let t = test_table().await;
    let sent = CreateTables::default();
    let config = t
        .engine
        .client
        .config()
        .to_builder()
        .interceptor(sent.clone())
        .build();
    let client = aws_sdk_dynamodb::Client::from_conf(config);
    let ceiling = Ceiling {
        max_read_units: Some(3000),
        max_write_units: Some(1000),
    };
    for with in [ceiling, Ceiling::default()] {
        let db = Db::new(client.clone(), unique_table_name().as_str());
        assert_eq!(
            db.ensure_table_with(with).await.unwrap(),
            TableOutcome::Created
        );
        db.check_table().await.unwrap();
    }
    let sent = sent.0.lock().unwrap().clone();
    assert_eq!(sent.len(), 2, "{sent:?}");
    assert_eq!(
        sent[0]["OnDemandThroughput"],
        serde_json::json!({"MaxReadRequestUnits": 3000, "MaxWriteRequestUnits": 1000})
    );
    assert_eq!(sent[0]["BillingMode"], "PAY_PER_REQUEST");
    assert!(sent[1].get("OnDemandThroughput").is_none(), "{}", sent[1]);
}
