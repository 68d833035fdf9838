//! Whether a room's host is here travels between the instances as news, never through the
//! table: an instance holding one of the host's live streams tells the others; a watcher hands
//! the room of a host unseen for the grace (by its own streams, the others' news, and its own
//! time) on, once across instances. The table is written when hosting passes, not to say a host
//! is here.

use std::time::Duration;

use app::identity::Avatar;
use app::rooms::model::HOST_AWAY_MS;
use app::store::{epoch_millis, Recorder};

use super::control::{hosting_entries, room_with, set_host_seen};
use super::live::two_peers;
use super::{name, player, seeded_table, test_table};

/// The grace the two instances of these tests judge a host away after (a tenth of the real one).
const AWAY: Duration = Duration::from_millis(HOST_AWAY_MS as u64 / 10);

/// The calls among `calls` that write.
fn writes(calls: &Recorder) -> Vec<&'static str> {
    calls
        .ops()
        .into_iter()
        .filter(|op| {
            matches!(
                *op,
                "PutItem" | "UpdateItem" | "DeleteItem" | "BatchWriteItem" | "TransactWriteItems"
            )
        })
        .collect()
}

/// How many of the room's match's rounds are closed, as the table holds them.
async fn game_rounds_closed(t: &super::TestTable, code: &app::rooms::RoomCode) -> usize {
    let room = t.db.game().room(code).await.unwrap().unwrap();
    room.game.map_or(0, |g| g.resolved as usize)
}

#[tokio::test]
async fn a_host_listening_on_one_instance_keeps_the_room_by_news_alone_and_once_gone_is_handed_on_once(
) {
    let t = seeded_table().await;
    let (code, host, ids) = room_with(&t, "PRSN2", &["Asha"]).await;
    let asha = ids[0].clone();
    let ravi = player(&t, "Ravi").await;
    t.db.rooms()
        .join_room(&code, &ravi, &name("Ravi"), Avatar::Owl)
        .await
        .unwrap();
    // Hosting passed long ago: the table alone would say the host is away.
    set_host_seen(&t, &code, epoch_millis() - HOST_AWAY_MS - 5_000).await;
    let calls = [Recorder::new(), Recorder::new()];
    let [first, second] = two_peers(&t, [&calls[0], &calls[1]]).await;
    for hub in [&first, &second] {
        hub.set_host_away(AWAY);
    }
    // The host and Ravi listen on A, Asha on B, where B is the instance first in the room's
    // order: B closes the rounds, and reads the room again after each close, while it knows of
    // the host only from A's news.
    let b_first = first.peers().unwrap().rank(code.as_str()) == 0;
    let (a, b) = if b_first {
        (second, first)
    } else {
        (first, second)
    };
    assert_eq!(b.peers().unwrap().rank(code.as_str()), 0);
    let (host_feed, host_listening) = a.subscribe_as(&code, Some(host.clone()));
    let _ravi = a.subscribe_as(&code, Some(ravi.clone()));
    let _asha = b.subscribe_as(&code, Some(asha.clone()));
    // A match in play: its rounds close through B's watcher.
    t.db.game()
        .start_match(&code, &host, Some(super::game::SEED))
        .await
        .unwrap();
    a.poke(&code);
    let before = t.db.rooms().lobby(&code).await.unwrap().unwrap();

    // Three graces: B hears the host's presence from A the whole time, and nobody writes.
    // Meanwhile B reads the room again and again, as writes made through it make it do: what
    // it heard of the host outlives each read (the table does not hold it).
    let poking = {
        let (b, code) = (b.clone(), code.clone());
        tokio::spawn(async move {
            loop {
                b.poke(&code);
                tokio::time::sleep(Duration::from_millis(15)).await;
            }
        })
    };
    tokio::time::sleep(AWAY * 3).await;
    poking.abort();
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!(lobby.host_id, host, "the listening host keeps the room");
    assert_eq!(lobby.version, before.version);
    assert_eq!(
        lobby.host_seen_ms, before.host_seen_ms,
        "nothing wrote that the host is here"
    );
    let closes = game_rounds_closed(&t, &code).await;
    assert!(closes > 0, "rounds closed meanwhile, through the watchers");
    for (instance, calls) in ["first", "second"].iter().zip(&calls) {
        assert!(
            !writes(calls).contains(&"TransactWriteItems"),
            "the {instance} instance in the room's order handed nothing on"
        );
    }

    // The host's stream closes: after the grace, one of the two watchers hands the room to
    // Asha, the longest-present other player; the other's write is refused or never made.
    drop((host_feed, host_listening));
    let deadline = std::time::Instant::now() + AWAY * 4 + Duration::from_secs(3);
    loop {
        let now = t.db.rooms().lobby(&code).await.unwrap().unwrap();
        if now.host_id == asha {
            assert_eq!(now.version, before.version + 1, "handed on once");
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the away host's room was handed on"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(AWAY).await;
    let after = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!(
        (after.host_id.clone(), after.version),
        (asha.clone(), before.version + 1),
        "and only once, across the two instances"
    );
    assert_eq!(after.away_host.as_ref(), Some(&host));
    assert_eq!(
        hosting_entries(&t, &code).await,
        [format!("HOSTING#{asha}")]
    );
}

#[tokio::test]
async fn a_watcher_that_just_began_waits_a_whole_grace_before_judging_a_host_away() {
    // An instance that just began watching has heard nothing yet: the host may be listening
    // elsewhere. It judges only after a grace of its own, whatever the table says.
    let t = test_table().await;
    let (code, host, ids) = room_with(&t, "PRSW2", &["Asha"]).await;
    set_host_seen(&t, &code, epoch_millis() - HOST_AWAY_MS - 5_000).await;
    let calls = [Recorder::new(), Recorder::new()];
    let [_a, b] = two_peers(&t, [&calls[0], &calls[1]]).await;
    b.set_host_away(AWAY);
    let began = std::time::Instant::now();
    let _asha = b.subscribe_as(&code, Some(ids[0].clone()));
    loop {
        let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
        if lobby.host_id != host {
            break;
        }
        assert!(
            began.elapsed() < AWAY * 4 + Duration::from_secs(3),
            "the room was handed on in the end"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        began.elapsed() >= AWAY,
        "handed on after {:?}, within the watcher's own grace of {AWAY:?}",
        began.elapsed()
    );
}

/// The players a feed's latest snapshot shows away.
fn away_on(feed: &app::live::hub::FeedReceiver) -> Vec<app::identity::UserId> {
    match feed.borrow().as_deref().map(|s| &s.feed) {
        Some(app::live::feed::RoomFeed::Room(room)) => room
            .players
            .iter()
            .filter(|p| p.away)
            .map(|p| p.user_id.clone())
            .collect(),
        _ => Vec::new(),
    }
}

/// Waits (at most `within`) until `feed` shows exactly `away` away.
async fn wait_for_away(
    feed: &app::live::hub::FeedReceiver,
    away: &[app::identity::UserId],
    within: Duration,
    what: &str,
) -> Duration {
    let began = std::time::Instant::now();
    while away_on(feed) != away {
        assert!(began.elapsed() < within, "{what}: away {:?}", away_on(feed));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    began.elapsed()
}

#[tokio::test]
async fn a_player_heard_on_either_instance_shows_present_on_both_goes_grey_once_gone_and_is_back_at_once(
) {
    let t = test_table().await;
    let (code, host, ids) = room_with(&t, "PRSG2", &["Asha"]).await;
    let asha = ids[0].clone();
    let calls = [Recorder::new(), Recorder::new()];
    let [a, b] = two_peers(&t, [&calls[0], &calls[1]]).await;
    for hub in [&a, &b] {
        hub.set_host_away(AWAY);
    }
    // Shown away after two thirds of the host's grace (20 of 30 s in play).
    let grey = AWAY * 2 / 3;
    // The host and Asha listen on A; the big screen (nobody signed in) on B.
    let _host = a.subscribe_as(&code, Some(host.clone()));
    let (asha_feed, asha_listening) = a.subscribe_as(&code, Some(asha.clone()));
    let (screen, _) = b.subscribe_as(&code, None);
    // Past B's own grace, B knows both only from A's news: nobody is away.
    tokio::time::sleep(AWAY + grey).await;
    assert_eq!(
        away_on(&screen),
        Vec::new(),
        "both present on the other instance"
    );
    for calls in &calls {
        calls.reset();
    }

    // Asha's page closes: grey on B once unheard for the grace, the host not.
    drop((asha_feed, asha_listening));
    let took = wait_for_away(
        &screen,
        std::slice::from_ref(&asha),
        grey * 3,
        "Asha shown away",
    )
    .await;
    assert!(took >= grey / 3, "not long before the grace: {took:?}");
    // Back, on B itself: present at once.
    let _back = b.subscribe_as(&code, Some(asha.clone()));
    let took = wait_for_away(&screen, &[], Duration::from_secs(1), "Asha back").await;
    assert!(took < Duration::from_millis(500), "back at once: {took:?}");
    for (instance, calls) in ["A", "B"].iter().zip(&calls) {
        assert_eq!(
            writes(calls),
            Vec::<&str>::new(),
            "{instance} wrote nothing for presence"
        );
    }
}

#[tokio::test]
async fn opening_the_room_on_another_device_moves_the_seat_there_and_tells_the_first_on_either_instance(
) {
    let t = test_table().await;
    let (code, _host, ids) = room_with(&t, "PRSM2", &["Asha"]).await;
    let asha = ids[0].clone();
    let calls = [Recorder::new(), Recorder::new()];
    let [a, b] = two_peers(&t, [&calls[0], &calls[1]]).await;
    let told = |mut moved: tokio::sync::watch::Receiver<bool>, what: &'static str| async move {
        tokio::time::timeout(Duration::from_secs(2), moved.wait_for(|moved| *moved))
            .await
            .unwrap_or_else(|_| panic!("{what} was told its seat moved"))
            .unwrap();
    };
    let (_phone_feed, _phone, phone) = a.subscribe_from(&code, asha.clone(), "phone".into());
    // A second tab on the same device: nothing moves.
    let (_tab_feed, _tab, tab) = a.subscribe_from(&code, asha.clone(), "phone".into());
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !*phone.borrow() && !*tab.borrow(),
        "the same device keeps its seat"
    );
    // The laptop, through the other instance: both of the phone's streams are told.
    let (_laptop_feed, _laptop, laptop) = b.subscribe_from(&code, asha.clone(), "laptop".into());
    told(phone, "the phone").await;
    told(tab, "the phone's other tab").await;
    assert!(!*laptop.borrow(), "the newest device keeps the seat");
    // Back on the phone, through the first instance: the laptop is told in turn.
    let (_back_feed, _back, back) = a.subscribe_from(&code, asha.clone(), "phone".into());
    told(laptop, "the laptop").await;
    assert!(!*back.borrow());
    // Someone else's device moves nobody's seat.
    let other = player(&t, "Ravi").await;
    let (_ravi_feed, _ravi, _) = b.subscribe_from(&code, other, "ravi".into());
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!*back.borrow());
}
