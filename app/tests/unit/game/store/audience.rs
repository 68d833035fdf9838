//! The unit tests of `app::game::store::audience`: which rounds a member of the audience counts
//! in, the one rule the room's figure and each member's own score share.

use app::game::model::Round;
use app::game::store::audience::AudienceSeat;
use serde_json::json;

const WINDOW_MS: u32 = 3_000;

/// A seat that joined at `joined_ms` and called the rounds `calls` (room-wide numbers).
fn seat(joined_ms: i64, calls: &[u32]) -> AudienceSeat {
    let calls: serde_json::Map<String, serde_json::Value> =
        calls.iter().map(|n| (n.to_string(), json!(400))).collect();
    serde_json::from_value(json!({
        "PK": "ROOM#K7QX2", "SK": "AUD#01ARZ3NDEKTSV4RRFFQ69G5FAV",
        "user_id": "01ARZ3NDEKTSV4RRFFQ69G5FAV", "nickname": "Zoya", "avatar": "bee",
        "joined_ms": joined_ms, "calls": calls, "ttl": 0
    }))
    .expect("a seat as stored")
}

/// Rounds 5, 6, 7 (a second match's: room-wide numbers), revealed 10 s apart from 100 s.
fn rounds() -> Vec<Round> {
    (0..3)
        .map(|i| {
            serde_json::from_value(json!({
                "n": 5 + i, "reveal_ms": 100_000 + 10_000 * i as i64,
                "thing": null, "flies": null, "results": null
            }))
            .expect("a round")
        })
        .collect()
}

#[test]
fn a_member_counts_from_the_first_round_whose_window_they_joined_before_its_end() {
    let rounds = rounds();
    // Before the match, during round 5's window, at its very end, just after it, after all.
    for (joined_ms, first) in [
        (0, 0),
        (101_000, 0),
        (103_000, 0),
        (103_001, 1),
        (200_000, 3),
    ] {
        let member = seat(joined_ms, &[]);
        assert_eq!(
            member.first_round(&rounds, WINDOW_MS),
            first,
            "joined at {joined_ms}"
        );
        for (i, r) in rounds.iter().enumerate() {
            assert_eq!(
                member.counts_in(r.n, r.reveal_ms, WINDOW_MS),
                i >= first,
                "joined at {joined_ms}, round {}",
                r.n
            );
        }
    }
}

#[test]
fn a_round_called_counts_whenever_the_member_joined() {
    let rounds = rounds();
    // Joined (as the seat says) after round 5's window, yet holding a call for it: the call was
    // taken, so the round is theirs, in the room's figure and in their own score alike.
    let member = seat(104_000, &[5]);
    assert_eq!(member.first_round(&rounds, WINDOW_MS), 1);
    assert!(member.counts_in(5, rounds[0].reveal_ms, WINDOW_MS));
    assert!(!seat(104_000, &[]).counts_in(5, rounds[0].reveal_ms, WINDOW_MS));
}
