//! Closing a room's rounds exactly once, and finishing the match. A round's results are not
//! written: they follow from its taps by the rules (see `store::match_from_items`), so closing a
//! round is one write of the round, and nothing is written per player until the match ends.
//! Then each player's match record is written (the boards and lifetime counters are the board
//! projector's work: it reads those records from the table's stream), and the room goes back to
//! the lobby.
//!
//! | pattern | how | round trips |
//! |---|---|---|
//! | close a round | a consistent GetItem of `ROUND#<n>` (its tap count); UpdateItem of it, conditioned on its not being closed and on that count (a tap that lands in between makes the close read again; its own copy, sent again after a lost answer, is recognised by the name it wrote, `closed_by`) | GetItem + UpdateItem |
//! | finish a match | the match records put (same keys and content whoever writes them, so a repeat changes nothing) while the summary and rounds are put, each only over nothing or the same match; META back to the lobby, conditioned on the match still being on | BatchWriteItem and 2 PutItems at once, then UpdateItem |

use super::Game;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnValue};

use crate::game::model::{DeckPlay, Match, MatchRecord, Room};
use crate::game::store::Resolution;
use crate::game::timing::too_fast_to_believe;
use crate::identity::model::UserId;
use crate::rooms::items::{open_index, state_value};
use crate::rooms::model::{RoomCode, RoomDeck, RoomState};
use crate::store::expr::{attr, Cond, Expr, Expressions, Operand, Update};
use crate::store::keys::{self, Key};
use crate::store::retry::{holds, Written};
use crate::store::tx::{n, put_request, s};
use crate::store::{epoch_millis, key_map, Conflict, DataError, Item};

impl Game<'_> {
    /// Closes the match's next round if its window and grace are over at `now_ms` (by the room
    /// as read in `room`, the caller's latest read): one consistent read of the round's tap
    /// count, then one UpdateItem of the round conditioned on its not being closed and on that
    /// count, so of any number of resolvers on any number of instances exactly one closes it,
    /// and every tap acknowledged before the close is in it. Closing the last round also ends
    /// the match ([`Game::finish_match`]).
    #[tracing::instrument(skip(self, room), fields(code = %room.code), err(level = "debug"))]
    pub async fn resolve_due(self, room: &Room, now_ms: i64) -> Result<Resolution, DataError> {
        let Some(game) = room.game.as_ref() else {
            return Ok(Resolution::NotDue);
        };
        let Some(index) = game.due(now_ms) else {
            return Ok(Resolution::NotDue);
        };
        let round = &game.rounds[index];
        let key = keys::round(&room.code, round.n);
        // The round as it is now: the taps that landed since the caller's read count too.
        let Some(now) = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(key.clone())))
                    .expressions(
                        Expr::default()
                            .project(["tap_count", "resolved_at_ms", "match_first"].map(attr)),
                    )
                    .consistent_read(true),
            )
            .await?
        else {
            return Ok(Resolution::Stale);
        };
        let first = now.get("match_first").and_then(|v| v.as_n().ok());
        if first != Some(&game.first_round.to_string()) {
            // The room moved on to another match since the read.
            return Ok(Resolution::Stale);
        }
        if now.contains_key("resolved_at_ms") {
            return Ok(Resolution::AlreadyResolved);
        }
        let seen = now
            .get("tap_count")
            .and_then(|v| v.as_n().ok())
            .cloned()
            .unwrap_or_else(|| "0".into());
        // The close names itself (64 random bits): resolvers on many instances may close at
        // the same millisecond, and only the one whose write applied may take it as its own.
        let closer = n(rand::random::<u64>());
        let close = self
            .client
            .update_item()
            .set_key(Some(key_map(key)))
            .expressions(
                Expr::update(
                    Update::new()
                        .set(attr("resolved_at_ms"), n(now_ms))
                        .set(attr("closed_by"), closer.clone()),
                )
                .when(
                    Cond::not_exists(attr("resolved_at_ms"))
                        .and(Cond::eq(attr("match_first"), n(game.first_round)))
                        .and(Cond::eq(attr("tap_count"), AttributeValue::N(seen))),
                ),
            );
        match self.update_written(close, ReturnValue::None).await? {
            Written::Applied(_) => {}
            // This close's own copy, sent again after its answer was lost (the round holds its
            // name): it closed the round, so it also ends the match at once, not a reader after
            // the finish grace.
            Written::Refused(round)
                if holds(
                    &round,
                    &[("closed_by", closer), ("match_first", n(game.first_round))],
                ) => {}
            // Closed by another resolver, or a tap landed since the read: read again.
            Written::Refused(_) => return Ok(Resolution::Stale),
        }
        let finished = index + 1 >= game.rounds.len();
        if finished {
            // The last round: the match ends now, from the rounds as they are.
            if let Some(over) = self.room(&room.code).await? {
                if let Some(done) = over.game.as_ref().filter(|_| over.needs_finish()) {
                    self.finish_match(&room.code, done, &over).await?;
                }
            }
        }
        Ok(Resolution::Resolved { index, finished })
    }

    /// Ends a match whose rounds are all closed: each player's match record and the match kept
    /// for good (its summary and rounds, `sheet`), then the room back to the lobby. Every instance that sees the match over may do it at once, or again after
    /// a crash between the two writes: the records have the same keys and content whoever
    /// writes them (a record's id is made from the room, the match and the player, and its time
    /// is the last round's close), and only the first META update applies. The boards count a
    /// record when it first appears on the stream, so a repeat is not counted twice.
    #[tracing::instrument(skip(self, done), err(level = "debug"))]
    pub async fn finish_match(
        self,
        code: &RoomCode,
        done: &Match,
        room: &Room,
    ) -> Result<(), DataError> {
        let finished_at_ms = done
            .rounds
            .last()
            .and_then(|r| r.closed_at_ms)
            .ok_or_else(|| DataError::Internal("finishing a match that is not over".into()))?;
        let records = self.match_records(room, done, finished_at_ms).await?;
        let mut summary = done.summary(code, &room.id, finished_at_ms);
        summary.deck = room.deck.clone();
        let rounds = done.sheet(&summary);
        let puts = records
            .into_iter()
            .map(|record| put_request(match_record_item(&record)?))
            .collect::<Result<Vec<_>, DataError>>()?;
        // The records (their ids are made from the room's id: no other match's), and the match
        // kept for good, each only over nothing or over this same match.
        let (records, kept) =
            futures::join!(self.batch_write(puts), self.keep_match(&summary, &rounds));
        records?;
        kept?;

        let (gsi2pk, gsi2sk) =
            open_index(room.settings, RoomState::Lobby, room.created_at_ms, code);
        let mut back = Update::new()
            .set(attr("version"), Operand::Plus(attr("version"), n(1)))
            .set(attr("state"), state_value(RoomState::Lobby));
        if let (Some(pk), Some(sk)) = (gsi2pk, gsi2sk) {
            back = back.set(attr("GSI2PK"), s(pk)).set(attr("GSI2SK"), s(sk));
        }
        let playing = Cond::eq(attr("match_first"), n(done.first_round))
            .and(Cond::eq(attr("state"), state_value(RoomState::Playing)));
        let meta = self
            .client
            .update_item()
            .set_key(Some(key_map(keys::room_meta(code))))
            .expressions(Expr::update(back).when(playing));
        match self.update_item(meta).await {
            Ok(()) | Err(DataError::Conflict(Conflict::ConditionFailed)) => Ok(()),
            Err(err) => Err(err),
        }
    }

    /// Each player's match record, as [`Game::finish_match`] writes it.
    async fn match_records(
        self,
        room: &Room,
        done: &Match,
        finished_at_ms: i64,
    ) -> Result<Vec<MatchRecord>, DataError> {
        let mut records = Vec::with_capacity(done.players.len());
        // A room's deck cannot change while a match is on: the room's is the match's.
        let deck = room.deck.as_ref().and_then(RoomDeck::deck_code);
        for (index, (player, outcome)) in done.outcomes().into_iter().enumerate() {
            // The same id from any instance: the end's time, then bits of a MAC of the room
            // (its id: a later room with the same code makes other ids), the match and the
            // player (under the table's secret, so ids stay unguessable).
            let payload = format!(
                "{}#{}#{}",
                room.id,
                done.first_round,
                player.user_id.as_str()
            );
            let tag = self.secret_tag("match-record", payload.as_bytes()).await?;
            let mut random = [0u8; 16];
            random.copy_from_slice(&tag[..16]);
            let id =
                ulid::Ulid::from_parts(finished_at_ms.max(0) as u64, u128::from_le_bytes(random));
            records.push(MatchRecord {
                record_id: id.to_string(),
                user_id: player.user_id.clone(),
                nickname: player.nickname.clone(),
                avatar: player.avatar,
                room: room.code.clone(),
                room_id: Some(room.id.clone()),
                score: player.score,
                placement: outcome.placement,
                players: outcome.players,
                correct: player.correct,
                rounds: outcome.rounds,
                average_reaction_ms: player.average_reaction_ms(),
                finished_at_ms,
                right: outcome.right,
                best_streak: outcome.best_streak,
                first_round: done.first_round,
                daily: None,
                deck: deck.clone().map(|code| DeckPlay {
                    code,
                    counts_play: index == 0,
                }),
                flagged: too_fast_to_believe(&reactions_of(done, &player.user_id)),
            });
        }
        Ok(records)
    }

    /// Closes every round that is due, and finishes the match once they all are, reading the
    /// room again after each change. What a room's watcher (and a page load) calls; returns the
    /// room as it is afterwards, `None` if it is gone.
    pub async fn advance(self, code: &RoomCode, room: Room) -> Result<Option<Room>, DataError> {
        let mut room = room;
        for _ in 0..64 {
            if let Some(game) = room
                .game
                .as_ref()
                .filter(|_| room.finish_due(epoch_millis()))
            {
                let game = game.clone();
                self.finish_match(code, &game, &room).await?;
            } else {
                match self.resolve_due(&room, epoch_millis()).await? {
                    Resolution::NotDue => return Ok(Some(room)),
                    Resolution::Resolved { .. }
                    | Resolution::AlreadyResolved
                    | Resolution::Stale => {}
                }
            }
            match self.room(code).await? {
                Some(now) => room = now,
                None => return Ok(None),
            }
        }
        Ok(Some(room))
    }
}

impl Game<'_> {
    /// Writes one match record alone, as a match's end writes it in its transaction: how the
    /// benchmark and tests feed the projector a match without playing one.
    pub async fn put_match_record(self, record: &MatchRecord) -> Result<(), DataError> {
        self.put(
            self.client
                .put_item()
                .set_item(Some(match_record_item(record)?)),
        )
        .await
    }
}

/// Each counted reaction of `user` in the match, in round order.
fn reactions_of(done: &Match, user: &UserId) -> Vec<u32> {
    done.rounds
        .iter()
        .filter_map(|round| round.results.as_ref())
        .flatten()
        .filter(|result| &result.user_id == user)
        .filter_map(|result| result.reaction_ms)
        .collect()
}

/// A match record as stored: `USER#<id>` / `MATCH#<ulid>`, also on the player's GSI2 shard
/// `MATCHES#<nn>`; a flagged one also on GSI1's `FLAGGED` list (see [`keys::flagged`]).
pub fn match_record_item(record: &MatchRecord) -> Result<Item, DataError> {
    let Key { pk, sk } = keys::user_match(&record.user_id, &record.record_id);
    let mut item: Item = serde_dynamo::to_item(record)?;
    if record.flagged {
        let flagged = keys::flagged(record.finished_at_ms, &pk, &sk);
        item.insert(keys::GSI1PK.into(), s(flagged.pk));
        item.insert(keys::GSI1SK.into(), s(flagged.sk));
    }
    item.insert(keys::PK.into(), s(pk));
    item.insert(keys::GSI2SK.into(), s(sk.clone()));
    item.insert(keys::SK.into(), s(sk));
    item.insert(keys::GSI2PK.into(), s(keys::record_shard(&record.user_id)));
    Ok(item)
}
