//! The safe changes every write of the inventory is built from (rewards, moves, the shop,
//! trades): [`Changes`] folds what each stack and wallet gives and gets, [`Inventory::apply_changes`]
//! reads them with one consistent BatchGetItem and writes them in one transaction, conditioned
//! on what was read.
//!
//! **Never negative, never zero.** A stack is taken from only by an action conditioned on the
//! quantity this writer read (`qty = :held`): it sets `qty = held - n`, or deletes the stack when
//! that is 0. Any change between the read and the write fails the condition and the change is
//! read and planned again. Feathers are taken with `feathers >= :n`. Adding is `ADD`, which
//! never needs a read. So under any interleaving no quantity goes below zero and no stack of 0
//! is left behind.

use super::Inventory;
use std::collections::{BTreeMap, HashMap};

use aws_sdk_dynamodb::types::TransactWriteItem;

use crate::inventory::model::{Card, Place, Rewards, ThingId, UserId};
use crate::inventory::rules::fold_name;
use crate::inventory::store::{
    card, check_count, stack_key, unknown, InventoryError, Refusal, MAX_FEATHERS, MAX_STACK,
};
use crate::store::expr::{attr, Cond, Expr, Expressions, Operand, Update};
use crate::store::keys::{self, Key};
use crate::store::tx::{n, s, update};
use crate::store::{epoch_millis, key_map, Conflict, DataError, Db, Item};

/// A change to one stack: give (take) `need` that the holder must have, and add `delta` in all
/// (negative to take). Both are known before the write; `held` is what was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StackChange {
    pub user: UserId,
    pub place: Place,
    pub thing: ThingId,
    /// How many the holder must have at the write (what they give away in it).
    pub need: u32,
    /// Net change: what they receive less what they give.
    pub delta: i64,
}

/// A change to one wallet, the same way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletChange {
    pub user: UserId,
    pub need: u64,
    pub delta: i64,
}

/// Many changes folded so each stack and wallet is written once (a transaction may touch an
/// item only once).
#[derive(Debug, Default, Clone)]
pub struct Changes {
    stacks: BTreeMap<(UserId, Place, ThingId), (u32, i64)>,
    wallets: BTreeMap<UserId, (u64, i64)>,
}

impl Changes {
    pub fn give_cards(&mut self, user: &UserId, place: Place, thing: &ThingId, count: u32) {
        let entry = self
            .stacks
            .entry((user.clone(), place, thing.clone()))
            .or_default();
        entry.0 += count;
        entry.1 -= i64::from(count);
    }

    pub fn get_cards(&mut self, user: &UserId, place: Place, thing: &ThingId, count: u32) {
        let entry = self
            .stacks
            .entry((user.clone(), place, thing.clone()))
            .or_default();
        entry.1 += i64::from(count);
    }

    pub fn pay(&mut self, user: &UserId, feathers: u64) {
        let entry = self.wallets.entry(user.clone()).or_default();
        entry.0 += feathers;
        entry.1 -= feathers as i64;
    }

    pub fn earn(&mut self, user: &UserId, feathers: u64) {
        let entry = self.wallets.entry(user.clone()).or_default();
        entry.1 += feathers as i64;
    }

    /// The stacks and wallets to read before writing.
    pub fn keys(&self) -> Result<Vec<Key>, InventoryError> {
        let mut keys = Vec::new();
        for (user, place, thing) in self.stacks.keys() {
            let card = card(thing).ok_or_else(|| unknown(thing))?;
            keys.push(stack_key(user, *place, card));
        }
        keys.extend(self.wallets.keys().map(keys::wallet));
        Ok(keys)
    }

    /// The actions of these changes given what was read (stacks by key, feathers by user).
    /// Refuses at once when a giver does not hold enough.
    pub fn actions(
        &self,
        db: &Db,
        held_cards: &HashMap<Key, u32>,
        held_feathers: &HashMap<UserId, u64>,
    ) -> Result<Vec<TransactWriteItem>, InventoryError> {
        let mut actions = Vec::new();
        for ((user, place, thing), (need, delta)) in &self.stacks {
            let card = card(thing).ok_or_else(|| unknown(thing))?;
            let key = stack_key(user, *place, card);
            let held = held_cards.get(&key).copied().unwrap_or(0);
            if held < *need {
                return Err(InventoryError::NotEnough(Refusal::Cards {
                    thing: card.thing.clone(),
                    name: card.name.clone(),
                    held,
                    need: *need,
                }));
            }
            let after = i64::from(held) + delta;
            if after > i64::from(MAX_STACK) {
                return Err(InventoryError::Invalid(Refusal::StackFull));
            }
            actions.push(stack_action(
                db, user, key, *place, card, held, *need, *delta,
            )?);
        }
        for (user, (need, delta)) in &self.wallets {
            let held = held_feathers.get(user).copied().unwrap_or(0);
            if held < *need {
                return Err(InventoryError::NotEnough(Refusal::Feathers {
                    held,
                    need: *need,
                }));
            }
            if held as i64 + delta > MAX_FEATHERS as i64 {
                return Err(InventoryError::Invalid(Refusal::TooManyFeathers));
            }
            actions.push(wallet_action(db, user, *need, *delta)?);
        }
        Ok(actions)
    }

    pub fn is_empty(&self) -> bool {
        self.stacks.is_empty() && self.wallets.is_empty()
    }
}

/// The attributes a stack carries besides its quantity, set by every write of it. A bag stack
/// is also listed among its card's holders (GSI2, newest change first), which is who might trade
/// it; a bank stack is not, since bank cards cannot be traded.
fn stack_sets(user: &UserId, place: Place, card: &Card) -> Update {
    let rarity = serde_dynamo::to_attribute_value(card.rarity).unwrap_or(s("common"));
    let sets = Update::new()
        .set(attr("thing"), s(card.thing.as_str()))
        .set(attr("name"), s(card.name.clone()))
        .set(attr("emoji"), s(card.emoji.clone()))
        .set(attr("category"), s(card.category.slug()))
        .set(attr("rarity"), rarity)
        .set(attr("place"), s(place.as_str()))
        .set(
            attr(keys::LSI1SK),
            s(keys::card_by_name(
                place,
                &fold_name(&card.name),
                &card.thing,
            )),
        );
    if place != Place::Bag {
        return sets;
    }
    sets.set(attr(keys::GSI2PK), s(keys::card_holders(&card.thing)))
        .set(
            attr(keys::GSI2SK),
            s(keys::card_holder_sort(epoch_millis(), user)),
        )
}

/// The stack's quantity is still what was read.
fn still_held(held: u32) -> Cond {
    Cond::eq(attr("qty"), n(held))
}

/// One stack's write: an `ADD` when it only grows and nothing is given from it; otherwise
/// conditioned on the quantity read (deleted when it comes to 0).
#[allow(clippy::too_many_arguments)]
fn stack_action(
    db: &Db,
    user: &UserId,
    key: Key,
    place: Place,
    card: &Card,
    held: u32,
    need: u32,
    delta: i64,
) -> Result<TransactWriteItem, DataError> {
    if need == 0 && delta > 0 {
        let grow = stack_sets(user, place, card).add(attr("qty"), n(delta));
        return db.update_action(update(key).expressions(Expr::update(grow)));
    }
    let after = i64::from(held) + delta;
    if after == 0 {
        return Ok(TransactWriteItem::builder()
            .delete(
                aws_sdk_dynamodb::types::Delete::builder()
                    .table_name(db.table_name())
                    .set_key(Some(key_map(key)))
                    .expressions(Expr::condition(still_held(held)))
                    .build()
                    .map_err(crate::store::tx::internal)?,
            )
            .build());
    }
    if delta == 0 {
        return db.check_action(key, still_held(held));
    }
    let change = stack_sets(user, place, card).set(attr("qty"), n(after));
    db.update_action(update(key).expressions(Expr::update(change).when(still_held(held))))
}

fn wallet_action(
    db: &Db,
    user: &UserId,
    need: u64,
    delta: i64,
) -> Result<TransactWriteItem, DataError> {
    let add = || Update::new().add(attr("feathers"), n(delta));
    if need == 0 {
        return db.update_action(update(keys::wallet(user)).expressions(Expr::update(add())));
    }
    let enough = || Cond::ge(attr("feathers"), n(need));
    if delta == 0 {
        return db.check_action(keys::wallet(user), enough());
    }
    db.update_action(update(keys::wallet(user)).expressions(Expr::update(add()).when(enough())))
}

/// What a consistent read of some stacks and wallets found.
pub struct Holdings {
    pub cards: HashMap<Key, u32>,
    pub feathers: HashMap<UserId, u64>,
    /// Every other item read, by key.
    pub others: HashMap<Key, Item>,
}

impl Inventory<'_> {
    /// One consistent BatchGetItem of stacks, wallets and any other items a change depends on.
    pub async fn holdings(self, keys: Vec<Key>) -> Result<Holdings, DataError> {
        let items = self.batch_get(keys, true).await?;
        let mut found = Holdings {
            cards: HashMap::new(),
            feathers: HashMap::new(),
            others: HashMap::new(),
        };
        for item in items {
            let key = crate::store::key_of(&item);
            let number = |name: &str| -> Option<u64> { item.get(name)?.as_n().ok()?.parse().ok() };
            if key.sk == keys::WALLET {
                if let Some(user) = keys::inventory_owner(&key.pk) {
                    found.feathers.insert(user, number("feathers").unwrap_or(0));
                }
            } else if key.pk.starts_with(keys::INVENTORY_PREFIX) && item.contains_key("qty") {
                found.cards.insert(
                    key,
                    number("qty").unwrap_or(0).min(u64::from(u32::MAX)) as u32,
                );
            } else {
                found.others.insert(key, item);
            }
        }
        Ok(found)
    }

    /// Reads what `changes` touch, then writes them in one transaction with `extra` actions
    /// first; if a stack or wallet changed between the read and the write, reads and tries
    /// again. `extra`'s own refusals are the caller's to map (their indexes come first).
    pub(crate) async fn apply_changes(
        self,
        changes: &Changes,
        extra_keys: Vec<Key>,
        mut extra: impl FnMut(&Holdings) -> Result<Vec<TransactWriteItem>, InventoryError>,
    ) -> Result<Holdings, InventoryError> {
        let mut attempt = 0u32;
        loop {
            let mut wanted = changes.keys()?;
            wanted.extend(extra_keys.iter().cloned());
            let held = self.holdings(wanted).await?;
            let mut actions = extra(&held)?;
            let first_change = actions.len();
            actions.extend(changes.actions(&self, &held.cards, &held.feathers)?);
            if actions.is_empty() {
                return Ok(held);
            }
            match self.transact(actions).await {
                Ok(()) => return Ok(held),
                Err(DataError::Conflict(conflict @ Conflict::TransactionCanceled { .. })) => {
                    let failed = conflict.failed_condition();
                    match failed {
                        Some(i) if i >= first_change && attempt < 6 => {
                            // A stack or wallet changed since the read: read again.
                            attempt += 1;
                            crate::store::db::back_off(5, attempt).await;
                        }
                        Some(i) if i >= first_change => {
                            return Err(InventoryError::Data(DataError::Conflict(conflict)))
                        }
                        _ => return Err(InventoryError::Data(DataError::Conflict(conflict))),
                    }
                }
                Err(DataError::Conflict(Conflict::TransactionConflict)) if attempt < 6 => {
                    attempt += 1;
                    crate::store::db::back_off(5, attempt).await;
                }
                Err(err) => return Err(err.into()),
            }
        }
    }

    /// Reads what `changes` touch and writes them in one transaction, nothing else with them.
    pub(crate) async fn apply(self, changes: &Changes) -> Result<(), InventoryError> {
        self.apply_changes(changes, Vec::new(), |_| Ok(Vec::new()))
            .await
            .map(drop)
    }

    /// Removes `count` cards of `thing` from `user`'s `place`, refused if fewer are held; the
    /// stack disappears at 0.
    pub async fn remove_cards(
        self,
        user: &UserId,
        place: Place,
        thing: &ThingId,
        count: u32,
    ) -> Result<(), InventoryError> {
        check_count(count)?;
        let mut changes = Changes::default();
        changes.give_cards(user, place, thing, count);
        self.apply(&changes).await
    }

    /// Moves `count` cards of `thing` from one of `user`'s places to the other: one
    /// transaction (after one consistent read).
    pub async fn move_cards(
        self,
        user: &UserId,
        thing: &ThingId,
        count: u32,
        from: Place,
    ) -> Result<(), InventoryError> {
        check_count(count)?;
        let mut changes = Changes::default();
        changes.give_cards(user, from, thing, count);
        changes.get_cards(user, from.other(), thing, count);
        self.apply(&changes).await
    }
}

impl Inventory<'_> {
    /// The actions that give one player a match's rewards (folded per player by the caller):
    /// `ADD` to each card's bag stack and to the wallet, and each badge set only the first time.
    /// None of them can fail, so they ride in the transaction that marks the match counted.
    pub fn reward_actions(
        self,
        user: &UserId,
        rewards: &Rewards,
    ) -> Result<Vec<TransactWriteItem>, DataError> {
        let mut per_card: BTreeMap<&ThingId, u32> = BTreeMap::new();
        for thing in &rewards.cards {
            *per_card.entry(thing).or_default() += 1;
        }
        let mut actions = Vec::new();
        for (thing, count) in per_card {
            let Some(card) = card(thing) else {
                tracing::warn!(%thing, "a reward of a card the catalog no longer has");
                continue;
            };
            actions.push(stack_action(
                &self,
                user,
                stack_key(user, Place::Bag, card),
                Place::Bag,
                card,
                0,
                0,
                i64::from(count),
            )?);
        }
        if rewards.feathers > 0 {
            actions.push(wallet_action(&self, user, 0, rewards.feathers as i64)?);
        }
        let now = epoch_millis();
        for badge in &rewards.badges {
            actions.push(self.update_action(
                update(keys::badge(user, badge.slug())).expressions(Expr::update(
                    Update::new().set(
                        attr("earned_ms"),
                        Operand::IfNotExists(attr("earned_ms"), n(now)),
                    ),
                )),
            )?);
        }
        Ok(actions)
    }
}

impl Inventory<'_> {
    /// Gives `user` some rewards outside a match (operators, tests): the same actions the
    /// projector writes, in one transaction per 100 of them (each is an `ADD` that applies once).
    pub async fn grant_rewards(self, user: &UserId, rewards: &Rewards) -> Result<(), DataError> {
        let actions = self.reward_actions(user, rewards)?;
        for chunk in actions.chunks(100) {
            self.transact(chunk.to_vec()).await?;
        }
        Ok(())
    }
}

/// What the boards' projector has folded into one inventory item (a bag stack or the wallet):
/// the last few match records it added (`prs`) and a counter its writes are conditioned on
/// (`pn`). Its rewards are single conditional writes, not a transaction: a record already in
/// `prs` is not added again, so a write repeated after a crash or a lost answer adds nothing
/// twice, and a write planned from a stale read is refused by `pn`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Folded {
    pub n: Option<u64>,
    pub records: Vec<String>,
}

impl Folded {
    /// What an item as read says (nothing folded for an absent item).
    pub fn read(item: Option<&Item>) -> Self {
        let Some(item) = item else {
            return Self::default();
        };
        Self {
            n: item.get("pn").and_then(|v| v.as_n().ok()?.parse().ok()),
            records: item
                .get("prs")
                .and_then(|v| v.as_l().ok())
                .map(|list| list.iter().filter_map(|v| v.as_s().ok().cloned()).collect())
                .unwrap_or_default(),
        }
    }

    /// Whether `record` was folded in already.
    pub fn has(&self, record: &str) -> bool {
        self.records.iter().any(|r| r == record)
    }

    /// The records to remember after folding `added`: the last `keep`.
    pub fn after(&self, added: &[String], keep: usize) -> Vec<String> {
        let mut all: Vec<String> = self.records.iter().chain(added).cloned().collect();
        let cut = all.len().saturating_sub(keep);
        all.drain(..cut);
        all
    }

    /// `change` with what it folds in remembered (`records`, one more fold counted), only over
    /// the item as it was read (the folds counted then).
    fn guard(&self, change: Update, records: Vec<String>) -> Expr {
        let remembered =
            aws_sdk_dynamodb::types::AttributeValue::L(records.into_iter().map(s).collect());
        let change = change
            .set(attr("prs"), remembered)
            .set(attr("pn"), n(self.n.unwrap_or(0) + 1));
        let unread = match self.n {
            None => Cond::not_exists(attr("pn")),
            Some(before) => Cond::eq(attr("pn"), n(before)),
        };
        Expr::update(change).when(unread)
    }
}

impl Inventory<'_> {
    /// The projector's reward of `count` cards of `thing` to `user`'s bag, as one conditional
    /// write: `folded` is the stack as read, `records` what it remembers after.
    pub fn stack_reward_action(
        self,
        user: &UserId,
        thing: &ThingId,
        count: u32,
        folded: &Folded,
        records: Vec<String>,
    ) -> Result<Option<TransactWriteItem>, DataError> {
        let Some(card) = card(thing) else {
            tracing::warn!(%thing, "a reward of a card the catalog no longer has");
            return Ok(None);
        };
        let grow = stack_sets(user, Place::Bag, card).add(attr("qty"), n(count));
        let write = folded.guard(grow, records);
        Ok(Some(self.update_action(
            update(stack_key(user, Place::Bag, card)).expressions(write),
        )?))
    }

    /// The projector's reward of `feathers` to `user`'s wallet, the same way.
    pub fn wallet_reward_action(
        self,
        user: &UserId,
        feathers: u64,
        folded: &Folded,
        records: Vec<String>,
    ) -> Result<TransactWriteItem, DataError> {
        let write = folded.guard(Update::new().add(attr("feathers"), n(feathers)), records);
        self.update_action(update(keys::wallet(user)).expressions(write))
    }

    /// A badge for `user`, kept with the time it was first earned (writing it again changes
    /// nothing).
    pub fn badge_action(
        self,
        user: &UserId,
        badge: &crate::inventory::model::Badge,
    ) -> Result<TransactWriteItem, DataError> {
        let first = Operand::IfNotExists(attr("earned_ms"), n(epoch_millis()));
        self.update_action(
            update(keys::badge(user, badge.slug()))
                .expressions(Expr::update(Update::new().set(attr("earned_ms"), first))),
        )
    }
}
