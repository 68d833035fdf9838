//! The unit tests of `app::store::table`.

use app::store::keys::PK;
use app::store::table::*;

#[test]
fn the_template_in_the_repo_matches_the_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../infra/udd-table.yaml");
    let on_disk = std::fs::read_to_string(path).expect("infra/udd-table.yaml exists");
    assert_eq!(
        on_disk,
        cloudformation_template(),
        "infra/udd-table.yaml is stale: run `udd-server template > infra/udd-table.yaml`"
    );
}

#[test]
fn every_index_key_is_a_declared_attribute() {
    for ix in GLOBAL_INDEXES.iter().chain(LOCAL_INDEXES) {
        assert!(KEY_ATTRIBUTES.contains(&ix.hash), "{}", ix.name);
        assert!(KEY_ATTRIBUTES.contains(&ix.range), "{}", ix.name);
    }
    assert!(LOCAL_INDEXES.iter().all(|ix| ix.hash == PK));
}
