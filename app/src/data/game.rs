//! Access patterns of the game: start a match, tap, resolve a round exactly once, finish
//! (match records, lifetime stats, the room's leaderboard), and the reads of those records.
//!
//! | pattern | how | round trips |
//! |---|---|---|
//! | start a match | read the room; one transaction: META, the new `ROUND#<n>` items, every player's totals reset, the last match's rounds deleted | Query + TransactWriteItems |
//! | tap | one transaction: `ROUND#<n>` still open with the reveal and window the browser was told (a condition check), the player in this match (a condition check), `CLICK#<n>#<player>` only if absent | TransactWriteItems |
//! | resolve a round | `Query begins_with(SK, CLICK#<n>#)`; one transaction conditioned on META's resolved count, applying the round's results, every player's totals, and on the last round the match records and stats | Query + TransactWriteItems |
//! | settle the boards | per player: the room leaderboard and best score, each only if higher; then META's flag | PutItem + UpdateItem per player, UpdateItem |
//! | a player's matches | Query `USER#<id>` begins_with `MATCH#`, newest first | Query |
//! | recent matches everywhere | Query GSI2 `MATCHES`, newest first | Query |
//! | a player's stats | GetItem `USER#<id>` / `STATS` | GetItem |
//! | a room's leaderboard | Query GSI1 `LB#all#room#<code>`, highest first | Query |

use aws_sdk_dynamodb::types::{AttributeValue, ConditionCheck, TransactWriteItem, Update};
use serde::{Deserialize, Serialize};

use super::keys::{self, Key};
use super::rooms::{internal, open_index, PlayerItem, MAX_ATTEMPTS, ROOM_IDLE_SECS};
use super::{epoch_millis, key_map, send_recorded, Conflict, DataError, Db, Item, Page};
use crate::catalog::{FlyFilter, ThingId};
use crate::game::{
    self, check_tap, BoardEntry, Decision, Match, MatchPlayer, MatchRecord, PlayerStats, Round,
    RoundResult, TapRejected, ThingCard,
};
use crate::players::UserId;
use crate::rooms::{Lobby, RoomCode, RoomState};

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

#[derive(Debug, Serialize, Deserialize)]
struct ClickItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    user_id: UserId,
    /// When the server received the tap (its clock).
    received_ms: i64,
    /// What the browser measured, as sent.
    client_reaction_ms: u32,
    /// The reaction that counts (see [`game::check_tap`]).
    reaction_ms: u32,
    ttl: i64,
}

fn n(value: impl ToString) -> AttributeValue {
    AttributeValue::N(value.to_string())
}

fn s(value: impl Into<String>) -> AttributeValue {
    AttributeValue::S(value.into())
}

/// The room's match from its META fields, its `ROUND#` items and its players' items.
pub(super) fn build_match(
    first: u32,
    window_ms: u32,
    started_at_ms: i64,
    resolved: u32,
    boards_pending: bool,
    round_items: Vec<Item>,
    player_items: &[PlayerItem],
) -> Result<Match, DataError> {
    let mut rounds = Vec::new();
    for item in round_items {
        let round: RoundItem = serde_dynamo::from_item(item)?;
        // Rounds of an earlier match linger only until the next start deletes them.
        if round.match_first != first {
            continue;
        }
        rounds.push(Round {
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
        });
    }
    rounds.sort_by_key(|r| r.n);
    let players = player_items
        .iter()
        .filter(|p| p.in_match == Some(first))
        .map(|p| MatchPlayer {
            user_id: p.user_id.clone(),
            nickname: p.nickname.clone(),
            avatar: p.avatar,
            score: p.score,
            streak: p.streak,
            correct: p.correct,
            taps: p.taps,
            reaction_total_ms: p.reaction_total_ms,
        })
        .collect();
    Ok(Match {
        first_round: first,
        window_ms,
        started_at_ms,
        resolved,
        rounds,
        players,
        boards_pending,
        seed: None,
    })
}

fn update(key: Key) -> aws_sdk_dynamodb::types::builders::UpdateBuilder {
    Update::builder().set_key(Some(key_map(key)))
}

impl Db {
    fn update_action(
        &self,
        update: aws_sdk_dynamodb::types::builders::UpdateBuilder,
    ) -> Result<TransactWriteItem, DataError> {
        let update = update
            .table_name(self.table_name())
            .build()
            .map_err(internal)?;
        Ok(TransactWriteItem::builder().update(update).build())
    }

    fn check_action(
        &self,
        key: Key,
        condition: &str,
        values: &[(&str, AttributeValue)],
    ) -> Result<TransactWriteItem, DataError> {
        let mut check = ConditionCheck::builder()
            .table_name(self.table_name())
            .set_key(Some(key_map(key)))
            .condition_expression(condition);
        for (name, value) in values {
            check = check.expression_attribute_values(*name, value.clone());
        }
        Ok(TransactWriteItem::builder()
            .condition_check(check.build().map_err(internal)?)
            .build())
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
            let lobby = self.lobby(code).await?.ok_or(GameConflict::NotFound)?;
            if &lobby.host_id != host {
                return Err(GameConflict::NotHost);
            }
            if lobby.state == RoomState::Playing {
                return Err(GameConflict::AlreadyPlaying);
            }
            let first = lobby
                .game
                .as_ref()
                .map_or(1, |g| g.first_round + g.len().max(1));
            let seed = self.match_seed(code, first, chosen).await?;
            let drawn = game::draw_things(&catalog, usize::from(lobby.settings.rounds), seed);
            if drawn.is_empty() {
                return Err(GameConflict::NoThings);
            }
            let window_ms = u32::from(lobby.settings.window_ms);
            let now_ms = epoch_millis();
            let ttl = now_ms / 1000 + ROOM_IDLE_SECS;

            let mut actions = vec![self.update_action(
                update(keys::room_meta(code))
                    .update_expression(
                        "SET #state = :playing, version = version + :one, match_first = :first, \
                         match_window_ms = :window, match_started_ms = :now, \
                         match_resolved = :zero, match_seed = :seed, #ttl = :ttl \
                         REMOVE GSI2PK, GSI2SK, boards_pending",
                    )
                    .condition_expression(
                        "version = :version AND host_id = :host AND #state = :lobby",
                    )
                    .expression_attribute_names("#state", "state")
                    .expression_attribute_names("#ttl", keys::TTL)
                    .expression_attribute_values(":playing", s("playing"))
                    .expression_attribute_values(":lobby", s("lobby"))
                    .expression_attribute_values(":one", n(1))
                    .expression_attribute_values(":zero", n(0))
                    .expression_attribute_values(":first", n(first))
                    .expression_attribute_values(":window", n(window_ms))
                    .expression_attribute_values(":seed", n(seed))
                    .expression_attribute_values(":now", n(now_ms))
                    .expression_attribute_values(":ttl", n(ttl))
                    .expression_attribute_values(":version", n(lobby.version))
                    .expression_attribute_values(":host", s(host.as_str())),
            )?];
            if let Some(old) = &lobby.game {
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
            for player in &lobby.players {
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
                players: lobby
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
                boards_pending: false,
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

    /// A player taps in round `n`, which the browser was told is revealed at `reveal_ms` with
    /// a window of `window_ms`. The timing is checked against the server's clock first (no
    /// write for a refused tap); then one transaction checks that the round really has that
    /// reveal and window and is not resolved, that the player plays this match, and writes the
    /// tap only if the player has none in this round yet.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    #[allow(clippy::too_many_arguments)]
    pub async fn tap(
        &self,
        code: &RoomCode,
        user: &UserId,
        round: u32,
        reveal_ms: i64,
        window_ms: u32,
        client_reaction_ms: u32,
        received_ms: i64,
    ) -> Result<Tapped, GameConflict> {
        let reaction_ms = check_tap(reveal_ms, window_ms, received_ms, client_reaction_ms)?;
        let Key { pk, sk } = keys::click(code, round, user);
        let click = ClickItem {
            pk,
            sk,
            user_id: user.clone(),
            received_ms,
            client_reaction_ms,
            reaction_ms,
            ttl: received_ms / 1000 + ROOM_IDLE_SECS,
        };
        let actions = vec![
            self.check_action(
                keys::round(code, round),
                "reveal_ms = :reveal AND window_ms = :window AND attribute_not_exists(resolved_at_ms)",
                &[(":reveal", n(reveal_ms)), (":window", n(window_ms))],
            )?,
            self.check_action(
                keys::room_player(code, user),
                "in_match <= :round",
                &[(":round", n(round))],
            )?,
            self.put_new(serde_dynamo::to_item(click).map_err(DataError::from)?)?,
        ];
        match self.transact(actions).await {
            Ok(()) => Ok(Tapped::Counted { reaction_ms }),
            Err(DataError::Conflict(conflict @ Conflict::TransactionCanceled { .. })) => {
                match conflict.failed_condition() {
                    Some(0) => Err(GameConflict::RoundClosed),
                    Some(1) => Err(GameConflict::Spectating),
                    Some(_) => Ok(Tapped::AlreadyCounted),
                    None => Err(DataError::Conflict(conflict).into()),
                }
            }
            Err(err) => Err(err.into()),
        }
    }

    /// Resolves the match's next round if its window and grace are over at `now_ms`, from the
    /// room as read in `lobby` (the caller's latest read): one Query of the round's taps, then
    /// one transaction conditioned on META's resolved count, so of any number of resolvers on
    /// any number of instances exactly one applies the round. The last round also writes each
    /// player's match record and stats, and hands the room back to the lobby.
    #[tracing::instrument(skip(self, lobby), fields(code = %lobby.code), err(level = "debug"))]
    pub async fn resolve_due(&self, lobby: &Lobby, now_ms: i64) -> Result<Resolution, DataError> {
        let Some(game) = lobby.game.as_ref() else {
            return Ok(Resolution::NotDue);
        };
        let Some(index) = game.due(now_ms) else {
            return Ok(Resolution::NotDue);
        };
        let code = &lobby.code;
        let round = &game.rounds[index];
        let flies = round.flies.ok_or_else(|| {
            DataError::Internal("resolving a round read without its thing".into())
        })?;

        let clicks = self
            .query_all(
                self.client
                    .query()
                    .key_condition_expression("#pk = :pk AND begins_with(#sk, :prefix)")
                    .expression_attribute_names("#pk", keys::PK)
                    .expression_attribute_names("#sk", keys::SK)
                    .expression_attribute_values(":pk", s(keys::room_partition(code)))
                    .expression_attribute_values(":prefix", s(keys::click_prefix(round.n)))
                    .consistent_read(true),
            )
            .await?
            .into_iter()
            .map(serde_dynamo::from_item::<_, ClickItem>)
            .collect::<Result<Vec<_>, _>>()?;

        let decisions: Vec<Decision> = game
            .players
            .iter()
            .map(|p| Decision {
                tap_ms: clicks
                    .iter()
                    .find(|c| c.user_id == p.user_id)
                    .map(|c| c.reaction_ms),
                streak_before: p.streak,
            })
            .collect();
        let outcomes = game::score_round(flies, game.window_ms, &decisions);
        let results: Vec<RoundResult> = game
            .players
            .iter()
            .zip(&decisions)
            .zip(&outcomes)
            .map(|((p, d), o)| RoundResult {
                user_id: p.user_id.clone(),
                reaction_ms: d.tap_ms,
                points: o.points,
                correct: o.correct,
                fastest: o.fastest,
            })
            .collect();

        let k = game.resolved;
        let finished = k + 1 >= game.len();
        let mut after = game.clone();
        after.resolved = k + 1;
        for ((player, decision), outcome) in after.players.iter_mut().zip(&decisions).zip(&outcomes)
        {
            player.score += outcome.points;
            player.streak = outcome.streak_after;
            player.correct += u32::from(outcome.correct);
            if let Some(ms) = decision.tap_ms {
                player.taps += 1;
                player.reaction_total_ms += u64::from(ms);
            }
        }

        let mut meta = update(keys::room_meta(code))
            .condition_expression("match_first = :first AND match_resolved = :k")
            .expression_attribute_values(":first", n(game.first_round))
            .expression_attribute_values(":k", n(k))
            .expression_attribute_values(":next", n(k + 1))
            .expression_attribute_values(":one", n(1));
        meta = if finished {
            let (gsi2pk, gsi2sk) =
                open_index(lobby.settings, RoomState::Lobby, lobby.created_at_ms, code);
            let set = "SET match_resolved = :next, version = version + :one, \
                       #state = :lobby, boards_pending = :yes";
            let meta = meta
                .expression_attribute_names("#state", "state")
                .expression_attribute_values(":lobby", s("lobby"))
                .expression_attribute_values(":yes", AttributeValue::Bool(true));
            match (gsi2pk, gsi2sk) {
                (Some(pk), Some(sk)) => meta
                    .update_expression(format!("{set}, GSI2PK = :gsi2pk, GSI2SK = :gsi2sk"))
                    .expression_attribute_values(":gsi2pk", s(pk))
                    .expression_attribute_values(":gsi2sk", s(sk)),
                _ => meta.update_expression(set),
            }
        } else {
            meta.update_expression("SET match_resolved = :next, version = version + :one")
        };
        let mut actions = vec![
            self.update_action(meta)?,
            self.update_action(
                update(keys::round(code, round.n))
                    .update_expression("SET resolved_at_ms = :now, results = :results")
                    .condition_expression("attribute_not_exists(resolved_at_ms)")
                    .expression_attribute_values(":now", n(now_ms))
                    .expression_attribute_values(
                        ":results",
                        serde_dynamo::to_attribute_value(&results).map_err(DataError::from)?,
                    ),
            )?,
        ];
        for ((player, decision), outcome) in game.players.iter().zip(&decisions).zip(&outcomes) {
            actions.push(
                self.update_action(
                    update(keys::room_player(code, &player.user_id))
                        .update_expression(
                            "SET score = score + :points, streak = :streak, \
                             correct = correct + :correct, taps = taps + :taps, \
                             reaction_total_ms = reaction_total_ms + :reaction, resolved = :next",
                        )
                        .condition_expression("in_match = :first AND resolved = :k")
                        .expression_attribute_values(":points", n(outcome.points))
                        .expression_attribute_values(":streak", n(outcome.streak_after))
                        .expression_attribute_values(":correct", n(u32::from(outcome.correct)))
                        .expression_attribute_values(
                            ":taps",
                            n(u32::from(decision.tap_ms.is_some())),
                        )
                        .expression_attribute_values(":reaction", n(decision.tap_ms.unwrap_or(0)))
                        .expression_attribute_values(":first", n(game.first_round))
                        .expression_attribute_values(":k", n(k))
                        .expression_attribute_values(":next", n(k + 1)),
                )?,
            );
        }
        if finished {
            actions.extend(self.finish_actions(code, &after, now_ms)?);
        }
        match self.transact(actions).await {
            Ok(()) => Ok(Resolution::Resolved { index, finished }),
            Err(DataError::Conflict(conflict @ Conflict::TransactionCanceled { .. })) => {
                match conflict.failed_condition() {
                    Some(0 | 1) => Ok(Resolution::AlreadyResolved),
                    Some(_) => Ok(Resolution::Stale),
                    None => Err(DataError::Conflict(conflict)),
                }
            }
            Err(err) => Err(err),
        }
    }

    /// Each player's match record and lifetime counters, written in the last round's
    /// transaction so they exist exactly once.
    fn finish_actions(
        &self,
        code: &RoomCode,
        done: &Match,
        now_ms: i64,
    ) -> Result<Vec<TransactWriteItem>, DataError> {
        let mut actions = Vec::new();
        let players = done.players.len() as u32;
        for (placement, player) in done.standings() {
            let record = MatchRecord {
                record_id: ulid::Ulid::new().to_string(),
                user_id: player.user_id.clone(),
                nickname: player.nickname.clone(),
                avatar: player.avatar,
                room: code.clone(),
                score: player.score,
                placement,
                players,
                correct: player.correct,
                rounds: done.len(),
                average_reaction_ms: player.average_reaction_ms(),
                finished_at_ms: now_ms,
            };
            let Key { pk, sk } = keys::user_match(&player.user_id, &record.record_id);
            let mut item: Item = serde_dynamo::to_item(&record)?;
            item.insert(keys::PK.into(), s(pk));
            item.insert(keys::GSI2SK.into(), s(sk.clone()));
            item.insert(keys::SK.into(), s(sk));
            item.insert(keys::GSI2PK.into(), s(keys::RECENT_MATCHES));
            actions.push(self.put_new(item)?);
            actions.push(
                self.update_action(
                    update(keys::user_stats(&player.user_id))
                        .update_expression(
                            "ADD matches :one, wins :win, lifetime_score :score, \
                             correct :correct, rounds :rounds",
                        )
                        .expression_attribute_values(":one", n(1))
                        .expression_attribute_values(":win", n(u32::from(placement == 1)))
                        .expression_attribute_values(":score", n(player.score))
                        .expression_attribute_values(":correct", n(player.correct))
                        .expression_attribute_values(":rounds", n(done.len())),
                )?,
            );
        }
        Ok(actions)
    }

    /// After a match: each player's entry on the room's leaderboard and their best score, each
    /// written only if higher than what is there; then the room's flag is cleared. Safe to run
    /// more than once (an instance that dies halfway leaves the flag for the next one).
    #[tracing::instrument(skip(self, done), err(level = "debug"))]
    pub async fn settle_boards(&self, code: &RoomCode, done: &Match) -> Result<(), DataError> {
        let now_ms = epoch_millis();
        for player in &done.players {
            let entry = BoardEntry {
                user_id: player.user_id.clone(),
                nickname: player.nickname.clone(),
                avatar: player.avatar,
                best_score: player.score,
                achieved_at_ms: now_ms,
            };
            let Key { pk, sk } = keys::room_board_entry(code, &player.user_id);
            let mut item: Item = serde_dynamo::to_item(&entry)?;
            item.insert(keys::GSI1PK.into(), s(pk.clone()));
            item.insert(
                keys::GSI1SK.into(),
                s(keys::board_sort(player.score, now_ms)),
            );
            item.insert(keys::PK.into(), s(pk));
            item.insert(keys::SK.into(), s(sk));
            let put = self
                .client
                .put_item()
                .set_item(Some(item))
                .condition_expression("attribute_not_exists(#pk) OR best_score < :score")
                .expression_attribute_names("#pk", keys::PK)
                .expression_attribute_values(":score", n(player.score));
            match self.put(put).await {
                Ok(()) | Err(DataError::Conflict(Conflict::ConditionFailed)) => {}
                Err(err) => return Err(err),
            }
            let best = self
                .client
                .update_item()
                .table_name(self.table_name())
                .set_key(Some(key_map(keys::user_stats(&player.user_id))))
                .update_expression("SET best_score = :score")
                .condition_expression("attribute_not_exists(best_score) OR best_score < :score")
                .expression_attribute_values(":score", n(player.score));
            match send_recorded!(self, "UpdateItem", best) {
                Ok(_) | Err(DataError::Conflict(Conflict::ConditionFailed)) => {}
                Err(err) => return Err(err),
            }
        }
        let clear = self
            .client
            .update_item()
            .table_name(self.table_name())
            .set_key(Some(key_map(keys::room_meta(code))))
            .update_expression("REMOVE boards_pending")
            .condition_expression("match_first = :first")
            .expression_attribute_values(":first", n(done.first_round));
        match send_recorded!(self, "UpdateItem", clear) {
            Ok(_) | Err(DataError::Conflict(Conflict::ConditionFailed)) => Ok(()),
            Err(err) => Err(err),
        }
    }

    /// Resolves every round that is due and settles the boards of a finished match, reading the
    /// room again whenever it changed. What a room's watcher (and a page load) calls; returns
    /// the room as it is afterwards, `None` if it is gone.
    pub async fn advance(&self, code: &RoomCode, lobby: Lobby) -> Result<Option<Lobby>, DataError> {
        let mut lobby = lobby;
        for _ in 0..64 {
            let now_ms = epoch_millis();
            match self.resolve_due(&lobby, now_ms).await? {
                Resolution::NotDue => {
                    if let Some(game) = lobby.game.as_ref().filter(|g| g.boards_pending) {
                        self.settle_boards(code, game).await?;
                        return self.lobby(code).await;
                    }
                    return Ok(Some(lobby));
                }
                Resolution::Resolved { .. } | Resolution::AlreadyResolved | Resolution::Stale => {
                    match self.lobby(code).await? {
                        Some(now) => lobby = now,
                        None => return Ok(None),
                    }
                }
            }
        }
        Ok(Some(lobby))
    }

    /// A player's lifetime counters; all zero before their first match.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn stats(&self, user: &UserId) -> Result<PlayerStats, DataError> {
        let key = keys::user_stats(user);
        let item = self
            .get(
                self.client
                    .get_item()
                    .key(keys::PK, s(key.pk))
                    .key(keys::SK, s(key.sk)),
            )
            .await?;
        Ok(match item {
            Some(item) => serde_dynamo::from_item(item)?,
            None => PlayerStats::default(),
        })
    }

    /// A player's match records, newest first.
    #[tracing::instrument(skip(self, cursor), err(level = "debug"))]
    pub async fn my_matches(
        &self,
        user: &UserId,
        limit: i32,
        cursor: Option<&str>,
    ) -> Result<Page<MatchRecord>, DataError> {
        let request = self
            .client
            .query()
            .key_condition_expression("#pk = :pk AND begins_with(#sk, :prefix)")
            .expression_attribute_names("#pk", keys::PK)
            .expression_attribute_names("#sk", keys::SK)
            .expression_attribute_values(":pk", s(keys::user_partition(user)))
            .expression_attribute_values(":prefix", s(keys::MATCH_PREFIX))
            .scan_index_forward(false);
        self.match_page(&format!("matches#{user}"), request, limit, cursor)
            .await
    }

    /// Every player's match records, newest first: one Query of the GSI2 `MATCHES` partition.
    #[tracing::instrument(skip(self, cursor), err(level = "debug"))]
    pub async fn recent_matches(
        &self,
        limit: i32,
        cursor: Option<&str>,
    ) -> Result<Page<MatchRecord>, DataError> {
        let request = self
            .client
            .query()
            .index_name(keys::GSI2)
            .key_condition_expression("#pk = :pk")
            .expression_attribute_names("#pk", keys::GSI2PK)
            .expression_attribute_values(":pk", s(keys::RECENT_MATCHES))
            .scan_index_forward(false);
        self.match_page("matches", request, limit, cursor).await
    }

    async fn match_page(
        &self,
        scope: &str,
        request: aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder,
        limit: i32,
        cursor: Option<&str>,
    ) -> Result<Page<MatchRecord>, DataError> {
        let start = match cursor {
            Some(cursor) => Some(self.cursor_key().await?.open(scope, cursor)?),
            None => None,
        };
        let (items, last) = self
            .query_page(request.limit(limit.clamp(1, 100)), start)
            .await?;
        let next = match last {
            Some(last) => Some(self.cursor_key().await?.seal(scope, &last)?),
            None => None,
        };
        let items = items
            .into_iter()
            .map(serde_dynamo::from_item)
            .collect::<Result<_, _>>()?;
        Ok(Page { items, next })
    }

    /// A room's leaderboard: the `limit` best scores, highest first (equal scores: the one set
    /// first ranks higher).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn room_board(
        &self,
        code: &RoomCode,
        limit: i32,
    ) -> Result<Vec<BoardEntry>, DataError> {
        let (items, _) = self
            .query_page(
                self.client
                    .query()
                    .index_name(keys::GSI1)
                    .key_condition_expression("#pk = :pk")
                    .expression_attribute_names("#pk", keys::GSI1PK)
                    .expression_attribute_values(":pk", s(keys::room_board(code)))
                    .scan_index_forward(false)
                    .limit(limit.clamp(1, 100)),
                None,
            )
            .await?;
        Ok(items
            .into_iter()
            .map(serde_dynamo::from_item)
            .collect::<Result<_, _>>()?)
    }
}
