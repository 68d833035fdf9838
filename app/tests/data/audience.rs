//! The room's audience: joining (limited, once), tapping along (one write per member and round,
//! into their own seat), the counts each round's close shows, and what is refused. The oracle
//! for "never changes the players' results" is the same match, with the same seed and the same
//! players' taps, played in a room without an audience.

use app::game::store::audience::JoinedAudience;
use app::game::store::{GameConflict, Tapped};
use app::game::{Received, Room, TapRejected, LATENCY_CAP_MS};
use app::identity::{Avatar, UserId};
use app::rooms::model::AUDIENCE_LIMIT;
use app::rooms::RoomCode;

use super::game::{close_all, game, playing, tap_at};
use super::{name, player, seeded_table, TestTable};

/// `user` taps along in round `index` of `room`'s match, `after_ms` after its reveal.
async fn along_at(
    t: &TestTable,
    room: &Room,
    user: &UserId,
    index: usize,
    after_ms: i64,
) -> Result<Tapped, GameConflict> {
    let g = game(room);
    let round = &g.rounds[index];
    t.db.game()
        .tap_along(
            &room.code,
            user,
            round.n,
            round.reveal_ms,
            g.window_ms,
            after_ms as u32,
            Received::at(round.reveal_ms + after_ms, Some(LATENCY_CAP_MS)),
        )
        .await
}

/// `count` people in `code`'s audience.
async fn audience(t: &TestTable, code: &RoomCode, count: usize) -> Vec<UserId> {
    let mut members = Vec::new();
    for i in 0..count {
        let who = format!("Fan{i}");
        let id = player(t, &who).await;
        let joined =
            t.db.game()
                .join_audience(code, &id, &name(&who), Avatar::Bee, None, Vec::new())
                .await
                .unwrap();
        assert_eq!(joined, JoinedAudience::Joined);
        members.push(id);
    }
    members
}

/// The audience's seats as stored, read raw.
async fn seats(t: &TestTable, code: &RoomCode) -> Vec<app::store::Item> {
    t.partition(&format!("ROOM#{}", code.as_str()))
        .await
        .into_iter()
        .filter(|item| item["SK"].as_s().unwrap().starts_with("AUD#"))
        .collect()
}

#[tokio::test]
async fn the_audience_taps_along_with_one_write_each_and_never_touches_the_players_rounds() {
    let t = seeded_table().await;
    let (code, host, others, room) = playing(&t, "GMAVD", 3, &["Asha"]).await;
    let fans = audience(&t, &code, 3).await;
    tap_at(&t.db, &room, &host, 0, 400, 400).await.unwrap();
    tap_at(&t.db, &room, &others[0], 1, 600, 600).await.unwrap();
    // The players' rounds, as stored, before the audience taps along.
    let rounds = || async {
        t.partition(&format!("ROOM#{}", code.as_str()))
            .await
            .into_iter()
            .filter(|item| item["SK"].as_s().unwrap().starts_with("ROUND#"))
            .collect::<Vec<_>>()
    };
    let before = rounds().await;

    // The audience: two call round 1, one calls round 2, none round 3.
    t.calls.reset();
    let counted = along_at(&t, &room, &fans[0], 0, 350).await.unwrap();
    assert_eq!(counted, Tapped::Counted { reaction_ms: 350 });
    assert_eq!(
        t.calls.ops(),
        vec!["GetItem", "UpdateItem"],
        "a call reads the round and writes the member's seat: one write"
    );
    along_at(&t, &room, &fans[1], 0, 500).await.unwrap();
    along_at(&t, &room, &fans[2], 1, 700).await.unwrap();
    assert_eq!(
        rounds().await,
        before,
        "the audience wrote nothing into the players' rounds, so their results are as without it"
    );
    // Each call is in its member's own seat.
    let seats = seats(&t, &code).await;
    let calls: usize = seats
        .iter()
        .map(|seat| {
            seat.get("calls")
                .and_then(|c| c.as_m().ok())
                .map_or(0, |c| c.len())
        })
        .sum();
    assert_eq!(calls, 3);

    // What the rounds' closes show: everyone who had joined counts; those who tapped said it
    // flies.
    close_all(&t, &code).await;
    let mut shown = t.db.game().room(&code).await.unwrap().unwrap();
    assert_eq!(shown.lobby.audience, 3, "META counts the audience");
    t.calls.reset();
    t.db.game().with_audience(&code, &mut shown).await.unwrap();
    assert_eq!(
        t.calls.ops(),
        vec!["Query"],
        "the audience's calls are one Query"
    );
    let counts: Vec<(u32, u32)> = game(&shown)
        .rounds
        .iter()
        .map(|r| (r.crowd, r.crowd_flies))
        .collect();
    assert_eq!(counts, vec![(3, 2), (3, 1), (3, 0)]);
    // The players' results hold the players alone.
    for round in &game(&shown).rounds {
        let results = round.results.as_ref().unwrap();
        assert_eq!(results.len(), 2);
        assert!(results
            .iter()
            .all(|r| r.user_id == host || r.user_id == others[0]));
    }
    // A room without an audience reads nothing for it.
    let (plain_code, _, _, _) = playing(&t, "GMPVD", 1, &["Asha"]).await;
    let mut plain = close_all(&t, &plain_code).await;
    t.calls.reset();
    t.db.game()
        .with_audience(&plain_code, &mut plain)
        .await
        .unwrap();
    assert!(t.calls.ops().is_empty());
    assert!(game(&plain).rounds.iter().all(|r| r.crowd == 0));
}

#[tokio::test]
async fn audience_taps_out_of_time_forged_twice_or_by_a_player_are_refused_and_change_nothing() {
    let t = seeded_table().await;
    let (code, host, _, room) = playing(&t, "GMRVD", 3, &["Asha"]).await;
    let fans = audience(&t, &code, 1).await;
    let fan = &fans[0];
    let before = seats(&t, &code).await;

    t.calls.reset();
    let early = along_at(&t, &room, fan, 0, -100).await;
    assert!(
        matches!(early, Err(GameConflict::Tap(TapRejected::TooEarly))),
        "{early:?}"
    );
    let window = i64::from(game(&room).window_ms);
    let late = along_at(&t, &room, fan, 0, window + 5_000).await;
    assert!(
        matches!(late, Err(GameConflict::Tap(TapRejected::TooLate))),
        "{late:?}"
    );
    let inhuman = along_at(&t, &room, fan, 0, 20).await;
    assert!(
        matches!(inhuman, Err(GameConflict::Tap(TapRejected::TooFast))),
        "{inhuman:?}"
    );
    assert!(
        t.calls.ops().is_empty(),
        "timing is checked before any read"
    );

    // A forged reveal: the round read says it is not that round.
    let g = game(&room);
    let r = &g.rounds[0];
    let forged =
        t.db.game()
            .tap_along(
                &code,
                fan,
                r.n,
                r.reveal_ms + 1,
                g.window_ms,
                300,
                r.reveal_ms + 301,
            )
            .await;
    assert!(
        matches!(forged, Err(GameConflict::RoundClosed)),
        "{forged:?}"
    );
    // A player of the match taps as a player.
    let player = along_at(&t, &room, &host, 0, 300).await;
    assert!(
        matches!(player, Err(GameConflict::InTheMatch)),
        "{player:?}"
    );
    // Someone not in the audience.
    let stranger = super::player(&t, "Stranger").await;
    let outside = along_at(&t, &room, &stranger, 0, 300).await;
    assert!(
        matches!(outside, Err(GameConflict::NotInAudience)),
        "{outside:?}"
    );
    assert_eq!(
        seats(&t, &code).await,
        before,
        "nothing refused changed a seat"
    );

    // Twice in one round: the first call stands.
    along_at(&t, &room, fan, 0, 300).await.unwrap();
    let after_first = seats(&t, &code).await;
    t.calls.reset();
    let again = along_at(&t, &room, fan, 0, 900).await.unwrap();
    assert_eq!(again, Tapped::AlreadyCounted);
    assert_eq!(t.calls.ops(), vec!["GetItem", "RefusedWrite", "GetItem"]);
    assert_eq!(seats(&t, &code).await, after_first);

    // After the round's close, no call for it is taken.
    let closed = close_all(&t, &code).await;
    let late_call = along_at(&t, &closed, &fans[0], 1, 300).await;
    assert!(
        matches!(late_call, Err(GameConflict::RoundClosed)),
        "{late_call:?}"
    );
}

#[tokio::test]
async fn joining_the_audience_is_once_within_its_limit_and_not_into_a_locked_room_or_by_the_removed(
) {
    let t = seeded_table().await;
    let (code, host, others, _) = playing(&t, "GMJVD", 2, &["Asha"]).await;
    let fan = player(&t, "Fan").await;
    let join = |who: UserId| {
        let t = &t;
        let code = code.clone();
        async move {
            t.db.game()
                .join_audience(&code, &who, &name("Fan"), Avatar::Bee, None, Vec::new())
                .await
        }
    };
    assert_eq!(join(fan.clone()).await.unwrap(), JoinedAudience::Joined);
    assert_eq!(join(fan.clone()).await.unwrap(), JoinedAudience::AlreadyIn);
    let room = t.db.game().room(&code).await.unwrap().unwrap();
    assert_eq!(room.lobby.audience, 1, "joining twice counts once");

    // The limit: the count stands at the limit (set in the table, as a thousand joins would).
    t.engine
        .client
        .update_item()
        .table_name(t.db.table_name())
        .key(
            "PK",
            aws_sdk_dynamodb::types::AttributeValue::S(format!("ROOM#{}", code.as_str())),
        )
        .key(
            "SK",
            aws_sdk_dynamodb::types::AttributeValue::S("META".into()),
        )
        .update_expression("SET audience = :limit")
        .expression_attribute_values(
            ":limit",
            aws_sdk_dynamodb::types::AttributeValue::N(AUDIENCE_LIMIT.to_string()),
        )
        .send()
        .await
        .unwrap();
    let late = player(&t, "Late").await;
    let full = join(late.clone()).await;
    assert!(matches!(full, Err(GameConflict::AudienceFull)), "{full:?}");
    assert!(t.db.game().seat(&code, &late).await.unwrap().is_none());

    // Removed by the host: not into the audience either.
    t.db.rooms().kick(&code, &host, &others[0]).await.unwrap();
    let removed = join(others[0].clone()).await;
    assert!(matches!(removed, Err(GameConflict::Removed)), "{removed:?}");
    // Locked: nobody new.
    t.db.rooms().set_locked(&code, &host, true).await.unwrap();
    let locked = join(player(&t, "Shut").await).await;
    assert!(matches!(locked, Err(GameConflict::Locked)), "{locked:?}");
}

#[tokio::test]
async fn twenty_racing_joins_and_their_racing_calls_count_each_member_once() {
    let t = seeded_table().await;
    let (code, _, _, room) = playing(&t, "GMZVD", 2, &["Asha"]).await;
    let mut ids = Vec::new();
    for i in 0..20 {
        ids.push(player(&t, &format!("Racer{i}")).await);
    }
    // Every member joins twice at once, and then calls round 1 twice at once.
    let joins = ids.iter().flat_map(|id| [id, id]).map(|id| {
        let db = t.db.clone();
        let code = code.clone();
        let id = id.clone();
        tokio::spawn(async move {
            db.game()
                .join_audience(&code, &id, &name("Racer"), Avatar::Bee, None, Vec::new())
                .await
        })
    });
    let joined = futures::future::join_all(joins).await;
    let fresh = joined
        .into_iter()
        .map(|j| j.unwrap().unwrap())
        .filter(|j| *j == JoinedAudience::Joined)
        .count();
    assert_eq!(fresh, 20, "each member joined once");
    let calls = ids
        .iter()
        .flat_map(|id| [(id, 300), (id, 450)])
        .map(|(id, ms)| {
            let db = t.db.clone();
            let room = room.clone();
            let id = id.clone();
            tokio::spawn(async move {
                let g = game(&room);
                let r = &g.rounds[0];
                db.game()
                    .tap_along(
                        &room.code,
                        &id,
                        r.n,
                        r.reveal_ms,
                        g.window_ms,
                        ms,
                        r.reveal_ms + ms as i64,
                    )
                    .await
            })
        });
    let answers = futures::future::join_all(calls).await;
    let counted = answers
        .into_iter()
        .map(|a| a.unwrap().unwrap())
        .filter(|a| matches!(a, Tapped::Counted { .. }))
        .count();
    assert_eq!(counted, 20, "each member's first call counted once");

    let mut shown = close_all(&t, &code).await;
    assert_eq!(shown.lobby.audience, 20);
    t.db.game().with_audience(&code, &mut shown).await.unwrap();
    assert_eq!(
        (
            game(&shown).rounds[0].crowd,
            game(&shown).rounds[0].crowd_flies
        ),
        (20, 20)
    );
    assert_eq!(
        (
            game(&shown).rounds[1].crowd,
            game(&shown).rounds[1].crowd_flies
        ),
        (20, 0)
    );
}
