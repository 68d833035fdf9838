//! Safe with strangers: reports that hide a player once however they race, names the filter or
//! the hidden set hide gone from every read that draws them, a rename that brings a player
//! back, and what hiding costs.
//!
//! The hidden set is an instance's copy (a process-wide one): each test starts by forgetting it,
//! and nextest runs each test in a process of its own.

use app::game::Room;
use app::identity::hidden;
use app::identity::store::hidden::HiddenBy;
use app::identity::{DisplayName, UserId};
use app::lang::Locale;
use app::leaderboards::projector::Projector;
use app::leaderboards::store::lines::Start;
use app::leaderboards::BoardId;
use app::reports::{Reason, Reported, REPORTS_TO_HIDE};
use app::store::metrics::is_write;
use app::store::Recorder;

use super::game::{close_all, playing, tap_at};
use super::{name, player, seeded_table, TestTable};

/// A name as stored before the filter: read back, never checked against it.
fn stored(raw: &str) -> DisplayName {
    DisplayName::try_from(raw.to_owned()).expect("a stored name")
}

/// The tag a hidden name is drawn as, written out here (not by the code under test): a
/// silhouette, a middle dot and the id's last three characters.
fn tag_of(id: &UserId) -> String {
    let id = id.as_str();
    format!("\u{1F464}\u{B7}{}", &id[id.len() - 3..])
}

/// (read units, write units) of the calls `calls` holds.
fn units(calls: &Recorder) -> (f64, f64) {
    calls
        .calls()
        .iter()
        .fold((0.0, 0.0), |(r, w), c| match is_write(c.op) {
            true => (r, w + c.capacity),
            false => (r + c.capacity, w),
        })
}

#[tokio::test]
async fn reports_from_distinct_players_hide_a_player_once_however_they_race() {
    hidden::forget();
    let t = seeded_table().await;
    let target = player(&t, "Target").await;
    let mut reporters = Vec::new();
    for i in 0..6 {
        reporters.push(player(&t, &format!("Reporter {i}")).await);
    }
    // Every reporter twice, all at once: 12 reports racing on one summary.
    let seen = name("Target");
    let reports = reporters.iter().chain(reporters.iter()).map(|reporter| {
        t.db.reports()
            .report(reporter, &target, &seen, Reason::Name)
    });
    let outcomes: Vec<Reported> = futures::future::join_all(reports)
        .await
        .into_iter()
        .map(|outcome| outcome.expect("a report"))
        .collect();
    let counted = outcomes
        .iter()
        .filter(|o| matches!(o, Reported::Counted { .. }))
        .count();
    let hid = outcomes
        .iter()
        .filter(|o| matches!(o, Reported::Counted { hidden: true }))
        .count();
    assert_eq!(counted, 6, "one report per reporter counts: {outcomes:?}");
    assert_eq!(outcomes.len() - counted, 6, "the second of each is told so");
    assert_eq!(hid, 1, "the player is hidden once: {outcomes:?}");
    let summary = t.db.reports().summary(&target).await.unwrap().unwrap();
    assert_eq!((summary.count, summary.name_reports), (6, 6));

    // The stored truth: one hidden player, and the set's version moved once.
    let items = t.partition("HIDDEN").await;
    let players: Vec<_> = items
        .iter()
        .filter(|i| app::store::sort_key(i).starts_with("P#"))
        .collect();
    assert_eq!(players.len(), 1);
    assert_eq!(
        app::store::sort_key(players[0]),
        format!("P#{}", target.as_str())
    );
    let version = items
        .iter()
        .find(|i| app::store::sort_key(i) == "V")
        .and_then(|i| i.get("v"))
        .and_then(|v| v.as_n().ok())
        .cloned();
    assert_eq!(version.as_deref(), Some("1"));
    assert!(hidden::current().players.contains(&target));
    assert_eq!(REPORTS_TO_HIDE, 3, "the threshold docs/safety.md states");
}

#[tokio::test]
async fn a_report_below_the_threshold_hides_nothing_and_yourself_is_not_a_reporter() {
    hidden::forget();
    let t = seeded_table().await;
    let target = player(&t, "Target").await;
    let a = player(&t, "Asha").await;
    let b = player(&t, "Bilal").await;
    for reporter in [&a, &b] {
        t.calls.reset();
        let outcome =
            t.db.reports()
                .report(reporter, &target, &name("Target"), Reason::Abuse)
                .await
                .unwrap();
        assert_eq!(outcome, Reported::Counted { hidden: false });
        assert_eq!(t.calls.ops(), vec!["TransactWriteItems", "GetItem"]);
        let (read, write) = units(&t.calls);
        println!("a report below the threshold: {write} WCU and {read} RCU, 2 round trips");
    }
    // The same reporter again: refused by the report's key, nothing written.
    let again =
        t.db.reports()
            .report(&a, &target, &name("Target"), Reason::Name)
            .await
            .unwrap();
    assert_eq!(again, Reported::Again);
    let summary = t.db.reports().summary(&target).await.unwrap().unwrap();
    assert_eq!(
        (summary.count, summary.abuse_reports, summary.name_reports),
        (2, 2, 0)
    );
    assert!(t
        .partition("HIDDEN")
        .await
        .iter()
        .all(|i| !app::store::sort_key(i).starts_with("P#")));
    assert!(!hidden::hides(&target, &name("Target")));
    // Cleared: the reports are gone.
    assert!(t.db.reports().clear(&target).await.unwrap());
    assert!(t.db.reports().summary(&target).await.unwrap().is_none());
    assert!(t.partition(&format!("REPORT#{target}")).await.is_empty());
}

/// A finished match of a host and "Asha", counted on the boards: the room as played, the
/// host and Asha.
async fn played(t: &TestTable, code: &str) -> (Room, UserId, UserId) {
    let (code, host, others, lobby) = playing(t, code, 1, &["Asha"]).await;
    tap_at(&t.db, &lobby, &host, 0, 400, 350).await.unwrap();
    tap_at(&t.db, &lobby, &others[0], 0, 450, 380)
        .await
        .unwrap();
    close_all(t, &code).await;
    let mut projector = Projector::new(t.db.clone(), t.engine.streams.clone());
    projector.catch_up().await.unwrap();
    (lobby, host, others[0].clone())
}

/// Every place a copy of `user`'s name is read for others, each as drawn.
async fn names_drawn(t: &TestTable, room: &Room, user: &UserId) -> Vec<(&'static str, String)> {
    let mut drawn = Vec::new();
    let board =
        t.db.boards()
            .board_lines(&BoardId::room_best(&room.lobby.id), Start::Top, 10)
            .await
            .unwrap()
            .unwrap();
    for line in board.lines.iter().filter(|l| &l.user_id == user) {
        drawn.push(("board", line.nickname.to_string()));
    }
    let now = t.db.game().room(&room.lobby.code).await.unwrap().unwrap();
    let seen = now.visible_at(app::store::epoch_millis());
    for p in seen.lobby.players.iter().filter(|p| &p.user_id == user) {
        drawn.push(("lobby", p.nickname.to_string()));
    }
    let game = now.game.as_ref().expect("the match");
    let detail =
        t.db.game()
            .match_detail(&now.lobby.id, game.first_round)
            .await
            .unwrap()
            .expect("the match's page");
    for p in detail.summary.players.iter().filter(|p| &p.user_id == user) {
        drawn.push(("match page", p.nickname.to_string()));
    }
    let recent = t.db.game().recent_matches(10, None).await.unwrap();
    for p in recent
        .items
        .iter()
        .flat_map(|m| m.players.iter())
        .filter(|p| &p.user_id == user)
    {
        drawn.push(("recent matches", p.nickname.to_string()));
    }
    let profile =
        t.db.profiles()
            .profile_page(user, None, None, Locale::en)
            .await
            .unwrap()
            .unwrap();
    drawn.push(("profile", profile.nickname.to_string()));
    for m in &profile.matches {
        drawn.push(("profile's matches", m.nickname.to_string()));
    }
    let facts =
        t.db.profiles()
            .profile_card_facts(user, Locale::en)
            .await
            .unwrap()
            .unwrap();
    drawn.push(("profile card", facts.nickname.to_string()));
    drawn
}

#[tokio::test]
async fn a_hidden_player_is_a_tag_in_every_read_until_cleared_and_what_it_costs() {
    hidden::forget();
    let t = seeded_table().await;
    let (room, _host, asha) = played(&t, "SAFHD").await;
    t.calls.reset();
    let before = names_drawn(&t, &room, &asha).await;
    let reads_without = t.calls.count();
    assert!(before.len() >= 6, "{before:?}");
    assert!(before.iter().all(|(_, n)| n == "Asha"), "{before:?}");

    // Hidden (as the third report would): what the hide costs.
    t.calls.reset();
    assert!(t
        .db
        .accounts()
        .hide_player(&asha, &name("Asha"), HiddenBy::Operator)
        .await
        .unwrap());
    let (hide_read, hide_write) = units(&t.calls);
    let ops = t.calls.ops();
    assert_eq!(
        ops,
        vec!["TransactWriteItems", "Query"],
        "the hide, then the set read again"
    );
    println!("hiding a player: {hide_write} WCU and {hide_read} RCU (the set read again), {} round trips", ops.len());

    let after = names_drawn(&t, &room, &asha).await;
    assert_eq!(after.len(), before.len());
    let tag = tag_of(&asha);
    assert!(after.iter().all(|(_, n)| *n == tag), "{after:?}");

    // What the hidden set adds to each read: nothing on the table while its copy is fresh;
    // a check of its version (one GetItem) every few seconds per instance.
    t.calls.reset();
    let _ = names_drawn(&t, &room, &asha).await;
    let reads_with = t.calls.count();
    assert_eq!(
        reads_with, reads_without,
        "the same calls as before the hide"
    );
    t.calls.reset();
    assert!(
        !t.db.accounts().refresh_hidden().await.unwrap(),
        "nothing changed"
    );
    let (check_read, _) = units(&t.calls);
    assert_eq!(t.calls.ops(), vec!["GetItem"]);
    println!(
        "the hidden set on a read: 0 extra calls ({reads_with} calls for seven reads, hidden or not); \
         its version checked every {} s per instance: {check_read} RCU",
        hidden::CHECK_EVERY_MS / 1000
    );

    // Another instance sees it at its next check: its copy forgotten, one check reads it.
    hidden::forget();
    assert!(!hidden::hides(&asha, &name("Asha")));
    assert!(t.db.accounts().refresh_hidden().await.unwrap());
    assert!(hidden::hides(&asha, &name("Asha")));

    // Cleared by an operator: every copy shows the name again.
    assert!(t.db.reports().clear(&asha).await.unwrap());
    let cleared = names_drawn(&t, &room, &asha).await;
    assert!(cleared.iter().all(|(_, n)| n == "Asha"), "{cleared:?}");
}

#[tokio::test]
async fn a_stored_name_the_filter_refuses_is_a_tag_and_a_rename_brings_the_player_back() {
    hidden::forget();
    let t = seeded_table().await;
    let (room, _host, asha) = played(&t, "SAFFX").await;
    // Their name as stored before the filter (the store takes a stored name as it is).
    let offensive = stored("Chutiya Asha");
    assert!(
        DisplayName::parse(offensive.as_str()).is_err(),
        "the filter refuses it when typed"
    );
    assert!(t.db.accounts().rename(&asha, &offensive).await.unwrap());
    let drawn = names_drawn(&t, &room, &asha).await;
    let profile = drawn.iter().find(|(place, _)| *place == "profile").unwrap();
    assert_eq!(profile.1, tag_of(&asha));
    let card = drawn
        .iter()
        .find(|(place, _)| *place == "profile card")
        .unwrap();
    assert_eq!(card.1, tag_of(&asha));
    // Copies of the ordinary name they played under stay as they were.
    assert!(drawn
        .iter()
        .filter(|(place, _)| *place == "board" || *place == "match page")
        .all(|(_, n)| n == "Asha"));

    // A rename: the player is back at once, on this instance and every other.
    assert!(t
        .db
        .accounts()
        .rename(&asha, &name("Asha K"))
        .await
        .unwrap());
    let back = names_drawn(&t, &room, &asha).await;
    let profile = back.iter().find(|(place, _)| *place == "profile").unwrap();
    assert_eq!(profile.1, "Asha K");
    // A banned name is hidden wherever it was copied, and refused when typed.
    assert!(t.db.accounts().ban_name(&name("ASHA")).await.unwrap());
    let banned = names_drawn(&t, &room, &asha).await;
    assert!(
        banned
            .iter()
            .filter(|(place, _)| *place == "board")
            .all(|(_, n)| *n == tag_of(&asha)),
        "{banned:?}"
    );
    assert!(DisplayName::parse("Asha").is_err());
    assert!(DisplayName::parse("Asha K").is_ok());
    assert!(!t.db.accounts().unban_name(&name("Asha K")).await.unwrap());
    assert!(t.db.accounts().unban_name(&stored("asha")).await.unwrap());
    assert!(DisplayName::parse("Asha").is_ok());
}

#[tokio::test]
async fn a_renamed_player_keeps_their_place_and_nothing_but_the_profile_is_written() {
    hidden::forget();
    let t = seeded_table().await;
    let asha = player(&t, "Asha").await;
    t.calls.reset();
    assert!(t
        .db
        .accounts()
        .rename(&asha, &name("Asha K"))
        .await
        .unwrap());
    assert_eq!(t.calls.ops(), vec!["UpdateItem"]);
    let profile = t.db.accounts().profile(&asha).await.unwrap().unwrap();
    assert_eq!(profile.display_name.as_str(), "Asha K");
    let nobody = UserId::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap();
    assert!(!t
        .db
        .accounts()
        .rename(&nobody, &name("Ghost"))
        .await
        .unwrap());
    assert!(
        t.db.accounts().profile(&nobody).await.unwrap().is_none(),
        "no profile made"
    );
}
