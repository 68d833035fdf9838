//! The cards as drawn: a board's, a match's and a player's, in English and Hindi, made by the
//! real card builders from fixed facts (long names, Devanagari names, a name in both scripts,
//! an emoji), checked two ways.
//!
//! - Every glyph of every text is a real glyph of the face meant for its script: Devanagari
//!   from Noto Sans Devanagari, other letters from Noto Sans, in the text's own weight; and no
//!   text leaves the card.
//! - Each picture matches its golden image in `app/tests/golden/` (a person looked at each
//!   before it was kept): it fails when more than [`MAX_DIFFERENT`] of the pixels differ by more
//!   than [`TOLERANCE`] in a channel, writing the picture drawn and a picture of the
//!   differences to `target/golden/`. `UDD_UPDATE_GOLDENS=1` writes the goldens anew, to be
//!   looked at before they are committed.

use std::path::{Path, PathBuf};

use resvg::{tiny_skia, usvg};

use app::daily::card::flight_card;
use app::daily::store::{Flight, FlightResult};
use app::game::sheet::{MatchSummary, SummaryPlayer};
use app::game::store::detail::match_card;
use app::identity::{Avatar, DisplayName, UserId, Username};
use app::ids::{Day, SeasonId};
use app::lang::Locale;
use app::leaderboards::card::board_card;
use app::leaderboards::model::{BoardId, Line, PlayerStats};
use app::leaderboards::period::Season;
use app::profiles::card::CardFacts;
use app::profiles::model::ProfileBoard;
use app::rooms::model::RoomCode;
use app::share::{options, render, svg, ShareImage, HEIGHT, WIDTH};

/// How far a channel may differ before a pixel counts as different (of 255).
const TOLERANCE: u8 = 16;
/// The share of pixels that may differ: 0.5 %.
const MAX_DIFFERENT: f64 = 0.005;

const NOV_23_2026_NOON: i64 = 1_795_435_200_000;

/// Players' names: long, Devanagari, both scripts, one with an emoji (not drawn).
const NAMES: [&str; 6] = [
    "Ravi Kumar Srinivasan",
    "पंक्षी",
    "Asha कौआ Kumar",
    "कौआ उड़ चिड़िया उड़ा",
    "Chen 🐦 Wei",
    "Meera",
];

fn user(i: usize) -> UserId {
    UserId::parse(&format!("01ARZ3NDEKTSV4RRFFQ69G5F{i:02}")).unwrap()
}

fn name(i: usize) -> DisplayName {
    DisplayName::try_from(NAMES[i].to_owned()).unwrap()
}

fn board(key: &str) -> BoardId {
    BoardId::parse_key(key).unwrap()
}

/// A board's card, its top five: everyone's all-time totals in English (its name the longest
/// English board name), best matches in Hindi.
fn board_card_in(l: Locale) -> ShareImage {
    let scores = [128_450, 96_210, 95_000, 40_125, 7];
    let lines: Vec<Line> = (0..5)
        .map(|i| Line {
            rank: i as u64 + 1,
            user_id: user(i),
            nickname: name(i),
            avatar: Avatar::default(),
            score: scores[i],
            reached_ms: NOV_23_2026_NOON,
            matches: 3,
        })
        .collect();
    let key = match l {
        Locale::en => "total.all.global",
        Locale::hi => "best.all.global",
    };
    board_card(l, &board(key), &[], &lines, 1_234)
}

/// A match of six, won by the player with the long name.
fn match_card_in(l: Locale) -> ShareImage {
    let summary = MatchSummary {
        room: RoomCode::parse("K7QX2").unwrap(),
        room_id: None,
        first_round: 1,
        started_at_ms: NOV_23_2026_NOON - 180_000,
        finished_at_ms: NOV_23_2026_NOON,
        window_ms: 1_500,
        rounds: 12,
        players: (0..6)
            .map(|i| SummaryPlayer {
                user_id: user(i),
                nickname: name(i),
                avatar: Avatar::default(),
                score: 3_200 - 450 * i as i32,
                placement: i as u32 + 1,
            })
            .collect(),
        deck: None,
    };
    match_card(&summary, l)
}

/// A player with a name in both scripts, nearest the top on two boards: a week's and a season
/// the operator named at length (its name is cut).
fn profile_card_in(l: Locale) -> ShareImage {
    let monsoon = Season {
        id: SeasonId::parse("monsoon-1").unwrap(),
        name: "Monsoon Mela Championship 2026 (मानसून मेला)".into(),
        start_ms: NOV_23_2026_NOON - 60 * 86_400_000,
        end_ms: NOV_23_2026_NOON + 30 * 86_400_000,
    };
    CardFacts {
        nickname: DisplayName::try_from("पंक्षी Srinivasan कौआ".to_owned()).unwrap(),
        username: Some(Username::parse("pankshi_kauwa").unwrap()),
        joined_ms: NOV_23_2026_NOON - 40 * 86_400_000,
        stats: PlayerStats {
            matches: 128,
            wins: 37,
            best_score: Some(4_120),
            ..PlayerStats::default()
        },
        boards: vec![
            ProfileBoard::new(l, &board("total.week-2026-W48.global"), &[], (3, 61, 5_120)),
            ProfileBoard::new(
                l,
                &board("best.season-monsoon-1.global"),
                &[monsoon],
                (1, 40, 4_120),
            ),
            ProfileBoard::new(l, &board("best.all.room-K7QX2"), &[], (1, 9, 880)),
        ],
    }
    .card(l)
}

/// A finished daily flight of a player with a name in both scripts: seven right of ten, the
/// wrong ones spread over the grid.
fn daily_card_in(l: Locale) -> ShareImage {
    let flight = Flight {
        user_id: user(2),
        nickname: name(2),
        avatar: Avatar::default(),
        day: Day::new(2026, 11, 28).unwrap(),
        started_ms: NOV_23_2026_NOON,
        taps: Default::default(),
        result: Some(FlightResult {
            score: 5_870,
            correct: 7,
            best_streak: 4,
            average_ms: Some(412),
            grid: "1101111001".into(),
            finished_ms: NOV_23_2026_NOON + 60_000,
        }),
        flagged: false,
    };
    flight_card(&flight, l).expect("a finished flight has a card")
}

/// The cards checked, each with its golden's name.
fn cards() -> Vec<(String, ShareImage)> {
    let mut cards = Vec::new();
    for l in [Locale::en, Locale::hi] {
        cards.push((format!("board-{l}"), board_card_in(l)));
        cards.push((format!("match-{l}"), match_card_in(l)));
        cards.push((format!("profile-{l}"), profile_card_in(l)));
        cards.push((format!("daily-{l}"), daily_card_in(l)));
    }
    cards
}

fn is_devanagari(c: char) -> bool {
    ('\u{0900}'..='\u{097F}').contains(&c)
        || ('\u{A8E0}'..='\u{A8FF}').contains(&c)
        || ('\u{1CD0}'..='\u{1CFF}').contains(&c)
}

/// Every text of `tree`, however deep.
fn texts(group: &usvg::Group, out: &mut Vec<usvg::Text>) {
    for node in group.children() {
        match node {
            usvg::Node::Text(text) => out.push((**text).clone()),
            usvg::Node::Group(group) => texts(group, out),
            _ => {}
        }
    }
}

/// What is wrong with the glyphs of `card`'s drawing (nothing: empty).
fn glyph_faults(card: &ShareImage) -> Vec<String> {
    let tree = usvg::Tree::from_str(&svg(card), options()).unwrap();
    let mut all = Vec::new();
    texts(tree.root(), &mut all);
    let mut faults = Vec::new();
    for text in &all {
        let weight = text.chunks()[0].spans()[0].font().weight();
        let bounds = text.abs_bounding_box();
        if bounds.left() < 0.0 || bounds.right() > WIDTH as f32 - 48.0 {
            faults.push(format!(
                "leaves the card ({bounds:?}): {:?}",
                text.chunks()[0].text()
            ));
        }
        for glyph in text.layouted().iter().flat_map(|s| &s.positioned_glyphs) {
            let face = tree.fontdb().face(glyph.font).unwrap();
            let family = face.families[0].0.as_str();
            let script_family = if glyph.text.chars().any(is_devanagari) {
                Some("Noto Sans Devanagari")
            } else if glyph.text.chars().any(char::is_alphabetic) {
                Some("Noto Sans")
            } else {
                None
            };
            let fault = if glyph.id.0 == 0 {
                Some("no glyph (a box)")
            } else if script_family.is_some_and(|f| f != family) {
                Some("another script's face")
            } else if face.weight.0 != weight {
                Some("another weight's face")
            } else {
                None
            };
            if let Some(fault) = fault {
                faults.push(format!(
                    "{fault}: {:?} drawn with {family} {} (glyph {}) in a text of weight {weight}",
                    glyph.text, face.weight.0, glyph.id.0
                ));
            }
        }
    }
    faults
}

#[test]
fn every_glyph_is_a_real_glyph_of_its_scripts_face_in_its_weight() {
    let mut cards = cards();
    for l in [Locale::en, Locale::hi] {
        cards.push((
            format!("empty-board-{l}"),
            board_card(l, &board("best.all.global"), &[], &[], 0),
        ));
    }
    let mut failed = Vec::new();
    for (name, card) in &cards {
        for fault in glyph_faults(card) {
            failed.push(format!("{name}: {fault}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

fn golden_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("golden")
        .join(format!("{name}.png"))
}

fn output_path(name: &str) -> PathBuf {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .unwrap();
    workspace.join("target/golden").join(name)
}

/// How many pixels of `actual` differ from `expected` by more than [`TOLERANCE`] in a channel,
/// and a picture of them (red where they differ, the golden faded elsewhere).
fn differences(
    expected: &tiny_skia::Pixmap,
    actual: &tiny_skia::Pixmap,
) -> (usize, tiny_skia::Pixmap) {
    let mut diff = tiny_skia::Pixmap::new(WIDTH, HEIGHT).unwrap();
    let mut count = 0;
    let pixels = expected.data().chunks(4).zip(actual.data().chunks(4));
    for ((e, a), out) in pixels.zip(diff.data_mut().chunks_mut(4)) {
        let differs = e.iter().zip(a).any(|(e, a)| e.abs_diff(*a) > TOLERANCE);
        if differs {
            count += 1;
            out.copy_from_slice(&[255, 0, 0, 255]);
        } else {
            let grey = ((u16::from(e[0]) + u16::from(e[1]) + u16::from(e[2])) / 6) as u8;
            out.copy_from_slice(&[grey, grey, grey, 255]);
        }
    }
    (count, diff)
}

/// `png` against its golden `name`: `Err` says how it differs.
fn compare(name: &str, png: &[u8]) -> Result<String, String> {
    let golden = golden_path(name);
    if std::env::var_os("UDD_UPDATE_GOLDENS").is_some_and(|v| v == "1") {
        std::fs::write(&golden, png).unwrap();
        return Ok(format!(
            "{name}: golden written, look at it before committing"
        ));
    }
    let actual = tiny_skia::Pixmap::decode_png(png).unwrap();
    let expected = match std::fs::read(&golden) {
        Ok(bytes) => tiny_skia::Pixmap::decode_png(&bytes).unwrap(),
        Err(err) => return Err(format!("{name}: no golden at {} ({err})", golden.display())),
    };
    let (count, diff) = differences(&expected, &actual);
    let total = (WIDTH * HEIGHT) as usize;
    let report = format!(
        "{name}: {count} of {total} pixels ({:.3} %) differ by more than {TOLERANCE}/255",
        100.0 * count as f64 / total as f64
    );
    if (count as f64) <= MAX_DIFFERENT * total as f64 {
        return Ok(report);
    }
    let out = output_path("");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(output_path(&format!("{name}.actual.png")), png).unwrap();
    diff.save_png(output_path(&format!("{name}.diff.png")))
        .unwrap();
    Err(format!("{report}: see {}", out.display()))
}

#[test]
fn cards_look_as_their_golden_images() {
    let mut reports = Vec::new();
    let mut failed = false;
    for (name, card) in cards() {
        let png = render(&card).unwrap();
        match compare(&name, &png) {
            Ok(report) => reports.push(report),
            Err(report) => {
                failed = true;
                reports.push(format!("FAILED {report}"));
            }
        }
    }
    println!("{}", reports.join("\n"));
    assert!(!failed, "{}", reports.join("\n"));
}

/// The daily card's grid says each call by its square's colour, in the flight's order: the
/// square's corner (clear of its mark) is green for a right call and red for a wrong one, the
/// oracle being the stored grid, not the drawing code.
#[test]
fn the_daily_cards_grid_shows_each_call_in_order() {
    let card = daily_card_in(Locale::en);
    let png = render(&card).unwrap();
    let picture = tiny_skia::Pixmap::decode_png(&png).unwrap();
    let calls: Vec<char> = "1101111001".chars().collect();
    assert_eq!(card.grid.len(), calls.len());
    let (first_x, top, step) = (60, 224, 100);
    for (i, call) in calls.iter().enumerate() {
        let (x, y) = (first_x + step * i as u32 + 10, top + 10);
        let pixel = picture.pixel(x, y).unwrap();
        let (r, g) = (pixel.red(), pixel.green());
        match call {
            '1' => assert!(
                g > 140 && r < 80,
                "square {i} at ({x}, {y}) is not green: {pixel:?}"
            ),
            _ => assert!(
                r > 150 && g < 60,
                "square {i} at ({x}, {y}) is not red: {pixel:?}"
            ),
        }
    }
    // Beyond the tenth square, the card's background.
    let after = picture.pixel(first_x + step * 10 + 10, top + 10).unwrap();
    assert_eq!(
        (after.red(), after.green(), after.blue()),
        (0x1d, 0x35, 0x57)
    );
}
