//! Share cards: the picture a chat app or a social site shows for a shared link (`og:image`).
//! Each shareable page (a board, a profile, a match) has one at `/og/…`, drawn on the server:
//! an SVG made here, rendered to a 1200 × 630 PNG by resvg with the fonts shipped in
//! `app/fonts` (Noto Sans and Noto Sans Devanagari, Regular and Bold; no system fonts), so names
//! in Latin and Devanagari render the same on every machine. Characters none of those fonts has
//! (emoji among them: a colour emoji font would be 10 MB) are left out of the picture; the page
//! itself still shows them. Cards are served, kept and limited by `crate::http::cards`.

use std::sync::OnceLock;

use resvg::{tiny_skia, usvg};

pub const WIDTH: u32 = 1200;
pub const HEIGHT: u32 = 630;

const FONTS: [&[u8]; 4] = [
    include_bytes!("../fonts/NotoSans-Regular.ttf"),
    include_bytes!("../fonts/NotoSans-Bold.ttf"),
    include_bytes!("../fonts/NotoSansDevanagari-Regular.ttf"),
    include_bytes!("../fonts/NotoSansDevanagari-Bold.ttf"),
];

/// What a card says: a small line on top, a big title, up to five rows (a label on the left, a
/// figure on the right), and a footer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Card {
    pub kicker: String,
    pub title: String,
    pub rows: Vec<(String, String)>,
    pub footer: String,
}

/// `text` with only what the shipped fonts draw (plus the joiners Devanagari needs), at most
/// `max` characters (an ellipsis marks a cut).
pub fn drawable(text: &str, max: usize) -> String {
    static FACES: OnceLock<Vec<ttf_parser::Face<'static>>> = OnceLock::new();
    let faces = FACES.get_or_init(|| {
        FONTS
            .iter()
            .filter_map(|data| ttf_parser::Face::parse(data, 0).ok())
            .collect()
    });
    // Bidi controls could reorder the picture's text: never drawn.
    let bidi = |c: char| matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
    let kept: String = text
        .chars()
        .filter_map(|c| {
            if c.is_whitespace() {
                Some(' ')
            } else if matches!(c, '\u{200C}' | '\u{200D}') {
                Some(c)
            } else if c.is_control() || bidi(c) {
                None
            } else {
                faces
                    .iter()
                    .any(|f| f.glyph_index(c).is_some())
                    .then_some(c)
            }
        })
        .collect();
    let kept = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    if kept.chars().count() > max {
        let cut: String = kept.chars().take(max.saturating_sub(1)).collect();
        format!("{}…", cut.trim_end())
    } else {
        kept
    }
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// The card as SVG (every text escaped, cut to fit).
pub fn svg(card: &Card) -> String {
    let text = |x: u32, y: u32, size: u32, weight: u32, fill: &str, anchor: &str, body: &str| {
        format!(
            r#"<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" fill="{fill}" text-anchor="{anchor}">{}</text>"#,
            escape(body)
        )
    };
    let mut out = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="Noto Sans, Noto Sans Devanagari"><rect width="{WIDTH}" height="{HEIGHT}" fill="#1d3557"/><rect y="{}" width="{WIDTH}" height="12" fill="#e9c46a"/>"##,
        HEIGHT - 12
    );
    out.push_str(&text(60, 92, 34, 700, "#e9c46a", "start", "Udd"));
    out.push_str(&text(
        150,
        92,
        30,
        400,
        "#a8dadc",
        "start",
        &drawable(&card.kicker, 54),
    ));
    out.push_str(&text(
        60,
        190,
        68,
        700,
        "#ffffff",
        "start",
        &drawable(&card.title, 30),
    ));
    for (i, (left, right)) in card.rows.iter().take(5).enumerate() {
        let y = 270 + 62 * i as u32;
        if i % 2 == 0 {
            out.push_str(&format!(
                r##"<rect x="48" y="{}" width="1104" height="58" rx="10" fill="#274b73"/>"##,
                y - 42
            ));
        }
        out.push_str(&text(
            72,
            y,
            38,
            400,
            "#ffffff",
            "start",
            &drawable(left, 38),
        ));
        out.push_str(&text(
            1128,
            y,
            38,
            700,
            "#ffffff",
            "end",
            &drawable(right, 14),
        ));
    }
    out.push_str(&text(
        60,
        596,
        28,
        400,
        "#a8dadc",
        "start",
        &drawable(&card.footer, 70),
    ));
    out.push_str("</svg>");
    out
}

fn options() -> &'static usvg::Options<'static> {
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut options = usvg::Options {
            font_family: "Noto Sans".to_owned(),
            ..usvg::Options::default()
        };
        for font in FONTS {
            options.fontdb_mut().load_font_data(font.to_vec());
        }
        options
    })
}

/// The card as a 1200 × 630 PNG.
pub fn render(card: &Card) -> Result<Vec<u8>, String> {
    render_svg(&svg(card))
}

/// A card's SVG (see [`svg`]) as a 1200 × 630 PNG.
pub fn render_svg(svg: &str) -> Result<Vec<u8>, String> {
    let tree = usvg::Tree::from_str(svg, options()).map_err(|e| e.to_string())?;
    let mut pixmap = tiny_skia::Pixmap::new(WIDTH, HEIGHT).ok_or("no pixmap")?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size_of(png: &[u8]) -> (u32, u32) {
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let word = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
        (word(16), word(20))
    }

    #[test]
    fn a_card_is_a_1200_by_630_png_with_latin_and_devanagari_drawn() {
        let card = Card {
            kicker: "Match · room K7QX2".into(),
            title: "Asha won".into(),
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
        let without = render(&Card {
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
    fn what_no_font_has_is_left_out_and_text_is_escaped_and_cut() {
        assert_eq!(drawable("Asha 🐦 कौआ", 40), "Asha कौआ");
        assert_eq!(drawable("a\u{202E}b\nc", 40), "ab c");
        assert_eq!(drawable("abcdefghij", 5), "abcd…");
        let svg = svg(&Card {
            title: "<script>&\"'".into(),
            ..Card::default()
        });
        assert!(svg.contains("&lt;script&gt;&amp;&quot;&apos;"));
        assert!(!svg.contains("<script>"));
    }
}
