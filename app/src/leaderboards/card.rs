//! A board's share card (see `crate::share`): its name, its top five and how many are on it.

use crate::leaderboards::lines::Start;
use crate::leaderboards::model::BoardId;
use crate::leaderboards::period::board_name;
use crate::share::Card;
use crate::store::{DataError, Db};

impl Db {
    /// A board's share card: seasons, the top lines and the root (three calls, sent at once);
    /// `None` for a board nobody is on yet.
    pub async fn board_card(&self, board: &BoardId) -> Result<Option<Card>, DataError> {
        let (seasons, lines, entries) = tokio::try_join!(
            self.seasons(),
            self.board_lines(board, Start::Top, 5),
            self.board_entries(board),
        )?;
        let lines = lines.map(|l| l.lines).unwrap_or_default();
        if lines.is_empty() {
            return Ok(None);
        }
        Ok(Some(Card {
            kicker: "Leaderboard".to_owned(),
            title: board_name(board, &seasons),
            rows: lines
                .iter()
                .map(|l| (format!("{}. {}", l.rank, l.nickname), l.score.to_string()))
                .collect(),
            footer: format!("{entries} players · Udd: Kauwa udd! Tap only if it flies."),
        }))
    }
}
