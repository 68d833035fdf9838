//! The unit tests of `app::live::peers`.

use std::sync::Mutex;

use tokio::sync::mpsc;

use app::game::model::MatchReceipt;
use app::live::peers::*;
use app::rooms::model::RoomCode;
use app::store::{epoch_millis, Db};

/// A handle on no table (nothing here calls it).
fn no_table() -> Db {
    let client = aws_sdk_dynamodb::Client::from_conf(
        aws_sdk_dynamodb::Config::builder()
            .behavior_version_latest()
            .build(),
    );
    Db::new(client, "none")
}

/// Instance `id`'s link, knowing `others` as live now (no tasks, no table).
fn link(id: &str, others: &[&str]) -> PeerLink {
    let (outbox, _) = mpsc::channel(1);
    let now = epoch_millis();
    let peers = others
        .iter()
        .map(|o| {
            let peer = Peer {
                id: (*o).to_owned(),
                address: format!("http://{o}:1"),
                seen_ms: now,
            };
            ((*o).to_owned(), peer)
        })
        .collect();
    PeerLink {
        db: no_table(),
        id: id.to_owned(),
        address: format!("http://{id}:1"),
        peers: Mutex::new(peers),
        outbox,
    }
}

#[test]
fn every_room_has_one_first_instance_and_the_firsts_are_spread() {
    let ids = ["01A", "01B", "01C", "01D"];
    let links: Vec<PeerLink> = ids
        .iter()
        .map(|id| {
            link(
                id,
                &ids.iter().copied().filter(|o| o != id).collect::<Vec<_>>(),
            )
        })
        .collect();
    let mut firsts = [0usize; 4];
    for n in 0..400 {
        let room = format!("R{n:04}");
        let mut ranks: Vec<usize> = links.iter().map(|l| l.rank(&room)).collect();
        let first = ranks
            .iter()
            .position(|r| *r == 0)
            .expect("someone is first");
        firsts[first] += 1;
        ranks.sort_unstable();
        assert_eq!(ranks, [0, 1, 2, 3], "{room}: one place each");
    }
    for (id, count) in ids.iter().zip(firsts) {
        assert!(
            (60..=140).contains(&count),
            "{id} first for {count} of 400 rooms"
        );
    }
    // A lone instance is first everywhere.
    assert_eq!(link("01A", &[]).rank("R0001"), 0);
}

#[test]
fn news_folds_to_the_newest_room_the_latest_sighting_and_the_biggest_receipt() {
    let code = RoomCode::parse("ABCDE").unwrap();
    let receipt = |calls| MatchReceipt::new(1.0, 1.0, calls, 0.0);
    let mut news = PeerNews {
        version: 4,
        host_seen_ms: Some(10),
        receipt: Some((1, receipt(5))),
        ..PeerNews::of(&code)
    };
    news.merge(PeerNews {
        version: 3,
        host_seen_ms: Some(30),
        receipt: Some((1, receipt(3))),
        ..PeerNews::of(&code)
    });
    assert_eq!(news.version, 4, "an older version does not replace a newer");
    assert_eq!(news.host_seen_ms, Some(30));
    assert_eq!(news.receipt, Some((1, receipt(5))));
    news.merge(PeerNews {
        version: 0,
        ended: true,
        receipt: Some((11, receipt(1))),
        ..PeerNews::of(&code)
    });
    assert!(news.ended);
    assert_eq!(news.version, 4);
    assert_eq!(
        news.receipt,
        Some((11, receipt(1))),
        "a later match's receipt"
    );
}

#[test]
fn a_room_too_big_for_a_batch_goes_as_its_version_alone() {
    let code = RoomCode::parse("ABCDE").unwrap();
    let small = PeerNews {
        version: 2,
        ..PeerNews::of(&code)
    };
    let many = vec![small.clone(); 3000];
    let batches = chunks(many);
    assert!(batches.len() > 1, "split");
    for batch in &batches {
        assert!(serde_json::to_vec(batch).unwrap().len() <= MAX_BATCH_BYTES + 64);
    }
    assert_eq!(batches.iter().map(Vec::len).sum::<usize>(), 3000);
}

#[test]
fn a_tag_is_64_hex_digits_and_nothing_else_opens() {
    // Malformed tags are refused before any secret is needed: no table in this test.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let refused = runtime.block_on(async {
        let client = aws_sdk_dynamodb::Client::from_conf(
            aws_sdk_dynamodb::Config::builder()
                .behavior_version_latest()
                .build(),
        );
        let db = Db::new(client, "none");
        (
            open(&db, None, b"{}").await.err(),
            open(&db, Some("abc"), b"{}").await.err(),
            open(&db, Some(&"g".repeat(64)), b"{}").await.err(),
        )
    });
    assert_eq!(
        refused,
        (
            Some(Refused::Forged),
            Some(Refused::Forged),
            Some(Refused::Forged)
        )
    );
}
