//! The unit tests of `app::profiles::model`.

use app::lang::Locale;
use app::profiles::model::*;

#[test]
fn the_top_share_rounds_up_and_never_reads_zero() {
    let board = |rank, entries| ProfileBoard {
        name: String::new(),
        group: String::new(),
        period: String::new(),
        href: String::new(),
        rank,
        entries,
        score: 0,
    };
    assert_eq!(board(1, 1).top_in(Locale::en), "top 100%");
    assert_eq!(board(1, 1000).top_in(Locale::en), "top 1%");
    assert_eq!(board(120, 1000).top_in(Locale::en), "top 12%");
    assert_eq!(board(121, 1000).top_in(Locale::en), "top 13%");
    assert_eq!(board(3, 0).top_in(Locale::en), "top 100%");
    assert_eq!(board(120, 1000).top_in(Locale::en), "top 12%");
    assert_eq!(board(120, 1000).top_in(Locale::hi), "टॉप 12%");
}
