//! How the match says things: names, points, places, the round's and the wins' lines, verdicts,
//! and its sounds.

use crate::game::model::Match;
use crate::i18n::td_string;
use crate::identity::model::UserId;
use crate::lang::Locale;

/// A phrase with one value in it: the page's language's words with `%1` where the value goes.
/// The bundle carries this one way of putting a value in words, not a formatter per phrase (as
/// leptos_i18n's interpolations each bring).
pub(crate) fn around(phrase: &str, value: &str) -> String {
    // Found by its byte, not by a string search: the bundle carries no string searcher.
    match phrase.bytes().position(|b| b == b'%') {
        Some(at) => [
            &phrase[..at],
            value,
            phrase.get(at + 2..).unwrap_or_default(),
        ]
        .concat(),
        None => phrase.to_owned(),
    }
}

pub(crate) fn player_name(game: &Match, id: &UserId) -> String {
    game.player(id)
        .map(|p| p.nickname.to_string())
        .unwrap_or_default()
}

pub(crate) fn points(p: i32) -> String {
    if p > 0 {
        format!("+{p}")
    } else {
        p.to_string()
    }
}

/// The game's sounds: a few tones each, `(hz, ms)`.
pub(crate) mod sounds {
    pub const REVEAL: &[(f32, u32)] = &[(660.0, 80)];
    pub const TAP: &[(f32, u32)] = &[(880.0, 50)];
    pub const RIGHT: &[(f32, u32)] = &[(660.0, 90), (990.0, 150)];
    pub const WRONG: &[(f32, u32)] = &[(330.0, 120), (220.0, 220)];
    pub const WINNER: &[(f32, u32)] = &[(523.0, 130), (659.0, 130), (784.0, 130), (1047.0, 380)];
}

/// Where the mute is remembered.
pub(crate) const SOUND_KEY: &str = "udd-sound";

/// A place as a player says it: "2nd" in English, the number in Hindi (the sentence carries
/// the rest).
pub fn place_word(l: Locale, place: u32) -> String {
    if l != Locale::en {
        return place.to_string();
    }
    let suffix = match (place % 10, place % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{place}{suffix}")
}

/// What the latest resolved round was: "Round 2: Crow flies."
pub(crate) fn round_line(game: &Match, l: Locale) -> Option<String> {
    let round = game.rounds.get(game.resolved.checked_sub(1)? as usize)?;
    let thing = round.thing.as_ref()?;
    let (n, name) = (game.resolved, thing.name(l));
    let mut line = if round.flies.unwrap_or(false) {
        td_string!(l, game.results.flies, n = n, thing = name).to_string()
    } else {
        td_string!(l, game.results.grounded, n = n, thing = name).to_string()
    };
    // What the room's audience said, when it has one: "62 % of the audience said it flies."
    if let Some(share) = (round.crowd_flies * 100).checked_div(round.crowd) {
        let share = share.to_string();
        line = format!(
            "{line} {}",
            around(td_string!(l, game.results.crowd), &share)
        );
    }
    Some(line)
}

/// "Asha wins!" (the first places' names, "Asha & Ravi" when they tie).
pub(crate) fn wins_line(game: &Match, l: Locale) -> String {
    let winners = game
        .standings()
        .iter()
        .filter(|(place, _)| *place == 1)
        .map(|(_, p)| p.nickname.to_string())
        .collect::<Vec<_>>();
    // "Meera & Kabir win!", not "wins!".
    let line = if winners.len() > 1 {
        td_string!(l, game.podium.wins_tied)
    } else {
        td_string!(l, game.podium.wins)
    };
    around(line, &winners.join(" & "))
}

/// "Round 2 of 8" for the round at `index`.
pub(crate) fn round_heading(l: Locale, index: usize, total: usize) -> String {
    td_string!(l, game.board.round_of, n = index + 1, total = total).to_string()
}

/// "✓ Right!" or "✗ Wrong".
pub(crate) fn verdict_word(l: Locale, correct: bool) -> &'static str {
    if correct {
        td_string!(l, game.verdict.right)
    } else {
        td_string!(l, game.verdict.wrong)
    }
}
