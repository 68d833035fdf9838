//! A daily flight's result as the projector reads it from the stream (see `daily::store`): the
//! flight's item modified with its `result`, counted as a record of its own day.

use crate::game::model::MatchRecord;
use crate::store::keys;

/// A finished daily flight from a stream record's new image, as the record the boards count:
/// its day's boards, the player's days in a row (its record id names the day, so the day is
/// counted once however often the flight's writes are delivered).
pub(super) fn flight_from_stream(
    image: &std::collections::HashMap<String, aws_sdk_dynamodbstreams::types::AttributeValue>,
) -> Option<MatchRecord> {
    #[derive(serde::Deserialize)]
    struct Finished {
        user_id: crate::identity::model::UserId,
        nickname: crate::identity::model::DisplayName,
        avatar: crate::identity::model::Avatar,
        day: crate::ids::Day,
        result: Score,
        #[serde(default)]
        flagged: bool,
    }
    #[derive(serde::Deserialize)]
    struct Score {
        score: i32,
        correct: u32,
        best_streak: u32,
        average_ms: Option<u32>,
        grid: String,
        finished_ms: i64,
    }
    let sk = image.get(keys::SK)?.as_s().ok()?;
    if !sk.starts_with(keys::FLIGHT_PREFIX) || !image.contains_key("result") {
        return None;
    }
    let flight: Finished = match serde_dynamo::from_item(image.clone()) {
        Ok(flight) => flight,
        Err(err) => {
            tracing::error!(%err, sk, "a daily flight the boards cannot read");
            return None;
        }
    };
    Some(MatchRecord {
        record_id: format!("DAILY-{}", flight.day),
        user_id: flight.user_id,
        nickname: flight.nickname,
        avatar: flight.avatar,
        room: crate::ids::RoomCode::daily(),
        room_id: None,
        score: flight.result.score,
        placement: 1,
        players: 1,
        correct: flight.result.correct,
        rounds: flight.result.grid.len() as u32,
        average_reaction_ms: flight.result.average_ms,
        finished_at_ms: flight.result.finished_ms,
        right: Vec::new(),
        best_streak: flight.result.best_streak,
        first_round: 0,
        daily: Some(flight.day),
        deck: None,
        flagged: flight.flagged,
    })
}
