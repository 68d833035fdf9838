//! What a match cost: every DynamoDB call an instance makes for a match in play (its start, the
//! taps, the watchers' polls and reads, the closes and the end) is counted in that instance's
//! open tally for the match (`Db::tallied`). When the instance sees the match over, or when a
//! tally has been quiet for [`QUIET`], it adds the tally to the match's receipt, one `ADD` per
//! instance per match. The receipt is kept for good, apart from the room
//! (`MATCH#<room id>#<first>` / `RECEIPT`), and priced at the operator's on-demand prices.
//!
//! Units are the engine's reported consumed capacity: real DynamoDB's own figures; on the
//! embedded engine, dynoxide's, which follow DynamoDB's published rules (1 KB per write unit,
//! 4 KB per read unit, transactions at double, index writes added). A refused conditional write
//! reports no capacity but is billed: it is counted as AWS bills it (`RefusedWrite`: one write
//! unit; a cancelled transaction two per action). The receipts' own calls (the `ADD`s, the
//! reads of a receipt) are not on it; in the process's usage they are their own work,
//! `receipts`.
//!
//! | pattern | how | round trips |
//! |---|---|---|
//! | add an instance's tally to a match's receipt | UpdateItem `ADD read_units, write_units, calls, adds` where `adds` (a string set of each add's random token) does not yet hold this add's token: a copy the SDK sends again after a lost answer is refused and recognised, never counted twice | UpdateItem |
//! | a match's receipt | GetItem | GetItem |

use super::Game;
use std::sync::Arc;
use std::time::Duration;

use aws_sdk_dynamodb::types::{AttributeValue, ReturnValue};

use crate::game::model::{Match, MatchReceipt};
use crate::rooms::model::{RoomCode, RoomId};
use crate::store::expr::{attr, Cond, Expr, Expressions, Update};
use crate::store::keys;
use crate::store::retry::Written;
use crate::store::tx::n;
use crate::store::{key_map, DataError, Db, Item};

/// The work the receipts' own calls are counted as in the process's usage (see `Usage`).
pub const RECEIPTS: &str = "receipts";

/// A tally that has not grown for this long is added to its receipt even if this instance
/// never saw the match end (it served taps, say, but watched nothing).
pub const QUIET: Duration = Duration::from_secs(10);

/// A receipt add's name: 64 random bits.
fn add_token() -> Result<String, DataError> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| DataError::Internal(e.to_string().into()))?;
    Ok(format!("{:016x}", u64::from_le_bytes(bytes)))
}

/// The tally key of the match that starts at room round `first`.
fn tally_key(code: &RoomCode, first: u32) -> String {
    format!("{code}#{first}")
}

fn parse_key(key: &str) -> Option<(RoomCode, u32)> {
    let (code, first) = key.split_once('#')?;
    Some((RoomCode::parse(code).ok()?, first.parse().ok()?))
}

impl Game<'_> {
    /// A copy of the store whose calls are billed to the cost receipt of room `code`'s match that
    /// starts at round `first` (this process's open tally for it; see the module's doc). It
    /// selects nothing: the calls made through it say what they read and write.
    pub fn billed_to_match(self, code: &RoomCode, first: u32) -> Db {
        self.tallied(tally_key(code, first))
    }

    /// A copy of the store billed to the match that round `n` of room `code` belongs to (see
    /// [`Game::billed_to_match`]).
    pub fn billed_to_match_of_round(self, code: &RoomCode, n: u32) -> Db {
        self.billed_to_match(code, Match::first_of_round(n))
    }

    /// Adds this instance's open tally for the match of room `room` that starts at `first` to
    /// its receipt (nothing if there is none). Tallies are held by the room's code (a tap names
    /// only the code; no two live rooms share one), receipts by its id.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn add_to_receipt(
        self,
        room: &RoomId,
        first: u32,
    ) -> Result<Option<MatchReceipt>, DataError> {
        let code = room.code();
        let Some(units) = self.tallies().take(&tally_key(&code, first)) else {
            return Ok(None);
        };
        let db = self.counted_as(RECEIPTS);
        // Each add names itself, and the receipt keeps the names it has added: an add whose
        // answer was lost, sent again (by the SDK, or below), is refused and not counted twice.
        let token = add_token()?;
        let add = db
            .client
            .update_item()
            .set_key(Some(key_map(keys::match_receipt(room, first))))
            .expressions(
                Expr::update(
                    Update::new()
                        .add(attr("read_units"), n(units.read_units))
                        .add(attr("write_units"), n(units.write_units))
                        .add(attr("calls"), n(units.calls))
                        .add(attr("adds"), AttributeValue::Ss(vec![token.clone()])),
                )
                .when(Cond::contains(attr("adds"), AttributeValue::S(token)).not()),
            );
        let mut attempt = 0;
        loop {
            match db.update_written(add.clone(), ReturnValue::AllNew).await {
                Ok(Written::Applied(item)) => {
                    return Ok(item.map(|item| self.receipt_from_item(&item)))
                }
                // Added already, by an attempt whose answer was lost.
                Ok(Written::Refused(item)) => return Ok(Some(self.receipt_from_item(&item))),
                Err(_) if attempt < 3 => {
                    attempt += 1;
                    crate::store::db::back_off(50, attempt).await;
                }
                Err(err) => {
                    // Not lost: counted again with what comes next, under a new token. Should
                    // one of the failed calls have applied after all, this tally counts twice:
                    // the only way a receipt overcounts, and only when DynamoDB failed to answer
                    // four calls (each with the SDK's own attempts) in a row.
                    let key: Arc<str> = tally_key(&code, first).into();
                    self.tallies().restore(&key, units);
                    return Err(err);
                }
            }
        }
    }

    /// Adds every tally that has been quiet for [`QUIET`] to its receipt: the room's id read
    /// from its code (one GetItem; the room plays or has just played the match, so the code
    /// is still its own). Tallies of rooms `watched` here are left to the room's watcher, which
    /// adds them when it sees the match end (a match's taps may pause for longer than
    /// [`QUIET`]). Returns the receipts as they now are, by room code and match.
    pub async fn add_quiet_receipts(
        self,
        watched: impl Fn(&RoomCode) -> bool,
    ) -> Result<Vec<(RoomCode, u32, MatchReceipt)>, DataError> {
        let mut added = Vec::new();
        for key in self.tallies().quiet(QUIET) {
            if let Some((code, first)) = parse_key(&key).filter(|(code, _)| !watched(code)) {
                let room = self.counted_as(RECEIPTS).rooms().room_id_of(&code).await?;
                tracing::debug!(%code, first, "adding a quiet tally to its receipt");
                if let Some(receipt) = self.add_to_receipt(&room, first).await? {
                    added.push((code, first, receipt));
                }
            }
        }
        Ok(added)
    }

    /// The match's receipt as added up so far, priced at this instance's prices.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn match_receipt(
        self,
        room: &RoomId,
        first: u32,
    ) -> Result<Option<MatchReceipt>, DataError> {
        let db = self.counted_as(RECEIPTS);
        let item = db
            .get(
                db.client
                    .get_item()
                    .set_key(Some(key_map(keys::match_receipt(room, first)))),
            )
            .await?;
        Ok(item.map(|item| self.receipt_from_item(&item)))
    }

    /// A stored receipt, priced at this instance's prices.
    pub(crate) fn receipt_from_item(self, item: &Item) -> MatchReceipt {
        let number = |name: &str| {
            item.get(name)
                .and_then(|v| v.as_n().ok())
                .and_then(|v| v.parse::<f64>().ok())
                .unwrap_or(0.0)
        };
        let (read, write) = (number("read_units"), number("write_units"));
        MatchReceipt::new(
            read,
            write,
            number("calls") as u64,
            self.pricing().price(read, write),
        )
    }
}
