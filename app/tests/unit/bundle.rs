//! The unit tests of `app::bundle`.

use app::bundle::*;

#[test]
fn a_manifest_renames_each_file_it_lists_and_nothing_else() {
    let bundle = Bundle::from_manifest(
        "udd",
        "udd.js udd.0123456789abcdef.js\nudd.wasm udd.fedcba9876543210.wasm\nnotes.txt x.txt\n",
    );
    assert_eq!(bundle.js, "udd.0123456789abcdef.js");
    assert_eq!(bundle.wasm, "udd.fedcba9876543210.wasm");
    assert_eq!(
        bundle.css, "udd.css",
        "a file the manifest does not list keeps its name"
    );
}

#[test]
fn a_hashed_name_that_is_not_a_bare_file_name_is_ignored() {
    let bundle = Bundle::from_manifest("udd", "udd.css ../../etc/passwd\nudd.js a\"b.js\n");
    assert_eq!(bundle.css, "udd.css");
    assert_eq!(bundle.js, "udd.js");
}

#[test]
fn the_link_module_has_its_own_line_and_takes_no_other_slot() {
    let bundle = Bundle::from_manifest(
        "udd",
        "udd.js udd.0123456789abcdef.js\n__wasm_split.js __wasm_split.0123456789abcdef.js\nroom.css room.fedcba9876543210.css\n",
    );
    assert_eq!(bundle.js, "udd.0123456789abcdef.js");
    assert_eq!(
        bundle.link.as_deref(),
        Some("__wasm_split.0123456789abcdef.js")
    );
    assert_eq!(
        bundle.css, "udd.css",
        "another stylesheet is not the bundle's"
    );
}

#[test]
fn an_islands_chunks_are_its_loaders_shared_ones_first() {
    let mut bundle = Bundle::from_manifest("udd", "");
    bundle.splits.insert(
        "live_room_loader_17".into(),
        vec!["chunk_0.aa".into(), "split_live_room_loader_17.bb".into()],
    );
    bundle.splits.insert(
        "thing_browser_loader_9".into(),
        vec!["split_thing_browser_loader_9.cc".into()],
    );
    assert_eq!(
        bundle.chunks_of("live_room"),
        ["chunk_0.aa.wasm", "split_live_room_loader_17.bb.wasm"]
    );
    assert_eq!(
        bundle.chunks_of("thing_browser"),
        ["split_thing_browser_loader_9.cc.wasm"]
    );
    assert!(
        bundle.chunks_of("live").is_empty(),
        "a prefix of a name is not the name"
    );
    assert_eq!(
        bundle.islands().get("ThingBrowser").map(Vec::as_slice),
        Some(&["split_thing_browser_loader_9.cc.wasm".to_owned()][..])
    );
    assert_eq!(camel("live_room"), "LiveRoom");
    assert_eq!(camel("thing_browser"), "ThingBrowser");
}
