//! The soak's end-of-run check: every player's boards, lifetime counters and wallet recounted
//! from the match records kept for them, against what the board projector wrote.
//!
//! The fold here is written apart from the projector's plan (`app::leaderboards::plan`), from
//! the records alone, so a fault in the plan, a record counted twice or one never counted shows
//! as a difference. It reads after the projector has caught up; the engine is on loopback,
//! where every read sees every write that was answered.

use std::collections::BTreeMap;
use std::sync::Arc;

use anyhow::Context;
use app::game::model::MatchRecord;
use app::http::engine::{Engine, EngineConfig};
use app::identity::model::UserId;
use app::inventory::model::Outcome;
use app::inventory::rules;
use app::leaderboards::model::{BoardId, Metric, Period, Scope};
use app::rooms::RoomId;
use app::store::Db;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

/// Match records read per Query page (the most `my_matches` gives).
const PAGE: i32 = 100;
/// Players recounted at once.
const AT_ONCE: usize = 16;
/// Differences printed; the rest are counted.
const SHOWN: usize = 20;

/// What the recount found.
pub(super) struct Recount {
    pub(super) players: usize,
    pub(super) records: usize,
    pub(super) mismatches: Vec<String>,
}

impl Recount {
    pub(super) fn print(&self) {
        println!(
            "recount: {} players, {} match records, {} mismatches with the projector's counters, \
             wallets and all-time boards",
            self.players,
            self.records,
            self.mismatches.len()
        );
        for line in self.mismatches.iter().take(SHOWN) {
            println!("  {line}");
        }
        if self.mismatches.len() > SHOWN {
            println!("  … and {} more", self.mismatches.len() - SHOWN);
        }
    }
}

/// Reads every given player's kept match records from the table and folds them independently
/// (matches, wins, score total, best score, correct, rounds, feathers earned), then reads what
/// the projector wrote for them (lifetime counters `USER#<id>`/`STATS`, wallet, their all-time
/// board entries) and lists every difference. `seen` is how many finished matches the driver
/// saw each player play: the record count must equal it.
pub(super) async fn recount(
    endpoint: &str,
    engine_key: &str,
    table: &str,
    seen: &[(UserId, u64)],
) -> anyhow::Result<Recount> {
    // The client the instances build from UDD_DYNAMODB_ENDPOINT and UDD_ENGINE_KEY: the key is
    // the access key id, which the engine's front checks and DynamoDB Local keeps a database
    // apart for, so it must be the instances' own.
    let engine = Engine::start(EngineConfig::Endpoint {
        url: endpoint.to_owned(),
        key: Some(engine_key.to_owned()),
    })
    .await
    .with_context(|| format!("connecting to the engine at {endpoint}"))?;
    let db = Db::new(engine.client.clone(), table);
    let outcome = recount_all(&db, seen).await;
    engine.stop().await;
    outcome
}

async fn recount_all(db: &Db, seen: &[(UserId, u64)]) -> anyhow::Result<Recount> {
    let permits = Arc::new(Semaphore::new(AT_ONCE));
    let mut tasks = JoinSet::new();
    for (i, (user, played)) in seen.iter().cloned().enumerate() {
        let (db, permits) = (db.clone(), permits.clone());
        tasks.spawn(async move {
            let _permit = permits.acquire_owned().await?;
            let found = check(&db, &user, played)
                .await
                .with_context(|| format!("recounting player {user}"))?;
            anyhow::Ok((i, found))
        });
    }
    let mut found = Vec::with_capacity(seen.len());
    while let Some(joined) = tasks.join_next().await {
        found.push(joined.context("a recount task failed")??);
    }
    // Back in the driver's order of players, whichever task finished first.
    found.sort_by_key(|(i, _)| *i);
    let mut recount = Recount {
        players: seen.len(),
        records: 0,
        mismatches: Vec::new(),
    };
    for (_, (records, mismatches)) in found {
        recount.records += records;
        recount.mismatches.extend(mismatches);
    }
    Ok(recount)
}

/// One player's records, folded.
#[derive(Default)]
struct Fold {
    matches: u64,
    wins: u64,
    score: i64,
    best: Option<i64>,
    correct: u64,
    rounds: u64,
    feathers: u64,
    /// Their best score in each room they played in (its all-time room board).
    rooms: BTreeMap<RoomId, i64>,
}

impl Fold {
    fn add(&mut self, record: &MatchRecord) {
        let score = i64::from(record.score);
        self.matches += 1;
        // A win is first place, shared by every player tied for it (players equal on score,
        // right judgements and reaction share a placement), in a match of any size: a match
        // played alone counts as a win too.
        self.wins += u64::from(record.placement == 1);
        self.score += score;
        self.best = Some(self.best.map_or(score, |best| best.max(score)));
        self.correct += u64::from(record.correct);
        self.rounds += u64::from(record.rounds);
        // The inventory's own rule for what a match gives. Nothing else moves a load player's
        // wallet: it starts at 0 (there is no starting balance), badges give no feathers, and
        // the load never buys, sells, trades or is granted anything, the only other writers.
        self.feathers += rules::rewards(&Outcome {
            placement: record.placement,
            players: record.players,
            correct: record.correct,
            rounds: record.rounds,
            right: record.right.clone(),
            best_streak: record.best_streak,
        })
        .feathers;
        let room = self.rooms.entry(record.room_id()).or_insert(score);
        *room = (*room).max(score);
    }
}

/// Recounts one player: how many records they have, and every difference found.
async fn check(db: &Db, user: &UserId, played: u64) -> anyhow::Result<(usize, Vec<String>)> {
    let mut fold = Fold::default();
    let mut records = 0usize;
    let mut cursor: Option<String> = None;
    loop {
        let page = db
            .game()
            .my_matches(user, PAGE, cursor.as_deref())
            .await
            .context("reading the match records")?;
        for record in &page.items {
            fold.add(record);
        }
        records += page.items.len();
        match page.next {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    let stats = db
        .boards()
        .stats(user)
        .await
        .context("reading the lifetime counters")?;
    let wallet = db
        .inventory()
        .feathers(user)
        .await
        .context("reading the wallet")?;
    let total_board = BoardId {
        metric: Metric::Total,
        period: Period::AllTime,
        scope: Scope::Global,
    };
    let total = db
        .boards()
        .board_entry(&total_board, user)
        .await
        .context("reading the all-time total board")?;

    let mut differences = Differences {
        user,
        found: Vec::new(),
    };
    differences.note(
        "match records (against matches seen)",
        records as u64,
        played,
    );
    differences.note("matches", fold.matches, stats.matches);
    differences.note("wins", fold.wins, stats.wins);
    differences.note("right judgements", fold.correct, stats.correct);
    differences.note("rounds", fold.rounds, stats.rounds);
    differences.note("feathers", fold.feathers, wallet);
    differences.note("score total", fold.score, stats.lifetime_score);
    // `stats` reads the best score from the player's entry on the all-time global board of
    // best scores: this is that board's check.
    differences.note("all-time best (global)", fold.best, stats.best_score);
    differences.note(
        "all-time total board (score, matches)",
        (fold.matches > 0).then_some((fold.score, fold.matches)),
        total.map(|entry| (entry.score, entry.matches)),
    );
    for (room, best) in &fold.rooms {
        let board = BoardId {
            metric: Metric::Best,
            period: Period::AllTime,
            scope: Scope::Room(room.clone()),
        };
        let entry = db
            .boards()
            .board_entry(&board, user)
            .await
            .with_context(|| format!("reading the all-time board of room {room}"))?;
        differences.note(
            &format!("all-time best in room {room}"),
            Some(*best),
            entry.map(|e| e.score),
        );
    }
    Ok((records, differences.found))
}

/// The differences found for one player.
struct Differences<'a> {
    user: &'a UserId,
    found: Vec<String>,
}

impl Differences<'_> {
    /// Notes `what` when the recount and what the table holds differ.
    fn note<T: PartialEq + std::fmt::Debug>(&mut self, what: &str, recounted: T, stored: T) {
        if recounted != stored {
            self.found.push(format!(
                "{}: {what}: recounted {recounted:?}, the table holds {stored:?}",
                self.user
            ));
        }
    }
}
