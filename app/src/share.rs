//! Share cards: the picture a chat app or a social site shows for a shared link (`og:image`).
//! Each shareable page (a board, a profile, a match) has one at `/og/…`, drawn on the server:
//! an SVG made here, rendered to a 1200 × 630 PNG by resvg with the fonts shipped in
//! `app/fonts` (Noto Sans and Noto Sans Devanagari, Regular and Bold; no system fonts), so names
//! in Latin and Devanagari render the same on every machine. Each text is drawn in runs of one
//! face chosen by script and fitted to its place by its shaped width ([`text`]). Characters none
//! of those fonts has (emoji among them: a colour emoji font would be 10 MB) are left out of the
//! picture; the page itself still shows them. Cards are served, kept and limited by
//! `crate::http::cards`; the drawn cards are checked against golden images
//! (`app/tests/unit/share/golden.rs`).

use std::sync::OnceLock;

use resvg::{tiny_skia, usvg};

pub const WIDTH: u32 = 1200;
pub const HEIGHT: u32 = 630;

pub mod text;

use text::{Line, Place, Weight, FONTS};

/// What a card says: a small line on top, a big title, an optional grid of right and wrong
/// calls, up to five rows (three under a grid; a label on the left, a figure on the right), and
/// a footer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ShareImage {
    pub kicker: String,
    pub title: String,
    /// A square a call, in order: a tick on green for a right one, a cross on red for a wrong
    /// one (shapes, not emoji: the cards' fonts have none). Empty: no grid.
    pub grid: Vec<bool>,
    pub rows: Vec<(String, String)>,
    pub footer: String,
}

/// The grid's squares: their side, the gap between them, and their top.
const CELL: u32 = 84;
const CELL_GAP: u32 = 16;
const GRID_TOP: u32 = 224;
/// How far a grid moves the rows down.
const GRID_ROOM: u32 = CELL + 40;

/// The grid's squares (at most ten, on one line from the left margin): each a rounded square,
/// green with a tick or red with a cross, so the picture says it without its colours too.
fn grid(out: &mut String, calls: &[bool]) {
    for (i, right) in calls.iter().take(10).enumerate() {
        let x = LEFT as u32 + i as u32 * (CELL + CELL_GAP);
        let y = GRID_TOP;
        let (fill, mark) = if *right {
            // A tick: down to the lower third, then up to the top right.
            (
                "#2a9d8f",
                format!(
                    "M{} {} L{} {} L{} {}",
                    x + 22,
                    y + 44,
                    x + 37,
                    y + 60,
                    x + 63,
                    y + 26
                ),
            )
        } else {
            (
                "#c1121f",
                format!(
                    "M{} {} L{} {} M{} {} L{} {}",
                    x + 25,
                    y + 25,
                    x + 59,
                    y + 59,
                    x + 59,
                    y + 25,
                    x + 25,
                    y + 59
                ),
            )
        };
        out.push_str(&format!(
            r##"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" rx="12" fill="{fill}"/><path d="{mark}" stroke="#ffffff" stroke-width="10" stroke-linecap="round" stroke-linejoin="round" fill="none"/>"##
        ));
    }
}

/// The card's places: where each text starts (or, for a row's figure, ends) and how wide it may
/// be. The title shrinks to fit before it is cut; the others are cut.
const LEFT: f32 = 60.0;
const KICKER_AT: f32 = 150.0;
const KICKER: Place = Place {
    size: 30,
    min_size: 30,
    weight: Weight::Regular,
    max_width: 1140.0 - KICKER_AT,
};
pub const TITLE: Place = Place {
    size: 68,
    min_size: 44,
    weight: Weight::Bold,
    max_width: 1080.0,
};
const ROW_LABEL_AT: f32 = 72.0;
const ROW_FIGURE_END: f32 = 1128.0;
/// Between a row's label and its figure, at least.
const ROW_GAP: f32 = 32.0;
const ROW_FIGURE: Place = Place {
    size: 38,
    min_size: 38,
    weight: Weight::Bold,
    max_width: 400.0,
};
const FOOTER: Place = Place {
    size: 28,
    min_size: 28,
    weight: Weight::Regular,
    max_width: 1080.0,
};

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

/// `line` as an SVG `<text>` from `x` on baseline `y`: each piece a `<tspan>` naming its face's
/// family and placed at its own x; nothing for an empty line. usvg shapes all of a text chunk
/// with each of its spans' faces and fills what a face lacks from another face glyph by glyph
/// (boxes, or Devanagari's letters unjoined); a piece placed at its own x is a chunk of its own,
/// shaped only by its face, which has every character in it.
fn text(out: &mut String, line: &Line, x: f32, y: u32, weight: Weight, fill: &str) {
    if line.pieces.is_empty() {
        return;
    }
    out.push_str(&format!(
        r#"<text y="{y}" font-size="{}" font-weight="{}" fill="{fill}">"#,
        line.size,
        weight.number()
    ));
    for piece in &line.pieces {
        out.push_str(&format!(
            r#"<tspan x="{:.2}" font-family="{}">{}</tspan>"#,
            x + piece.at,
            escape(piece.family.name()),
            escape(&piece.text)
        ));
    }
    out.push_str("</text>");
}

/// The card as SVG (every text fitted to its place and escaped).
pub fn svg(card: &ShareImage) -> String {
    let mut out = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="Noto Sans"><rect width="{WIDTH}" height="{HEIGHT}" fill="#1d3557"/><rect y="{}" width="{WIDTH}" height="12" fill="#e9c46a"/>"##,
        HEIGHT - 12
    );
    let brand = Place {
        size: 34,
        min_size: 34,
        weight: Weight::Bold,
        max_width: KICKER_AT - LEFT,
    };
    text(
        &mut out,
        &text::fit("Udd", brand),
        LEFT,
        92,
        Weight::Bold,
        "#e9c46a",
    );
    let kicker = text::fit(&card.kicker, KICKER);
    text(&mut out, &kicker, KICKER_AT, 92, KICKER.weight, "#a8dadc");
    let title = text::fit(&card.title, TITLE);
    text(&mut out, &title, LEFT, 190, TITLE.weight, "#ffffff");
    let (rows_top, most_rows) = if card.grid.is_empty() {
        (270, 5)
    } else {
        grid(&mut out, &card.grid);
        (270 + GRID_ROOM, 3)
    };
    for (i, (left, right)) in card.rows.iter().take(most_rows).enumerate() {
        let y = rows_top + 62 * i as u32;
        if i % 2 == 0 {
            out.push_str(&format!(
                r##"<rect x="48" y="{}" width="1104" height="58" rx="10" fill="#274b73"/>"##,
                y - 42
            ));
        }
        let figure = text::fit(right, ROW_FIGURE);
        let label_place = Place {
            size: 38,
            min_size: 38,
            weight: Weight::Regular,
            max_width: ROW_FIGURE_END - ROW_LABEL_AT - figure.width - ROW_GAP,
        };
        let label = text::fit(left, label_place);
        text(
            &mut out,
            &label,
            ROW_LABEL_AT,
            y,
            label_place.weight,
            "#ffffff",
        );
        let figure_at = ROW_FIGURE_END - figure.width;
        text(
            &mut out,
            &figure,
            figure_at,
            y,
            ROW_FIGURE.weight,
            "#ffffff",
        );
    }
    let footer = text::fit(&card.footer, FOOTER);
    text(&mut out, &footer, LEFT, 596, FOOTER.weight, "#a8dadc");
    out.push_str("</svg>");
    out
}

pub fn options() -> &'static usvg::Options<'static> {
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
pub fn render(card: &ShareImage) -> Result<Vec<u8>, String> {
    render_svg(&svg(card))
}

/// A card's SVG (see [`svg`]) as a 1200 × 630 PNG.
pub fn render_svg(svg: &str) -> Result<Vec<u8>, String> {
    let tree = usvg::Tree::from_str(svg, options()).map_err(|e| e.to_string())?;
    let mut pixmap = tiny_skia::Pixmap::new(WIDTH, HEIGHT).ok_or("no pixmap")?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| e.to_string())
}
