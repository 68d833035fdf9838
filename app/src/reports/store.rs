//! Reports in the table.
//!
//! | pattern | how | round trips · units |
//! |---|---|---|
//! | report a player | TransactWriteItems: Put `REPORT#<reported>` / `BY#<reporter>` if absent (or expired), `ADD count 1` on the summary `REPORTS` / `<reported>`; then GetItem of the summary, strongly consistent | 2 · 4 WCU + 1 RCU |
//! | … the report that reaches the threshold | and the hide (`Accounts::hide_player`: a transaction, then the hidden set read again) | +2 · +4 WCU, +1 RCU |
//! | a second report by the same reporter | the transaction refused by its first condition; nothing written | 1 · 4 WCU billed |
//! | the open reports, most reported first | Query `REPORTS` | 1 a page |
//! | clear a player's reports | Query `REPORT#<id>`, then a BatchWriteItem of deletes with the summary | 2 · 1 WCU an item |
//!
//! A report and its summary expire [`REPORT_LIFETIME_DAYS`] after it (the summary's TTL moves
//! with each report): the count is of the reports made within that many days of each other.

use aws_sdk_dynamodb::types::AttributeValue;
use serde::{Deserialize, Serialize};

use crate::identity::model::{DisplayName, UserId};
use crate::identity::store::hidden::HiddenBy;
use crate::reports::{Reason, Reported, REPORTS_TO_HIDE, REPORT_LIFETIME_DAYS};
use crate::store::expr::{attr, Expr, Expressions, Update};
use crate::store::keys::{self, Keyed};
use crate::store::tx::{delete_request, n, s, update};
use crate::store::{epoch_millis, epoch_seconds, key_map, DataError};

crate::store::handle!(
    /// The access patterns of reports.
    Reports,
    reports
);

/// A report as stored.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct ReportItem {
    reporter: UserId,
    reason: Reason,
    /// The name the reported player had when reported.
    name: String,
    at_ms: i64,
    ttl: i64,
}

/// What an operator reads of one reported player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportSummary {
    pub user: UserId,
    /// Their name when last reported (never drawn to players).
    pub name: String,
    /// Distinct reporters.
    pub count: u32,
    pub last_ms: i64,
    /// The reasons given, each as often as it was.
    #[serde(default)]
    pub name_reports: u32,
    #[serde(default)]
    pub abuse_reports: u32,
    #[serde(default)]
    pub cheating_reports: u32,
    #[serde(default)]
    pub other_reports: u32,
}

fn reason_counter(reason: Reason) -> &'static str {
    match reason {
        Reason::Name => "name_reports",
        Reason::Abuse => "abuse_reports",
        Reason::Cheating => "cheating_reports",
        Reason::Other => "other_reports",
    }
}

impl Reports<'_> {
    /// `reporter` reports `reported` (called `name` now) for `reason`. A reporter is counted
    /// once per reported player, however often (or concurrently) they report; the report that
    /// brings the distinct reporters to [`REPORTS_TO_HIDE`] (or finds them there) hides the
    /// player, once: the hide is a conditional put that only the first writes.
    #[tracing::instrument(skip(self, name), err(level = "debug"))]
    pub async fn report(
        self,
        reporter: &UserId,
        reported: &UserId,
        name: &DisplayName,
        reason: Reason,
    ) -> Result<Reported, DataError> {
        let now_ms = epoch_millis();
        let ttl = epoch_seconds() + REPORT_LIFETIME_DAYS * 24 * 3600;
        let key = keys::report(reported, reporter);
        let mut item: crate::store::Item = serde_dynamo::to_item(ReportItem {
            reporter: reporter.clone(),
            reason,
            name: name.as_str().to_owned(),
            at_ms: now_ms,
            ttl,
        })?;
        item.insert(keys::PK.into(), AttributeValue::S(key.pk));
        item.insert(keys::SK.into(), AttributeValue::S(key.sk));
        let summary = update(keys::report_summary(reported)).expressions(Expr::update(
            Update::new()
                .add(attr("count"), n(1))
                .add(attr(reason_counter(reason)), n(1))
                .set(attr("user"), s(reported.as_str()))
                .set(attr("name"), s(name.as_str()))
                .set(attr("last_ms"), n(now_ms))
                .set(attr(keys::TTL), n(ttl)),
        ));
        let actions = vec![self.put_new(item)?, self.update_action(summary)?];
        match self.transact(actions).await {
            Ok(()) => {}
            Err(DataError::Conflict(conflict)) if conflict.failed_condition() == Some(0) => {
                return Ok(Reported::Again)
            }
            Err(err) => return Err(err),
        }
        let count = self
            .summary(reported)
            .await?
            .map_or(0, |summary| summary.count);
        let hidden = count >= REPORTS_TO_HIDE
            && self
                .accounts()
                .hide_player(reported, name, HiddenBy::Reports)
                .await?;
        Ok(Reported::Counted { hidden })
    }

    /// The summary of `user`'s reports, if any: one strongly consistent GetItem.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn summary(self, user: &UserId) -> Result<Option<ReportSummary>, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::report_summary(user))))
                    .consistent_read(true),
            )
            .await?;
        Ok(item.map(serde_dynamo::from_item).transpose()?)
    }

    /// The reported players, most reported first (up to `limit`): one Query of `REPORTS` a page.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn open_reports(self, limit: usize) -> Result<Vec<ReportSummary>, DataError> {
        let items = self
            .query_all(self.query_partition(Keyed::Table, keys::REPORTS))
            .await?;
        let mut summaries = items
            .into_iter()
            .map(serde_dynamo::from_item)
            .collect::<Result<Vec<ReportSummary>, _>>()?;
        summaries.sort_by_key(|s| (std::cmp::Reverse(s.count), std::cmp::Reverse(s.last_ms)));
        summaries.truncate(limit);
        Ok(summaries)
    }

    /// Forgets every report about `user` (after a review), and shows their names again if
    /// reports or an operator hid them. `true` if there was anything to clear.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn clear(self, user: &UserId) -> Result<bool, DataError> {
        let reports = self
            .query_all(self.query_partition(Keyed::Table, keys::reports_of(user)))
            .await?;
        let mut deletes = reports
            .iter()
            .map(|item| delete_request(key_map(crate::store::key_of(item))))
            .collect::<Result<Vec<_>, _>>()?;
        let summary = self.summary(user).await?;
        if summary.is_some() {
            deletes.push(delete_request(key_map(keys::report_summary(user)))?);
        }
        let any = !deletes.is_empty();
        if any {
            self.batch_write(deletes).await?;
        }
        let shown = self.accounts().clear_player(user).await?;
        Ok(any || shown)
    }
}
