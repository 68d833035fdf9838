//! A board's share card (see `crate::share`): its name, its top five and how many are on it.

use crate::i18n::td_string;
use crate::ids::Period;
use crate::lang::Locale;
use crate::leaderboards::model::{BoardId, Line};
use crate::leaderboards::period::{board_name_in, is_quarter_id, Season};
use crate::leaderboards::store::lines::Start;
use crate::leaderboards::store::Boards;
use crate::share::ShareImage;
use crate::store::DataError;

/// Whether `board`'s name needs the season list: a season the operator started and named (a
/// default quarter season and every other period are named without it).
pub fn named_by_the_operator(board: &BoardId) -> bool {
    matches!(&board.period, Period::Season(id) if !is_quarter_id(id))
}

impl Boards<'_> {
    /// A board's share card in `l`'s language: the top lines and the root, and the seasons only
    /// when the board is an operator's season (two or three calls, sent at once). A board nobody
    /// is on yet has a card too (see [`board_card`]), so its shared link previews; an operator's
    /// season that does not exist has none (`None`), as its page is a 404.
    pub async fn board_card(
        self,
        board: &BoardId,
        l: Locale,
    ) -> Result<Option<ShareImage>, DataError> {
        let seasons = async {
            if named_by_the_operator(board) {
                self.seasons().await
            } else {
                Ok(Vec::new())
            }
        };
        let (seasons, lines, entries) = tokio::try_join!(
            seasons,
            self.board_lines(board, Start::Top, 5),
            self.board_entries(board),
        )?;
        let lines = lines.map(|l| l.lines).unwrap_or_default();
        let unknown_season = match &board.period {
            Period::Season(id) if named_by_the_operator(board) => {
                !seasons.iter().any(|s| &s.id == id)
            }
            _ => false,
        };
        if unknown_season && lines.is_empty() {
            return Ok(None);
        }
        Ok(Some(board_card(l, board, &seasons, &lines, entries)))
    }
}

/// A board's card from what was read: its name (`seasons` name an operator's season), its top
/// `lines` and how many are on it; a board with no lines says nobody is on it yet.
pub fn board_card(
    l: Locale,
    board: &BoardId,
    seasons: &[Season],
    lines: &[Line],
    entries: u64,
) -> ShareImage {
    let title = board_name_in(l, board, seasons);
    let kicker = td_string!(l, leaderboards.card.kicker).to_string();
    if lines.is_empty() {
        return ShareImage {
            kicker,
            title,
            grid: Vec::new(),
            rows: vec![(
                td_string!(l, leaderboards.card.empty).to_string(),
                String::new(),
            )],
            footer: td_string!(l, leaderboards.card.empty_footer).to_string(),
        };
    }
    ShareImage {
        kicker,
        title,
        grid: Vec::new(),
        rows: lines
            .iter()
            .map(|l| (format!("{}. {}", l.rank, l.nickname), l.score.to_string()))
            .collect(),
        footer: td_string!(l, leaderboards.card.footer, entries = entries).to_string(),
    }
}
