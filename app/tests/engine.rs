//! The embedded engine: file-backed, so stopping and starting the server keeps every item.

use app::catalog::{self, seed::SEED, FlyFilter};
use app::data::{Db, SeedOutcome};
use app::engine::{Engine, EngineConfig};

#[tokio::test]
async fn the_embedded_engine_keeps_data_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let config = EngineConfig::Embedded {
        data_dir: Some(dir.path().to_owned()),
    };
    let things = catalog::validate(SEED).unwrap();

    let first = Engine::start(config.clone()).await.unwrap();
    let db = Db::new(first.client.clone(), "udd");
    db.ensure_table().await.unwrap();
    assert!(matches!(
        db.seed_catalog(&things).await.unwrap(),
        SeedOutcome::Seeded { .. }
    ));
    first.stop().await;
    assert!(dir.path().join("udd.sqlite").exists());

    let second = Engine::start(config).await.unwrap();
    let db = Db::new(second.client.clone(), "udd");
    assert_eq!(
        db.ensure_table().await.unwrap(),
        app::data::table::TableOutcome::AlreadyExisted
    );
    assert_eq!(
        db.seed_catalog(&things).await.unwrap(),
        SeedOutcome::Unchanged
    );
    assert_eq!(
        db.list_things(FlyFilter::All).await.unwrap().len(),
        things.len()
    );
    second.stop().await;
}
