//! Access patterns of the game: the room as played (its lobby and match from one Query) and
//! starting a match. Taps are in `taps`, resolving rounds in `resolve`, the durable match
//! records in `records`.
//!
//! | pattern | how | round trips |
//! |---|---|---|
//! | the room as played | Query `ROOM#<code>` from `META` on (the lobby's and the match's items together); results and totals are worked out from the rounds' taps | Query |
//! | start a match | read the room; META updated only if the room is unchanged (this decides the start); the new `ROUND#<slot>` items put over the last match's, in parallel | Query + UpdateItem + n × PutItem (parallel) |

use serde::{Deserialize, Serialize};
use std::collections::HashMap;

use crate::catalog::model::ThingId;
use crate::game::draw::draw_things;
use crate::game::draw::Playable;
use crate::game::model::{Match, MatchPlayer, Room, Round, RoundResult, ThingCard, ROUND_BLOCK};
use crate::game::rules::{score_round, Decision};
use crate::game::timing::TapRejected;
use crate::identity::model::{Avatar, DisplayName, UserId};
use crate::rooms::items::{lobby_from_items, state_value, ROOM_IDLE_SECS};
use crate::rooms::model::{RoomCode, RoomDeck, RoomId, RoomState};
use crate::rooms::store::MAX_ATTEMPTS;
use crate::store::expr::{attr, Cond, Expr, Expressions, Operand, Update};
use crate::store::keys::{self, Key};
use crate::store::retry::{holds, Written};
use crate::store::tx::{delete_request, n, s};
use crate::store::{epoch_millis, epoch_seconds, key_map, sort_key, Conflict, DataError, Item};
use aws_sdk_dynamodb::types::{AttributeValue, ReturnValue};

pub mod audience;
pub mod detail;
pub mod flags;
pub mod playable;
pub mod receipts;
pub mod records;
pub mod resolve;
pub mod taps;

pub(crate) use taps::TapEntry;
pub use taps::Tapped;

crate::store::handle!(
    /// The access patterns of matches: rounds, taps, resolution, receipts, records.
    Game,
    game
);

// The model's numbering and the keys' slots are one block.
const _: () = assert!(ROUND_BLOCK == keys::ROUND_SLOTS);

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
    #[error("The room's audience is full.")]
    AudienceFull,
    #[error("Join the audience to tap along.")]
    NotInAudience,
    #[error("You play in this match: tap as a player.")]
    InTheMatch,
    #[error("The host has locked this room.")]
    Locked,
    #[error("The host removed you from this room.")]
    Removed,
    #[error(transparent)]
    Data(#[from] DataError),
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

/// A round as stored: `ROOM#<code>` / `ROUND#<n>`. Its taps are in it, so a tap and the
/// round's close are ordered by the one item, and the close needs no transaction.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct RoundItem {
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
    /// A deck thing's note, kept with the round (a deck edited later does not change it); none
    /// for a catalog thing (see [`round_items`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note_hi: Option<String>,
    flies: bool,
    reveal_ms: i64,
    window_ms: u32,
    /// Who plays the match (a tap's condition: `contains(players, :user)`).
    #[serde(default)]
    players: Vec<UserId>,
    /// Taps by player id, and how many (the close is conditioned on the count it read).
    #[serde(default)]
    taps: HashMap<String, TapEntry>,
    #[serde(default)]
    tap_count: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    resolved_at_ms: Option<i64>,
    ttl: i64,
}

impl RoundItem {
    /// The round as a freshly started match shows it (no taps, no results).
    fn shown(&self) -> Round {
        Round {
            n: self.n,
            reveal_ms: self.reveal_ms,
            thing: Some(ThingCard {
                id: self.thing_id.clone(),
                en: self.en.clone(),
                hi: self.hi.clone(),
                hi_latin: self.hi_latin.clone(),
                emoji: self.emoji.clone(),
                note: self.note.clone(),
                note_hi: self.note_hi.clone(),
            }),
            flies: Some(self.flies),
            crowd: 0,
            crowd_flies: 0,
            results: None,
            tap_count: 0,
            closed_at_ms: None,
            taps: Vec::new(),
        }
    }
}

/// Who plays a match, as META lists them at its start (they stay listed if they leave).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Entrant {
    pub(crate) user_id: UserId,
    pub(crate) nickname: DisplayName,
    pub(crate) avatar: Avatar,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) look: Option<crate::ids::Look>,
}

impl Entrant {
    /// The player as the match starts: nothing scored yet.
    fn player(self) -> MatchPlayer {
        MatchPlayer {
            user_id: self.user_id,
            nickname: self.nickname,
            avatar: self.avatar,
            look: self.look,
            score: 0,
            streak: 0,
            correct: 0,
            taps: 0,
            reaction_total_ms: 0,
        }
    }
}

/// The match's fields on the room's META item (the game's own attributes there).
#[derive(Debug, Deserialize)]
struct MatchMeta {
    match_first: Option<u32>,
    match_window_ms: Option<u32>,
    match_started_ms: Option<i64>,
    /// Rounds the match has (its `ROUND#` items are written just after META).
    match_rounds: Option<u32>,
    #[serde(default)]
    match_players: Vec<Entrant>,
    /// The current match's draw seed (secret until it is over).
    match_seed: Option<u64>,
}

/// The room's match from its items (see [`Rooms::room_items`]): META's match fields and the
/// `ROUND#` items. The results of every closed round and the players' totals are worked out
/// here from the taps the rounds hold, by the same rules for every reader: nothing but the
/// taps and the close is ever written during a match. `None` before the room's first match.
fn match_from_items(items: &[Item]) -> Result<Option<Match>, DataError> {
    let mut meta = None;
    let mut stored = Vec::new();
    for item in items {
        let sk = sort_key(item);
        if sk == keys::ROOM_META {
            meta = Some(serde_dynamo::from_item::<_, MatchMeta>(item.clone())?);
        } else if sk.starts_with(keys::ROUND_PREFIX) {
            stored.push(serde_dynamo::from_item::<_, RoundItem>(item.clone())?);
        }
    }
    let Some(MatchMeta {
        match_first: Some(first),
        match_window_ms: Some(window_ms),
        match_started_ms: Some(started_at_ms),
        match_rounds,
        match_players,
        match_seed,
    }) = meta
    else {
        return Ok(None);
    };
    // A slot past this match's last round may still hold an earlier match's round.
    stored.retain(|round| round.match_first == first);
    stored.sort_by_key(|r| r.n);
    let mut players: Vec<MatchPlayer> = match_players.into_iter().map(Entrant::player).collect();
    let mut rounds = Vec::with_capacity(stored.len());
    let mut resolved = 0;
    for round in stored {
        // A round's results exist once it and every round before it are closed.
        let results = match round.resolved_at_ms {
            Some(_) if resolved == rounds.len() as u32 => {
                resolved += 1;
                Some(score_taps(
                    &mut players,
                    round.flies,
                    window_ms,
                    &round.taps,
                ))
            }
            _ => None,
        };
        let taps = match results {
            Some(_) => Vec::new(),
            None => taps::counted(&round.taps),
        };
        rounds.push(Round {
            n: round.n,
            reveal_ms: round.reveal_ms,
            thing: Some(ThingCard {
                id: round.thing_id,
                en: round.en,
                hi: round.hi,
                hi_latin: round.hi_latin,
                emoji: round.emoji,
                note: round.note,
                note_hi: round.note_hi,
            }),
            flies: Some(round.flies),
            results,
            crowd: 0,
            crowd_flies: 0,
            tap_count: round.tap_count,
            closed_at_ms: round.resolved_at_ms,
            taps,
        });
    }
    Ok(Some(Match {
        first_round: first,
        window_ms,
        started_at_ms,
        resolved,
        planned: match_rounds.unwrap_or(rounds.len() as u32),
        rounds,
        players,
        seed: match_seed,
        receipt: None,
    }))
}

/// Scores a closed round from its taps and adds it to each player's totals.
fn score_taps(
    players: &mut [MatchPlayer],
    flies: bool,
    window_ms: u32,
    taps: &HashMap<String, TapEntry>,
) -> Vec<RoundResult> {
    let decisions: Vec<Decision> = players
        .iter()
        .map(|p| Decision {
            tap_ms: taps.get(p.user_id.as_str()).map(|t| t.m),
            streak_before: p.streak,
        })
        .collect();
    let outcomes = score_round(flies, window_ms, &decisions);
    players
        .iter_mut()
        .zip(&decisions)
        .zip(&outcomes)
        .map(|((player, decision), outcome)| {
            player.score += outcome.points;
            player.streak = outcome.streak_after;
            player.correct += u32::from(outcome.correct);
            if let Some(ms) = decision.tap_ms {
                player.taps += 1;
                player.reaction_total_ms += u64::from(ms);
            }
            RoundResult {
                user_id: player.user_id.clone(),
                reaction_ms: decision.tap_ms,
                points: outcome.points,
                correct: outcome.correct,
                fastest: outcome.fastest,
            }
        })
        .collect()
}

/// The rounds of a match, as the start writes them (and a reader repairs them, from META,
/// should the start have stopped between META and the rounds).
#[allow(clippy::too_many_arguments)]
pub(super) fn round_items(
    code: &RoomCode,
    catalog: &[Playable],
    drawn: &[ThingId],
    first: u32,
    started_at_ms: i64,
    window_ms: u32,
    players: &[UserId],
    ttl: i64,
) -> Result<Vec<RoundItem>, DataError> {
    drawn
        .iter()
        .enumerate()
        .map(|(index, id)| {
            let thing = catalog
                .iter()
                .find(|t| &t.id == id)
                .ok_or_else(|| DataError::Internal("drawn thing not in catalog".into()))?;
            let number = first + index as u32;
            let Key { pk, sk } = keys::round(code, number);
            // A deck's note is kept with its round (an edited deck leaves a match as played); a
            // catalog thing's is the catalog's, read where it is shown: a room's rounds stay small.
            let deck = thing.id.is_deck_thing();
            Ok(RoundItem {
                pk,
                sk,
                n: number,
                match_first: first,
                thing_id: thing.id.clone(),
                en: thing.en.clone(),
                hi: thing.hi.clone(),
                hi_latin: thing.hi_latin.clone(),
                emoji: thing.emoji.clone(),
                note: deck.then(|| thing.note.clone()).flatten(),
                note_hi: deck.then(|| thing.note_hi.clone()).flatten(),
                flies: thing.flies,
                reveal_ms: Match::reveal_at(started_at_ms, window_ms, index),
                window_ms,
                players: players.to_vec(),
                taps: HashMap::new(),
                tap_count: 0,
                resolved_at_ms: None,
                ttl,
            })
        })
        .collect()
}

impl Game<'_> {
    /// The room as played: its lobby and its match (rounds and running scores), from the one
    /// Query of its partition ([`Rooms::room_items`]). `None` for an unknown or expired room.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn room(self, code: &RoomCode) -> Result<Option<Room>, DataError> {
        let items = self.rooms().room_items(code).await?;
        let Some(lobby) = lobby_from_items(&items)? else {
            return Ok(None);
        };
        let game = match_from_items(&items)?;
        if let Some(game) = &game {
            if lobby.state == RoomState::Playing
                && self.repair_rounds(code, lobby.deck.as_ref(), game).await?
            {
                return Box::pin(self.room(code)).await;
            }
        }
        Ok(Some(Room { lobby, game }))
    }

    /// The host starts a match: the things are drawn, and every player in the room now plays
    /// it. The draw's seed is a MAC, under the table's secret, of the room, the match and
    /// `host_seed` (or fresh randomness): a host who picks a seed still cannot know the things
    /// in advance. The seed is kept in META and shown only once the match is over, when anyone
    /// can check the draw against the public catalog.
    ///
    /// One conditional UpdateItem of META decides the start (of racing starts one wins); the
    /// rounds are then put (in parallel) and the last match's deleted. Should this instance stop
    /// in between, the next read of the room writes the missing rounds (see [`Game::room`]).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn start_match(
        self,
        code: &RoomCode,
        host: &UserId,
        host_seed: Option<u64>,
    ) -> Result<Match, GameConflict> {
        let mut catalog: Option<(Option<RoomDeck>, Vec<Playable>)> = None;
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
            // Each match's rounds are numbered in a block of their own (see `keys::round`).
            let first = room
                .game
                .as_ref()
                .map_or(1, |g| g.first_round + ROUND_BLOCK);
            // A room from before rooms had ids is given one now, so this match and the ones
            // after it are kept under it, apart from any earlier room's with the same code.
            let id = if room.id.is_legacy() {
                RoomId::generate(code)
            } else {
                room.id.clone()
            };
            let seed = self.match_seed(&id, first, chosen).await?;
            // What the room plays, read once (again only if the host chose anew meanwhile).
            let catalog = match catalog.take() {
                Some((deck, things)) if deck == room.deck => catalog.insert((deck, things)),
                _ => catalog.insert((room.deck.clone(), self.playable(room.deck.as_ref()).await?)),
            };
            let catalog = &catalog.1;
            // From here on, what the start costs is on the match's receipt.
            let db = self.billed_to_match(code, first);
            let drawn = draw_things(catalog, usize::from(room.settings.rounds), seed);
            if drawn.is_empty() {
                return Err(GameConflict::NoThings);
            }
            let window_ms = u32::from(room.settings.window_ms);
            let now_ms = epoch_millis();
            let ttl = now_ms / 1000 + ROOM_IDLE_SECS;
            let entrants: Vec<Entrant> = room
                .lobby
                .players
                .iter()
                .map(|p| Entrant {
                    user_id: p.user_id.clone(),
                    nickname: p.nickname.clone(),
                    avatar: p.avatar,
                    look: p.look,
                })
                .collect();
            let players: AttributeValue =
                serde_dynamo::to_attribute_value(&entrants).map_err(DataError::from)?;
            let start = Update::new()
                .set(attr("state"), state_value(RoomState::Playing))
                .set(attr("version"), Operand::Plus(attr("version"), n(1)))
                .set(attr("match_first"), n(first))
                .set(attr("match_window_ms"), n(window_ms))
                .set(attr("match_started_ms"), n(now_ms))
                .set(attr("match_rounds"), n(drawn.len()))
                .set(attr("match_players"), players)
                .set(attr("match_seed"), n(seed))
                .set(attr(keys::TTL), n(ttl))
                .set(attr("room_id"), s(id.as_str()))
                .remove(attr("GSI2PK"))
                .remove(attr("GSI2SK"))
                .remove(attr("match_resolved"))
                // An away host no longer takes the room back once a match started.
                .remove(attr(crate::rooms::items::AWAY_UNTIL));
            let unchanged = Cond::eq(attr("version"), n(room.version))
                .and(Cond::eq(attr("host_id"), s(host.as_str())))
                .and(Cond::eq(attr("state"), state_value(RoomState::Lobby)));
            let started = db
                .update_written(
                    self.client
                        .update_item()
                        .set_key(Some(key_map(keys::room_meta(code))))
                        .expressions(Expr::update(start).when(unchanged)),
                    ReturnValue::None,
                )
                .await?;
            // Refused: its own copy sent again after a lost answer (the room holds this very
            // start), or someone joined, left or changed settings since the read: read again.
            let ours = [("match_first", n(first)), ("match_started_ms", n(now_ms))];
            if matches!(&started, Written::Refused(room) if !holds(room, &ours)) {
                continue;
            }
            let ids: Vec<UserId> = entrants.iter().map(|e| e.user_id.clone()).collect();
            let items = round_items(code, catalog, &drawn, first, now_ms, window_ms, &ids, ttl)?;
            let rounds: Vec<Round> = items.iter().map(RoundItem::shown).collect();
            // The new rounds are put over the last match's; only rounds past the new match's
            // last (when it has fewer) are deleted.
            let old: Vec<Key> = room
                .game
                .iter()
                .flat_map(|g| {
                    g.rounds
                        .iter()
                        .skip(drawn.len())
                        .map(|r| keys::round(code, r.n))
                })
                .collect();
            let (written, deleted) = futures::join!(self.put_rounds(items), self.delete_keys(old));
            written?;
            deleted?;
            // The match as written: no second read.
            return Ok(Match {
                first_round: first,
                window_ms,
                started_at_ms: now_ms,
                resolved: 0,
                planned: rounds.len() as u32,
                rounds,
                players: entrants.into_iter().map(Entrant::player).collect(),
                seed: Some(seed),
                receipt: None,
            });
        }
        Err(DataError::Unavailable("the room kept changing; try again".into()).into())
    }

    /// Writes rounds that are not there yet: a PutItem each, all at once, over an earlier
    /// match's round in the same place but never over this match's (written by the start, or by
    /// another repair: it is left as it is, taps and all).
    pub(super) async fn put_rounds(self, rounds: Vec<RoundItem>) -> Result<(), DataError> {
        let puts = rounds.into_iter().map(|round| async move {
            let first = round.match_first;
            let item: Item = serde_dynamo::to_item(round)?;
            let put = self
                .client
                .put_item()
                .set_item(Some(item))
                // An expired round (of this room's, or of an earlier room that had the code
                // and is not swept yet) counts as absent, as every read has it.
                .expressions(Expr::condition(
                    Cond::not_exists(attr(keys::PK))
                        .or(Cond::lt(attr("match_first"), n(first)))
                        .or(Cond::le(attr(keys::TTL), n(epoch_seconds()))),
                ));
            match self.put(put).await {
                Ok(()) | Err(DataError::Conflict(Conflict::ConditionFailed)) => Ok(()),
                Err(err) => Err(err),
            }
        });
        futures::future::try_join_all(puts).await.map(|_| ())
    }

    /// Deletes items by key (BatchWriteItem, 25 at a time).
    async fn delete_keys(self, keys: Vec<Key>) -> Result<(), DataError> {
        let requests = keys
            .into_iter()
            .map(|key| delete_request(key_map(key)))
            .collect::<Result<Vec<_>, _>>()?;
        if requests.is_empty() {
            return Ok(());
        }
        self.batch_write(requests).await
    }

    /// The seed of the match starting at room round `first`: a MAC of the room (its id: a later
    /// room with the same code draws other things), the round and the chosen number under the
    /// table's secret.
    async fn match_seed(self, room: &RoomId, first: u32, chosen: u64) -> Result<u64, DataError> {
        let payload = format!("{room}#{first}#{chosen}");
        let tag = self.secret_tag("match-seed", payload.as_bytes()).await?;
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&tag[..8]);
        Ok(u64::from_le_bytes(bytes))
    }
}
