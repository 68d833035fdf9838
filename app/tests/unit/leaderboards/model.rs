//! The unit tests of `app::leaderboards::model`.

use app::lang::Locale;
use app::leaderboards::model::*;

#[test]
fn labels_in_english_are_the_ids_labels() {
    for kind in PeriodKind::ALL {
        assert_eq!(period_label(Locale::en, kind), kind.label());
        assert_ne!(period_label(Locale::hi, kind), kind.label());
    }
    assert_eq!(metric_label(Locale::en, Metric::Best), "Best match");
    assert_eq!(metric_label(Locale::en, Metric::Total), "Total points");
}
