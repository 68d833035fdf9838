//! Reading a profile: eight calls, sent at once (so about three round trips' time, the boards'
//! chain being the longest):
//!
//! | what | how |
//! |---|---|
//! | who | GetItem `USER#<id>` / `PROFILE` |
//! | lifetime stats, best score and days in a row of the daily flight | BatchGetItem (`Boards::stats_and_days`) |
//! | every board with rank, and the boards' names | `Boards::my_entries` (GetItem `STATS` and Query `SEASONS`, then a BatchGetItem of the entries), then a BatchGetItem of the tree paths |
//! | the collection | Query of the inventory's keys |
//! | a page of matches, newest first | Query `USER#<id>` begins_with `MATCH#` |

use crate::identity::UserId;
use crate::lang::Locale;
use crate::profiles::model::{DaysInARow, ProfileBoard, ProfileView};
use crate::store::DataError;

crate::store::handle!(
    /// The access patterns of profile pages.
    Profiles,
    profiles
);

/// Matches on one page of a profile.
pub const MATCHES_PER_PAGE: i32 = 10;

impl Profiles<'_> {
    /// `user`'s page as `viewer` sees it, with the page of matches after `cursor` and the boards
    /// named in `locale`'s language; `None` for no such player (or a guest whose profile
    /// expired).
    #[tracing::instrument(skip(self, cursor), err(level = "debug"))]
    pub async fn profile_page(
        self,
        user: &UserId,
        viewer: Option<&UserId>,
        cursor: Option<&str>,
        locale: Locale,
    ) -> Result<Option<ProfileView>, DataError> {
        let (profile, (stats, days), (boards, seasons), sets, matches) = tokio::try_join!(
            self.accounts().profile(user),
            self.boards().stats_and_days(user),
            self.boards().my_boards_named(user, 20),
            self.inventory().set_progress(user),
            self.game().my_matches(user, MATCHES_PER_PAGE, cursor),
        )?;
        let Some(profile) = profile else {
            return Ok(None);
        };
        let boards = boards
            .into_iter()
            .map(|b| {
                ProfileBoard::new(
                    locale,
                    &b.board,
                    &seasons,
                    (b.line.rank, b.entries, b.line.score),
                )
            })
            .collect();
        Ok(Some(ProfileView {
            mine: viewer == Some(&profile.id),
            name_hidden: crate::identity::hidden::hides(&profile.id, &profile.display_name),
            nickname: crate::identity::hidden::shown(&profile.id, &profile.display_name),
            user_id: profile.id,
            avatar: profile.avatar,
            username: profile.username,
            joined_ms: profile.created_at_ms,
            stats,
            boards,
            sets,
            matches: matches.items,
            next: matches.next,
            days: days.map_or_else(DaysInARow::default, |d| DaysInARow {
                run: d.run,
                best: d.best,
                last: d.last,
            }),
        }))
    }
}
