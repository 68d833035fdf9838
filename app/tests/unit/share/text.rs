//! The unit tests of `app::share::text`.

use unicode_segmentation::UnicodeSegmentation;

use app::share::text::*;

fn families(text: &str) -> Vec<(Family, String)> {
    runs(text).into_iter().map(|r| (r.family, r.text)).collect()
}

#[test]
fn each_script_has_its_face_and_shared_characters_stay_in_their_run() {
    use Family::{Devanagari as D, Sans as S};
    assert_eq!(
        families("2. कौआ · Asha, पंक्षी 12।"),
        [
            (S, "2. ".into()),
            (D, "कौआ ".into()),
            (S, "· Asha, ".into()),
            (D, "पंक्षी 12।".into()),
        ]
    );
    // The joiners go with the Devanagari around them.
    assert_eq!(families("क्\u{200D}ष"), [(D, "क्\u{200D}ष".into())]);
}

#[test]
fn what_no_font_has_and_bidi_controls_are_left_out() {
    assert_eq!(drawable("Asha 🐦 कौआ"), "Asha कौआ");
    assert_eq!(drawable("a\u{202E}b\nc"), "ab c");
    assert_eq!(drawable("  a   b "), "a b");
}

#[test]
fn a_conjunct_and_its_signs_are_one_cluster() {
    assert_eq!("पंक्षी".graphemes(true).collect::<Vec<_>>(), ["पं", "क्षी"]);
    assert_eq!(
        "लीडरबोर्ड".graphemes(true).collect::<Vec<_>>(),
        ["ली", "ड", "र", "बो", "र्ड"]
    );
}

#[test]
fn a_text_is_cut_between_clusters_to_its_width_with_an_ellipsis() {
    let weight = Weight::Regular;
    let whole = text_em_width("पंक्षी", weight);
    // Room for all but the last cluster (and the ellipsis): the conjunct goes whole.
    let cut_here = text_em_width("पं…", weight);
    assert!(cut_here < whole);
    assert_eq!(cut("पंक्षी", weight, cut_here), "पं…");
    assert_eq!(cut("पंक्षी", weight, cut_here - 0.01), "…");
    assert_eq!(
        cut("abc def", weight, text_em_width("abc…", weight)),
        "abc…"
    );
    // Cut just after an opening bracket or a separator: neither is left before the "…".
    let width = text_em_width("week 48, 2026 (…", weight);
    assert_eq!(
        cut("week 48, 2026 (Monsoon)", weight, width),
        "week 48, 2026…"
    );
    let width = text_em_width("Total points · …", weight);
    assert_eq!(
        cut("Total points · week 48", weight, width),
        "Total points…"
    );
}

#[test]
fn a_title_shrinks_before_it_is_cut() {
    let place = Place {
        size: 68,
        min_size: 44,
        weight: Weight::Bold,
        max_width: 1080.0,
    };
    let short = fit("Asha won", place);
    assert_eq!((short.size, short.text()), (68, "Asha won".into()));
    let long = fit("Total points · all time · everyone", place);
    assert!(long.size < 68 && long.size >= 44, "{long:?}");
    assert_eq!(long.text(), "Total points · all time · everyone");
    assert!(long.width <= 1080.0);
    let too_long = fit(&"Kauwa udd ".repeat(20), place);
    assert_eq!(too_long.size, 44);
    assert!(too_long.text().ends_with("udd…"), "{too_long:?}");
    assert!(too_long.width <= 1080.0);
}
