//! The gallery: public decks by plays this week and of all time, newest, in one language or
//! all, and by the start of their title. Each order is an index of its own, written only while
//! a deck is public (a save that makes it private or unlisted takes it out of every one):
//!
//! | order | item | index key |
//! |---|---|---|
//! | newest | the head | GSI2 `DECKS#NEW#<lang>` / `<made ms>#<code>` |
//! | plays of all time | `PLAYS` | GSI1 `DECKS#PLAYS#<lang>` / `<plays, 10 digits>#<code>` |
//! | plays this week | `PLAYS` | GSI2 `DECKS#WEEK#<iso week>#<lang>` / `<plays that week>#<code>` (the projector's, as it counts a play) |
//! | title | `TITLE` | GSI1 `DECKS#TITLE#<first character>` / `<title as searched>#<code>` |
//!
//! | pattern | how | round trips · units |
//! |---|---|---|
//! | a page of one order in one language | Query of its index, newest or most first | 1 · under 1 RCU (20 items of a few hundred bytes, eventually consistent) |
//! | a page in every language | the same Query of the three languages' partitions at once, from the same cursor (their sort keys compare across them), merged | 3 at once · 3 × under 1 RCU |
//! | decks whose title starts so | Query GSI1 `DECKS#TITLE#<first character>` begins_with | 1 · under 1 RCU |
//!
//! A cursor is the last sort key shown: the next page starts below it in every partition.

use aws_sdk_dynamodb::types::{Put, TransactWriteItem};

use super::Decks;
use crate::decks::model::{
    searched_title, DeckDraft, DeckLang, DeckPlays, GalleryDeck, GalleryOrder, Visibility,
};
use crate::ids::DeckCode;
use crate::store::expr::{attr, Compare, Cond, Expr, Expressions, KeyCond, Update};
use crate::store::keys::{self, Keyed};
use crate::store::tx::{internal, n, s, update};
use crate::store::{DataError, Item};

/// Decks a gallery page shows.
pub const GALLERY_PAGE: i32 = 20;

impl Decks<'_> {
    /// The writes that list a deck as `listed` says (made or saved): its `PLAYS` item's title,
    /// count and language, and its place by plays, and its `TITLE` item, while it is public;
    /// neither listed otherwise. Its weekly place goes until its next play (the week's key
    /// holds the language, which a save may change). `v` moves: a count the projector planned
    /// before this save is planned again.
    pub(super) fn listing_actions(
        self,
        code: &DeckCode,
        draft: &DeckDraft,
    ) -> Result<Vec<TransactWriteItem>, DataError> {
        let public = draft.visibility == Visibility::Public;
        let lang = draft.lang.as_str();
        let plays = Update::new()
            .set(attr("title"), s(draft.title.clone()))
            .set(attr("count"), n(draft.things.len()))
            .set(attr("lang"), s(lang))
            .set(attr("code"), s(code.as_str()))
            .add(attr("v"), n(1))
            .remove(attr(keys::GSI2PK));
        let plays = if public {
            plays
                .set(attr(keys::GSI1PK), s(keys::gallery_plays(lang)))
                .set(
                    attr(keys::GSI1SK),
                    crate::store::expr::Operand::IfNotExists(
                        attr(keys::GSI1SK),
                        s(keys::plays_sort(0, code)),
                    ),
                )
        } else {
            plays.remove(attr(keys::GSI1PK))
        };
        let mut actions =
            vec![self
                .update_action(update(keys::deck_plays(code)).expressions(Expr::update(plays)))?];
        if public {
            let searched = searched_title(&draft.title);
            let first = searched.chars().next().unwrap_or(' ');
            let key = keys::deck_title(code);
            let mut item = Item::new();
            for (name, value) in [
                (keys::PK, s(key.pk)),
                (keys::SK, s(key.sk)),
                (keys::GSI1PK, s(keys::gallery_title(first))),
                (keys::GSI1SK, s(keys::title_sort(&searched, code))),
                ("code", s(code.as_str())),
                ("title", s(draft.title.clone())),
                ("lang", s(lang)),
                ("count", n(draft.things.len())),
            ] {
                item.insert(name.to_owned(), value);
            }
            let put = Put::builder()
                .table_name(self.table_name())
                .set_item(Some(item))
                .build()
                .map_err(internal)?;
            actions.push(TransactWriteItem::builder().put(put).build());
        } else {
            actions.push(self.delete_action(keys::deck_title(code))?);
        }
        Ok(actions)
    }

    /// The projector's write of deck `code`'s plays: `after` over the plays as read (`before`),
    /// on condition nothing moved them since; its places by plays in the gallery where the deck
    /// is public in `lang` (as the projector read its head). Never its title or count, which
    /// the saves keep. It goes in one transaction with the markers of the records it counts
    /// (`leaderboards::store::apply`): a play is counted exactly when its record is.
    pub fn plays_action(
        self,
        code: &DeckCode,
        before: &DeckPlays,
        after: &DeckPlays,
        listed: Option<DeckLang>,
    ) -> Result<TransactWriteItem, DataError> {
        let mut change = Update::new()
            .set(attr("plays"), n(after.plays))
            .set(attr("week_plays"), n(after.week_plays))
            .set(attr("v"), n(before.v + 1))
            .set(attr("code"), s(code.as_str()))
            .set(attr(keys::GSI1SK), s(keys::plays_sort(after.plays, code)))
            .set(
                attr(keys::GSI2SK),
                s(keys::plays_sort(after.week_plays, code)),
            );
        if let Some(week) = &after.week {
            change = change.set(attr("week"), s(week.clone()));
        }
        change = match (listed, &after.week) {
            (Some(lang), Some(week)) => change
                .set(attr(keys::GSI1PK), s(keys::gallery_plays(lang.as_str())))
                .set(
                    attr(keys::GSI2PK),
                    s(keys::gallery_week(week, lang.as_str())),
                ),
            _ => change.remove(attr(keys::GSI1PK)).remove(attr(keys::GSI2PK)),
        };
        let as_read = match before.v {
            0 => Cond::not_exists(attr("v")),
            v => Cond::eq(attr("v"), n(v)),
        };
        self.update_action(
            update(keys::deck_plays(code)).expressions(Expr::update(change).when(as_read)),
        )
    }

    /// A page of the gallery in `order`, in `lang` (every language: `None`), below `after` (a
    /// cursor from the page before); and the next page's cursor.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn gallery(
        self,
        order: GalleryOrder,
        lang: Option<DeckLang>,
        week: &str,
        after: Option<&str>,
    ) -> Result<(Vec<GalleryDeck>, Option<String>), DataError> {
        let langs: Vec<DeckLang> = match lang {
            Some(lang) => vec![lang],
            None => DeckLang::ALL.to_vec(),
        };
        let (on, sk) = match order {
            GalleryOrder::Newest => (Keyed::Gsi2, keys::GSI2SK),
            GalleryOrder::Plays => (Keyed::Gsi1, keys::GSI1SK),
            GalleryOrder::Week => (Keyed::Gsi2, keys::GSI2SK),
        };
        let (index, pk_name, _) = on.attributes();
        let queries = langs.iter().map(|lang| {
            let pk = match order {
                GalleryOrder::Newest => keys::gallery_new(lang.as_str()),
                GalleryOrder::Plays => keys::gallery_plays(lang.as_str()),
                GalleryOrder::Week => keys::gallery_week(week, lang.as_str()),
            };
            let mut cond = KeyCond::partition(pk_name, s(pk));
            if let Some(after) = after {
                cond = cond.compare(sk, Compare::Lt, s(after));
            }
            let request = self
                .client
                .query()
                .set_index_name(index.map(str::to_owned))
                .expressions(Expr::query(cond))
                .scan_index_forward(false)
                // One more than a page: a partition that has more says so.
                .limit(GALLERY_PAGE + 1);
            async move { self.query_page(request, None).await }
        });
        let pages = futures::future::try_join_all(queries).await?;
        let mut items: Vec<(String, Item)> = pages
            .into_iter()
            .flat_map(|(items, _)| items)
            .filter_map(|item| Some((item.get(sk)?.as_s().ok()?.clone(), item)))
            .collect();
        items.sort_by(|a, b| b.0.cmp(&a.0));
        let more = items.len() > GALLERY_PAGE as usize;
        items.truncate(GALLERY_PAGE as usize);
        let next = more
            .then(|| items.last().map(|(sk, _)| sk.clone()))
            .flatten();
        let decks = items
            .into_iter()
            .map(|(_, item)| Ok(serde_dynamo::from_item::<_, GalleryDeck>(item)?))
            .collect::<Result<Vec<_>, DataError>>()?;
        Ok((decks, next))
    }

    /// Public decks whose title (as searched: [`searched_title`]) starts with `prefix`, by
    /// title: one Query of the partition of its first character.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn search(self, prefix: &str) -> Result<Vec<GalleryDeck>, DataError> {
        let searched = searched_title(prefix);
        let Some(first) = searched.chars().next() else {
            return Ok(Vec::new());
        };
        let (items, _) = self
            .query_page(
                self.query_prefix(Keyed::Gsi1, keys::gallery_title(first), searched)
                    .limit(GALLERY_PAGE),
                None,
            )
            .await?;
        items
            .into_iter()
            .map(|item| Ok(serde_dynamo::from_item(item)?))
            .collect()
    }
}
