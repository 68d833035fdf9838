//! Integration tests of every data-layer access pattern against a real DynamoDB-compatible
//! engine: an in-memory embedded dynoxide per test by default, or the engine at
//! `UDD_TEST_DYNAMODB_ENDPOINT` (the test command points it at Amazon DynamoDB Local). Each test
//! creates its own table, so tests never see each other's items.

mod audience;
mod boards;
mod cards;
mod catalog;
mod conflicts;
mod control;
mod convert;
mod daily;
mod deck_play;
mod deck_reports;
mod decks;
#[path = "../support/faults.rs"]
mod faults;
mod gallery;
mod game;
mod holders;
mod identity;
mod inventory;
mod live;
mod lost;
mod lost_paths;
mod oracle;
mod presence;
mod profiles;
mod refusals;
mod retries;
mod reuse;
mod rooms;
mod safety;
mod scale_in;
mod strangers;
mod streams;
mod suggest;

use std::sync::atomic::{AtomicU32, Ordering};

use app::catalog::{self as things, seed::SEED, Thing};
use app::http::engine::{Engine, EngineConfig};
use app::store::{Db, Recorder};

/// One isolated table on the engine under test, with a recorder on every call.
pub struct TestTable {
    pub db: Db,
    pub calls: Recorder,
    pub engine: Engine,
}

impl TestTable {
    /// Every item of partition `pk`, read raw (consistently, past the recorder): what a test
    /// checks the stored truth with.
    pub async fn partition(&self, pk: &str) -> Vec<app::store::Item> {
        self.engine
            .client
            .query()
            .table_name(self.db.table_name())
            .key_condition_expression("PK = :pk")
            .expression_attribute_values(
                ":pk",
                aws_sdk_dynamodb::types::AttributeValue::S(pk.to_owned()),
            )
            .consistent_read(true)
            .send()
            .await
            .unwrap()
            .items
            .unwrap_or_default()
    }
}

/// The engine of one test's table. On an endpoint (DynamoDB Local) each table is in a database of
/// its own, under an access key of its own: DynamoDB Local's writes slow down with everything its
/// database ever held (each write 0.4–0.5 s after the suite's first 70 tests, against 0.03 s in
/// a fresh one, even with every table deleted), and one test's calls went past the SDK's 15 s.
fn engine_config() -> EngineConfig {
    match std::env::var("UDD_TEST_DYNAMODB_ENDPOINT") {
        Ok(url) if !url.is_empty() => EngineConfig::Endpoint {
            url,
            // DynamoDB Local takes only letters and digits in an access key id.
            key: Some(unique_table_name().replace('-', "")),
        },
        _ => EngineConfig::Embedded { data_dir: None },
    }
}

/// (calls, read units, write units) of what `calls` recorded.
pub fn cost(calls: &Recorder) -> (usize, f64, f64) {
    calls.calls().iter().fold((0, 0.0, 0.0), |(n, r, w), c| {
        if app::store::metrics::is_write(c.op) {
            (n + 1, r, w + c.capacity)
        } else {
            (n + 1, r + c.capacity, w)
        }
    })
}

pub fn unique_table_name() -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!(
        "udd-test-{}-{nanos}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

pub async fn test_table() -> TestTable {
    let config = engine_config();
    let engine = Engine::start(config.clone())
        .await
        .expect("the engine under test starts");
    let calls = Recorder::new();
    let db = Db::new(engine.client.clone(), unique_table_name()).recording(calls.clone());
    db.ensure_table().await.unwrap_or_else(|err| {
        panic!("cannot create a table on {config:?} (is the engine running?): {err:?}")
    });
    calls.reset();
    TestTable { db, calls, engine }
}

pub fn seed_things() -> Vec<Thing> {
    things::validate(SEED).expect("the seed catalog is valid")
}

pub async fn seeded_table() -> TestTable {
    let t = test_table().await;
    t.db.catalog()
        .seed_catalog(&seed_things())
        .await
        .expect("seeding works");
    t.calls.reset();
    t
}

/// Sets an item's `ttl` behind the data layer's back, as time passing would.
pub async fn set_ttl(t: &TestTable, pk: &str, sk: &str, ttl: i64) {
    t.engine
        .client
        .update_item()
        .table_name(t.db.table_name())
        .key("PK", aws_sdk_dynamodb::types::AttributeValue::S(pk.into()))
        .key("SK", aws_sdk_dynamodb::types::AttributeValue::S(sk.into()))
        .update_expression("SET #ttl = :ttl")
        .expression_attribute_names("#ttl", "ttl")
        .expression_attribute_values(
            ":ttl",
            aws_sdk_dynamodb::types::AttributeValue::N(ttl.to_string()),
        )
        .send()
        .await
        .unwrap();
}

/// A well-formed code no test creates.
pub fn rooms_unknown() -> app::rooms::RoomCode {
    app::rooms::RoomCode::parse("ZZZZZ").unwrap()
}

/// A display name the test knows to be valid.
pub fn name(raw: &str) -> app::identity::DisplayName {
    app::identity::DisplayName::parse(raw).unwrap()
}

/// A new guest player (with a session nobody uses).
pub async fn player(t: &TestTable, display: &str) -> app::identity::UserId {
    t.db.accounts()
        .create_guest(
            &name(display),
            app::identity::Avatar::Bee,
            &app::identity::auth::SessionToken::generate().hash(),
        )
        .await
        .unwrap()
        .id
}

/// A room with a host called "Host" (in the lobby); its code and the host's id.
pub async fn room(
    t: &TestTable,
    raw: &str,
    settings: app::rooms::RoomSettings,
) -> (app::rooms::RoomCode, app::identity::UserId) {
    let host = player(t, "Host").await;
    let code = app::rooms::RoomCode::parse(raw).unwrap();
    t.db.rooms()
        .create_room(
            &code,
            &host,
            &name("Host"),
            app::identity::Avatar::Crow,
            settings,
        )
        .await
        .unwrap();
    (code, host)
}
