//! The daily flight's keys: the day's draw, each player's flight, their days in a row.

use super::identity::user_partition;
use super::table::Key;
use crate::ids::{Day, UserId};

/// The partition of one day's flight: `DAILY#<yyyy-mm-dd>`.
pub fn daily_partition(day: &Day) -> String {
    format!("DAILY#{day}")
}

/// The day's draw: `DAILY#<day>` / `DRAW`, its secret seed and the ten things it drew, put once
/// by the first player of the day (conditioned on being first) and kept for good: the seed is
/// shown once the day is over.
pub fn daily_draw(day: &Day) -> Key {
    Key {
        pk: daily_partition(day),
        sk: DAILY_DRAW.to_owned(),
    }
}

pub const DAILY_DRAW: &str = "DRAW";

/// The sort-key prefix of a player's flights in their partition.
pub const FLIGHT_PREFIX: &str = "FLIGHT#";

/// A player's flight of a day: `USER#<id>` / `FLIGHT#<day>`: when it started, their taps, and
/// once it is over its result (which the board projector counts from the stream). Put once: a
/// second try finds it.
pub fn flight(user: &UserId, day: &Day) -> Key {
    Key {
        pk: user_partition(user),
        sk: format!("{FLIGHT_PREFIX}{day}"),
    }
}

/// A player's days in a row: `USER#<id>` / `DAYS`, kept by the projector (the last day counted,
/// the run then, the best run).
pub fn days_in_a_row(user: &UserId) -> Key {
    Key {
        pk: user_partition(user),
        sk: DAYS.to_owned(),
    }
}

pub const DAYS: &str = "DAYS";
