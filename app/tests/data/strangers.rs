//! The host's rules for strangers, on both engines: a join the host approves (asks that wait, are
//! let in or turned away, and a turned-away player or browser that cannot ask again for ten
//! minutes), a removed player's browser kept out under a new name, friendly names drawn again at
//! most three times, the races of a host's two pages, and what each step costs.

use app::identity::{Avatar, UserId};
use app::lang::Locale;
use app::rooms::store::asks::Asked;
use app::rooms::store::{Joiner, RoomConflict};
use app::rooms::{RoomCode, RoomRule, RoomSettings};

use super::{cost, name, player, room, set_ttl, test_table, TestTable};

fn joiner(user: &UserId, nick: &str, mark: &str) -> Joiner {
    Joiner {
        mark: Some(mark.to_owned()),
        ..Joiner::new(user, &name(nick), Avatar::Owl)
    }
}

async fn ask(t: &TestTable, code: &RoomCode, who: &Joiner) -> Result<Asked, RoomConflict> {
    t.db.rooms().ask_to_join(code, who, Vec::new()).await
}

/// The room's players and those asking, by name, as the lobby reads them.
async fn names(t: &TestTable, code: &RoomCode) -> (Vec<String>, Vec<String>) {
    let lobby = t.db.rooms().lobby(code).await.unwrap().unwrap();
    let of =
        |list: &[app::rooms::RoomPlayer]| list.iter().map(|p| p.nickname.to_string()).collect();
    (of(&lobby.players), of(&lobby.asking))
}

/// `player_count` as META holds it, read raw.
async fn seats(t: &TestTable, code: &RoomCode) -> i64 {
    t.partition(&format!("ROOM#{code}"))
        .await
        .into_iter()
        .find(|item| {
            item.get("SK")
                .and_then(|v| v.as_s().ok())
                .map(String::as_str)
                == Some("META")
        })
        .and_then(|meta| meta.get("player_count")?.as_n().ok()?.parse().ok())
        .expect("META's player_count")
}

#[tokio::test]
async fn a_host_lets_one_asker_in_and_turns_another_away_who_cannot_ask_again_from_that_browser() {
    let t = test_table().await;
    let (code, host) = room(&t, "QASK2", RoomSettings::default()).await;
    let asha = player(&t, "Asha").await;
    let bo = player(&t, "Bo").await;
    // Until the host turns the rule on, nobody waits: the room lets anyone in.
    assert_eq!(
        ask(&t, &code, &joiner(&asha, "Asha", "browser-a"))
            .await
            .unwrap(),
        Asked::NotNeeded
    );
    t.db.rooms()
        .set_rule(&code, &host, RoomRule::Approve, true)
        .await
        .unwrap();

    t.calls.reset();
    assert_eq!(
        ask(&t, &code, &joiner(&asha, "Asha", "browser-a"))
            .await
            .unwrap(),
        Asked::Waiting
    );
    let (calls, read, written) = cost(&t.calls);
    println!("an ask: {calls} call(s), {read} RCU, {written} WCU");
    assert_eq!(calls, 1, "an ask is one transaction");
    assert_eq!(
        ask(&t, &code, &joiner(&bo, "Bo", "browser-b"))
            .await
            .unwrap(),
        Asked::Waiting
    );
    // Asking twice is asking once.
    assert_eq!(
        ask(&t, &code, &joiner(&asha, "Asha", "browser-a"))
            .await
            .unwrap(),
        Asked::Waiting
    );
    assert_eq!(
        names(&t, &code).await,
        (vec!["Host".into()], vec!["Asha".into(), "Bo".into()])
    );

    t.calls.reset();
    t.db.rooms()
        .answer_ask(&code, &host, &asha, true)
        .await
        .unwrap();
    let (calls, read, written) = cost(&t.calls);
    println!("letting one in: {calls} call(s), {read} RCU, {written} WCU");
    assert_eq!(
        names(&t, &code).await,
        (vec!["Host".into(), "Asha".into()], vec!["Bo".into()])
    );
    assert_eq!(seats(&t, &code).await, 2);

    t.calls.reset();
    t.db.rooms()
        .answer_ask(&code, &host, &bo, false)
        .await
        .unwrap();
    let (calls, read, written) = cost(&t.calls);
    println!("turning one away: {calls} call(s), {read} RCU, {written} WCU");
    assert_eq!(
        names(&t, &code).await,
        (vec!["Host".into(), "Asha".into()], Vec::<String>::new())
    );
    assert_eq!(seats(&t, &code).await, 2);

    // Turned away: not again, nor as a fresh guest from the same browser; another browser may.
    assert!(matches!(
        ask(&t, &code, &joiner(&bo, "Bo", "browser-b")).await,
        Err(RoomConflict::TurnedAway)
    ));
    let fresh = player(&t, "Bo again").await;
    assert!(matches!(
        ask(&t, &code, &joiner(&fresh, "Bo again", "browser-b")).await,
        Err(RoomConflict::TurnedAway)
    ));
    let carl = player(&t, "Carl").await;
    assert_eq!(
        ask(&t, &code, &joiner(&carl, "Carl", "browser-c"))
            .await
            .unwrap(),
        Asked::Waiting
    );
    // Ten minutes on (the marks' time passed), Bo may ask again.
    let past = app::store::epoch_seconds() - 1;
    set_ttl(&t, &format!("ROOM#{code}"), &format!("BARRED#{bo}"), past).await;
    set_ttl(&t, &format!("ROOM#{code}"), "BARRED#M#browser-b", past).await;
    assert_eq!(
        ask(&t, &code, &joiner(&bo, "Bo", "browser-b"))
            .await
            .unwrap(),
        Asked::Waiting
    );
}

#[tokio::test]
async fn only_the_host_sets_the_rules_and_answers_the_queue() {
    let t = test_table().await;
    let (code, host) = room(&t, "QHST2", RoomSettings::default()).await;
    t.db.rooms()
        .set_rule(&code, &host, RoomRule::Approve, true)
        .await
        .unwrap();
    let asha = player(&t, "Asha").await;
    ask(&t, &code, &joiner(&asha, "Asha", "browser-a"))
        .await
        .unwrap();
    let stranger = player(&t, "Stranger").await;
    assert!(matches!(
        t.db.rooms()
            .set_rule(&code, &stranger, RoomRule::Approve, false)
            .await,
        Err(RoomConflict::NotHost)
    ));
    assert!(matches!(
        t.db.rooms().answer_ask(&code, &stranger, &asha, true).await,
        Err(RoomConflict::NotHost)
    ));
    // Asha waits still, and the rule holds.
    assert_eq!(names(&t, &code).await.1, vec!["Asha".to_string()]);
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert!(lobby.rules().approve);
    // Nobody asking: nothing to answer.
    assert!(matches!(
        t.db.rooms().answer_ask(&code, &host, &stranger, true).await,
        Err(RoomConflict::NotAsking)
    ));
}

#[tokio::test]
async fn a_hosts_two_pages_letting_people_in_at_once_fill_the_last_seat_once() {
    let t = test_table().await;
    let settings = RoomSettings {
        max_players: 2,
        ..RoomSettings::default()
    };
    let (code, host) = room(&t, "QRCE2", settings).await;
    t.db.rooms()
        .set_rule(&code, &host, RoomRule::Approve, true)
        .await
        .unwrap();
    let asha = player(&t, "Asha").await;
    let bo = player(&t, "Bo").await;
    ask(&t, &code, &joiner(&asha, "Asha", "browser-a"))
        .await
        .unwrap();
    ask(&t, &code, &joiner(&bo, "Bo", "browser-b"))
        .await
        .unwrap();
    // The same asker let in from two pages, and another for the same last seat, all at once.
    let rooms = t.db.rooms();
    let (a1, a2, b) = tokio::join!(
        rooms.answer_ask(&code, &host, &asha, true),
        rooms.answer_ask(&code, &host, &asha, true),
        rooms.answer_ask(&code, &host, &bo, true),
    );
    let seated = [&a1, &a2, &b].iter().filter(|r| r.is_ok()).count();
    assert!(seated >= 1, "{a1:?} {a2:?} {b:?}");
    for refused in [&a1, &a2, &b].into_iter().filter_map(|r| r.as_ref().err()) {
        assert!(
            matches!(
                refused,
                RoomConflict::Full | RoomConflict::NotAsking | RoomConflict::Data(_)
            ),
            "{refused:?}"
        );
    }
    // One seat was free: exactly one of them sits in it, counted once.
    assert_eq!(seats(&t, &code).await, 2);
    let (players, _) = names(&t, &code).await;
    assert_eq!(players.len(), 2, "{players:?}");
}

#[tokio::test]
async fn a_removed_player_back_as_a_fresh_guest_from_the_same_browser_stays_out() {
    let t = test_table().await;
    let (code, host) = room(&t, "QMRK2", RoomSettings::default()).await;
    let asha = player(&t, "Asha").await;
    t.db.rooms()
        .join_room_looking(&code, &joiner(&asha, "Asha", "browser-a"), Vec::new())
        .await
        .unwrap();
    t.db.rooms().kick(&code, &host, &asha).await.unwrap();
    let fresh = player(&t, "Not Asha").await;
    assert!(matches!(
        t.db.rooms()
            .join_room_looking(&code, &joiner(&fresh, "Not Asha", "browser-a"), Vec::new())
            .await,
        Err(RoomConflict::Removed)
    ));
    // Nor into the room's audience from that browser (a tap along is still a name on the page).
    assert!(matches!(
        t.db.game()
            .join_audience(
                &code,
                &fresh,
                &name("Not Asha"),
                Avatar::Bee,
                Some("browser-a"),
                Vec::new()
            )
            .await,
        Err(app::game::store::GameConflict::Removed)
    ));
    // From another browser the same guest is welcome (what a mark cannot stop: a new browser).
    t.db.rooms()
        .join_room_looking(&code, &joiner(&fresh, "Not Asha", "browser-z"), Vec::new())
        .await
        .unwrap();
    assert_eq!(
        names(&t, &code).await.0,
        vec!["Host".to_string(), "Not Asha".to_string()]
    );
}

#[tokio::test]
async fn a_player_draws_another_friendly_name_three_times_and_frees_the_one_they_had() {
    let t = test_table().await;
    let (code, host) = room(&t, "QNME2", RoomSettings::default()).await;
    t.db.rooms()
        .set_rule(&code, &host, RoomRule::Friendly, true)
        .await
        .unwrap();
    let asha = player(&t, "Asha").await;
    t.db.rooms()
        .join_room_looking(&code, &joiner(&asha, "Swift Koel", "browser-a"), Vec::new())
        .await
        .unwrap();
    let mut had = vec!["Swift Koel".to_string()];
    for _ in 0..3 {
        t.calls.reset();
        let drawn =
            t.db.rooms()
                .draw_another_name(&code, &asha, Locale::en)
                .await
                .unwrap();
        let (calls, read, written) = cost(&t.calls);
        println!("another name: {calls} call(s), {read} RCU, {written} WCU");
        assert!(!had.contains(&drawn.to_string()), "{drawn} again");
        assert_eq!(drawn.as_str().split(' ').count(), 2, "{drawn}");
        assert_eq!(
            names(&t, &code).await.0,
            vec!["Host".to_string(), drawn.to_string()]
        );
        had.push(drawn.to_string());
    }
    assert!(matches!(
        t.db.rooms()
            .draw_another_name(&code, &asha, Locale::en)
            .await,
        Err(RoomConflict::NoMoreNames)
    ));
    // The first name's claim went with it: another player may take it.
    let bo = player(&t, "Bo").await;
    t.db.rooms()
        .join_room_looking(&code, &joiner(&bo, "Swift Koel", "browser-b"), Vec::new())
        .await
        .unwrap();
    // In a room without friendly names nobody draws one.
    let (plain, plain_host) = room(&t, "QNMF2", RoomSettings::default()).await;
    assert!(matches!(
        t.db.rooms()
            .draw_another_name(&plain, &plain_host, Locale::en)
            .await,
        Err(RoomConflict::NoMoreNames)
    ));
}
