//! Access patterns of the game: the room as played (its lobby and match from one Query) and
//! starting a match. Taps are in `taps`, resolving rounds in `resolve`, the durable match
//! records in `records`.
//!
//! | pattern | how | round trips |
//! |---|---|---|
//! | the room as played | Query `ROOM#<code>` from `META` on (the lobby's and the match's items together) | Query |
//! | start a match | read the room; one transaction: META, the new `ROUND#<n>` items, every player's totals reset, the last match's rounds deleted | Query + TransactWriteItems |

use serde::{Deserialize, Serialize};

use crate::catalog::model::{FlyFilter, ThingId};
use crate::game::draw::draw_things;
use crate::game::model::{Match, MatchPlayer, Room, Round, RoundResult, ThingCard};
use crate::game::timing::TapRejected;
use crate::identity::model::{Avatar, DisplayName, UserId};
use crate::rooms::items::{lobby_from_items, state_value, ROOM_IDLE_SECS};
use crate::rooms::model::{RoomCode, RoomState};
use crate::rooms::store::MAX_ATTEMPTS;
use crate::store::keys::{self, Key};
use crate::store::tx::{n, s, update};
use crate::store::{epoch_millis, sort_key, Conflict, DataError, Db, Item};

/// Why a game action was refused, in words for the player.
#[derive(Debug, thiserror::Error)]
pub enum GameConflict {
    #[error("There is no open room with that code. It may have ended.")]
    NotFound,
    #[error("Only the host can start a match.")]
    NotHost,
    #[error("A match is already on in this room.")]
    AlreadyPlaying,
    #[error("The catalog is empty: there is nothing to show.")]
    NoThings,
    #[error(transparent)]
    Tap(#[from] TapRejected),
    #[error("That round is over.")]
    RoundClosed,
    #[error("You are watching this match; you will play in the next one.")]
    Spectating,
    #[error(transparent)]
    Data(#[from] DataError),
}

/// How a tap ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tapped {
    /// Counted, with this reaction time.
    Counted { reaction_ms: u32 },
    /// The player had tapped this round already: the first tap stands.
    AlreadyCounted,
}

/// How an attempt to resolve a round ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution {
    /// This call resolved round `index` (0-based) of the match.
    Resolved { index: usize, finished: bool },
    /// Nothing is due: no match, or the next round's window and grace are not over.
    NotDue,
    /// Another resolver got there first: nothing was written.
    AlreadyResolved,
    /// The room changed since it was read (a player left): read it again and retry.
    Stale,
}

#[derive(Debug, Serialize, Deserialize)]
struct RoundItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    n: u32,
    match_first: u32,
    thing_id: ThingId,
    en: String,
    hi: String,
    hi_latin: String,
    emoji: String,
    flies: bool,
    reveal_ms: i64,
    window_ms: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    resolved_at_ms: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    results: Option<Vec<RoundResult>>,
    ttl: i64,
}

/// The match's fields on the room's META item (the game's own attributes there).
#[derive(Debug, Deserialize)]
struct MatchMeta {
    match_first: Option<u32>,
    match_window_ms: Option<u32>,
    match_started_ms: Option<i64>,
    match_resolved: Option<u32>,
    /// The current match's draw seed (secret until it is over).
    match_seed: Option<u64>,
}

/// A player's running totals in the match, on their room PLAYER item (the game's own
/// attributes there; the lobby reads the same item for the name and avatar).
#[derive(Debug, Deserialize)]
struct PlayerTotals {
    user_id: UserId,
    nickname: DisplayName,
    avatar: Avatar,
    joined_at_ms: i64,
    /// The first round of the match this player plays; absent for a player who joined during
    /// a match (they watch until the next).
    #[serde(default)]
    in_match: Option<u32>,
    /// Running totals in that match, changed only by round resolutions.
    #[serde(default)]
    score: i32,
    #[serde(default)]
    streak: u32,
    #[serde(default)]
    correct: u32,
    #[serde(default)]
    taps: u32,
    #[serde(default)]
    reaction_total_ms: u64,
}

/// The room's match from its items (see [`Db::room_items`]): META's match fields, the `ROUND#`
/// items and the players' totals. `None` before the room's first match.
fn match_from_items(items: &[Item]) -> Result<Option<Match>, DataError> {
    let mut meta = None;
    let mut rounds = Vec::new();
    let mut players = Vec::new();
    for item in items {
        let sk = sort_key(item);
        if sk == keys::ROOM_META {
            meta = Some(serde_dynamo::from_item::<_, MatchMeta>(item.clone())?);
        } else if sk.starts_with(keys::ROOM_PLAYER_PREFIX) {
            players.push(serde_dynamo::from_item::<_, PlayerTotals>(item.clone())?);
        } else if sk.starts_with(keys::ROUND_PREFIX) {
            rounds.push(serde_dynamo::from_item::<_, RoundItem>(item.clone())?);
        }
    }
    let Some(MatchMeta {
        match_first: Some(first),
        match_window_ms: Some(window_ms),
        match_started_ms: Some(started_at_ms),
        match_resolved,
        match_seed,
    }) = meta
    else {
        return Ok(None);
    };
    // Rounds of an earlier match linger only until the next start deletes them.
    let mut rounds: Vec<Round> = rounds
        .into_iter()
        .filter(|round| round.match_first == first)
        .map(|round| Round {
            n: round.n,
            reveal_ms: round.reveal_ms,
            thing: Some(ThingCard {
                id: round.thing_id,
                en: round.en,
                hi: round.hi,
                hi_latin: round.hi_latin,
                emoji: round.emoji,
            }),
            flies: Some(round.flies),
            results: round.results,
        })
        .collect();
    rounds.sort_by_key(|r| r.n);
    players.sort_by(|a, b| (a.joined_at_ms, &a.user_id).cmp(&(b.joined_at_ms, &b.user_id)));
    let players = players
        .into_iter()
        .filter(|p| p.in_match == Some(first))
        .map(|p| MatchPlayer {
            user_id: p.user_id,
            nickname: p.nickname,
            avatar: p.avatar,
            score: p.score,
            streak: p.streak,
            correct: p.correct,
            taps: p.taps,
            reaction_total_ms: p.reaction_total_ms,
        })
        .collect();
    Ok(Some(Match {
        first_round: first,
        window_ms,
        started_at_ms,
        resolved: match_resolved.unwrap_or(0),
        rounds,
        players,
        seed: match_seed,
    }))
}

impl Db {
    /// The room as played: its lobby and its match (rounds and running scores), from the one
    /// Query of its partition ([`Db::room_items`]). `None` for an unknown or expired room.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn room(&self, code: &RoomCode) -> Result<Option<Room>, DataError> {
        let items = self.room_items(code).await?;
        let Some(lobby) = lobby_from_items(&items)? else {
            return Ok(None);
        };
        Ok(Some(Room {
            lobby,
            game: match_from_items(&items)?,
        }))
    }

    /// The host starts a match: the things are drawn, and every player in the room now plays
    /// it. The draw's seed is a MAC, under the table's secret, of the room, the match and
    /// `host_seed` (or fresh randomness): a host who picks a seed still cannot know the things
    /// in advance. The seed is kept in META and shown only once the match is over, when anyone
    /// can check the draw against the public catalog.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn start_match(
        &self,
        code: &RoomCode,
        host: &UserId,
        host_seed: Option<u64>,
    ) -> Result<Match, GameConflict> {
        let catalog = self.list_things(FlyFilter::All).await?;
        let chosen = match host_seed {
            Some(seed) => seed,
            None => {
                let mut bytes = [0u8; 8];
                getrandom::fill(&mut bytes)
                    .map_err(|e| DataError::Internal(e.to_string().into()))?;
                u64::from_le_bytes(bytes)
            }
        };
        for _ in 0..MAX_ATTEMPTS {
            let room = self.room(code).await?.ok_or(GameConflict::NotFound)?;
            if &room.host_id != host {
                return Err(GameConflict::NotHost);
            }
            if room.state == RoomState::Playing {
                return Err(GameConflict::AlreadyPlaying);
            }
            let first = room
                .game
                .as_ref()
                .map_or(1, |g| g.first_round + g.len().max(1));
            let seed = self.match_seed(code, first, chosen).await?;
            let drawn = draw_things(&catalog, usize::from(room.settings.rounds), seed);
            if drawn.is_empty() {
                return Err(GameConflict::NoThings);
            }
            let window_ms = u32::from(room.settings.window_ms);
            let now_ms = epoch_millis();
            let ttl = now_ms / 1000 + ROOM_IDLE_SECS;

            let mut actions = vec![self.update_action(
                update(keys::room_meta(code))
                    .update_expression(
                        "SET #state = :playing, version = version + :one, match_first = :first, \
                         match_window_ms = :window, match_started_ms = :now, \
                         match_resolved = :zero, match_seed = :seed, #ttl = :ttl \
                         REMOVE GSI2PK, GSI2SK",
                    )
                    .condition_expression(
                        "version = :version AND host_id = :host AND #state = :lobby",
                    )
                    .expression_attribute_names("#state", "state")
                    .expression_attribute_names("#ttl", keys::TTL)
                    .expression_attribute_values(":playing", state_value(RoomState::Playing))
                    .expression_attribute_values(":lobby", state_value(RoomState::Lobby))
                    .expression_attribute_values(":one", n(1))
                    .expression_attribute_values(":zero", n(0))
                    .expression_attribute_values(":first", n(first))
                    .expression_attribute_values(":window", n(window_ms))
                    .expression_attribute_values(":seed", n(seed))
                    .expression_attribute_values(":now", n(now_ms))
                    .expression_attribute_values(":ttl", n(ttl))
                    .expression_attribute_values(":version", n(room.version))
                    .expression_attribute_values(":host", s(host.as_str())),
            )?];
            if let Some(old) = &room.game {
                for round in &old.rounds {
                    actions.push(self.delete_action(keys::round(code, round.n))?);
                }
            }
            let mut rounds = Vec::with_capacity(drawn.len());
            for (index, id) in drawn.iter().enumerate() {
                let thing = catalog
                    .iter()
                    .find(|t| &t.id == id)
                    .ok_or_else(|| DataError::Internal("drawn thing not in catalog".into()))?;
                let number = first + index as u32;
                let Key { pk, sk } = keys::round(code, number);
                let item = RoundItem {
                    pk,
                    sk,
                    n: number,
                    match_first: first,
                    thing_id: thing.id.clone(),
                    en: thing.en.clone(),
                    hi: thing.hi.clone(),
                    hi_latin: thing.hi_latin.clone(),
                    emoji: thing.emoji.clone(),
                    flies: thing.flies,
                    reveal_ms: Match::reveal_at(now_ms, window_ms, index),
                    window_ms,
                    resolved_at_ms: None,
                    results: None,
                    ttl,
                };
                actions.push(self.put_new(serde_dynamo::to_item(&item).map_err(DataError::from)?)?);
                rounds.push(Round {
                    n: item.n,
                    reveal_ms: item.reveal_ms,
                    thing: Some(ThingCard {
                        id: item.thing_id,
                        en: item.en,
                        hi: item.hi,
                        hi_latin: item.hi_latin,
                        emoji: item.emoji,
                    }),
                    flies: Some(item.flies),
                    results: None,
                });
            }
            for player in &room.players {
                actions.push(
                    self.update_action(
                        update(keys::room_player(code, &player.user_id))
                            .update_expression(
                                "SET in_match = :first, score = :zero, streak = :zero, \
                             correct = :zero, taps = :zero, reaction_total_ms = :zero, \
                             resolved = :zero, #ttl = :ttl",
                            )
                            .condition_expression("attribute_exists(#pk)")
                            .expression_attribute_names("#pk", keys::PK)
                            .expression_attribute_names("#ttl", keys::TTL)
                            .expression_attribute_values(":first", n(first))
                            .expression_attribute_values(":zero", n(0))
                            .expression_attribute_values(":ttl", n(ttl)),
                    )?,
                );
            }
            match self.transact(actions).await {
                Ok(()) => {}
                // Someone joined, left or changed settings since the read: read again.
                Err(DataError::Conflict(Conflict::TransactionCanceled { .. })) => continue,
                Err(err) => return Err(err.into()),
            }
            // The match as written: no second read.
            return Ok(Match {
                first_round: first,
                window_ms,
                started_at_ms: now_ms,
                resolved: 0,
                rounds,
                players: room
                    .lobby
                    .players
                    .into_iter()
                    .map(|p| MatchPlayer {
                        user_id: p.user_id,
                        nickname: p.nickname,
                        avatar: p.avatar,
                        score: 0,
                        streak: 0,
                        correct: 0,
                        taps: 0,
                        reaction_total_ms: 0,
                    })
                    .collect(),
                seed: Some(seed),
            });
        }
        Err(DataError::Unavailable("the room kept changing; try again".into()).into())
    }

    /// The seed of the match starting at room round `first`: a MAC of the room, the round and
    /// the chosen number under the table's secret.
    async fn match_seed(&self, code: &RoomCode, first: u32, chosen: u64) -> Result<u64, DataError> {
        let payload = format!("{code}#{first}#{chosen}");
        let tag = self.secret_tag("match-seed", payload.as_bytes()).await?;
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&tag[..8]);
        Ok(u64::from_le_bytes(bytes))
    }
}
