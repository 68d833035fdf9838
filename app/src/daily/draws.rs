//! The days' draws as this instance has read them. A day's draw never changes once made, so an
//! instance reads it from the table once per day instead of at each round's `daily/thing` and
//! each `daily/now` (a consistent GetItem each: about 20 reads a flight). Nothing here is state
//! another instance needs: each reads the same item, made once in the table.

use std::sync::{Arc, Mutex};

use super::store::{DailyConflict, DayDraw};
use crate::ids::Day;
use crate::store::Db;

/// Days kept: today's, yesterday's (a flight started before midnight) and one more.
const KEPT: usize = 3;

/// The draws read by this instance (one per server, shared by its requests).
#[derive(Debug, Clone, Default)]
pub struct DayDraws(Arc<Mutex<Vec<Arc<DayDraw>>>>);

impl DayDraws {
    /// `day`'s draw: as read before, or read (drawn, if it is the day's first) now.
    pub async fn get(&self, db: &Db, day: Day, now_ms: i64) -> Result<Arc<DayDraw>, DailyConflict> {
        if let Some(draw) = self.kept(day) {
            return Ok(draw);
        }
        let draw = Arc::new(db.daily().day_draw(day, now_ms).await?);
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.retain(|d| d.day != day);
        kept.push(draw.clone());
        if kept.len() > KEPT {
            kept.remove(0);
        }
        Ok(draw)
    }

    fn kept(&self, day: Day) -> Option<Arc<DayDraw>> {
        let kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.iter().find(|d| d.day == day).cloned()
    }
}
