//! The unit tests of `app::http::metrics`.

use app::http::metrics::*;

#[test]
fn methods_the_game_does_not_answer_share_one_label() {
    assert_eq!(method_label(&axum::http::Method::PATCH), "other");
}
