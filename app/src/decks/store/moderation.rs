//! Reports of decks in the table, and what an operator does with a deck they hid (see
//! `crate::decks::moderation`).
//!
//! | pattern | how | round trips · units |
//! |---|---|---|
//! | report a deck | TransactWriteItems: Put `DECKREPORT#<code>` / `BY#<reporter>` if absent, `ADD reports 1` on the head if the deck exists; then GetItem of the head, strongly consistent | 2 · 2 × (1 + the head's KB) WCU + 1 RCU: 6 WCU for a deck of 12 (measured) |
//! | … the report that reaches the threshold | and the hide: TransactWriteItems of the head (`hidden_ms`, out of newest, only if not hidden yet), `PLAYS` (out of plays and this week; `v + 1`, so a count the projector planned is planned again), Delete `TITLE`, `ADD hidden 1` on `DECKAUTHOR#<author>` / `HIDDEN`, Put `DECKS#HIDDEN` / `<code>` | +1 · 10 WCU |
//! | a second report by the same reporter | the transaction refused by its first condition; nothing written | 1 · 4 WCU billed |
//! | whether an author may publish | a ConditionCheck of `DECKAUTHOR#<author>` / `HIDDEN` in a public deck's create or save: no round trip of its own | +1 WCU in the transaction |
//! | the hidden decks, for an operator | Query `DECKS#HIDDEN` | 1 · under 1 RCU a page of 100 |
//! | restore a deck | Query the deck (consistent), then TransactWriteItems: the head (not hidden, its reports at 0, newest again if public), its listing (`gallery`), Delete `DECKS#HIDDEN` / `<code>`; then `ADD hidden -1` on its author if above 0 | 3 · about 2 × (3 + things' KB) RCU/WCU |
//! | keep a deck hidden | DeleteItem `DECKS#HIDDEN` / `<code>` | 1 · 1 WCU |
//! | let an author publish again | UpdateItem `DECKAUTHOR#<author>` / `HIDDEN`: `hidden = 0` | 1 · 1 WCU |
//!
//! A report expires [`REPORT_DAYS`] after it (TTL); the head's count of them is settled by the
//! operator's review (a restore sets it to 0).

use aws_sdk_dynamodb::types::{AttributeValue, Put, TransactWriteItem};

use super::{DeckConflict, Decks, HeadItem};
use crate::decks::moderation::{
    DeckReason, DeckReported, HiddenDeck, HIDES_TO_BAR, REPORTS_TO_HIDE, REPORT_DAYS,
};
use crate::ids::{DeckCode, UserId};
use crate::store::expr::{attr, Cond, Expr, Expressions, Update};
use crate::store::keys::{self, Keyed};
use crate::store::tx::{internal, n, s, update};
use crate::store::{epoch_millis, epoch_seconds, key_map, Conflict, DataError, Item};

impl Decks<'_> {
    /// `reporter` reports deck `code` for `reason`: counted once per reporter, however often
    /// (or concurrently) they report; the report that brings the reporters to
    /// [`REPORTS_TO_HIDE`] (or finds them there) hides the deck, once.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn report(
        self,
        code: &DeckCode,
        reporter: &UserId,
        reason: DeckReason,
    ) -> Result<DeckReported, DeckConflict> {
        let now_ms = epoch_millis();
        let key = keys::deck_report(code, reporter);
        let mut item = Item::new();
        for (name, value) in [
            (keys::PK, s(key.pk)),
            (keys::SK, s(key.sk)),
            ("reason", s(reason.slug())),
            ("at_ms", n(now_ms)),
            (keys::TTL, n(epoch_seconds() + REPORT_DAYS * 24 * 3600)),
        ] {
            item.insert(name.to_owned(), value);
        }
        let count = update(keys::deck_head(code)).expressions(
            Expr::update(Update::new().add(attr("reports"), n(1)))
                .when(Cond::exists(attr(keys::PK))),
        );
        let actions = vec![self.put_new(item)?, self.update_action(count)?];
        match self.transact(actions).await {
            Ok(()) => {}
            Err(DataError::Conflict(conflict)) => {
                return match conflict.failed_condition() {
                    Some(0) => Ok(DeckReported::Again),
                    Some(_) => Err(DeckConflict::NotFound),
                    None => Err(DataError::Conflict(conflict).into()),
                }
            }
            Err(err) => return Err(err.into()),
        }
        let head = self
            .head_item(code, true)
            .await?
            .ok_or(DeckConflict::NotFound)?;
        let hidden = head.reports >= REPORTS_TO_HIDE
            && head.hidden_ms.is_none()
            && self.hide(&head, now_ms).await?;
        Ok(DeckReported::Counted { hidden })
    }

    /// Takes the deck of `head` out of every gallery order, notes it on its author's count and
    /// in the operators' list: one transaction, only if it is not hidden yet (`true` if this
    /// call hid it).
    async fn hide(self, head: &HeadItem, now_ms: i64) -> Result<bool, DataError> {
        let code = &head.code;
        let head_change = update(keys::deck_head(code)).expressions(
            Expr::update(
                Update::new()
                    .set(attr("hidden_ms"), n(now_ms))
                    .remove(attr(keys::GSI2PK)),
            )
            .when(Cond::exists(attr(keys::PK)).and(Cond::not_exists(attr("hidden_ms")))),
        );
        let plays = update(keys::deck_plays(code)).expressions(Expr::update(
            Update::new()
                .remove(attr(keys::GSI1PK))
                .remove(attr(keys::GSI2PK))
                .add(attr("v"), n(1)),
        ));
        let author = update(keys::deck_author(&head.author))
            .expressions(Expr::update(Update::new().add(attr("hidden"), n(1))));
        let entry = keys::deck_hidden(code);
        let mut item = Item::new();
        for (name, value) in [
            (keys::PK, s(entry.pk)),
            (keys::SK, s(entry.sk)),
            ("code", s(code.as_str())),
            ("title", s(head.title.clone())),
            ("author", s(head.author.as_str())),
            ("reports", n(head.reports)),
            ("hidden_ms", n(now_ms)),
        ] {
            item.insert(name.to_owned(), value);
        }
        let put = Put::builder()
            .table_name(self.table_name())
            .set_item(Some(item))
            .build()
            .map_err(internal)?;
        let actions = vec![
            self.update_action(head_change)?,
            self.update_action(plays)?,
            self.delete_action(keys::deck_title(code))?,
            self.update_action(author)?,
            TransactWriteItem::builder().put(put).build(),
        ];
        match self.transact(actions).await {
            Ok(()) => Ok(true),
            Err(DataError::Conflict(conflict)) if conflict.failed_condition() == Some(0) => {
                Ok(false)
            }
            Err(err) => Err(err),
        }
    }

    /// The check a public deck's create or save carries: its author has fewer than
    /// [`HIDES_TO_BAR`] decks hidden by reports (or none).
    pub(super) fn may_publish_action(
        self,
        author: &UserId,
    ) -> Result<TransactWriteItem, DataError> {
        self.check_action(
            keys::deck_author(author),
            Cond::not_exists(attr("hidden")).or(Cond::lt(attr("hidden"), n(HIDES_TO_BAR))),
        )
    }

    /// The decks reports hid, for an operator, newest code first (one Query, up to 100).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn hidden_decks(self) -> Result<Vec<HiddenDeck>, DataError> {
        let (items, _) = self
            .query_page(
                self.query_partition(Keyed::Table, keys::DECKS_HIDDEN)
                    .limit(100),
                None,
            )
            .await?;
        items
            .into_iter()
            .map(|item| Ok(serde_dynamo::from_item(item)?))
            .collect()
    }

    /// An operator restores deck `code`: shown as it was before its reports (listed again if
    /// public), its reports settled, and one hide fewer on its author. `false` if it was not
    /// hidden (or is gone: its entry in the list goes either way).
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn restore(self, code: &DeckCode) -> Result<bool, DataError> {
        let Some(deck) = self.deck(code, true).await? else {
            self.delete_key(keys::deck_hidden(code)).await?;
            return Ok(false);
        };
        let public = deck.draft.visibility == crate::decks::model::Visibility::Public;
        let shown = Update::new()
            .remove(attr("hidden_ms"))
            .set(attr("reports"), n(0));
        let shown = match public {
            true => shown.set(
                attr(keys::GSI2PK),
                s(keys::gallery_new(deck.draft.lang.as_str())),
            ),
            false => shown,
        };
        let head = update(keys::deck_head(code))
            .expressions(Expr::update(shown).when(Cond::exists(attr("hidden_ms"))));
        let mut actions = vec![self.update_action(head)?];
        actions.extend(self.listing_actions(code, &deck.draft)?);
        actions.push(self.delete_action(keys::deck_hidden(code))?);
        match self.transact(actions).await {
            Ok(()) => {}
            Err(DataError::Conflict(conflict)) if conflict.failed_condition() == Some(0) => {
                self.delete_key(keys::deck_hidden(code)).await?;
                return Ok(false);
            }
            Err(err) => return Err(err),
        }
        // The hide was unfounded: it no longer counts against the author.
        let fewer = self
            .client
            .update_item()
            .set_key(Some(key_map(keys::deck_author(&deck.author))))
            .expressions(
                Expr::update(Update::new().add(attr("hidden"), n(-1)))
                    .when(Cond::gt(attr("hidden"), n(0))),
            );
        match self.update_item(fewer).await {
            Ok(()) | Err(DataError::Conflict(Conflict::ConditionFailed)) => Ok(true),
            Err(err) => Err(err),
        }
    }

    /// An operator keeps deck `code` hidden: it leaves their list, and stays out of the gallery.
    pub async fn keep_hidden(self, code: &DeckCode) -> Result<(), DataError> {
        self.delete_key(keys::deck_hidden(code)).await
    }

    /// An operator lets `author` publish again: their count of hidden decks starts over.
    pub async fn lift_author(self, author: &UserId) -> Result<(), DataError> {
        let change = self
            .client
            .update_item()
            .set_key(Some(key_map(keys::deck_author(author))))
            .expressions(Expr::update(
                Update::new().set(attr("hidden"), AttributeValue::N("0".into())),
            ));
        self.update_item(change).await
    }

    /// How many of `author`'s decks reports hid and no operator restored (consistent).
    pub async fn hides_of(self, author: &UserId) -> Result<u32, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::deck_author(author))))
                    .consistent_read(true),
            )
            .await?;
        Ok(item
            .and_then(|item| item.get("hidden")?.as_n().ok()?.parse().ok())
            .unwrap_or(0))
    }
}
