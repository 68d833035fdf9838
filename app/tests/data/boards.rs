//! The boards: fed from the table's stream by the projector, exactly once through crashes,
//! duplicates and lease changes (checked against a brute-force count), and read with the round
//! trips the README promises. Match records are written here as the game writes them (with its
//! own `match_record_item`), many thousands faster than playing matches. What the boards should
//! hold is worked out without the code (`oracle`).

use std::collections::BTreeMap;

use app::game::model::MatchRecord;
use app::game::store::resolve::match_record_item;
use app::identity::{Avatar, UserId};
use app::leaderboards::period::boards_for;
use app::leaderboards::projector::Projector;
use app::leaderboards::store::apply::Fence;
use app::leaderboards::store::lines::Start;
use app::leaderboards::store::seed::Synthetic;
use app::leaderboards::{BoardId, Line, SeasonId};
use app::rooms::{RoomCode, RoomId};
use app::store::{epoch_millis, keys, Db, Recorder};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::oracle::{all_lines, check, Brute};
use super::{name, test_table, TestTable};

/// Writes one player's match record as the last round's transaction does.
pub(super) async fn write_record(t: &TestTable, record: &MatchRecord) {
    t.engine
        .client
        .put_item()
        .table_name(t.db.table_name())
        .set_item(Some(match_record_item(record).unwrap()))
        .send()
        .await
        .unwrap();
}

pub(super) fn record(user: &UserId, room: &RoomCode, score: i32, at: i64) -> MatchRecord {
    MatchRecord {
        record_id: ulid::Ulid::new().to_string(),
        user_id: user.clone(),
        nickname: name("Player"),
        avatar: Avatar::Owl,
        room: room.clone(),
        room_id: None,
        score,
        placement: if score > 1000 { 1 } else { 2 },
        players: 2,
        correct: 3,
        rounds: 5,
        average_reaction_ms: Some(400),
        finished_at_ms: at,
        right: Vec::new(),
        best_streak: 3,
        first_round: 1,
        daily: None,
        deck: None,
        flagged: false,
    }
}

pub(super) fn projector(t: &TestTable) -> Projector {
    Projector::new(t.db.clone(), t.engine.streams.clone())
}

fn room(raw: &str) -> RoomCode {
    RoomCode::parse(raw).unwrap()
}

/// The shard the projector reads (both local engines have one).
async fn only_shard(t: &TestTable, holder: &str) -> (String, Fence) {
    let items = t.partition(keys::PROJECTOR).await;
    let shard = items
        .iter()
        .find_map(|i| {
            i.get("SK")?
                .as_s()
                .ok()?
                .strip_prefix("SHARD#")
                .map(str::to_owned)
        })
        .expect("the projector made a lease");
    let (who, token, _) =
        t.db.boards()
            .projector_lease(&shard)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(who, holder);
    (
        shard.clone(),
        Fence {
            lease: keys::projector_shard(&shard),
            token,
        },
    )
}

#[tokio::test]
async fn random_matches_through_crashes_duplicates_and_a_lease_change_count_exactly_once() {
    let events: usize = std::env::var("UDD_BOARD_EVENTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    let t = test_table().await;
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let players: Vec<UserId> = (0..150).map(|_| UserId::generate()).collect();
    let rooms = [room("BRDAA"), room("BRDBB"), room("BRDCC")];
    // Two decks, played in about one match in five (each its own match: every record counts a
    // play): on their rooms' boards and their own, never on everyone's.
    let author = UserId::generate();
    let mut decks = Vec::new();
    for title in ["Pets", "Kites"] {
        let draft = app::decks::model::DeckDraft {
            title: title.to_owned(),
            description: String::new(),
            lang: app::decks::model::DeckLang::En,
            visibility: app::decks::model::Visibility::Public,
            things: (0..10)
                .map(|i| app::decks::model::DeckThing {
                    en: Some(format!("{title} {i}")),
                    hi: None,
                    hi_latin: None,
                    emoji: app::decks::model::DEFAULT_EMOJI.to_owned(),
                    flies: i % 2 == 0,
                    note: None,
                })
                .collect(),
        };
        decks.push(t.db.decks().create(&author, draft).await.unwrap().code);
    }
    let now = epoch_millis();
    let mut brute = Brute::default();
    let mut written = Vec::new();

    // First a third of the records, counted by projector A (a short lease).
    let mut a = projector(&t).with_lease_ms(400);
    let write = |count: usize, rng: &mut ChaCha8Rng| -> Vec<MatchRecord> {
        (0..count)
            .map(|_| {
                let user = &players[rng.random_range(0..players.len())];
                let room = &rooms[rng.random_range(0..rooms.len())];
                // Scores with many ties, some negative; times over the last three days.
                let score = rng.random_range(-30..200) * 10;
                let at = now - rng.random_range(0..3 * 86_400_000);
                let mut r = record(user, room, score, at);
                if rng.random_range(0..5) == 0 {
                    r.deck = Some(app::game::model::DeckPlay {
                        code: decks[rng.random_range(0..decks.len())].clone(),
                        counts_play: true,
                    });
                }
                r
            })
            .collect()
    };
    let first = write(events / 3, &mut rng);
    for r in &first {
        write_record(&t, r).await;
    }
    written.extend(first);
    a.pass().await.unwrap();
    let (shard, fence_a) = only_shard(&t, a.holder()).await;

    // A duplicate delivery: the same results counted again by hand.
    let again: Vec<_> = written.iter().take(500).map(to_result).collect();
    assert_eq!(
        t.db.boards()
            .count_results(&again, &[])
            .await
            .unwrap()
            .counted,
        0
    );

    // A crashes inside its next batch: part of the batch written, no checkpoint.
    let second = write(events / 3, &mut rng);
    for r in &second {
        write_record(&t, r).await;
    }
    a.catch_up().await.unwrap();
    let third = write(events - 2 * (events / 3), &mut rng);
    for r in &third {
        write_record(&t, r).await;
    }
    let partial: Vec<_> = third
        .iter()
        .take(third.len() / 2)
        .step_by(3)
        .map(to_result)
        .collect();
    let crashed = t.db.boards().count_results(&partial, &[]).await.unwrap();
    assert!(crashed.counted > 0);
    drop(a);
    written.extend(second);
    written.extend(third);

    // A stalls past its lease; B takes the shard over (the token goes up) and A's late writes,
    // planned from what it read before, land in the middle of B's: nothing counts twice.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let mut b = projector(&t);
    b.pass().await.unwrap();
    let (_, fence_b) = only_shard(&t, b.holder()).await;
    assert_eq!(fence_b.token, fence_a.token + 1);
    let late: Vec<_> = written.iter().rev().take(40).map(to_result).collect();
    let (stale, caught_up) = tokio::join!(t.db.boards().count_results(&late, &[]), b.catch_up());
    stale.unwrap();
    caught_up.unwrap();

    // A replay of the whole stream: the checkpoint forgotten, every record read again.
    t.engine
        .client
        .delete_item()
        .table_name(t.db.table_name())
        .set_key(Some(std::collections::HashMap::from([
            (
                "PK".to_owned(),
                aws_sdk_dynamodb::types::AttributeValue::S(keys::PROJECTOR.into()),
            ),
            (
                "SK".to_owned(),
                aws_sdk_dynamodb::types::AttributeValue::S(format!("SHARD#{shard}")),
            ),
        ])))
        .send()
        .await
        .unwrap();
    let replay = projector(&t).catch_up().await.unwrap();
    assert!(replay.records >= events, "the replay read the whole stream");
    assert_eq!(replay.counted, 0, "and counted nothing twice");
    // And the rebuild from the records themselves.
    assert_eq!(t.db.boards().rebuild_boards().await.unwrap().counted, 0);

    for r in &written {
        brute.add(r);
    }
    let mut by_op: BTreeMap<&str, (usize, f64)> = BTreeMap::new();
    for call in t.calls.calls() {
        let e = by_op.entry(call.op).or_default();
        e.0 += 1;
        e.1 += call.elapsed.as_secs_f64();
    }
    eprintln!("calls by operation: {by_op:?}");
    // Records were counted out of the order their matches ended (random times, a crashed
    // batch's share first): when each reached its line is one of its matches' ends.
    check(&t, &brute, &players, false).await;
    // Each deck's plays: its matches, each once through the crash, the duplicates, the lease's
    // change, the replay and the rebuild.
    for deck in &decks {
        let plays = t.db.decks().deck(deck, false).await.unwrap().unwrap().plays;
        assert_eq!(plays, brute.plays[deck.as_str()], "{deck}'s plays");
    }
    assert!(brute.plays.values().all(|p| *p > 0));
}

fn to_result(r: &MatchRecord) -> MatchRecord {
    app::leaderboards::store::apply::result_from_item(&match_record_item(r).unwrap()).unwrap()
}

#[tokio::test]
async fn each_read_takes_the_round_trips_the_readme_promises() {
    let t = test_table().await;
    let code = room("RTRPS");
    let players: Vec<UserId> = (0..30).map(|_| UserId::generate()).collect();
    let now = epoch_millis();
    let mut brute = Brute::default();
    for (i, user) in players.iter().enumerate() {
        let r = record(user, &code, (i as i32 % 7) * 100, now - i as i64);
        write_record(&t, &r).await;
        brute.add(&r);
    }
    projector(&t).catch_up().await.unwrap();
    let board = BoardId::room_best(&RoomId::legacy(&code));
    let me = &players[10];
    // The first cursor loads the table's signing secret once: not part of any read's cost.
    t.db.boards()
        .board_lines(&board, Start::Top, 1)
        .await
        .unwrap();

    t.calls.reset();
    let top =
        t.db.boards()
            .board_lines(&board, Start::Top, 10)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(t.calls.ops(), ["Query"], "top N: one Query");
    assert_eq!(top.lines.len(), 10);
    t.calls.reset();
    let next =
        t.db.boards()
            .board_lines(&board, Start::Cursor(top.next.clone().unwrap()), 10)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(t.calls.ops(), ["Query"], "the next page: one Query");
    assert_eq!(next.lines[0].rank, brute.rank(&board, next.lines[0].score));

    t.calls.reset();
    let (line, total) = t.db.boards().my_line(&board, me).await.unwrap().unwrap();
    assert_eq!(
        t.calls.ops(),
        ["GetItem", "BatchGetItem"],
        "rank: two round trips"
    );
    assert_eq!(line.rank, brute.rank(&board, line.score));
    assert_eq!(total, 30);

    t.calls.reset();
    let (standing, _) =
        t.db.boards()
            .around_me(&board, me, 3)
            .await
            .unwrap()
            .unwrap();
    let mut ops = t.calls.ops();
    ops.sort_unstable();
    assert_eq!(
        ops,
        ["BatchGetItem", "GetItem", "Query", "Query"],
        "around me: two Queries"
    );
    assert_eq!((standing.above.len(), standing.below.len()), (3, 3));
    for l in standing
        .above
        .iter()
        .chain(&standing.below)
        .chain([&standing.me])
    {
        assert_eq!(l.rank, brute.rank(&board, l.score), "{}", l.user_id);
    }
    let lines = all_lines(&t.db, &board).await;
    let at = lines.iter().position(|l| l.user_id == *me).unwrap();
    assert_eq!(
        standing.above.last().unwrap().user_id,
        lines[at - 1].user_id
    );
    assert_eq!(standing.below[0].user_id, lines[at + 1].user_id);

    t.calls.reset();
    let mine = t.db.boards().my_boards(me, 20).await.unwrap();
    let mut ops = t.calls.ops();
    ops[..2].sort_unstable();
    assert_eq!(
        ops,
        ["GetItem", "Query", "BatchGetItem", "BatchGetItem"],
        "all my boards: counters and seasons at once, the entries, their ranks"
    );
    assert_eq!(mine.len(), 11, "a match counts on eleven boards");
    for b in &mine {
        assert_eq!(
            b.line.rank,
            brute.rank(&b.board, b.line.score),
            "{}",
            b.board
        );
    }

    t.calls.reset();
    let (rank, _) = t.db.boards().rank_of(&board, 350).await.unwrap();
    assert_eq!(t.calls.ops(), ["BatchGetItem"]);
    assert_eq!(rank, brute.rank(&board, 350));
    assert_eq!(
        t.db.boards().rank_by_counting(&board, 350).await.unwrap(),
        rank
    );
}

#[tokio::test]
async fn a_board_opens_at_any_position_even_among_ties() {
    let t = test_table().await;
    let board = BoardId::parse_key("best.all.room-JMPAA").unwrap();
    // 60 players on 6 scores: ten tied at each.
    let players: Vec<Synthetic> = (0..60)
        .map(|i| Synthetic {
            user_id: UserId::generate(),
            nickname: name("Bot"),
            score: (i % 6) * 1000,
            reached_ms: 1_000 + i,
        })
        .collect();
    t.db.boards().seed_board(&board, &players).await.unwrap();
    let lines = all_lines(&t.db, &board).await;
    for position in [1u64, 5, 10, 11, 37, 60] {
        t.calls.reset();
        let page =
            t.db.boards()
                .board_lines(&board, Start::Position(position), 5)
                .await
                .unwrap()
                .unwrap();
        let reads = t.calls.ops();
        assert_eq!(
            reads.iter().filter(|op| **op == "GetItem").count(),
            3,
            "one read per level"
        );
        assert_eq!(
            page.lines[0],
            lines[position as usize - 1],
            "position {position}"
        );
        assert_eq!(
            page.lines[0].rank,
            (position - 1) / 10 * 10 + 1,
            "ties share a rank"
        );
    }
    assert_eq!(
        t.db.boards()
            .board_lines(&board, Start::Position(61), 5)
            .await
            .unwrap(),
        None
    );
    assert!(matches!(
        t.db.boards()
            .board_lines(&board, Start::Cursor("forged.cursor".into()), 5)
            .await,
        Err(app::store::DataError::BadCursor)
    ));
    let other = BoardId::parse_key("best.all.room-JMPBB").unwrap();
    let page =
        t.db.boards()
            .board_lines(&board, Start::Top, 5)
            .await
            .unwrap()
            .unwrap();
    assert!(
        t.db.boards()
            .board_lines(&other, Start::Cursor(page.next.unwrap()), 5)
            .await
            .is_err(),
        "a cursor opens only the board it came from"
    );
}

#[tokio::test]
async fn a_seeded_board_ranks_as_one_fed_match_by_match() {
    let t = test_table().await;
    let now = epoch_millis();
    let fed = room("SEEDA");
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut synthetic = Vec::new();
    for _ in 0..120 {
        let user = UserId::generate();
        let r = record(
            &user,
            &fed,
            rng.random_range(-20..80) * 25,
            now - rng.random_range(0..1000),
        );
        write_record(&t, &r).await;
        synthetic.push(Synthetic {
            user_id: user,
            nickname: name("Player"),
            score: i64::from(r.score),
            reached_ms: r.finished_at_ms,
        });
    }
    projector(&t).catch_up().await.unwrap();
    let seeded = BoardId::parse_key("best.all.room-SEEDB").unwrap();
    t.db.boards().seed_board(&seeded, &synthetic).await.unwrap();
    assert!(
        t.db.boards().seed_board(&seeded, &synthetic).await.is_err(),
        "only an empty board"
    );
    let a = all_lines(&t.db, &BoardId::room_best(&RoomId::legacy(&fed))).await;
    let b = all_lines(&t.db, &seeded).await;
    assert_eq!(
        a,
        b.iter()
            .cloned()
            .map(|l| Line {
                avatar: Avatar::Owl,
                ..l
            })
            .collect::<Vec<_>>()
    );
    for score in [-500, 0, 1, 999, 2000] {
        assert_eq!(
            t.db.boards()
                .rank_of(&BoardId::room_best(&RoomId::legacy(&fed)), score)
                .await
                .unwrap(),
            t.db.boards().rank_of(&seeded, score).await.unwrap()
        );
    }
}

#[tokio::test]
async fn seasons_start_only_in_the_future_and_never_overlap_and_matches_count_on_them() {
    let t = test_table().await;
    let now = epoch_millis();
    let id = |s: &str| SeasonId::parse(s).unwrap();
    let day = 86_400_000;
    for (season, start, end) in [
        ("past", now - day, now + day),
        ("backwards", now + day, now),
        ("2026-q4", now, now + day),
    ] {
        assert!(
            t.db.boards()
                .start_season(&id(season), "X", start, end)
                .await
                .is_err(),
            "{season}"
        );
    }
    let monsoon =
        t.db.boards()
            .start_season(&id("monsoon"), "Monsoon", now, now + 10 * day)
            .await
            .unwrap();
    assert!(t
        .db
        .boards()
        .start_season(&id("other"), "Other", now + day, now + 2 * day)
        .await
        .is_err());
    assert!(t
        .db
        .boards()
        .start_season(&id("monsoon"), "Again", now + 20 * day, now + 21 * day)
        .await
        .is_err());
    assert_eq!(
        t.db.boards().seasons().await.unwrap(),
        vec![monsoon.clone()]
    );

    let user = UserId::generate();
    write_record(&t, &record(&user, &room("SEASN"), 700, now + 5)).await;
    projector(&t).catch_up().await.unwrap();
    let board = BoardId::parse_key("total.season-monsoon.global").unwrap();
    let (line, _) = t.db.boards().my_line(&board, &user).await.unwrap().unwrap();
    assert_eq!((line.rank, line.score, line.matches), (1, 700, 1));
}

#[tokio::test]
async fn a_stalled_holder_cannot_renew() {
    let t = test_table().await;
    write_record(
        &t,
        &record(&UserId::generate(), &room("HXDRS"), 100, epoch_millis()),
    )
    .await;
    // Long enough that A's pass (a transaction or two on DynamoDB Local) ends well inside it.
    let mut a = projector(&t).with_lease_ms(3_000);
    // A's lease runs from its take, somewhere in its pass: it ends no sooner than 3 s after the
    // pass began and no later than 3 s after it returned (a loaded machine's pass can take a
    // second).
    let began = std::time::Instant::now();
    assert_eq!(a.pass().await.unwrap().held, 1);
    let returned = std::time::Instant::now();
    let mut b = projector(&t);
    let held = b.pass().await.unwrap().held;
    if began.elapsed() < std::time::Duration::from_millis(2_500) {
        assert_eq!(held, 0, "A still holds the shard");
    }
    tokio::time::sleep(std::time::Duration::from_millis(3_100).saturating_sub(returned.elapsed()))
        .await;
    assert_eq!(b.pass().await.unwrap().held, 1, "B takes an expired lease");
    assert_eq!(a.pass().await.unwrap().held, 0, "A finds it lost its lease");
}

#[tokio::test]
async fn an_instance_that_does_not_hold_a_shard_asks_once_per_lease_not_every_poll() {
    let t = test_table().await;
    write_record(
        &t,
        &record(&UserId::generate(), &room("WQTS2"), 100, epoch_millis()),
    )
    .await;
    // A lease long enough for B's five polls on a loaded machine (on DynamoDB Local beside
    // other suites a poll has taken over 500 ms).
    let mut a = projector(&t).with_lease_ms(6_000);
    // A's lease ends no sooner than 6 s after its pass began, no later than 6 s after it returned.
    let took = std::time::Instant::now();
    assert_eq!(a.pass().await.unwrap().held, 1);
    let returned = std::time::Instant::now();
    let calls = Recorder::new();
    let mut b = Projector::new(
        Db::new(t.engine.client.clone(), t.db.table_name()).recording(calls.clone()),
        t.engine.streams.clone(),
    );
    // Polls while A's lease runs: one refused take (its refusal says until when: no read of
    // the lease), then nothing.
    let mut polls = 0;
    while took.elapsed() < std::time::Duration::from_millis(1_500) || polls < 5 {
        assert_eq!(b.pass().await.unwrap().held, 0, "A holds the shard");
        polls += 1;
    }
    let ops = calls.ops();
    if took.elapsed() < std::time::Duration::from_millis(5_900) {
        // The refused take is billed, and recorded as such.
        let writes = ops
            .iter()
            .filter(|op| **op == "UpdateItem" || **op == "RefusedWrite")
            .count();
        let reads = ops.iter().filter(|op| **op == "GetItem").count();
        assert_eq!((writes, reads), (1, 0), "{polls} polls made {ops:?}");
    }
    // Once A's lease has run out, B takes the shard at its next poll.
    tokio::time::sleep(std::time::Duration::from_millis(6_100).saturating_sub(returned.elapsed()))
        .await;
    assert_eq!(b.pass().await.unwrap().held, 1, "B takes the expired lease");
}

#[tokio::test]
async fn a_released_lease_is_taken_at_the_next_pass_by_an_instance_told_of_it() {
    let t = test_table().await;
    let code = room("RXSE2");
    write_record(&t, &record(&UserId::generate(), &code, 100, epoch_millis())).await;
    let mut a = projector(&t);
    let mut b = projector(&t);
    let mut c = projector(&t);
    assert_eq!(a.pass().await.unwrap().held, 1);
    // B and C ask once, are refused, and wait for A's lease (10 s) to run out.
    assert_eq!(b.pass().await.unwrap().held, 0);
    assert_eq!(c.pass().await.unwrap().held, 0);
    let counted = a.pass().await.unwrap();
    // A shuts down: every held shard let go of, its checkpoint kept.
    let released = a.release().await;
    assert_eq!(released.len(), 1, "{released:?}");
    let (_, _, expires) =
        t.db.boards()
            .projector_lease(&released[0])
            .await
            .unwrap()
            .unwrap();
    assert!(expires < epoch_millis(), "the lease ends now: {expires}");
    // C was not told: it still waits for the old expiry. B was told: it takes it at once and
    // starts after A's checkpoint (nothing counted twice: the record is not read again).
    assert_eq!(c.pass().await.unwrap().held, 0, "not told, C waits");
    b.handover().offer(&released);
    let pass = b.pass().await.unwrap();
    assert_eq!(pass.held, 1, "told, B takes the shard at once");
    assert_eq!(
        pass.results, 0,
        "B starts after A's checkpoint ({counted:?})"
    );
    let (holder, token, _) =
        t.db.boards()
            .projector_lease(&released[0])
            .await
            .unwrap()
            .unwrap();
    assert_eq!(holder, b.holder());
    assert_eq!(token, 2, "a new token: A's late writes would be refused");
    // A second release is refused by its token: nothing changes.
    assert!(a.release().await.is_empty(), "A holds nothing any more");
}

#[tokio::test]
async fn a_closed_day_keeps_its_top_hundred_once_however_many_closers_run() {
    let t = test_table().await;
    let three_days_ago = epoch_millis() - 3 * 86_400_000;
    let code = room("ARCHV");
    let mut brute = Brute::default();
    for i in 0..130 {
        let r = record(&UserId::generate(), &code, (i % 40) * 10, three_days_ago);
        write_record(&t, &r).await;
        brute.add(&r);
    }
    projector(&t).catch_up().await.unwrap();
    let day = boards_for(three_days_ago, &RoomId::legacy(&code), &[])
        .into_iter()
        .find(|b| {
            b.period.kind() == app::leaderboards::PeriodKind::Day
                && b.scope == app::leaderboards::Scope::Global
        })
        .unwrap();
    assert!(t.db.boards().board_archive(&day).await.unwrap().is_none());
    let (first, second) = futures::join!(
        t.db.boards().archive_closed_boards(epoch_millis()),
        t.db.boards().archive_closed_boards(epoch_millis())
    );
    // The global and the room's day boards closed; the week's may not have yet.
    assert!(first.unwrap() + second.unwrap() >= 2);
    assert_eq!(
        t.db.boards()
            .archive_closed_boards(epoch_millis())
            .await
            .unwrap(),
        0,
        "each board once"
    );
    let archive = t.db.boards().board_archive(&day).await.unwrap().unwrap();
    assert_eq!(archive.entries, 130);
    assert_eq!(archive.lines.len(), 100);
    for line in &archive.lines {
        assert_eq!(line.rank, brute.rank(&day, line.score));
    }
    assert_eq!(archive.lines, all_lines(&t.db, &day).await[..100].to_vec());
}
