//! The boards over HTTP: anyone reads any board (no session needed); a signed-in reader also
//! gets their own line and the players around them.

use leptos::prelude::*;

use crate::error::AppError;
use crate::ids::RoomCode;
use crate::leaderboards::model::{BoardView, MyBoard};
#[cfg(feature = "ssr")]
use ssr::*;

/// A page of a board. `after` is the cursor of the page before; `at` opens the board at a
/// position (1 is the top). An unknown season or a period not yet begun is 404, a malformed
/// board or cursor 400, a position past the last player 404.
#[server(endpoint = "boards/view")]
pub async fn read_board(
    metric: String,
    period: String,
    scope: String,
    after: Option<String>,
    at: Option<u64>,
) -> Result<BoardView, AppError> {
    crate::error::answer("read_board", async move {
        let board = BoardId::parse(&metric, &period, &scope)?;
        view(board, after, at).await
    })
    .await
}

/// A page of the current board of a kind: `period` is `day`, `week`, `season` or `all`.
#[server(endpoint = "boards/current")]
pub async fn current_board(
    metric: String,
    period: String,
    scope: String,
    after: Option<String>,
    at: Option<u64>,
) -> Result<BoardView, AppError> {
    crate::error::answer("current_board", async move {
        use crate::leaderboards::model::{Metric, PeriodKind, Scope};
        let kind = match period.as_str() {
            "day" => PeriodKind::Day,
            "week" => PeriodKind::Week,
            "season" => PeriodKind::Season,
            "all" => PeriodKind::AllTime,
            _ => {
                return Err(AppError::BadRequest(
                    td_string!(locale(), leaderboards.errors.period_kind).to_string(),
                ))
            }
        };
        let metric = Metric::parse(&metric)?;
        let scope = Scope::parse(&scope)?;
        let seasons = expect_context::<Db>().boards().seasons().await?;
        let period = period::period_at(kind, &seasons, epoch_millis());
        let board = BoardId::new(metric, period, scope)?;
        view(board, after, at).await
    })
    .await
}

/// A room's all-time board of best scores (the page at `/r/<CODE>/lb`): the board of the room
/// that has the code now, else the one kept under the code before rooms had ids. A room's own
/// pages link to its board's own address (`/lb/best/all/room-<room id>`), which outlives it.
#[server(endpoint = "rooms/board")]
pub async fn room_leaderboard(
    code: RoomCode,
    after: Option<String>,
    at: Option<u64>,
) -> Result<BoardView, AppError> {
    crate::error::answer("room_leaderboard", async move {
        let room = expect_context::<Db>().rooms().room_id_of(&code).await?;
        view(BoardId::room_best(&room), after, at).await
    })
    .await
}

/// Every board the signed-in player is on, with their rank on each.
#[server(endpoint = "boards/mine")]
pub async fn my_boards() -> Result<Vec<MyBoard>, AppError> {
    crate::error::answer("my_boards", async move {
        let db = expect_context::<Db>();
        let me = crate::identity::session::current_player(&db)
            .await?
            .ok_or(AppError::SignInRequired)?;
        db.boards()
            .my_boards(&me.id, 20)
            .await
            .map_err(AppError::from)
    })
    .await
}

/// What only the server needs: the server functions' helpers and limits.
#[cfg(feature = "ssr")]
mod ssr {
    use super::*;
    pub(super) use crate::{
        error::fail,
        i18n::td_string,
        lang::{locale, Locale},
        leaderboards::{
            model::{BoardId, BoardSummary, AROUND, BOARD_SIZE},
            period,
            store::lines::{Lines, Start},
        },
        store::DataError,
        store::{epoch_millis, Db},
    };

    pub(super) async fn view(
        board: BoardId,
        after: Option<String>,
        at: Option<u64>,
    ) -> Result<BoardView, AppError> {
        let l = locale();
        let db = expect_context::<Db>();
        let now_ms = epoch_millis();
        let seasons = db.boards().seasons().await?;
        let bounds = period::bounds(&board.period, &seasons)
            .map_err(|message| fail(AppError::NotFound(period::bounds_error_in(l, message))))?;
        if bounds.is_some_and(|(start, _)| start > now_ms) {
            return Err(fail(AppError::NotFound(
                td_string!(l, leaderboards.errors.not_begun).to_string(),
            )));
        }
        let start = match (after, at) {
            (Some(cursor), _) => Start::Cursor(cursor),
            (None, Some(0)) => {
                return Err(fail(AppError::BadRequest(
                    td_string!(l, leaderboards.errors.positions_start).to_string(),
                )));
            }
            // A few positions before the one asked, so its row is seen among its neighbours.
            (None, Some(position)) => Start::Position(first_shown(position)),
            (None, None) => Start::Top,
        };
        let viewer = crate::identity::session::current_player(&db).await?;
        let closed = bounds.is_some_and(|(_, end)| end <= now_ms);
        if closed {
            if let Some(archive) = db.boards().board_archive(&board).await? {
                return archived_view(board, archive, bounds, viewer, at, &seasons, now_ms);
            }
        }
        let mine = async {
            match &viewer {
                Some(me) => db.boards().around_me(&board, &me.id, AROUND).await,
                None => Ok(None),
            }
        };
        let (lines, entries, updated_ms, mine) = futures::try_join!(
            db.boards().board_lines(&board, start, BOARD_SIZE),
            db.boards().board_entries(&board),
            db.boards().boards_updated_ms(),
            mine,
        )
        .map_err(|err| data_error(l, err))?;
        // Past the end: the board's last page, the last position marked (one more read).
        let (lines, at, past_end) = match (lines, at) {
            (Some(lines), at) => (Some(lines), at, None),
            (None, Some(asked)) if entries > 0 => {
                let last = db
                    .boards()
                    .board_lines(&board, Start::Position(first_shown(entries)), BOARD_SIZE)
                    .await
                    .map_err(|err| data_error(l, err))?;
                (last, Some(entries), Some(asked))
            }
            (None, Some(asked)) => (
                Some(Lines {
                    lines: Vec::new(),
                    next: None,
                }),
                None,
                Some(asked),
            ),
            (None, None) => (None, None, None),
        };
        let Some(Lines { lines, next }) = lines else {
            return Err(fail(AppError::NotFound(
                td_string!(l, leaderboards.errors.no_position, entries = entries).to_string(),
            )));
        };
        let at = at.map(|at| (at, (at - first_shown(at)) as usize));
        Ok(BoardView {
            summary: BoardSummary {
                name: period::board_name_in(l, &board, &seasons),
                board,
                bounds,
                entries,
            },
            lines,
            next,
            mine: mine.map(|(standing, _)| standing),
            updated_ms,
            now_ms,
            archived: false,
            at,
            past_end,
        })
    }

    /// The first position a page asked to show position `at` starts from: a few before it.
    pub(super) fn first_shown(at: u64) -> u64 {
        at.saturating_sub(AROUND as u64).max(1)
    }

    /// A data error as the reader sees it: a stale page link in their language, the rest as usual.
    pub(super) fn data_error(l: Locale, err: DataError) -> AppError {
        match err {
            DataError::BadCursor => fail(AppError::BadRequest(
                td_string!(l, leaderboards.errors.bad_cursor).to_string(),
            )),
            err => fail(err),
        }
    }

    /// A closed board from its archive: its top 100 on one page (from `at`, if given), and the
    /// reader's line with its neighbours when they are among them.
    pub(super) fn archived_view(
        board: BoardId,
        archive: crate::leaderboards::store::archive::Archive,
        bounds: Option<(i64, i64)>,
        viewer: Option<crate::identity::Profile>,
        at: Option<u64>,
        seasons: &[period::Season],
        now_ms: i64,
    ) -> Result<BoardView, AppError> {
        use crate::leaderboards::model::Standing;
        let l = locale();
        // Past what the archive kept: its last position, marked, and a note.
        let kept = archive.lines.len() as u64;
        let past_end = at.filter(|at| *at > kept);
        let at = at.map(|at| at.min(kept)).filter(|at| *at > 0);
        let from = at.map_or(1, first_shown) as usize;
        let mine = viewer.and_then(|me| {
            let i = archive.lines.iter().position(|l| l.user_id == me.id)?;
            let k = AROUND as usize;
            Some(Standing {
                me: archive.lines[i].clone(),
                above: archive.lines[i.saturating_sub(k)..i].to_vec(),
                below: archive.lines[i + 1..(i + 1 + k).min(archive.lines.len())].to_vec(),
            })
        });
        Ok(BoardView {
            summary: BoardSummary {
                name: period::board_name_in(l, &board, seasons),
                board,
                bounds,
                entries: archive.entries,
            },
            lines: archive.lines.into_iter().skip(from - 1).collect(),
            next: None,
            mine,
            updated_ms: None,
            now_ms,
            archived: true,
            at: at.map(|at| (at, (at - first_shown(at)) as usize)),
            past_end,
        })
    }
}
