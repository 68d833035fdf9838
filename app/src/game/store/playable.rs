//! What a match draws from: the whole catalog, one category of it, or a deck (the room's
//! [`RoomDeck`]), each thing as a round copies it.
//!
//! | pattern | how | round trips · units |
//! |---|---|---|
//! | the catalog, or a category of it | Query `CATALOG` (as before decks) | 1 · the catalog's KB / 8 RCU |
//! | a deck's things | GetItem `DECK#<code>` / `THINGS` (eventually consistent) | 1 · ⌈things' KB / 4⌉ / 2 RCU: 0.5 for a deck of up to about 60 things, 4 for a 500-thing deck of about 30 KB |

use super::{round_items, Game, GameConflict};
use crate::catalog::model::{Category, FlyFilter};
use crate::game::draw::{draw_things, from_deck, Playable};
use crate::game::model::Match;
use crate::identity::model::UserId;
use crate::rooms::items::ROOM_IDLE_SECS;
use crate::rooms::model::{DeckPick, RoomCode, RoomDeck};
use crate::store::DataError;

impl Game<'_> {
    /// What a match in a room playing `deck` draws from (`None`: the whole catalog). A deck
    /// gone since the host chose it has nothing: [`GameConflict::NoThings`].
    pub async fn playable(self, deck: Option<&RoomDeck>) -> Result<Vec<Playable>, GameConflict> {
        let pick = deck.and_then(RoomDeck::pick);
        let category: Option<Category> = match pick {
            Some(DeckPick::Deck(code)) => {
                let things = self.decks().things(&code).await?.unwrap_or_default();
                return Ok(things
                    .into_iter()
                    .enumerate()
                    .map(|(index, thing)| from_deck(&code, index, thing))
                    .collect());
            }
            Some(DeckPick::Category(category)) => Some(category),
            None => None,
        };
        let catalog = self.catalog().list_things(FlyFilter::All).await?;
        Ok(catalog
            .into_iter()
            .filter(|t| category.is_none_or(|c| t.category == c))
            .map(Playable::from)
            .collect())
    }

    /// Writes the rounds of a started match that are missing (its start stopped between META
    /// and the rounds): drawn again from META's seed, so they are the rounds it would have
    /// written. `true` if any was missing.
    pub(super) async fn repair_rounds(
        self,
        code: &RoomCode,
        deck: Option<&RoomDeck>,
        game: &Match,
    ) -> Result<bool, DataError> {
        if game.len() >= game.planned {
            return Ok(false);
        }
        let Some(seed) = game.seed else {
            return Ok(false);
        };
        let catalog = match self.playable(deck).await {
            Ok(things) => things,
            Err(GameConflict::Data(err)) => return Err(err),
            Err(other) => return Err(DataError::Internal(other.to_string().into())),
        };
        let drawn = draw_things(&catalog, game.planned as usize, seed);
        let ids: Vec<UserId> = game.players.iter().map(|p| p.user_id.clone()).collect();
        let ttl = game.started_at_ms / 1000 + ROOM_IDLE_SECS;
        let items = round_items(
            code,
            &catalog,
            &drawn,
            game.first_round,
            game.started_at_ms,
            game.window_ms,
            &ids,
            ttl,
        )?;
        let have: Vec<u32> = game.rounds.iter().map(|r| r.n).collect();
        self.put_rounds(items.into_iter().filter(|r| !have.contains(&r.n)).collect())
            .await?;
        Ok(true)
    }
}
