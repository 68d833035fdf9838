//! The unit tests of `app::share` (`golden`: the cards as drawn, against their golden images).

mod golden;
mod text;

use app::share::*;

fn size_of(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let word = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

#[test]
fn a_card_is_a_1200_by_630_png_with_latin_and_devanagari_drawn() {
    let card = ShareImage {
        kicker: "Match · room K7QX2".into(),
        title: "Asha won".into(),
        grid: Vec::new(),
        rows: vec![
            ("1. Asha".into(), "3200".into()),
            ("2. कौआ".into(), "2900".into()),
            ("3. Ravi Kumar Srinivasan".into(), "-150".into()),
            ("4. पंक्षी".into(), "12".into()),
        ],
        footer: "udd".into(),
    };
    let png = render(&card).unwrap();
    assert_eq!(size_of(&png), (WIDTH, HEIGHT));
    // The Devanagari name is drawn: the picture differs from one without it.
    let without = render(&ShareImage {
        rows: vec![
            ("1. Asha".into(), "3200".into()),
            ("2. ".into(), "2900".into()),
            ("3. Ravi Kumar Srinivasan".into(), "-150".into()),
            ("4. पंक्षी".into(), "12".into()),
        ],
        ..card.clone()
    })
    .unwrap();
    assert_ne!(png, without);
}

#[test]
fn every_board_name_fits_the_title_whole() {
    use app::lang::Locale;
    use app::leaderboards::model::BoardId;
    use app::leaderboards::period::board_name_in;
    for l in [Locale::en, Locale::hi] {
        for metric in ["best", "total"] {
            for period in ["all", "day-2026-11-23", "week-2026-W48", "season-2026-q4"] {
                for scope in ["global", "room-K7QX2"] {
                    let Ok(board) = BoardId::parse(metric, period, scope) else {
                        continue;
                    };
                    let name = board_name_in(l, &board, &[]);
                    let title = app::share::text::fit(&name, TITLE);
                    assert_eq!(title.text(), name, "cut at {} px", title.size);
                }
            }
        }
    }
}

#[test]
fn text_is_escaped() {
    let svg = svg(&ShareImage {
        title: "<script>&\"'".into(),
        ..ShareImage::default()
    });
    assert!(svg.contains("&lt;script&gt;&amp;&quot;&apos;"));
    assert!(!svg.contains("<script>"));
}
