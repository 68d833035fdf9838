//! The embedded engine: file-backed, so stopping and starting the server keeps every item.

use app::catalog::store::SeedOutcome;
use app::catalog::{self, seed::SEED, FlyFilter};
use app::http::engine::{Engine, EngineConfig};
use app::store::Db;

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
        db.catalog().seed_catalog(&things).await.unwrap(),
        SeedOutcome::Seeded { .. }
    ));
    first.stop().await;
    assert!(dir.path().join("udd.sqlite").exists());

    let second = Engine::start(config).await.unwrap();
    let db = Db::new(second.client.clone(), "udd");
    assert_eq!(
        db.ensure_table().await.unwrap(),
        app::store::table::TableOutcome::AlreadyExisted
    );
    assert_eq!(
        db.catalog().seed_catalog(&things).await.unwrap(),
        SeedOutcome::Unchanged
    );
    assert_eq!(
        db.catalog()
            .list_things(FlyFilter::All)
            .await
            .unwrap()
            .len(),
        things.len()
    );
    second.stop().await;
}

#[cfg(unix)]
#[tokio::test]
async fn the_data_file_is_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("fresh");
    let engine = Engine::start(EngineConfig::Embedded {
        data_dir: Some(data.clone()),
    })
    .await
    .unwrap();
    let db = Db::new(engine.client.clone(), "udd");
    db.ensure_table().await.unwrap();
    engine.stop().await;
    let mode =
        |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&data), 0o700, "a data directory the server made");
    for entry in std::fs::read_dir(&data).unwrap() {
        let path = entry.unwrap().path();
        assert_eq!(mode(&path), 0o600, "{}", path.display());
    }

    // A file left world-readable by an older version is closed up on the next start.
    let file = data.join("udd.sqlite");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let engine = Engine::start(EngineConfig::Embedded {
        data_dir: Some(data.clone()),
    })
    .await
    .unwrap();
    engine.stop().await;
    assert_eq!(mode(&file), 0o600);
}
