//! A player's share card (see `crate::share`) and the narrow read it needs: what the card
//! draws (who, three lifetime figures, their two best standings) in at most five calls and three
//! round trips.
//!
//! | what | how |
//! |---|---|
//! | the boards they are on (up to [`CARD_BOARDS`]) | `Boards::my_entries`: GetItem `STATS` and Query `SEASONS`, then a BatchGetItem of the entries |
//! | who, lifetime stats, best score, each board's path in the counting tree (ranks, entries) | one BatchGetItem (≤ 99 keys) |

use crate::i18n::td_string;
use crate::identity::store::profile_from_item;
use crate::identity::{DisplayName, UserId, Username};
use crate::lang::Locale;
use crate::leaderboards::model::{BoardId, PlayerStats};
use crate::leaderboards::store::{path_keys, EntryItem, Nodes};
use crate::profiles::model::{ProfileBoard, ProfileView};
use crate::profiles::store::Profiles;
use crate::share::ShareImage;
use crate::store::keys;
use crate::store::DataError;

/// Boards a card weighs at most: with who, stats and best score, 3 + 6 × 16 = 99 keys even if
/// every score escaped the tree's main range, one BatchGetItem (100 at most).
pub const CARD_BOARDS: i32 = 16;

/// What a player's card draws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardFacts {
    pub nickname: DisplayName,
    pub username: Option<Username>,
    pub joined_ms: i64,
    pub stats: PlayerStats,
    /// The boards they are on, each with rank and entries, named in the card's language.
    pub boards: Vec<ProfileBoard>,
}

impl From<&ProfileView> for CardFacts {
    fn from(page: &ProfileView) -> Self {
        Self {
            nickname: page.nickname.clone(),
            username: page.username.clone(),
            joined_ms: page.joined_ms,
            stats: page.stats.clone(),
            boards: page.boards.clone(),
        }
    }
}

impl CardFacts {
    /// The card: who, their lifetime figures and their best standings (the two boards where
    /// they are nearest the top).
    pub fn card(&self, l: Locale) -> ShareImage {
        let kind = match &self.username {
            Some(username) => format!("@{username}"),
            None => td_string!(l, profiles.card.guest).to_string(),
        };
        let stats = &self.stats;
        let mut rows = vec![
            (
                td_string!(l, profiles.card.matches).to_string(),
                stats.matches.to_string(),
            ),
            (
                td_string!(l, profiles.card.wins).to_string(),
                stats.wins.to_string(),
            ),
            (
                td_string!(l, profiles.card.best).to_string(),
                stats
                    .best_score
                    .map_or_else(|| "–".to_owned(), |b| b.to_string()),
            ),
        ];
        let mut boards: Vec<_> = self.boards.iter().collect();
        boards.sort_by_key(|b| (b.rank.saturating_mul(1000) / b.entries.max(1), b.rank));
        rows.extend(
            boards
                .into_iter()
                .take(2)
                .map(|b| (b.name.clone(), format!("#{} · {}", b.rank, b.top_in(l)))),
        );
        let when = crate::ui::when(self.joined_ms);
        ShareImage {
            kicker: td_string!(
                l,
                profiles.card.kicker,
                kind = kind.as_str(),
                when = when.as_str()
            )
            .to_string(),
            title: self.nickname.to_string(),
            grid: Vec::new(),
            rows,
            footer: td_string!(l, profiles.card.footer).to_string(),
        }
    }
}

impl Profiles<'_> {
    /// What `user`'s card draws, its boards named in `l`'s language: 4 calls in 3 round trips
    /// (see the module notes). `None` for no such player (or a guest whose profile expired).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn profile_card_facts(
        self,
        user: &UserId,
        l: Locale,
    ) -> Result<Option<CardFacts>, DataError> {
        let (found, seasons) = self.boards().my_entries(user, CARD_BOARDS as usize).await?;
        let (boards, entries): (Vec<BoardId>, Vec<_>) = found.into_iter().unzip();
        let (who, counters) = (keys::user_profile(user), keys::user_stats(user));
        let best = keys::board_entry(&BoardId::all_time_best(), user);
        let mut wanted = vec![who.clone(), counters.clone(), best.clone()];
        for (entry, board) in entries.iter().zip(&boards) {
            wanted.extend(path_keys(board, entry.value()));
        }
        let items = self.batch_get(wanted, false).await?;
        let (mut profile, mut stats, mut best_score, mut nodes) =
            (None, PlayerStats::default(), None, Vec::new());
        for item in items {
            let key = crate::store::key_of(&item);
            if key == who {
                profile = Some(profile_from_item(item)?);
            } else if key == counters {
                stats = serde_dynamo::from_item(item)?;
            } else if key == best {
                best_score = Some(serde_dynamo::from_item::<_, EntryItem>(item)?.score);
            } else {
                nodes.push(item);
            }
        }
        let Some(profile) = profile else {
            return Ok(None);
        };
        stats.best_score = best_score;
        let nodes = Nodes::from_items(nodes);
        let boards = entries
            .iter()
            .zip(boards)
            .map(|(entry, board)| {
                let place = (nodes.rank(&board, entry.value()), nodes.total(&board));
                ProfileBoard::new(l, &board, &seasons, (place.0, place.1, entry.score))
            })
            .collect();
        Ok(Some(CardFacts {
            nickname: crate::identity::hidden::shown(&profile.id, &profile.display_name),
            username: profile.username,
            joined_ms: profile.created_at_ms,
            stats,
            boards,
        }))
    }

    /// `user`'s share card in `l`'s language (see [`Profiles::profile_card_facts`]).
    pub async fn profile_card(
        self,
        user: &UserId,
        l: Locale,
    ) -> Result<Option<ShareImage>, DataError> {
        Ok(self
            .profile_card_facts(user, l)
            .await?
            .map(|facts| facts.card(l)))
    }
}
