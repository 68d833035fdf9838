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
