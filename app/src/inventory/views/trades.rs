//! The trades page as one player sees it: offers to and from them a page of each, the room
//! they may offer in, the offer just made or closed, the form's two bags for the player they
//! picked, or whom they played with lately.

use serde::{Deserialize, Serialize};

use crate::inventory::model::{Card, Offer, Stack};
#[cfg(feature = "ssr")]
pub use reads::trades_page;

/// The trades page: offers to and from the player, and with `?with=` the form to offer to one
/// player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TradesView {
    pub me: crate::ids::UserId,
    pub incoming: Vec<Offer>,
    pub outgoing: Vec<Offer>,
    /// The cursor of the next (older) page of offers to the player, if there is one.
    pub incoming_next: Option<String>,
    /// The cursor of the next (older) page of the player's own offers, if there is one.
    pub outgoing_next: Option<String>,
    pub now_ms: i64,
    /// With `?room=`: the room's other players, whom the player may offer to. Empty when the
    /// player is not in that room.
    pub room: Option<RoomChoice>,
    /// The cards these offers name (their emoji and names in both languages).
    #[serde(default)]
    pub cards: Vec<Card>,
    /// With `?done=<offer>` (where an action sends the browser): that offer, when the player
    /// is one of its two sides, for the notice of what just happened.
    #[serde(default)]
    pub done: Option<Offer>,
    /// With `?with=<player>`: the form's two bags.
    #[serde(default)]
    pub pick: Option<Pick>,
    /// With a `?with=` that names nobody one can offer to: why, for the field.
    #[serde(default)]
    pub pick_error: Option<String>,
    /// Without `?with=`: whom the player played with lately (guests too), to pick from.
    #[serde(default)]
    pub partners: Vec<crate::game::sheet::Partner>,
}

/// How many of the player's latest matches the trades page lists their fellow players from.
pub const PARTNER_MATCHES: i32 = 10;

/// The offer form's other player and both bags.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pick {
    pub to: crate::ids::UserId,
    pub name: String,
    pub username: Option<crate::ids::Username>,
    /// The player's bag (only bag cards can be traded).
    pub mine: Vec<Stack>,
    /// The other player's bag.
    pub theirs: Vec<Stack>,
    /// The player's feathers.
    pub feathers: u64,
}

/// The players of a room one may make an offer to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoomChoice {
    pub code: String,
    /// (player id, nickname), the player themself left out.
    pub players: Vec<(crate::ids::UserId, String)>,
}

/// Offers per page of each list.
pub const OFFERS_PER_PAGE: i32 = 20;

/// The reads behind the page.
#[cfg(feature = "ssr")]
mod reads {
    use super::*;
    use crate::error::AppError;
    use crate::i18n::td_string;
    use crate::ids::{RoomCode, UserId};
    use crate::inventory::model::OfferId;
    use crate::inventory::store::trades::Direction;
    use crate::lang::locale;
    use crate::store::Db;

    /// The trades page for `me`: two Queries of their offers (from the cursors `pages`); with a
    /// room, one more Query of its players; with `done`, one GetItem of that offer; with `with`
    /// (a player id, a username or `@username`), their profile and both players' bags (a Query
    /// each, and the wallet); without it, whom the player played with in their
    /// [`PARTNER_MATCHES`] latest matches (a Query and a BatchGetItem).
    pub async fn trades_page(
        db: &Db,
        me: &UserId,
        code: Option<RoomCode>,
        pages: (Option<String>, Option<String>),
        with: Option<String>,
        done: Option<String>,
    ) -> Result<TradesView, AppError> {
        let (incoming_after, outgoing_after) = pages;
        let room_read = async {
            match &code {
                Some(code) => db.rooms().lobby(code).await.map(Some),
                None => Ok(None),
            }
        };
        fn cursor(raw: &Option<String>) -> Option<&str> {
            raw.as_deref().map(str::trim).filter(|c| !c.is_empty())
        }
        let done_read = async {
            let id = done
                .as_deref()
                .and_then(|raw| OfferId::parse(raw.trim()).ok());
            match id {
                Some(id) => db.inventory().offer(&id).await,
                None => Ok(None),
            }
        };
        let picking = with.as_deref().is_some_and(|w| !w.trim().is_empty());
        let partners_read = async {
            match picking {
                true => Ok(Vec::new()),
                false => db.game().played_with(me, PARTNER_MATCHES).await,
            }
        };
        let (incoming, outgoing, lobby, done, partners) = futures::try_join!(
            db.inventory().offers_page(
                me,
                Direction::Incoming,
                OFFERS_PER_PAGE,
                cursor(&incoming_after)
            ),
            db.inventory().offers_page(
                me,
                Direction::Outgoing,
                OFFERS_PER_PAGE,
                cursor(&outgoing_after)
            ),
            room_read,
            done_read,
            partners_read
        )?;
        let done = done.filter(|o| &o.from == me || &o.to == me);
        let (incoming_next, outgoing_next) = (incoming.next, outgoing.next);
        let (incoming, outgoing) = (incoming.items, outgoing.items);
        let room = match (code, lobby) {
            (Some(_), Some(None)) => {
                return Err(AppError::NotFound(
                    td_string!(locale(), inventory.error.no_such_room).to_string(),
                ))
            }
            (Some(code), Some(Some(lobby))) => {
                let inside = lobby.players.iter().any(|p| &p.user_id == me);
                Some(RoomChoice {
                    code: code.to_string(),
                    players: lobby
                        .players
                        .iter()
                        .filter(|p| inside && &p.user_id != me)
                        .map(|p| {
                            let shown = crate::identity::hidden::shown(&p.user_id, &p.nickname);
                            (p.user_id.clone(), shown.to_string())
                        })
                        .collect(),
                })
            }
            _ => None,
        };
        let (pick, pick_error) = match with.as_deref().map(str::trim).filter(|w| !w.is_empty()) {
            None => (None, None),
            Some(raw) => match pick(db, me, raw).await? {
                Ok(pick) => (Some(pick), None),
                Err(why) => (None, Some(why)),
            },
        };
        let mut cards: Vec<Card> = incoming
            .iter()
            .chain(&outgoing)
            .chain(&done)
            .flat_map(|o| o.gives.cards.iter().chain(&o.wants.cards))
            .filter_map(|(thing, _)| crate::inventory::store::card(thing).cloned())
            .collect();
        cards.sort_by(|a, b| a.thing.cmp(&b.thing));
        cards.dedup_by(|a, b| a.thing == b.thing);
        Ok(TradesView {
            cards,
            me: me.clone(),
            incoming,
            outgoing,
            incoming_next,
            outgoing_next,
            now_ms: crate::store::epoch_millis(),
            room,
            done,
            pick,
            pick_error,
            partners,
        })
    }

    /// The player `raw` names (an id, a username or `@username`) and both bags, or why there is
    /// nobody to offer to.
    pub(super) async fn pick(
        db: &Db,
        me: &crate::ids::UserId,
        raw: &str,
    ) -> Result<Result<Pick, String>, AppError> {
        let l = locale();
        let id = match crate::ids::UserId::parse(raw) {
            Ok(id) => Some(id),
            Err(_) => {
                let name = raw.strip_prefix('@').unwrap_or(raw);
                match crate::ids::Username::parse(name) {
                    Ok(username) => db.accounts().user_by_username(&username).await?,
                    Err(_) => {
                        return Ok(Err(td_string!(l, trades.error.no_such_player).to_string()))
                    }
                }
            }
        };
        let profile = match id {
            Some(id) => db.accounts().profile(&id).await?,
            None => None,
        };
        let Some(profile) = profile else {
            return Ok(Err(td_string!(l, trades.error.no_such_player).to_string()));
        };
        if &profile.id == me {
            return Ok(Err(td_string!(l, inventory.error.offer_to_self).to_string()));
        }
        let (mine, theirs, feathers) = futures::try_join!(
            db.inventory().bag_cards(me),
            db.inventory().bag_cards(&profile.id),
            db.inventory().feathers(me)
        )?;
        Ok(Ok(Pick {
            name: crate::identity::hidden::shown(&profile.id, &profile.display_name).to_string(),
            to: profile.id,
            username: profile.username,
            mine,
            theirs,
            feathers,
        }))
    }
}
