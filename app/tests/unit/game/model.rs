//! The match's schedule, visibility and standings, tested.

use app::catalog::ThingId;
use app::game::model::*;
use app::game::timing::GRACE_MS;
use app::identity::{Avatar, DisplayName, UserId};

fn user(i: u8) -> UserId {
    UserId::parse(&format!("01ARZ3NDEKTSV4RRFFQ69G5F{:02}", i)).unwrap()
}

fn player(i: u8, score: i32, correct: u32, taps: u32, total: u64) -> MatchPlayer {
    MatchPlayer {
        look: None,
        user_id: user(i),
        nickname: DisplayName::parse(&format!("p{i}")).unwrap(),
        avatar: Avatar::default(),
        score,
        streak: 0,
        correct,
        taps,
        reaction_total_ms: total,
    }
}

fn a_match(rounds: usize, resolved: u32) -> Match {
    let started = 1_000_000;
    Match {
        first_round: 1,
        window_ms: 3000,
        started_at_ms: started,
        resolved,
        planned: rounds as u32,
        rounds: (0..rounds)
            .map(|i| Round {
                n: i as u32 + 1,
                reveal_ms: Match::reveal_at(started, 3000, i),
                thing: Some(ThingCard {
                    id: ThingId::parse("crow").unwrap(),
                    en: "Crow".into(),
                    hi: "कौआ".into(),
                    hi_latin: "Kauwa".into(),
                    emoji: "🐦".into(),
                    note: None,
                    note_hi: None,
                }),
                flies: Some(true),
                results: (i < resolved as usize).then(Vec::new),
                crowd: 0,
                crowd_flies: 0,
                tap_count: 0,
                closed_at_ms: None,
                taps: Vec::new(),
            })
            .collect(),
        players: vec![],
        seed: None,
        receipt: None,
    }
}

#[test]
fn the_schedule_runs_countdown_window_grace_and_results_back_to_back() {
    let m = a_match(3, 0);
    let start = m.started_at_ms;
    assert_eq!(m.rounds[0].reveal_ms, start + COUNTDOWN_MS);
    assert_eq!(
        m.rounds[1].reveal_ms - m.rounds[0].reveal_ms,
        COUNTDOWN_MS + 3000 + i64::from(GRACE_MS) + RESULTS_MS
    );
    assert_eq!(
        m.phase(start),
        Phase::Countdown {
            index: 0,
            left_ms: COUNTDOWN_MS
        }
    );
    let reveal = m.rounds[0].reveal_ms;
    assert_eq!(
        m.phase(reveal + 100),
        Phase::Open {
            index: 0,
            left_ms: 2900
        }
    );
    assert_eq!(m.phase(reveal + 3000), Phase::Closed { index: 0 });
    assert_eq!(
        m.phase(m.rounds[1].reveal_ms - 1000),
        Phase::Countdown {
            index: 1,
            left_ms: 1000
        }
    );
}

#[test]
fn a_round_is_due_only_after_its_grace_and_only_in_order() {
    let m = a_match(3, 0);
    let close = m.closes_at(0).unwrap();
    assert_eq!(m.due(close - 1), None);
    assert_eq!(m.due(close), Some(0));
    // Long after every round closed, still the first unresolved one.
    assert_eq!(m.due(close + 1_000_000), Some(0));
    let m = a_match(3, 3);
    assert_eq!(m.due(i64::MAX / 2), None);
    assert_eq!(m.phase(0), Phase::Finished);
}

#[test]
fn browsers_never_see_a_thing_before_its_reveal_nor_whether_it_flies_before_results() {
    let m = a_match(3, 1);
    let now = m.rounds[1].reveal_ms - 1;
    let shown = m.visible_at(now);
    assert!(shown.rounds[0].thing.is_some() && shown.rounds[0].flies.is_some());
    assert!(shown.rounds[1].thing.is_none() && shown.rounds[1].flies.is_none());
    assert!(shown.rounds[2].thing.is_none());
    let shown = m.visible_at(m.rounds[1].reveal_ms);
    assert!(shown.rounds[1].thing.is_some() && shown.rounds[1].flies.is_none());
    assert_eq!(m.next_reveal_after(now), Some(m.rounds[1].reveal_ms));
}

#[test]
fn standings_rank_by_score_then_correct_then_speed_and_share_exact_ties() {
    let mut m = a_match(1, 1);
    m.players = vec![
        player(1, 900, 2, 2, 1000),
        player(2, 1200, 1, 1, 400),
        player(3, 900, 2, 2, 800),
        player(4, 900, 2, 2, 800),
        player(5, 900, 1, 0, 0),
    ];
    let order: Vec<(u32, u8)> = m
        .standings()
        .iter()
        .map(|(place, p)| (*place, p.nickname.to_string()[1..].parse().unwrap()))
        .collect();
    assert_eq!(order, vec![(1, 2), (2, 3), (2, 4), (4, 1), (5, 5)]);
}

#[test]
fn outcomes_name_the_things_judged_right_in_order_and_the_longest_run() {
    let mut m = a_match(5, 5);
    let things = ["crow", "cow", "kite", "bee", "ant"];
    // Player 1 is right in rounds 1, 2, 4 and 5 (a run of two, broken, then two); player 2 only
    // in round 3, and is missing from round 5's results (joined late, say).
    let right = [
        (true, false),
        (true, false),
        (false, true),
        (true, false),
        (true, false),
    ];
    for (i, round) in m.rounds.iter_mut().enumerate() {
        round.thing.as_mut().unwrap().id = ThingId::parse(things[i]).unwrap();
        let result = |who: u8, correct: bool| RoundResult {
            user_id: user(who),
            reaction_ms: None,
            points: 0,
            correct,
            fastest: false,
        };
        let mut results = vec![result(1, right[i].0)];
        if i < 4 {
            results.push(result(2, right[i].1));
        }
        round.results = Some(results);
    }
    m.players = vec![player(1, 400, 4, 4, 0), player(2, 100, 1, 1, 0)];
    let outcomes = m.outcomes();
    let first = &outcomes[0].1;
    assert_eq!(outcomes[0].0.user_id, user(1));
    assert_eq!((first.placement, first.players, first.rounds), (1, 2, 5));
    let ids = |o: &app::inventory::model::Outcome| {
        o.right
            .iter()
            .map(|t| t.as_str().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(first), ["crow", "cow", "bee", "ant"]);
    assert_eq!(first.best_streak, 2);
    let second = &outcomes[1].1;
    assert_eq!((second.placement, second.correct), (2, 1));
    assert_eq!(ids(second), ["kite"]);
    assert_eq!(second.best_streak, 1);
}

fn judged(user_id: UserId, points: i32) -> RoundResult {
    RoundResult {
        user_id,
        reaction_ms: None,
        points,
        correct: points > 0,
        fastest: false,
    }
}

/// Three resolved rounds of two players: p1 scores 100, 100, -300; p2 scores 50, 50, 200.
fn three_rounds() -> Match {
    let mut m = a_match(4, 3);
    m.players = vec![player(1, -100, 2, 0, 0), player(2, 300, 3, 0, 0)];
    for (round, (a, b)) in m.rounds.iter_mut().zip([(100, 50), (100, 50), (-300, 200)]) {
        round.results = Some(vec![judged(user(1), a), judged(user(2), b)]);
    }
    m
}

#[test]
fn the_last_result_is_the_players_line_in_the_last_resolved_round() {
    let m = three_rounds();
    let (round, result) = m.last_result(&user(1)).unwrap();
    assert_eq!((round.n, result.points), (3, -300));
    assert!(m.last_result(&user(9)).is_none());
    assert!(a_match(2, 0).last_result(&user(1)).is_none());
}

#[test]
fn places_between_rounds_count_the_players_strictly_ahead() {
    let m = three_rounds();
    // After round 1: 100 v 50; after 2: 200 v 100; after 3: -100 v 300.
    assert_eq!(m.place_after(&user(1), 2), Some(1));
    assert_eq!(m.place_after(&user(2), 2), Some(2));
    assert_eq!(m.place_after(&user(2), 3), Some(1));
    assert_eq!(m.place_after(&user(1), 3), Some(2));
    // Level players share a place.
    assert_eq!(m.place_after(&user(1), 0), Some(1));
    assert_eq!(m.place_after(&user(2), 0), Some(1));
}

#[test]
fn moving_up_is_told_only_to_the_player_who_climbed() {
    let m = three_rounds();
    assert_eq!(m.moved_up_to(&user(2)), Some(1));
    assert_eq!(m.moved_up_to(&user(1)), None);
    let mut two = three_rounds();
    two.resolved = 2;
    assert_eq!(two.moved_up_to(&user(2)), None);
    // Nobody "climbs" in the first round: everyone started level.
    let mut one = three_rounds();
    one.resolved = 1;
    assert_eq!(one.moved_up_to(&user(1)), None);
}

/// The podium's blocks as the page lists them: (the step's class, the number on it, the name).
fn podium_of(m: Match) -> (String, Vec<(String, String, String)>) {
    use app::game::podium::Podium;
    use leptos::prelude::*;
    let room = app::ids::RoomId::legacy(&app::ids::RoomCode::parse("K7QX2").unwrap());
    let html = Owner::new().with(|| {
        view! { <Podium game=m room badges=vec![] awake=RwSignal::new(false) l=app::lang::Locale::en /> }
            .to_html()
    });
    // Without the renderer's markers between text nodes (`<!>`, `<!-- -->`).
    let mut html = html;
    while let Some(at) = html.find("<!") {
        let end = at + html[at..].find('>').unwrap();
        html.replace_range(at..=end, "");
    }
    let winner = html.split("data-testid=\"winner\"").nth(1).unwrap();
    let winner = &winner[winner.find('>').unwrap() + 1..];
    let winner = winner[..winner.find("</p>").unwrap()].to_owned();
    let blocks = html
        .split("<li data-testid=\"podium-place\" class=\"")
        .skip(1)
        .map(|li| {
            let class = li[..li.find('"').unwrap()].to_owned();
            let between = |open: &str| {
                let from = li.find(open).unwrap() + open.len();
                li[from..from + li[from..].find('<').unwrap()].to_owned()
            };
            (
                class,
                between("<span class=\"rank\">"),
                between("<span class=\"nickname\">"),
            )
        })
        .collect();
    (winner, blocks)
}

#[test]
fn the_podium_stands_the_winner_on_the_top_step_and_says_a_tie_in_the_plural() {
    let mut m = a_match(1, 1);
    // Two tied for second: each block's step by its position, its number by the place (both
    // seconds once stood left of the winner).
    m.players = vec![
        player(1, 900, 1, 1, 500),
        player(2, 1200, 1, 1, 400),
        player(3, 900, 1, 1, 500),
    ];
    let (winner, blocks) = podium_of(m.clone());
    assert_eq!(winner, "🏆 p2 wins!");
    let step =
        |class: &str, rank: &str, name: &str| (class.to_owned(), rank.to_owned(), name.to_owned());
    assert_eq!(
        blocks,
        [
            step("place place-1", "1", "p2"),
            step("place place-2", "2", "p1"),
            step("place place-3", "2", "p3"),
        ]
    );
    // Two tied for first: "p1 & p3 win!", the third on the third step.
    m.players = vec![
        player(1, 900, 1, 1, 500),
        player(2, 300, 1, 1, 400),
        player(3, 900, 1, 1, 500),
    ];
    let (winner, blocks) = podium_of(m);
    assert_eq!(winner, "🏆 p1 &amp; p3 win!");
    assert_eq!(blocks[2], step("place place-3", "3", "p2"));
}

#[test]
fn a_listener_may_look_away_only_when_no_reveal_falls_within_the_gap() {
    // Started at 1,000,000: reveals at 1,003,000, 1,010,900 and 1,018,800 (7,900 ms apart:
    // 3 s countdown, 3 s window, 0.4 s grace, 1.5 s results); each round closes 3.4 s after
    // its reveal.
    let m = a_match(3, 0);
    let gap = 3000;
    // Long before the first reveal: now.
    assert_eq!(m.quiet_from(999_000, gap), 999_000);
    // The first reveal within the gap: after the first round closes (1,006,400), when the next
    // reveal is 4.5 s away.
    assert_eq!(m.quiet_from(1_001_000, gap), 1_006_400);
    // During the first round's window, past its reveal: now.
    assert_eq!(m.quiet_from(1_004_000, gap), 1_004_000);
    // In the results, 2.9 s before the second reveal: after the second round closes.
    assert_eq!(m.quiet_from(1_008_000, gap), 1_014_300);
    // Before the last reveal: after it closes; the match's end follows.
    assert_eq!(m.quiet_from(1_016_000, gap), 1_022_200);
    // A finished match: now.
    let over = a_match(3, 3);
    assert_eq!(over.quiet_from(1_001_000, gap), 1_001_000);
}
