//! Refused writes are billed: DynamoDB returns no consumed capacity for a write whose condition
//! was false (or a cancelled transaction), but AWS charges for it. The data layer records it as
//! the pseudo-operation `RefusedWrite` with the units it is billed, in the call recorder and the
//! process's usage alike.

use app::identity::Avatar;
use app::rooms::store::Joined;
use app::rooms::RoomSettings;
use app::store::keys::Limited;
use app::store::metrics::{is_write, REFUSED_WRITE};

use super::{name, player, room, test_table};

#[tokio::test]
async fn a_refused_conditional_write_is_recorded_as_one_write_unit() {
    let t = test_table().await;
    assert!(t
        .db
        .hit_rate_limit(Limited::SignInsOfLogin("asha"), 60, 1)
        .await
        .unwrap());
    t.calls.reset();
    let before = t.db.usage().report();
    assert!(
        !t.db
            .hit_rate_limit(Limited::SignInsOfLogin("asha"), 60, 1)
            .await
            .unwrap(),
        "the second attempt is refused by the write's condition"
    );
    let calls = t.calls.calls();
    assert_eq!(t.calls.ops(), [REFUSED_WRITE], "one round trip, refused");
    assert_eq!(calls[0].capacity, 1.0, "billed one write unit");
    assert!(is_write(REFUSED_WRITE));
    let after = t.db.usage().report();
    let refused = |report: &app::store::UsageReport| {
        report["requests"]
            .ops
            .get(REFUSED_WRITE)
            .map_or(0.0, |o| o.capacity)
    };
    assert_eq!(refused(&after) - refused(&before), 1.0);
    assert_eq!(
        after["requests"].write_units - before["requests"].write_units,
        1.0,
        "counted among the writes"
    );
}

#[tokio::test]
async fn a_refused_transaction_is_recorded_as_two_write_units_per_action() {
    let t = test_table().await;
    let code = room(&t, "REFTX", RoomSettings::default()).await.0;
    let asha = player(&t, "Asha").await;
    let asha_name = name("Asha");
    let join = || {
        t.db.rooms()
            .join_room(&code, &asha, &asha_name, Avatar::Owl)
    };
    assert_eq!(join().await.unwrap(), Joined::Joined);
    t.calls.reset();
    assert_eq!(join().await.unwrap(), Joined::AlreadyIn);
    let calls = t.calls.calls();
    assert_eq!(calls[0].op, REFUSED_WRITE, "{:?}", t.calls.ops());
    // The join's three actions (the seat, the player, the nickname), billed as if it had run.
    assert_eq!(calls[0].capacity, 6.0);
    assert!(
        calls[1..].iter().all(|c| c.op != REFUSED_WRITE),
        "then reads say why: {:?}",
        t.calls.ops()
    );
}
