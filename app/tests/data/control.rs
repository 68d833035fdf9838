//! Room control: the host's lock (decided by the join's own condition), explicit hand-over, the
//! away-host hand-over (exactly once across racing instances), the heartbeat, and stepping down
//! at sign-out through the `HOSTING#` entries on GSI1. Each refusal is shown to change nothing
//! by reading the room's partition raw before and after.

use app::identity::{Avatar, UserId};
use app::rooms::model::{RoomState, HOST_AWAY_MS, HOST_RETURN_MS};
use app::rooms::store::{Joined, RoomConflict};
use app::rooms::{RoomCode, RoomSettings};
use app::store::{epoch_millis, Db, Item, Recorder};
use aws_sdk_dynamodb::types::{AttributeValue, ReturnValue};

use super::{name, player, room, test_table, TestTable};

/// Another server instance's handle on the same table.
fn instance(t: &TestTable) -> Db {
    Db::new(t.engine.client.clone(), t.db.table_name()).recording(Recorder::new())
}

/// The room's partition as stored, in key order.
async fn stored(t: &TestTable, code: &RoomCode) -> Vec<Item> {
    let mut items = t.partition(&format!("ROOM#{code}")).await;
    items.sort_by_key(|item| format!("{:?}", item.get("SK")));
    items
}

/// The players whose PLAYER item in the room carries the `HOSTING#` entry, read raw.
pub(super) async fn hosting_entries(t: &TestTable, code: &RoomCode) -> Vec<String> {
    stored(t, code)
        .await
        .into_iter()
        .filter_map(|item| {
            let pk = item.get("GSI1PK")?.as_s().ok()?.clone();
            assert_eq!(
                item.get("GSI1SK").and_then(|v| v.as_s().ok()),
                Some(&code.to_string()),
                "the entry names the room"
            );
            Some(pk)
        })
        .collect()
}

/// Sets META's `host_seen` behind the data layer's back, as time passing would.
pub(super) async fn set_host_seen(t: &TestTable, code: &RoomCode, ms: i64) {
    t.engine
        .client
        .update_item()
        .table_name(t.db.table_name())
        .key("PK", AttributeValue::S(format!("ROOM#{code}")))
        .key("SK", AttributeValue::S("META".into()))
        .update_expression("SET host_seen = :ms")
        .expression_attribute_values(":ms", AttributeValue::N(ms.to_string()))
        .send()
        .await
        .unwrap();
}

/// A room with its host and `others` joined in this order (apart in time, so join order is
/// theirs).
pub(super) async fn room_with(
    t: &TestTable,
    raw: &str,
    others: &[&str],
) -> (RoomCode, UserId, Vec<UserId>) {
    let (code, host) = room(t, raw, RoomSettings::default()).await;
    let mut ids = Vec::new();
    for nick in others {
        tokio::time::sleep(std::time::Duration::from_millis(3)).await;
        let id = player(t, nick).await;
        t.db.rooms()
            .join_room(&code, &id, &name(nick), Avatar::Owl)
            .await
            .unwrap();
        ids.push(id);
    }
    (code, host, ids)
}

#[tokio::test]
async fn a_locked_room_refuses_newcomers_in_the_join_itself_and_unlocking_admits_them() {
    let t = test_table().await;
    let (code, host, ids) = room_with(&t, "KQCK2", &["Asha"]).await;
    let asha = &ids[0];
    t.calls.reset();
    t.db.rooms().set_locked(&code, &host, true).await.unwrap();
    assert_eq!(t.calls.ops(), ["UpdateItem"], "a lock is one write");
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert!(lobby.locked);
    assert_eq!(lobby.version, 3, "the lock is news to every watcher");

    let ravi = player(&t, "Ravi").await;
    let before = stored(&t, &code).await;
    let refused =
        t.db.rooms()
            .join_room(&code, &ravi, &name("Ravi"), Avatar::Bee)
            .await;
    assert!(matches!(refused, Err(RoomConflict::Locked)), "{refused:?}");
    assert_eq!(
        stored(&t, &code).await,
        before,
        "a refused join changes nothing"
    );
    // A player already in the room may join again (it is idempotent).
    let again =
        t.db.rooms()
            .join_room(&code, asha, &name("Asha"), Avatar::Owl)
            .await;
    assert_eq!(again.unwrap(), Joined::AlreadyIn);

    t.db.rooms().set_locked(&code, &host, false).await.unwrap();
    assert!(!t.db.rooms().lobby(&code).await.unwrap().unwrap().locked);
    let joined =
        t.db.rooms()
            .join_room(&code, &ravi, &name("Ravi"), Avatar::Bee)
            .await;
    assert_eq!(joined.unwrap(), Joined::Joined);
}

#[tokio::test]
async fn only_the_host_locks_or_hands_over_and_a_refusal_changes_nothing() {
    let t = test_table().await;
    let (code, host, ids) = room_with(&t, "RFSD2", &["Asha", "Ravi"]).await;
    let (asha, ravi) = (&ids[0], &ids[1]);
    let stranger = player(&t, "Stranger").await;
    let before = stored(&t, &code).await;

    let lock = t.db.rooms().set_locked(&code, asha, true).await;
    assert!(matches!(lock, Err(RoomConflict::NotHost)), "{lock:?}");
    let forged = t.db.rooms().hand_over(&code, asha, ravi).await;
    assert!(matches!(forged, Err(RoomConflict::NotHost)), "{forged:?}");
    let to_herself = t.db.rooms().hand_over(&code, asha, asha).await;
    assert!(
        matches!(to_herself, Err(RoomConflict::NotHost)),
        "{to_herself:?}"
    );
    let outsider = t.db.rooms().hand_over(&code, &host, &stranger).await;
    assert!(
        matches!(outsider, Err(RoomConflict::NotInRoom)),
        "{outsider:?}"
    );
    let unknown =
        t.db.rooms()
            .hand_over(&super::rooms_unknown(), &host, asha)
            .await;
    assert!(
        matches!(unknown, Err(RoomConflict::NotFound)),
        "{unknown:?}"
    );
    let unknown =
        t.db.rooms()
            .set_locked(&super::rooms_unknown(), &host, true)
            .await;
    assert!(
        matches!(unknown, Err(RoomConflict::NotFound)),
        "{unknown:?}"
    );

    assert_eq!(stored(&t, &code).await, before, "nothing changed");
    assert_eq!(
        hosting_entries(&t, &code).await,
        [format!("HOSTING#{host}")]
    );
}

#[tokio::test]
async fn the_host_hands_over_and_the_hosting_entries_follow() {
    let t = test_table().await;
    let (code, host, ids) = room_with(&t, "HNDV2", &["Asha", "Ravi"]).await;
    let (asha, ravi) = (&ids[0], &ids[1]);
    t.calls.reset();
    assert_eq!(
        t.db.rooms().rooms_hosted_by(&host).await.unwrap(),
        std::slice::from_ref(&code)
    );
    assert_eq!(t.calls.ops(), ["Query"], "one GSI1 Query");
    assert!(t.db.rooms().rooms_hosted_by(ravi).await.unwrap().is_empty());

    let version = t.db.rooms().lobby(&code).await.unwrap().unwrap().version;
    t.calls.reset();
    let started = epoch_millis();
    t.db.rooms().hand_over(&code, &host, ravi).await.unwrap();
    assert_eq!(t.calls.ops(), ["TransactWriteItems"], "one transaction");
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!(
        lobby.host_id, *ravi,
        "not the longest present: the one chosen"
    );
    assert_eq!(lobby.version, version + 1);
    assert!(
        lobby.host_seen_ms.is_some_and(|seen| seen >= started),
        "the new host starts with a grace period: {:?}",
        lobby.host_seen_ms
    );
    assert_eq!(
        hosting_entries(&t, &code).await,
        [format!("HOSTING#{ravi}")]
    );
    assert!(t
        .db
        .rooms()
        .rooms_hosted_by(&host)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        t.db.rooms().rooms_hosted_by(ravi).await.unwrap(),
        std::slice::from_ref(&code)
    );

    // The old host is an ordinary player now, and cannot take it back.
    let back = t.db.rooms().hand_over(&code, &host, &host).await;
    assert!(matches!(back, Err(RoomConflict::NotHost)), "{back:?}");

    // A leaving host hands over to the longest-present player, and the entry moves with it.
    t.db.rooms().leave_room(&code, ravi).await.unwrap();
    assert_eq!(
        t.db.rooms().lobby(&code).await.unwrap().unwrap().host_id,
        host
    );
    assert_eq!(
        hosting_entries(&t, &code).await,
        [format!("HOSTING#{host}")]
    );
    t.db.rooms().leave_room(&code, &host).await.unwrap();
    assert_eq!(
        hosting_entries(&t, &code).await,
        [format!("HOSTING#{asha}")]
    );
    assert_eq!(
        t.db.rooms().rooms_hosted_by(asha).await.unwrap(),
        std::slice::from_ref(&code)
    );
    // The last player leaving ends the room; nothing is hosted any more.
    t.db.rooms().leave_room(&code, asha).await.unwrap();
    assert!(t.db.rooms().rooms_hosted_by(asha).await.unwrap().is_empty());
}

#[tokio::test]
async fn racing_instances_hand_an_away_hosts_room_on_exactly_once() {
    let t = test_table().await;
    let (code, host, ids) = room_with(&t, "AWAY2", &["Asha", "Ravi", "Mina"]).await;
    let asha = &ids[0];
    set_host_seen(&t, &code, epoch_millis() - HOST_AWAY_MS - 1_000).await;
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    let version = lobby.version;

    // Four instances' watchers see the same stale host at once.
    let mut racers = tokio::task::JoinSet::new();
    for _ in 0..4 {
        let (db, lobby) = (instance(&t), lobby.clone());
        racers.spawn(async move {
            db.rooms()
                .hand_over_if_host_away(&lobby, epoch_millis(), HOST_AWAY_MS)
                .await
        });
    }
    let results: Vec<_> = racers
        .join_all()
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let handed: Vec<_> = results.iter().flatten().collect();
    assert_eq!(handed, [asha], "exactly one hand-over: {results:?}");

    let after = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!(after.host_id, *asha, "the longest-present other player");
    assert_eq!(after.version, version + 1, "written once");
    assert_eq!(after.players.len(), 4, "nobody left");
    assert_eq!(
        hosting_entries(&t, &code).await,
        [format!("HOSTING#{asha}")]
    );
    assert!(t
        .db
        .rooms()
        .rooms_hosted_by(&host)
        .await
        .unwrap()
        .is_empty());
    // The new host is fresh: the check, made again, changes nothing.
    assert_eq!(
        t.db.rooms()
            .hand_over_if_host_away(&after, epoch_millis(), HOST_AWAY_MS)
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        t.db.rooms().lobby(&code).await.unwrap().unwrap().version,
        version + 1
    );
}

#[tokio::test]
async fn an_away_host_back_in_time_takes_the_room_back_exactly_once_but_not_after_a_match_started()
{
    let t = super::seeded_table().await;
    let (code, host, ids) = room_with(&t, "BACK2", &["Asha", "Ravi"]).await;
    let asha = &ids[0];
    set_host_seen(&t, &code, epoch_millis() - HOST_AWAY_MS - 1_000).await;
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    let handed_at = epoch_millis();
    let next =
        t.db.rooms()
            .hand_over_if_host_away(&lobby, handed_at, HOST_AWAY_MS)
            .await
            .unwrap();
    assert_eq!(next.as_ref(), Some(asha));
    let away = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!(
        away.away_host.as_ref(),
        Some(&host),
        "the room remembers its away host"
    );
    assert_eq!(away.away_until_ms, Some(handed_at + HOST_RETURN_MS));
    assert_eq!(away.handed_on_from(&host).unwrap().user_id, *asha);

    // Nobody else takes it "back": Ravi was never its host.
    assert!(!t
        .db
        .rooms()
        .take_back(&away, &ids[1], epoch_millis())
        .await
        .unwrap());

    // The host's page loads on two instances at once: it comes back once.
    let mut racers = tokio::task::JoinSet::new();
    for _ in 0..4 {
        let (db, away, host) = (instance(&t), away.clone(), host.clone());
        racers.spawn(async move { db.rooms().take_back(&away, &host, epoch_millis()).await });
    }
    let results: Vec<bool> = racers
        .join_all()
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(results.iter().filter(|b| **b).count(), 1, "{results:?}");
    let back = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!(back.host_id, host);
    assert_eq!(back.version, away.version + 1, "written once");
    assert_eq!((back.away_host, back.away_until_ms), (None, None));
    assert_eq!(
        hosting_entries(&t, &code).await,
        [format!("HOSTING#{host}")]
    );

    // Away again; this time the new host starts a match before the host is back.
    set_host_seen(&t, &code, epoch_millis() - HOST_AWAY_MS - 1_000).await;
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    t.db.rooms()
        .hand_over_if_host_away(&lobby, epoch_millis(), HOST_AWAY_MS)
        .await
        .unwrap()
        .unwrap();
    t.db.game().start_match(&code, asha, Some(7)).await.unwrap();
    let started = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!(started.state, RoomState::Playing);
    assert_eq!(
        started.away_until_ms, None,
        "a start ends the time to come back"
    );
    assert_eq!(
        started.handed_on_from(&host).unwrap().user_id,
        *asha,
        "the host is still told who hosts now"
    );
    // Even with the lobby as it was read before the start, the write's condition refuses.
    assert!(!t
        .db
        .rooms()
        .take_back(&away_like(&lobby, asha, &host), &host, epoch_millis())
        .await
        .unwrap());
    assert_eq!(
        t.db.rooms().lobby(&code).await.unwrap().unwrap().host_id,
        *asha
    );
}

/// `lobby` as a reader that saw it handed from `from` to `to` (and no match since) would hold it.
fn away_like(
    lobby: &app::rooms::model::Lobby,
    to: &UserId,
    from: &UserId,
) -> app::rooms::model::Lobby {
    let mut stale = lobby.clone();
    stale.host_id = to.clone();
    stale.state = RoomState::Lobby;
    stale.away_host = Some(from.clone());
    stale.away_until_ms = Some(epoch_millis() + HOST_RETURN_MS);
    stale
}

#[tokio::test]
async fn a_host_seen_lately_keeps_the_room() {
    let t = test_table().await;
    let (code, host, _) = room_with(&t, "FRSH2", &["Asha"]).await;
    // A new room's host is seen at its creation.
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert!(lobby.host_seen_ms.is_some());
    let before = stored(&t, &code).await;
    t.calls.reset();
    assert_eq!(
        t.db.rooms()
            .hand_over_if_host_away(&lobby, epoch_millis(), HOST_AWAY_MS)
            .await
            .unwrap(),
        None
    );
    assert!(t.calls.ops().is_empty(), "a fresh host costs no call");
    assert_eq!(stored(&t, &code).await, before);

    // Seen long ago by the read, but hosting passed since (the table's `host_seen` moved, as
    // any hand-over writes it): the write's own condition keeps the room as it is.
    set_host_seen(&t, &code, epoch_millis() - HOST_AWAY_MS - 1_000).await;
    let stale = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    set_host_seen(&t, &code, epoch_millis()).await;
    let before = stored(&t, &code).await;
    assert_eq!(
        t.db.rooms()
            .hand_over_if_host_away(&stale, epoch_millis(), HOST_AWAY_MS)
            .await
            .unwrap(),
        None
    );
    assert_eq!(stored(&t, &code).await, before, "nothing changed");
    assert_eq!(
        t.db.rooms().lobby(&code).await.unwrap().unwrap().host_id,
        host
    );
}

#[tokio::test]
async fn the_version_poll_carries_the_host_and_when_they_were_seen() {
    let t = test_table().await;
    let (code, host, _) = room_with(&t, "PVSE2", &["Asha"]).await;
    set_host_seen(&t, &code, 1_234).await;
    t.calls.reset();
    let pulse = t.db.rooms().room_pulse(&code).await.unwrap().unwrap();
    assert_eq!(t.calls.ops(), ["GetItem"], "the same one small read");
    assert_eq!(pulse.host_id, host);
    assert_eq!(pulse.host_seen_ms, Some(1_234));
    assert_eq!(pulse.player_count, 2);
    assert_eq!(
        Some(pulse.version),
        t.db.rooms().room_version(&code).await.unwrap()
    );
}

#[tokio::test]
async fn stepping_down_hands_every_hosted_room_on_at_once() {
    let t = test_table().await;
    let (code, host, ids) = room_with(&t, "STPD2", &["Asha", "Ravi"]).await;
    let asha = &ids[0];
    // The same host alone in a second room: nobody to hand it to.
    let alone = RoomCode::parse("STPD3").unwrap();
    t.db.rooms()
        .create_room(
            &alone,
            &host,
            &name("Host"),
            Avatar::Crow,
            RoomSettings::default(),
        )
        .await
        .unwrap();
    let mut hosted = t.db.rooms().rooms_hosted_by(&host).await.unwrap();
    hosted.sort();
    assert_eq!(hosted, [code.clone(), alone.clone()]);

    t.calls.reset();
    let handed = t.db.rooms().step_down(&host).await.unwrap();
    assert_eq!(handed, std::slice::from_ref(&code));
    let mut ops = t.calls.ops();
    ops.sort();
    assert_eq!(
        ops,
        ["Query", "Query", "Query", "TransactWriteItems"],
        "the hosted rooms (GSI1), each room's lobby, one hand-over"
    );
    assert_eq!(
        t.db.rooms().lobby(&code).await.unwrap().unwrap().host_id,
        *asha
    );
    assert_eq!(
        t.db.rooms().lobby(&alone).await.unwrap().unwrap().host_id,
        host
    );
    assert_eq!(t.db.rooms().rooms_hosted_by(&host).await.unwrap(), [alone]);
    assert_eq!(t.db.rooms().rooms_hosted_by(asha).await.unwrap(), [code]);
}

#[tokio::test]
async fn a_join_racing_a_lock_landed_before_it_or_was_refused() {
    let t = test_table().await;
    let settings = RoomSettings {
        max_players: 12,
        ..RoomSettings::default()
    };
    let (code, _host) = room(&t, "RACE2", settings).await;
    let mut joiners = Vec::new();
    for i in 0..11 {
        joiners.push(player(&t, &format!("P{i}")).await);
    }
    let mut joins = tokio::task::JoinSet::new();
    for (i, user) in joiners.iter().cloned().enumerate() {
        let (db, code) = (instance(&t), code.clone());
        joins.spawn(async move {
            // Spread over the lock's moment.
            tokio::time::sleep(std::time::Duration::from_millis(2 * i as u64)).await;
            let joined = db
                .rooms()
                .join_room(&code, &user, &name(&format!("P{i}")), Avatar::Frog)
                .await;
            (user, joined)
        });
    }
    // The lock as the table applies it, with the room as it was at that moment (the join's
    // condition is what is tested; the lock's own write is the oracle).
    tokio::time::sleep(std::time::Duration::from_millis(8)).await;
    let at_lock = t
        .engine
        .client
        .update_item()
        .table_name(t.db.table_name())
        .key("PK", AttributeValue::S(format!("ROOM#{code}")))
        .key("SK", AttributeValue::S("META".into()))
        .update_expression("SET locked = :yes, version = version + :one")
        .expression_attribute_values(":yes", AttributeValue::Bool(true))
        .expression_attribute_values(":one", AttributeValue::N("1".into()))
        .return_values(ReturnValue::AllNew)
        .send()
        .await
        .unwrap()
        .attributes
        .unwrap();
    let count_at_lock: usize = at_lock["player_count"].as_n().unwrap().parse().unwrap();
    let results = joins.join_all().await;
    let joined: Vec<_> = results
        .iter()
        .filter(|(_, r)| matches!(r, Ok(Joined::Joined)))
        .map(|(user, _)| user.clone())
        .collect();
    for (user, result) in &results {
        assert!(
            matches!(result, Ok(Joined::Joined) | Err(RoomConflict::Locked)),
            "{user}: {result:?}"
        );
    }
    assert_eq!(
        1 + joined.len(),
        count_at_lock,
        "every join that landed was counted before the lock: {results:?}"
    );
    let lobby = t.db.rooms().lobby(&code).await.unwrap().unwrap();
    assert_eq!(lobby.players.len(), count_at_lock, "nobody joined after it");
    for user in &joiners {
        assert_eq!(lobby.player(user).is_some(), joined.contains(user));
    }
    assert!(lobby.locked);
}
