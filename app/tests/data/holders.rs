//! Four holders counting into the same boards at once, as four stream shards would, through
//! throttling and lost answers: match results split by player (a player's records are in one
//! shard, in order), then the entry writes read back from the stream split by board (a board's
//! entries are in one partition, hence one shard). Checked against the brute force of
//! `oracle`, every board, rank, count, counter, feather and card.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::Ordering;
use std::time::Instant;

use app::game::model::MatchRecord;
use app::game::store::resolve::match_record_item;
use app::identity::{Avatar, UserId};
use app::inventory::store::CARDS;
use app::leaderboards::store::apply::tree_pass::{padded, EntryMove, Moved};
use app::leaderboards::store::apply::{result_from_item, Applied};
use app::leaderboards::BoardId;
use app::rooms::RoomCode;
use app::store::{epoch_millis, keys, Conflict, DataError, Db};
use aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
use aws_sdk_dynamodbstreams::types::{
    AttributeValue as StreamValue, OperationType, ShardIteratorType,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::faults::{with_fault_rates, Injections, WRITES};
use super::oracle::{check, Brute};
use super::{name, test_table, TestTable};

const HOLDERS: usize = 4;
/// Every 7th write throttled, every 11th (of the others) applied with its answer lost.
const THROTTLE_EVERY: u64 = 7;
const LOSE_EVERY: u64 = 11;
/// Results handed to `count_results` at once, moves to `move_in_trees` (a stream batch).
const RESULTS_BATCH: usize = 100;
const MOVES_BATCH: usize = 1000;

/// A score: many ties in the main range, and a few players far outside it (the escape tree):
/// best scores past 970,000 or below -10,000, totals that pass either.
fn score(rng: &mut ChaCha8Rng, player: usize) -> i32 {
    match player {
        0 | 1 => 985_000,
        2 => rng.random_range(30..50) * 10_000,
        3 | 4 => -rng.random_range(11..30) * 1_000,
        5 => -4_000,
        _ => rng.random_range(-30..200) * 10,
    }
}

fn records(players: &[UserId], rooms: &[RoomCode], count: usize) -> Vec<MatchRecord> {
    let mut rng = ChaCha8Rng::seed_from_u64(28);
    let now = epoch_millis();
    let things: Vec<_> = CARDS.keys().take(8).cloned().collect();
    let mut records: Vec<MatchRecord> = (0..count)
        .map(|_| {
            let player = rng.random_range(0..players.len());
            let score = score(&mut rng, player);
            let correct = rng.random_range(0..=5);
            let right = (0..rng.random_range(0..5))
                .map(|_| things[rng.random_range(0..things.len())].clone())
                .collect();
            MatchRecord {
                record_id: ulid::Ulid::new().to_string(),
                user_id: players[player].clone(),
                nickname: name("Player"),
                avatar: Avatar::Owl,
                room: rooms[rng.random_range(0..rooms.len())].clone(),
                room_id: None,
                score,
                placement: rng.random_range(1..=3),
                players: 3,
                correct,
                rounds: 5,
                average_reaction_ms: Some(400),
                // Over the last six days (across a week's end, every day's board still live).
                finished_at_ms: now - rng.random_range(0..6 * 86_400_000),
                right,
                best_streak: correct,
                first_round: 1,
                daily: None,
                deck: None,
                flagged: false,
            }
        })
        .collect();
    // Written, and so delivered, in the order the matches ended.
    records.sort_by_key(|r| r.finished_at_ms);
    records
}

/// Writes the records as the game does, 25 to a BatchWriteItem (each its own stream INSERT).
async fn write_records(t: &TestTable, records: &[MatchRecord]) {
    for chunk in records.chunks(25) {
        let mut requests: Vec<WriteRequest> = chunk
            .iter()
            .map(|r| {
                let put = PutRequest::builder()
                    .set_item(Some(match_record_item(r).unwrap()))
                    .build()
                    .unwrap();
                WriteRequest::builder().put_request(put).build()
            })
            .collect();
        while !requests.is_empty() {
            let out = t
                .engine
                .client
                .batch_write_item()
                .request_items(t.db.table_name(), requests)
                .send()
                .await
                .unwrap();
            requests = out
                .unprocessed_items
                .and_then(|mut u| u.remove(t.db.table_name()))
                .unwrap_or_default();
        }
    }
}

fn shard_of(key: &impl Hash) -> usize {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut hasher);
    (hasher.finish() % HOLDERS as u64) as usize
}

/// A handle on the test's table whose writes meet the faults.
fn faulty(t: &TestTable) -> (Db, std::sync::Arc<Injections>) {
    let (client, injections) =
        with_fault_rates(&t.engine.client, WRITES, THROTTLE_EVERY, LOSE_EVERY);
    (Db::new(client, t.db.table_name()), injections)
}

/// What one holder's counting did: the calls that went through, and the batches read again
/// because `count_results` gave up on a refused slice (as a projector's failed batch is).
#[derive(Default)]
struct Counting {
    applied: Applied,
    redelivered: usize,
}

/// One holder counting its shard's results, a stream batch at a time; a batch that fails is
/// delivered again, as the projector reads it again from its checkpoint.
async fn count(db: &Db, results: &[MatchRecord]) -> Counting {
    let mut total = Counting::default();
    for batch in results.chunks(RESULTS_BATCH) {
        loop {
            match db.boards().count_results(batch, &[]).await {
                Ok(applied) => {
                    total.applied.counted += applied.counted;
                    total.applied.writes += applied.writes;
                    total.applied.retries += applied.retries;
                    break;
                }
                // A refused slice, or a call that timed out or met throttling past the SDK's
                // retries (as a loaded machine's may): the projector reads the batch again.
                Err(err)
                    if err.is_retryable()
                        || matches!(err, DataError::Conflict(Conflict::ConditionFailed)) =>
                {
                    total.redelivered += 1
                }
                Err(err) => panic!("counting failed: {err:?}"),
            }
        }
    }
    total
}

/// One holder moving its shard's entries in the trees, a stream batch at a time.
async fn move_all(db: &Db, moves: &[EntryMove]) -> Moved {
    let mut total = Moved::default();
    for batch in moves.chunks(MOVES_BATCH) {
        // A batch that fails for a retryable reason is delivered again, as the projector does.
        let moved = loop {
            match db.boards().move_in_trees(batch, &[]).await {
                Ok(moved) => break moved,
                Err(err) if err.is_retryable() => continue,
                Err(err) => panic!("moving failed: {err:?}"),
            }
        };
        total.writes += moved.writes;
        total.refused += moved.refused;
    }
    total
}

fn number(image: &HashMap<String, StreamValue>, name: &str) -> Option<i64> {
    image.get(name)?.as_n().ok()?.parse().ok()
}

/// The entry writes on the table's stream, in order, as tree moves (what the projector reads:
/// entries written for the tree, `tv = 2`, whose score changed).
async fn entry_moves(t: &TestTable) -> Vec<EntryMove> {
    let arn = t
        .engine
        .client
        .describe_table()
        .table_name(t.db.table_name())
        .send()
        .await
        .unwrap()
        .table
        .and_then(|table| table.latest_stream_arn)
        .expect("the table has a stream");
    let shards = t
        .engine
        .streams
        .describe_stream()
        .stream_arn(&arn)
        .send()
        .await
        .unwrap()
        .stream_description
        .unwrap()
        .shards
        .unwrap_or_default();
    let mut moves = Vec::new();
    for shard in shards {
        let mut iterator = t
            .engine
            .streams
            .get_shard_iterator()
            .stream_arn(&arn)
            .shard_id(shard.shard_id().unwrap())
            .shard_iterator_type(ShardIteratorType::TrimHorizon)
            .send()
            .await
            .unwrap()
            .shard_iterator;
        while let Some(current) = iterator {
            let out = t
                .engine
                .streams
                .get_records()
                .shard_iterator(current)
                .limit(1000)
                .send()
                .await
                .unwrap();
            if out.records().is_empty() {
                break;
            }
            for record in out.records() {
                let written = matches!(
                    record.event_name(),
                    Some(OperationType::Insert | OperationType::Modify)
                );
                let Some(data) = record.dynamodb().filter(|_| written) else {
                    continue;
                };
                let Some(image) = data.new_image() else {
                    continue;
                };
                let is_entry = image
                    .get(keys::PK)
                    .and_then(|v| v.as_s().ok())
                    .is_some_and(|pk| pk.starts_with("LB#"))
                    && image
                        .get(keys::SK)
                        .and_then(|v| v.as_s().ok())
                        .is_some_and(|sk| sk.starts_with(keys::BOARD_ENTRY_PREFIX));
                if !is_entry || number(image, "tv") != Some(2) {
                    continue;
                }
                let to = number(image, "score").unwrap();
                let from = number(image, "ps");
                if from == Some(to) {
                    continue;
                }
                let board = image.get("board").and_then(|v| v.as_s().ok()).unwrap();
                moves.push(EntryMove {
                    board: BoardId::parse_key(board).unwrap(),
                    seq: padded(data.sequence_number().unwrap()),
                    from,
                    to,
                });
            }
            iterator = out.next_shard_iterator;
        }
    }
    moves
}

#[tokio::test]
async fn four_holders_count_into_the_same_boards_at_once_through_throttling_and_lost_answers() {
    let count_of: usize = std::env::var("UDD_HOLDERS_RECORDS")
        .ok()
        .and_then(|n| n.parse().ok())
        // DynamoDB Local shares its one SQLite thread with the rest of the suite: fewer there.
        .unwrap_or(
            if std::env::var_os("UDD_TEST_DYNAMODB_ENDPOINT").is_some() {
                400
            } else {
                2_000
            },
        );
    let t = test_table().await;
    let players: Vec<UserId> = (0..200).map(|_| UserId::generate()).collect();
    let rooms: Vec<RoomCode> = ["HQDAA", "HQDBB", "HQDCC", "HQDDD"]
        .iter()
        .map(|c| RoomCode::parse(c).unwrap())
        .collect();
    let written = records(&players, &rooms, count_of);
    write_records(&t, &written).await;

    // The results, four ways by player, each holder's in stream order.
    let mut shards: Vec<Vec<MatchRecord>> = vec![Vec::new(); HOLDERS];
    for r in &written {
        let result = result_from_item(&match_record_item(r).unwrap()).unwrap();
        shards[shard_of(&r.user_id)].push(result);
    }
    let holders: Vec<_> = (0..HOLDERS).map(|_| faulty(&t)).collect();
    let started = Instant::now();
    let (a, b, c, d) = tokio::join!(
        count(&holders[0].0, &shards[0]),
        count(&holders[1].0, &shards[1]),
        count(&holders[2].0, &shards[2]),
        count(&holders[3].0, &shards[3]),
    );
    let counting = started.elapsed();
    let applied = [a, b, c, d];
    // Results counted by a call that then gave up are not in its tally: the oracle's check
    // below is what says each counted once.
    let counted: usize = applied.iter().map(|a| a.applied.counted).sum();

    // The trees: the entry writes read back from the stream, four ways by board.
    let moves = entry_moves(&t).await;
    let mut by_board: Vec<Vec<EntryMove>> = vec![Vec::new(); HOLDERS];
    for change in &moves {
        by_board[shard_of(&change.board.key())].push(change.clone());
    }
    let started = Instant::now();
    let (a, b, c, d) = tokio::join!(
        move_all(&holders[0].0, &by_board[0]),
        move_all(&holders[1].0, &by_board[1]),
        move_all(&holders[2].0, &by_board[2]),
        move_all(&holders[3].0, &by_board[3]),
    );
    let moving = started.elapsed();
    let moved = [a, b, c, d];

    let injected = |f: fn(&Injections) -> u64| -> u64 { holders.iter().map(|(_, i)| f(i)).sum() };
    eprintln!(
        "{} results counted in {:.2} s ({:.0} results/s; {counted} in the tallies of calls that \
         returned, {} writes, {} slices re-planned, {} batches delivered again); \
         {} entry moves in {:.2} s ({:.0} moves/s; {} node writes, {} refused); \
         faults on {} write attempts: {} throttled, {} answers lost",
        written.len(),
        counting.as_secs_f64(),
        written.len() as f64 / counting.as_secs_f64(),
        applied.iter().map(|a| a.applied.writes).sum::<usize>(),
        applied.iter().map(|a| a.applied.retries).sum::<usize>(),
        applied.iter().map(|a| a.redelivered).sum::<usize>(),
        moves.len(),
        moving.as_secs_f64(),
        moves.len() as f64 / moving.as_secs_f64(),
        moved.iter().map(|m| m.writes).sum::<usize>(),
        moved.iter().map(|m| m.refused).sum::<usize>(),
        injected(|i| i.calls.load(Ordering::SeqCst)),
        injected(|i| i.throttled.load(Ordering::SeqCst)),
        injected(|i| i.lost.load(Ordering::SeqCst)),
    );
    assert!(injected(|i| i.throttled.load(Ordering::SeqCst)) > 0);
    assert!(injected(|i| i.lost.load(Ordering::SeqCst)) > 0);

    let mut brute = Brute::default();
    for r in &written {
        brute.add(r);
    }
    let escaped = brute
        .boards
        .values()
        .flat_map(|b| b.values())
        .filter(|e| e.score >= 970_000 || e.score < -10_000)
        .count();
    assert!(escaped > 0, "some entries are in the escape tree");
    check(&t, &brute, &players, true).await;
}
