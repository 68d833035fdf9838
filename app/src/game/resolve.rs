//! Resolving a room's rounds exactly once, and finishing the match: each player's match record
//! is written in the last round's transaction, and the boards and lifetime counters are the
//! board projector's work (it reads those records from the table's stream).
//!
//! | pattern | how | round trips |
//! |---|---|---|
//! | resolve a round | `Query begins_with(SK, CLICK#<n>#)`; one transaction conditioned on META's resolved count, applying the round's results, every player's totals, and on the last round the match records | Query + TransactWriteItems |

use aws_sdk_dynamodb::types::TransactWriteItem;

use crate::game::model::{Match, MatchRecord, Room, RoundResult};
use crate::game::rules::{score_round, Decision};
use crate::game::store::Resolution;
use crate::game::taps::ClickItem;
use crate::rooms::items::{open_index, state_value};
use crate::rooms::model::{RoomCode, RoomState};
use crate::store::keys::{self, Key};
use crate::store::tx::{n, s, update};
use crate::store::{epoch_millis, Conflict, DataError, Db, Item};

impl Db {
    /// Resolves the match's next round if its window and grace are over at `now_ms`, from the
    /// room as read in `room` (the caller's latest read): one Query of the round's taps, then
    /// one transaction conditioned on META's resolved count, so of any number of resolvers on
    /// any number of instances exactly one applies the round. The last round also writes each
    /// player's match record and stats, and hands the room back to the lobby.
    #[tracing::instrument(skip(self, room), fields(code = %room.code), err(level = "debug"))]
    pub async fn resolve_due(&self, room: &Room, now_ms: i64) -> Result<Resolution, DataError> {
        let Some(game) = room.game.as_ref() else {
            return Ok(Resolution::NotDue);
        };
        let Some(index) = game.due(now_ms) else {
            return Ok(Resolution::NotDue);
        };
        let code = &room.code;
        let round = &game.rounds[index];
        let flies = round.flies.ok_or_else(|| {
            DataError::Internal("resolving a round read without its thing".into())
        })?;

        let clicks = self
            .query_all(
                self.query_prefix(
                    keys::Keyed::Table,
                    keys::room_partition(code),
                    keys::click_prefix(round.n),
                )
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
        let outcomes = score_round(flies, game.window_ms, &decisions);
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
                open_index(room.settings, RoomState::Lobby, room.created_at_ms, code);
            let set = "SET match_resolved = :next, version = version + :one, #state = :lobby";
            let meta = meta
                .expression_attribute_names("#state", "state")
                .expression_attribute_values(":lobby", state_value(RoomState::Lobby));
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
            // The record reads every round's results, this one's included.
            if let Some(last) = after.rounds.get_mut(index) {
                last.results = Some(results.clone());
            }
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

    /// Each player's match record, written in the last round's transaction so it exists exactly
    /// once. Its appearance on the table's stream is what the boards count.
    fn finish_actions(
        &self,
        code: &RoomCode,
        done: &Match,
        now_ms: i64,
    ) -> Result<Vec<TransactWriteItem>, DataError> {
        done.outcomes()
            .into_iter()
            .map(|(player, outcome)| {
                let record = MatchRecord {
                    record_id: ulid::Ulid::new().to_string(),
                    user_id: player.user_id.clone(),
                    nickname: player.nickname.clone(),
                    avatar: player.avatar,
                    room: code.clone(),
                    score: player.score,
                    placement: outcome.placement,
                    players: outcome.players,
                    correct: player.correct,
                    rounds: outcome.rounds,
                    average_reaction_ms: player.average_reaction_ms(),
                    finished_at_ms: now_ms,
                    right: outcome.right,
                    best_streak: outcome.best_streak,
                };
                self.put_new(match_record_item(&record)?)
            })
            .collect()
    }

    /// Resolves every round that is due, reading the room again whenever it changed. What a
    /// room's watcher (and a page load) calls; returns
    /// the room as it is afterwards, `None` if it is gone.
    pub async fn advance(&self, code: &RoomCode, room: Room) -> Result<Option<Room>, DataError> {
        let mut room = room;
        for _ in 0..64 {
            let now_ms = epoch_millis();
            match self.resolve_due(&room, now_ms).await? {
                Resolution::NotDue => return Ok(Some(room)),
                Resolution::Resolved { .. } | Resolution::AlreadyResolved | Resolution::Stale => {
                    match self.room(code).await? {
                        Some(now) => room = now,
                        None => return Ok(None),
                    }
                }
            }
        }
        Ok(Some(room))
    }
}

/// A match record as stored: `USER#<id>` / `MATCH#<ulid>`, also on GSI2 `MATCHES`.
pub fn match_record_item(record: &MatchRecord) -> Result<Item, DataError> {
    let Key { pk, sk } = keys::user_match(&record.user_id, &record.record_id);
    let mut item: Item = serde_dynamo::to_item(record)?;
    item.insert(keys::PK.into(), s(pk));
    item.insert(keys::GSI2SK.into(), s(sk.clone()));
    item.insert(keys::SK.into(), s(sk));
    item.insert(keys::GSI2PK.into(), s(keys::RECENT_MATCHES));
    Ok(item)
}
