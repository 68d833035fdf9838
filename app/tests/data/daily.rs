//! The daily flight against the engine: the day's draw made once, one flight a player a day,
//! taps checked and taken once, the result written once and counted by the projector on the
//! daily's boards and in days in a row (the 7-day badge once, through replays of the stream).
//! Days are set by the test (the daily's clock), never read from the system's.

use app::daily::clock::day_start_ms;
use app::daily::model::{over_ms, reveal_ms, FLIGHT_ROUNDS};
use app::daily::store::{order, things_in_order, DailyConflict, Flight};
use app::game::draw_things;
use app::game::timing::{Received, TapRejected};
use app::identity::{Avatar, UserId};
use app::ids::Day;
use app::inventory::Badge;
use app::leaderboards::period::daily_boards_for;
use app::store::keys;
use aws_sdk_dynamodb::types::AttributeValue;

use super::boards::projector;
use super::{name, player, seed_things, seeded_table, TestTable};

fn day(d: u8) -> Day {
    Day {
        year: 2026,
        month: 12,
        day: d,
    }
}

/// Whether a thing of the seed catalog flies (the oracle: the catalog's own rulings).
fn flies(id: &app::catalog::ThingId) -> bool {
    seed_things()
        .iter()
        .find(|t| &t.id == id)
        .map(|t| t.flies)
        .expect("a drawn thing is in the catalog")
}

async fn start(t: &TestTable, user: &UserId, d: Day, at_ms: i64) -> Flight {
    t.db.daily()
        .start(user, &name("Flyer"), Avatar::Owl, d, at_ms)
        .await
        .unwrap()
}

/// Plays a whole flight: taps at 300 ms on exactly the rounds `taps` says (each received 350
/// ms after its reveal from a session timed at 60 ms), then finishes it.
async fn fly(t: &TestTable, user: &UserId, d: Day, taps: &[bool]) -> Flight {
    fly_at(t, user, d, taps, 300, Received::at(350, Some(60))).await
}

/// Plays a whole flight tapping on the rounds `taps` says, claiming `claimed` ms, each received
/// `received.at_ms` after its reveal from a session timed at `received.latency_ms`.
async fn fly_at(
    t: &TestTable,
    user: &UserId,
    d: Day,
    taps: &[bool],
    claimed: u32,
    received: Received,
) -> Flight {
    let started = day_start_ms(d) + 3_600_000;
    let flight = start(t, user, d, started).await;
    for (i, _) in taps.iter().enumerate().filter(|(_, tap)| **tap) {
        let reveal = reveal_ms(started, i);
        let at = Received::at(reveal + received.at_ms, received.latency_ms);
        t.db.daily()
            .tap(user, d, started, reveal, claimed, at)
            .await
            .unwrap();
    }
    let flight =
        t.db.daily()
            .flight(user, flight.day)
            .await
            .unwrap()
            .unwrap();
    let draw = t.db.daily().day_draw(d, started).await.unwrap();
    t.db.daily()
        .finish(flight, &draw, over_ms(started))
        .await
        .unwrap()
}

#[tokio::test]
async fn the_days_draw_is_made_once_reproduces_from_its_seed_and_each_player_has_an_order() {
    let t = seeded_table().await;
    let d = day(1);
    // Two instances draw at once: one draw stands, and both get it.
    let (a, b) = tokio::join!(
        t.db.daily().day_draw(d, day_start_ms(d)),
        t.db.daily().day_draw(d, day_start_ms(d))
    );
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a, b, "one draw for the day");
    assert_eq!(a.things.len(), FLIGHT_ROUNDS);
    // The published seed reproduces the draw from the catalog.
    assert_eq!(draw_things(&seed_things(), FLIGHT_ROUNDS, a.seed), a.things);
    let items = t.partition(&keys::daily_partition(&d)).await;
    assert_eq!(items.len(), 1, "one item: the draw");

    // Two players: the same ten things, in orders of their own.
    let (asha, ravi) = (player(&t, "Asha").await, player(&t, "Ravi").await);
    let (for_asha, for_ravi) = (things_in_order(&a, &asha), things_in_order(&a, &ravi));
    let mut sorted = (for_asha.clone(), for_ravi.clone(), a.things.clone());
    sorted.0.sort();
    sorted.1.sort();
    sorted.2.sort();
    assert_eq!(sorted.0, sorted.2);
    assert_eq!(sorted.1, sorted.2);
    assert_ne!(order(a.seed, &asha), order(a.seed, &ravi), "orders differ");
    // Another day draws again.
    let other =
        t.db.daily()
            .day_draw(day(2), day_start_ms(day(2)))
            .await
            .unwrap();
    assert_ne!(other.seed, a.seed);

    // An instance reads a day's draw from the table once: the same draw, no call after.
    let calls = app::store::Recorder::new();
    let db =
        app::store::Db::new(t.engine.client.clone(), t.db.table_name()).recording(calls.clone());
    let draws = app::daily::draws::DayDraws::default();
    let first = draws.get(&db, d, day_start_ms(d)).await.unwrap();
    assert_eq!(*first, a, "the day's draw as made");
    assert_eq!(calls.ops().len(), 1, "{:?}", calls.ops());
    for _ in 0..3 {
        assert_eq!(*draws.get(&db, d, day_start_ms(d)).await.unwrap(), a);
    }
    assert_eq!(calls.ops().len(), 1, "read once: {:?}", calls.ops());
    let second = draws.get(&db, day(2), day_start_ms(day(2))).await.unwrap();
    assert_eq!(*second, other, "another day is its own draw");
    assert_eq!(calls.ops().len(), 2);
}

#[tokio::test]
async fn one_flight_a_day_and_every_bad_tap_is_refused_and_changes_nothing() {
    let t = seeded_table().await;
    let d = day(3);
    let asha = player(&t, "Asha").await;
    let started = day_start_ms(d) + 1_000;
    let flight = start(&t, &asha, d, started).await;
    // A second start (a reload, another tab, another device) is refused; the first stands.
    let again =
        t.db.daily()
            .start(&asha, &name("Flyer"), Avatar::Owl, d, started + 5_000)
            .await;
    assert!(
        matches!(again, Err(DailyConflict::AlreadyFlown)),
        "{again:?}"
    );
    let stored = t.db.daily().flight(&asha, d).await.unwrap().unwrap();
    assert_eq!(stored, flight);
    // Found by its start; another start (a second try's, a forged one) finds nothing.
    let by_start =
        t.db.daily()
            .flight_started_at(&asha, d, started)
            .await
            .unwrap();
    assert_eq!(by_start, Some(flight.clone()));
    let other =
        t.db.daily()
            .flight_started_at(&asha, d, started + 5_000)
            .await
            .unwrap();
    assert_eq!(other, None);

    let r2 = reveal_ms(started, 2);
    // Before the reveal, after the window and grace, faster than a human: refused before any
    // call.
    t.calls.reset();
    let early = t.db.daily().tap(&asha, d, started, r2, 300, r2 - 1).await;
    assert!(
        matches!(early, Err(DailyConflict::Tap(TapRejected::TooEarly))),
        "{early:?}"
    );
    let late =
        t.db.daily()
            .tap(&asha, d, started, r2, 300, r2 + 3_401)
            .await;
    assert!(
        matches!(late, Err(DailyConflict::Tap(TapRejected::TooLate))),
        "{late:?}"
    );
    let fast = t.db.daily().tap(&asha, d, started, r2, 50, r2 + 60).await;
    assert!(
        matches!(fast, Err(DailyConflict::Tap(TapRejected::TooFast))),
        "{fast:?}"
    );
    assert_eq!(
        t.calls.calls().len(),
        0,
        "timing is checked before any call"
    );
    // A reveal that is none of this flight's rounds, or another start's: refused.
    let forged =
        t.db.daily()
            .tap(&asha, d, started, r2 + 7, 300, r2 + 400)
            .await;
    assert!(
        matches!(forged, Err(DailyConflict::NotThisRound)),
        "{forged:?}"
    );
    let other_start = started + 1;
    let other = reveal_ms(other_start, 2);
    let forged =
        t.db.daily()
            .tap(&asha, d, other_start, other, 300, other + 400)
            .await;
    assert!(
        matches!(forged, Err(DailyConflict::NotThisRound)),
        "{forged:?}"
    );
    // Nobody's flight: refused.
    let ravi = player(&t, "Ravi").await;
    let nobody = t.db.daily().tap(&ravi, d, started, r2, 300, r2 + 400).await;
    assert!(
        matches!(nobody, Err(DailyConflict::NotStarted)),
        "{nobody:?}"
    );
    assert_eq!(
        t.db.daily().flight(&asha, d).await.unwrap().unwrap(),
        flight,
        "nothing refused changed the flight"
    );

    // A good tap counts once; the same round again is refused; its copy (a lost answer's
    // retry) is recognised.
    let took =
        t.db.daily()
            .tap(
                &asha,
                d,
                started,
                r2,
                300,
                Received::at(r2 + 400, Some(100)),
            )
            .await
            .unwrap();
    assert_eq!(took, (2, 300));
    let copy =
        t.db.daily()
            .tap(
                &asha,
                d,
                started,
                r2,
                300,
                Received::at(r2 + 400, Some(100)),
            )
            .await
            .unwrap();
    assert_eq!(copy, (2, 300), "the same tap again is the one counted");
    let again = t.db.daily().tap(&asha, d, started, r2, 500, r2 + 600).await;
    assert!(
        matches!(again, Err(DailyConflict::AlreadyCalled)),
        "{again:?}"
    );
    let stored = t.db.daily().flight(&asha, d).await.unwrap().unwrap();
    assert_eq!(stored.taps_by_round()[2], Some(300));
    assert_eq!(stored.taps.len(), 1);
}

#[tokio::test]
async fn a_flight_is_finished_once_and_scored_by_its_things_rulings() {
    let t = seeded_table().await;
    let d = day(4);
    let asha = player(&t, "Asha").await;
    let started = day_start_ms(d) + 1_000;
    let flight = start(&t, &asha, d, started).await;
    let draw = t.db.daily().day_draw(d, started).await.unwrap();
    // Tap exactly the flyers, each at 300 ms: ten right calls.
    let things = things_in_order(&draw, &asha);
    for (i, thing) in things.iter().enumerate() {
        if flies(thing) {
            let reveal = reveal_ms(started, i);
            t.db.daily()
                .tap(
                    &asha,
                    d,
                    started,
                    reveal,
                    300,
                    Received::at(reveal + 350, Some(60)),
                )
                .await
                .unwrap();
        }
    }
    let flight =
        t.db.daily()
            .flight(&asha, flight.day)
            .await
            .unwrap()
            .unwrap();
    // Not over yet: nothing written.
    let early =
        t.db.daily()
            .finish(flight.clone(), &draw, over_ms(started) - 1)
            .await
            .unwrap();
    assert!(early.result.is_none());
    // Over: two finishers at once write one result.
    let (a, b) = tokio::join!(
        t.db.daily().finish(flight.clone(), &draw, over_ms(started)),
        t.db.daily()
            .finish(flight.clone(), &draw, over_ms(started) + 10)
    );
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a.result, b.result);
    let result = a.result.unwrap();
    assert_eq!(result.correct, 10);
    assert_eq!(result.grid, "1111111111");
    // By the rules' table: a flyer tapped at 300 of 3000 ms is 500 + 450; a held non-flyer
    // 150; from the second right call on, 50 a step up to 250.
    let flyers = things.iter().filter(|t| flies(t)).count() as i32;
    let streaks: i32 = (1..=10).map(|k: i32| ((k - 1) * 50).min(250)).sum();
    assert_eq!(result.score, flyers * 950 + (10 - flyers) * 150 + streaks);
    assert_eq!(result.finished_ms, over_ms(started));
    let stored = t.db.daily().flight(&asha, d).await.unwrap().unwrap();
    assert_eq!(stored.result.as_ref(), Some(&result));
}

#[tokio::test]
async fn the_projector_counts_flights_on_the_daily_boards_and_days_in_a_row_once() {
    let t = seeded_table().await;
    let asha = player(&t, "Asha").await;
    let ravi = player(&t, "Ravi").await;
    // Asha flies six days in a row, misses a day, then seven in a row; Ravi flies once.
    let mut asha_days: Vec<Day> = (1..=6).map(day).collect();
    asha_days.extend((8..=14).map(day));
    for d in &asha_days {
        fly(&t, &asha, *d, &[true; FLIGHT_ROUNDS]).await;
    }
    let ravi_flight = fly(&t, &ravi, day(14), &[false; FLIGHT_ROUNDS]).await;
    projector(&t).catch_up().await.unwrap();

    let days = t.partition(&keys::user_partition(&asha)).await;
    let run = days
        .iter()
        .find(|i| i.get("SK").and_then(|v| v.as_s().ok()).map(String::as_str) == Some("DAYS"))
        .expect("days in a row are kept");
    let number = |k: &str| run.get(k).unwrap().as_n().unwrap().parse::<u32>().unwrap();
    assert_eq!(number("run"), 7, "a missed day starts the run again");
    assert_eq!(number("best"), 7);
    let badges = t.db.inventory().badges(&asha).await.unwrap();
    assert_eq!(
        badges.iter().filter(|(b, _)| *b == Badge::Days7).count(),
        1,
        "{badges:?}"
    );
    assert!(!badges.iter().any(|(b, _)| *b == Badge::Days30));
    assert!(t.db.inventory().badges(&ravi).await.unwrap().is_empty());
    // The profile shows the run while it lasts: on its last day and the day after, not later.
    let profile =
        t.db.profiles()
            .profile_page(&asha, None, None, app::lang::Locale::en)
            .await
            .unwrap()
            .unwrap();
    assert_eq!((profile.days.run, profile.days.best), (7, 7));
    assert_eq!(profile.days.last, Some(day(14)));
    assert_eq!(profile.days.on(day(14)), 7);
    assert_eq!(profile.days.on(day(15)), 7, "today's flight not flown yet");
    assert_eq!(profile.days.on(day(16)), 0, "a day missed");

    // The day's board ranks both; Ravi's score is his flight's.
    let board = &daily_boards_for(day(14))[0];
    let (line, total) = t.db.boards().my_line(board, &ravi).await.unwrap().unwrap();
    assert_eq!(total, 2);
    assert_eq!(line.score, i64::from(ravi_flight.result.unwrap().score));
    // The week's board and all time's hold Asha's best flight once.
    let all_time = &daily_boards_for(day(14))[2];
    assert_eq!(t.db.boards().board_entries(all_time).await.unwrap(), 2);

    // The stream replayed from its start (the shard's lease and checkpoint gone) counts
    // nothing again; nor do the records handed to the counting again.
    let before = t.partition(&keys::user_partition(&asha)).await;
    let lease = t
        .partition(keys::PROJECTOR)
        .await
        .into_iter()
        .filter_map(|i| i.get("SK")?.as_s().ok().cloned())
        .find(|sk| sk.starts_with("SHARD#"))
        .expect("the projector made a lease");
    t.engine
        .client
        .delete_item()
        .table_name(t.db.table_name())
        .key("PK", AttributeValue::S(keys::PROJECTOR.into()))
        .key("SK", AttributeValue::S(lease))
        .send()
        .await
        .unwrap();
    let replay = projector(&t).catch_up().await.unwrap();
    assert_eq!(replay.counted, 0, "the replay counted nothing twice");
    let flights: Vec<_> = asha_days.iter().map(|d| flight_record(&asha, *d)).collect();
    let applied = t.db.boards().count_results(&flights, &[]).await.unwrap();
    assert_eq!(applied.counted, 0, "every flight was counted already");
    let after = t.partition(&keys::user_partition(&asha)).await;
    assert_eq!(before, after, "nothing of Asha's changed");
    let sevens = t.db.inventory().badges(&asha).await.unwrap();
    assert_eq!(sevens.iter().filter(|(b, _)| *b == Badge::Days7).count(), 1);
}

/// A flight's record as the projector makes it from the stream (its id names the day).
fn flight_record(user: &UserId, d: Day) -> app::game::model::MatchRecord {
    app::game::model::MatchRecord {
        record_id: format!("DAILY-{d}"),
        user_id: user.clone(),
        nickname: name("Flyer"),
        avatar: Avatar::Owl,
        room: app::rooms::RoomCode::daily(),
        room_id: None,
        score: 1,
        placement: 1,
        players: 1,
        correct: 10,
        rounds: 10,
        average_reaction_ms: Some(300),
        finished_at_ms: day_start_ms(d) + 3_700_000,
        right: Vec::new(),
        best_streak: 10,
        first_round: 0,
        daily: Some(d),
        deck: None,
        flagged: false,
    }
}

#[tokio::test]
async fn a_scripted_flight_is_counted_at_the_servers_measure_and_a_too_fast_one_is_flagged_off_the_boards(
) {
    let t = seeded_table().await;
    // One projector for the whole test: a second would wait out the first's lease.
    let mut stream = projector(&t);
    let d = day(20);
    // The probe's script: every round tapped 380 ms after the reveal claiming 80 ms, its pings
    // answered slowly (a round trip of a second). Counted at 380 less the capped 150: 230 ms.
    let script = player(&t, "Script").await;
    let scripted = fly_at(
        &t,
        &script,
        d,
        &[true; FLIGHT_ROUNDS],
        80,
        Received::at(380, Some(1000)),
    )
    .await;
    assert_eq!(scripted.taps_by_round(), vec![Some(230); FLIGHT_ROUNDS]);
    assert_eq!(scripted.result.as_ref().unwrap().average_ms, Some(230));
    assert!(!scripted.flagged, "230 ms is a person's speed");

    // A bot next to the server: ten taps 90 ms after the reveal (pinged at 5 ms): each counts at
    // 85 ms, the result stands for the player, and it is flagged.
    let bot = player(&t, "Bot").await;
    let fast = fly_at(
        &t,
        &bot,
        d,
        &[true; FLIGHT_ROUNDS],
        80,
        Received::at(90, Some(5)),
    )
    .await;
    assert_eq!(fast.taps_by_round(), vec![Some(85); FLIGHT_ROUNDS]);
    assert!(fast.flagged);
    assert!(fast.result.is_some(), "the result is the player's");
    // A person flies the same day.
    let asha = player(&t, "Asha").await;
    fly(&t, &asha, d, &[true; FLIGHT_ROUNDS]).await;
    stream.catch_up().await.unwrap();

    // The day's boards hold the person and the script counted at 230 ms; not the bot.
    for board in daily_boards_for(d) {
        assert!(
            t.db.boards()
                .my_line(&board, &asha)
                .await
                .unwrap()
                .is_some(),
            "{board:?}"
        );
        assert!(
            t.db.boards()
                .my_line(&board, &script)
                .await
                .unwrap()
                .is_some(),
            "{board:?}"
        );
        assert_eq!(
            t.db.boards().my_line(&board, &bot).await.unwrap(),
            None,
            "{board:?}"
        );
    }
    // The operator's list names the bot's flight, once.
    let flagged = t.db.game().flagged_results(100).await.unwrap();
    assert_eq!(flagged.len(), 1, "{flagged:?}");
    assert_eq!(flagged[0].user_id, bot.as_str());
    assert_eq!(flagged[0].key, keys::flight(&bot, &d));
    assert_eq!(flagged[0].average_ms, Some(85));

    // Confirmed: it leaves the list and still counts nowhere, however often the stream is read.
    assert!(t.db.game().confirm_flag(&flagged[0].key).await.unwrap());
    assert!(
        !t.db.game().confirm_flag(&flagged[0].key).await.unwrap(),
        "once"
    );
    stream.catch_up().await.unwrap();
    assert!(t.db.game().flagged_results(100).await.unwrap().is_empty());
    for board in daily_boards_for(d) {
        assert_eq!(t.db.boards().my_line(&board, &bot).await.unwrap(), None);
    }
    assert!(
        !t.db.game().clear_flag(&flagged[0].key).await.unwrap(),
        "a confirmed flag is not cleared"
    );

    // Another day's flagged flight, cleared by the operator: it counts now, once.
    let d2 = day(21);
    let again = fly_at(
        &t,
        &bot,
        d2,
        &[true; FLIGHT_ROUNDS],
        80,
        Received::at(90, Some(5)),
    )
    .await;
    assert!(again.flagged);
    stream.catch_up().await.unwrap();
    let day_board = &daily_boards_for(d2)[0];
    assert_eq!(t.db.boards().my_line(day_board, &bot).await.unwrap(), None);
    assert!(t
        .db
        .game()
        .clear_flag(&keys::flight(&bot, &d2))
        .await
        .unwrap());
    stream.catch_up().await.unwrap();
    let (line, total) =
        t.db.boards()
            .my_line(day_board, &bot)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(total, 1);
    assert_eq!(line.score, i64::from(again.result.unwrap().score));
    assert!(t.db.game().flagged_results(100).await.unwrap().is_empty());
}
