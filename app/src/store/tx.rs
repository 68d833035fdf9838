//! The transaction and write helpers every feature's store builds its actions with: a put only
//! where no live item is, an update, a delete and a condition check, each as one
//! `TransactWriteItem` on this table, and the attribute-value shorthands.

use aws_sdk_dynamodb::types::builders::UpdateBuilder;
use aws_sdk_dynamodb::types::{
    AttributeValue, ConditionCheck, Delete, DeleteRequest, Put, PutRequest, TransactWriteItem,
    Update, WriteRequest,
};

use super::db::{epoch_seconds, key_map, Db, Item};
use super::error::DataError;
use super::expr::{attr, Cond, Expr, Expressions};
use super::keys::{self, Key};

/// A number attribute value.
pub fn n(value: impl ToString) -> AttributeValue {
    AttributeValue::N(value.to_string())
}

/// A string attribute value.
pub fn s(value: impl Into<String>) -> AttributeValue {
    AttributeValue::S(value.into())
}

/// An SDK builder's refusal (a required field missing): a bug of ours, never the player's.
pub fn internal(e: impl std::error::Error + Send + Sync + 'static) -> DataError {
    DataError::Internal(Box::new(e))
}

/// A put of `item` in a [`Db::batch_write`].
pub fn put_request(item: Item) -> Result<WriteRequest, DataError> {
    let put = PutRequest::builder()
        .set_item(Some(item))
        .build()
        .map_err(internal)?;
    Ok(WriteRequest::builder().put_request(put).build())
}

/// A delete of the item whose key attributes are `key` in a [`Db::batch_write`].
pub fn delete_request(key: Item) -> Result<WriteRequest, DataError> {
    let delete = DeleteRequest::builder()
        .set_key(Some(key))
        .build()
        .map_err(internal)?;
    Ok(WriteRequest::builder().delete_request(delete).build())
}

/// An update of the item at `key`, to finish with expressions and hand to [`Db::update_action`].
pub fn update(key: Key) -> UpdateBuilder {
    Update::builder().set_key(Some(key_map(key)))
}

impl Db {
    /// A transaction action that puts `item`, only if no live item has its key yet (an expired
    /// item that TTL has not swept away yet counts as absent, as it does on reads).
    pub fn put_new(&self, item: Item) -> Result<TransactWriteItem, DataError> {
        let put = Put::builder()
            .table_name(self.table_name())
            .set_item(Some(item))
            .expressions(Expr::condition(
                Cond::not_exists(attr(keys::PK)).or(Cond::le(attr(keys::TTL), n(epoch_seconds()))),
            ))
            .build()
            .map_err(|e| DataError::Internal(e.into()))?;
        Ok(TransactWriteItem::builder().put(put).build())
    }

    /// A transaction action that applies `update` (from [`update`]) to this table.
    pub fn update_action(&self, update: UpdateBuilder) -> Result<TransactWriteItem, DataError> {
        let update = update
            .table_name(self.table_name())
            .build()
            .map_err(internal)?;
        Ok(TransactWriteItem::builder().update(update).build())
    }

    /// A transaction action that deletes the item at `key`.
    pub fn delete_action(&self, key: Key) -> Result<TransactWriteItem, DataError> {
        let delete = Delete::builder()
            .table_name(self.table_name())
            .set_key(Some(key_map(key)))
            .build()
            .map_err(internal)?;
        Ok(TransactWriteItem::builder().delete(delete).build())
    }

    /// A transaction action that deletes the item at `key` only if `condition` holds on it.
    pub fn delete_action_when(
        &self,
        key: Key,
        condition: Cond,
    ) -> Result<TransactWriteItem, DataError> {
        let delete = Delete::builder()
            .table_name(self.table_name())
            .set_key(Some(key_map(key)))
            .expressions(Expr::condition(condition))
            .build()
            .map_err(internal)?;
        Ok(TransactWriteItem::builder().delete(delete).build())
    }

    /// A transaction action that only checks `condition` on the item at `key`.
    pub fn check_action(&self, key: Key, condition: Cond) -> Result<TransactWriteItem, DataError> {
        let check = ConditionCheck::builder()
            .table_name(self.table_name())
            .set_key(Some(key_map(key)))
            .expressions(Expr::condition(condition));
        Ok(TransactWriteItem::builder()
            .condition_check(check.build().map_err(internal)?)
            .build())
    }

    /// One write on its own, as a single conditional write rather than in a transaction (a
    /// transaction bills every item twice): a Put, Update or Delete built as a transaction
    /// action, sent as PutItem, UpdateItem or DeleteItem. A refused condition is
    /// `Conflict::ConditionFailed`.
    pub(crate) async fn write_alone(&self, action: TransactWriteItem) -> Result<(), DataError> {
        // The parts every kind of write shares, then the request's own (its item or key).
        macro_rules! alone {
            ($op:ident, $name:literal, $part:ident, $($own:tt)+) => {{
                let request = self
                    .client
                    .$op()
                    .table_name($part.table_name)
                    .set_condition_expression($part.condition_expression)
                    .set_expression_attribute_names($part.expression_attribute_names)
                    .set_expression_attribute_values($part.expression_attribute_values)
                    .$($own)+;
                super::db::send_recorded!(self, $name, request)?;
                return Ok(());
            }};
        }
        if let Some(put) = action.put {
            alone!(put_item, "PutItem", put, set_item(Some(put.item)));
        }
        if let Some(update) = action.update {
            let expression = update.update_expression;
            let key = Some(update.key);
            alone!(
                update_item,
                "UpdateItem",
                update,
                set_key(key).set_update_expression(Some(expression))
            );
        }
        if let Some(delete) = action.delete {
            alone!(delete_item, "DeleteItem", delete, set_key(Some(delete.key)));
        }
        Err(DataError::Internal(
            "only a put, an update or a delete can be written alone".into(),
        ))
    }
}
