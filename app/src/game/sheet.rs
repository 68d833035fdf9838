//! A finished match as it is kept for good, apart from the room (whose rounds are overwritten
//! by its next match and expire with it): the summary (who played, how it ended) and the round
//! sheet (every round's thing and each player's tap or hold, reaction, points and streak). The
//! closer of the last round writes both with the match records, worked out from the match the
//! same way by any instance, so a repeated end writes the same items.
//!
//! Field names on the wire and in the table are short: the summary sits on two indexes and a
//! recent-matches page reads twenty of them, so every byte is paid three times over.

use serde::{Deserialize, Serialize};

use crate::game::model::{Match, MatchReceipt, ThingCard};
use crate::identity::{Avatar, DisplayName, UserId};
use crate::rooms::model::{RoomCode, RoomId};

/// Who played a finished match and how it ended (`MATCH#<room id>#<first>` / `SUMMARY`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchSummary {
    /// The code the room had (what players typed; another room may have it now).
    pub room: RoomCode,
    /// The room itself; absent on matches kept before rooms had ids, which are keyed by the
    /// code: read it with [`MatchSummary::room_id`].
    #[serde(rename = "rid", default, skip_serializing_if = "Option::is_none")]
    pub room_id: Option<RoomId>,
    /// The match's first room round: with the room's id, the match's key.
    #[serde(rename = "first")]
    pub first_round: u32,
    #[serde(rename = "started")]
    pub started_at_ms: i64,
    #[serde(rename = "finished")]
    pub finished_at_ms: i64,
    #[serde(rename = "window")]
    pub window_ms: u32,
    pub rounds: u32,
    /// Best first, as the podium placed them.
    pub players: Vec<SummaryPlayer>,
    /// What the room played, when not the whole catalog (as it was when the match ended).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<crate::rooms::model::RoomDeck>,
}

/// A player someone played with lately ([`Game::played_with`](crate::game::store::Game::played_with)).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Partner {
    pub user_id: UserId,
    pub nickname: DisplayName,
    pub avatar: Avatar,
    /// When their latest match together ended (epoch ms).
    pub last_ms: i64,
}

/// One player's line in a [`MatchSummary`]: what a list of matches shows. The rest of their
/// match (right calls, taps, runs, reactions) is in the rounds ([`MatchDetail::totals`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SummaryPlayer {
    #[serde(rename = "id")]
    pub user_id: UserId,
    #[serde(rename = "name")]
    pub nickname: DisplayName,
    #[serde(rename = "av")]
    pub avatar: Avatar,
    pub score: i32,
    #[serde(rename = "place")]
    pub placement: u32,
}

/// A player's match added up from the rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Totals {
    /// Rounds judged right (tapped a flyer, held on anything else).
    pub correct: u32,
    pub taps: u32,
    pub best_streak: u32,
    pub average_reaction_ms: Option<u32>,
}

/// One round of a finished match (`MATCH#<code>#<first>` / `ROUNDS` holds them all).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundSheet {
    pub thing: ThingCard,
    pub flies: bool,
    /// One per player, in the summary's order.
    pub plays: Vec<Play>,
}

/// What one player did in one round and what it gave them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Play {
    /// The reaction that counted when the player tapped; `None` for a hold.
    #[serde(rename = "ms")]
    pub reaction_ms: Option<u32>,
    #[serde(rename = "pts")]
    pub points: i32,
    #[serde(rename = "ok")]
    pub correct: bool,
    #[serde(rename = "top")]
    pub fastest: bool,
    /// Rounds judged right in a row, this one included (0 after a wrong one).
    #[serde(rename = "run")]
    pub streak: u32,
}

/// A finished match's page: its summary, every round, and what it cost (when instances
/// reported it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchDetail {
    pub summary: MatchSummary,
    pub rounds: Vec<RoundSheet>,
    pub receipt: Option<MatchReceipt>,
}

/// A page of finished matches, newest first, and the cursor of the next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchList {
    pub matches: Vec<MatchSummary>,
    pub next: Option<String>,
}

impl Match {
    /// The summary of this match, over in room `id` (code `code`) at `finished_at_ms`.
    pub fn summary(&self, code: &RoomCode, id: &RoomId, finished_at_ms: i64) -> MatchSummary {
        let players = self
            .outcomes()
            .into_iter()
            .map(|(player, outcome)| SummaryPlayer {
                user_id: player.user_id.clone(),
                nickname: player.nickname.clone(),
                avatar: player.avatar,
                score: player.score,
                placement: outcome.placement,
            })
            .collect();
        MatchSummary {
            room: code.clone(),
            room_id: Some(id.clone()),
            first_round: self.first_round,
            started_at_ms: self.started_at_ms,
            finished_at_ms,
            window_ms: self.window_ms,
            rounds: self.len(),
            players,
            deck: None,
        }
    }

    /// Every round with each player's play, players in `summary`'s order. A round without a
    /// thing or results (never the case once a match is over) is left out.
    pub fn sheet(&self, summary: &MatchSummary) -> Vec<RoundSheet> {
        let mut streaks = vec![0u32; summary.players.len()];
        self.rounds
            .iter()
            .filter_map(|round| {
                let (thing, flies, results) =
                    (round.thing.clone()?, round.flies?, round.results.as_ref()?);
                let plays = summary
                    .players
                    .iter()
                    .zip(streaks.iter_mut())
                    .map(|(player, streak)| {
                        let result = results.iter().find(|r| r.user_id == player.user_id);
                        let correct = result.is_some_and(|r| r.correct);
                        *streak = if correct { *streak + 1 } else { 0 };
                        Play {
                            reaction_ms: result.and_then(|r| r.reaction_ms),
                            points: result.map_or(0, |r| r.points),
                            correct,
                            fastest: result.is_some_and(|r| r.fastest),
                            streak: *streak,
                        }
                    })
                    .collect();
                Some(RoundSheet {
                    thing,
                    flies,
                    plays,
                })
            })
            .collect()
    }
}

impl MatchDetail {
    /// Player `index`'s (the summary's order) match, added up from the rounds.
    pub fn totals(&self, index: usize) -> Totals {
        let plays = self.rounds.iter().filter_map(|r| r.plays.get(index));
        let mut totals = Totals::default();
        let mut reaction_total = 0u64;
        for play in plays {
            totals.correct += u32::from(play.correct);
            totals.best_streak = totals.best_streak.max(play.streak);
            if let Some(ms) = play.reaction_ms {
                totals.taps += 1;
                reaction_total += u64::from(ms);
            }
        }
        totals.average_reaction_ms =
            (totals.taps > 0).then(|| (reaction_total / u64::from(totals.taps)) as u32);
        totals
    }
}

impl MatchSummary {
    /// The room the match was played in, for good: its id, or its code on a match kept before
    /// rooms had ids (the key it was kept under then).
    pub fn room_id(&self) -> RoomId {
        self.room_id
            .clone()
            .unwrap_or_else(|| RoomId::legacy(&self.room))
    }

    /// The match's page: `/m/<room id>/<first round>`.
    pub fn path(&self) -> String {
        match_path(&self.room_id(), self.first_round)
    }
}

/// The page of the match that started at room round `first` in room `room`:
/// `/m/<room id>/<first>`. (Links made before rooms had ids, `/r/<CODE>/m/<first>`, still open
/// the match they named.)
pub fn match_path(room: &RoomId, first: u32) -> String {
    format!("/m/{}/{first}", room.as_str())
}
