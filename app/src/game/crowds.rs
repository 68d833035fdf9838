//! Each room's audience figures as this instance last counted them: per resolved round, how
//! many could call it and how many said it flies. The figures change only when a round closes
//! (a round is counted only then) and once more a moment after the match's last close
//! ([`AUDIENCE_SETTLE_MS`]), so the seats are read (one consistent Query of `AUD#`, about 35
//! read units for a full audience of 1,000) once per room and such moment on each instance:
//! by the room's watcher if it has one here, else by the first page load that needs them. A
//! page load reads only the viewer's own seat besides. Nothing here is state another instance
//! needs: each counts the same seats in the table.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::game::model::{Room, AUDIENCE_SETTLE_MS};
use crate::game::store::audience::count_calls;
use crate::rooms::model::RoomCode;
use crate::store::{epoch_millis, DataError, Db};

/// Rooms kept at most; past this, those not counted for [`IDLE`] are dropped.
const KEPT: usize = 10_000;
/// How long a room's figures are kept once nobody asks for them.
const IDLE: Duration = Duration::from_secs(600);

/// The moment a room's figures were counted at: the match (its first round), how many of its
/// rounds were resolved, and whether its last close had settled.
type CountedAt = (u32, u32, bool);

/// What was counted: the audience's size, and per resolved round (by room-wide number) its
/// crowd and how many of it said it flies.
#[derive(Debug, Clone)]
struct Counted {
    at: CountedAt,
    seats: u32,
    rounds: Vec<(u32, u32, u32)>,
    used: Instant,
}

/// The figures this instance counted, by room (one per server, shared by its watchers and
/// requests). Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Crowds(Arc<Mutex<HashMap<RoomCode, Counted>>>);

impl Crowds {
    /// Counts the room's audience into its match's resolved rounds, from the figures kept for
    /// this moment of its match or, when there are none, from its seats read now (`db`'s
    /// Query). Nothing is read for a room without an audience or before its first close. When
    /// the read fails, the figures last kept are shown (a later call reads again) and the
    /// error is returned.
    pub async fn count(&self, db: &Db, code: &RoomCode, room: &mut Room) -> Result<(), DataError> {
        let Some(at) = counted_at(room) else {
            return Ok(());
        };
        if self.apply(code, room, Some(at)) {
            return Ok(());
        }
        match db.game().audience(code).await {
            Ok(seats) => {
                count_calls(room, &seats);
                self.keep(code, room, at);
                Ok(())
            }
            Err(err) => {
                self.apply(code, room, None);
                Err(err)
            }
        }
    }

    /// Puts the figures kept for `code` on `room`, if they were counted `at` (any moment, for
    /// `None`). Whether there were such figures.
    fn apply(&self, code: &RoomCode, room: &mut Room, at: Option<CountedAt>) -> bool {
        let mut kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(counted) = kept
            .get_mut(code)
            .filter(|c| at.is_none_or(|at| c.at == at))
        else {
            return false;
        };
        counted.used = Instant::now();
        room.lobby.audience = room.lobby.audience.max(counted.seats);
        if let Some(game) = room.game.as_mut().filter(|g| g.first_round == counted.at.0) {
            for round in game.rounds.iter_mut().filter(|r| r.results.is_some()) {
                if let Some((_, crowd, flies)) = counted.rounds.iter().find(|c| c.0 == round.n) {
                    round.crowd = *crowd;
                    round.crowd_flies = *flies;
                }
            }
        }
        true
    }

    /// Keeps the figures just counted into `room`.
    fn keep(&self, code: &RoomCode, room: &Room, at: CountedAt) {
        let rounds = room
            .game
            .iter()
            .flat_map(|g| g.rounds.iter())
            .filter(|r| r.results.is_some())
            .map(|r| (r.n, r.crowd, r.crowd_flies))
            .collect();
        let now = Instant::now();
        let mut kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.len() >= KEPT {
            kept.retain(|_, c| now.duration_since(c.used) < IDLE);
            if kept.len() >= KEPT {
                kept.clear();
            }
        }
        kept.insert(
            code.clone(),
            Counted {
                at,
                seats: room.lobby.audience,
                rounds,
                used: now,
            },
        );
    }
}

/// The moment of `room`'s match its audience figures are counted at, or `None` when there is
/// nothing to count (no audience, no match, no round closed yet).
fn counted_at(room: &Room) -> Option<CountedAt> {
    let game = room.game.as_ref().filter(|_| room.lobby.audience > 0)?;
    if game.resolved == 0 {
        return None;
    }
    let settled = game.is_finished()
        && game
            .rounds
            .last()
            .and_then(|r| r.closed_at_ms)
            .is_some_and(|closed| closed + AUDIENCE_SETTLE_MS <= epoch_millis());
    Some((game.first_round, game.resolved, settled))
}
