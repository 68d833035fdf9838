//! A board's share card (see `crate::share`): its name, its top five and how many are on it.

use crate::i18n::td_string;
use crate::lang::Locale;
use crate::leaderboards::lines::Start;
use crate::leaderboards::model::BoardId;
use crate::leaderboards::period::board_name_in;
use crate::share::Card;
use crate::store::{DataError, Db};

impl Db {
    /// A board's share card in `l`'s language: seasons, the top lines and the root (three
    /// calls, sent at once); `None` for a board nobody is on yet.
    pub async fn board_card(&self, board: &BoardId, l: Locale) -> Result<Option<Card>, DataError> {
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
            kicker: td_string!(l, leaderboards.card.kicker).to_string(),
            title: board_name_in(l, board, &seasons),
            rows: lines
                .iter()
                .map(|l| (format!("{}. {}", l.rank, l.nickname), l.score.to_string()))
                .collect(),
            footer: td_string!(l, leaderboards.card.footer, entries = entries).to_string(),
        }))
    }
}
