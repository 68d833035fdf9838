//! The players: a room from creation to the end of its last match, and each player's match
//! (taps on reveals, pushes measured, acknowledged taps checked against the results).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::ensure;
use app::catalog::seed::SEED;
use app::game::model::{Match, Room};
use app::live::RoomFeed;
use app::store::epoch_millis;
use rand::{Rng, SeedableRng};

use super::lobby::lobby;
use super::phone::{nickname, Phone, Player, Shared};

/// Sends one `()` when dropped.
pub(super) struct Ready(pub(super) tokio::sync::mpsc::UnboundedSender<()>);

impl Drop for Ready {
    fn drop(&mut self) {
        let _ = self.0.send(());
    }
}

/// Things in a room's deck (`--deck`): every sixth of the catalog's, by their rulings.
pub(super) const DECK_THINGS: usize = 30;

/// The lines of a room's deck (`name, yes|no`), and the rulings its things play under.
fn deck_lines() -> Vec<(&'static str, bool)> {
    SEED.iter()
        .step_by(6)
        .take(DECK_THINGS)
        .map(|t| (t.en, t.flies))
        .collect()
}

/// How a room is run: what it plays, and the driver's signals.
pub(super) struct RoomPlan {
    pub(super) room: u32,
    pub(super) players: u32,
    pub(super) audience: u32,
    pub(super) rounds: u8,
    pub(super) matches: u32,
    /// One more match, of a deck the host makes (`--deck`).
    pub(super) deck: bool,
    pub(super) lobby_changes: u32,
    pub(super) seed: u64,
    /// Setting rooms up is paced: this many at a time.
    pub(super) gate: Arc<tokio::sync::Semaphore>,
    /// Told when the room's players have joined and listen (or the set-up failed).
    pub(super) ready: tokio::sync::mpsc::UnboundedSender<()>,
    /// Which match starts when (0 is the first); each room starts at its own offset after it.
    pub(super) starts: tokio::sync::watch::Receiver<Option<(u32, Instant)>>,
    pub(super) offset: Duration,
    /// Told `(room, match)` when every player of the room has seen that match end.
    pub(super) finished: tokio::sync::mpsc::UnboundedSender<(u32, u32)>,
}

/// Plays one room from creation to the end of its last match.
pub(super) async fn play_room(
    shared: Arc<Shared>,
    bases: Arc<Vec<String>>,
    plan: RoomPlan,
) -> anyhow::Result<()> {
    let RoomPlan {
        room,
        players: args_players,
        audience,
        rounds,
        matches,
        deck,
        lobby_changes,
        seed,
        gate,
        ready,
        mut starts,
        offset,
        finished,
    } = plan;
    let permit = gate.acquire_owned().await?;
    // Whatever becomes of the set-up, the driver hears of it once.
    let ready = Ready(ready);
    let catalog: HashMap<String, bool> = SEED.iter().map(|t| (t.id.to_owned(), t.flies)).collect();
    let mut phones: Vec<Phone> = (0..args_players)
        .map(|p| Phone {
            shared: Arc::clone(&shared),
            base: bases[((room + p) as usize) % bases.len()].clone(),
            address: format!("10.{}.{}.{}", room / 250, room % 250, p + 1),
            cookie: None,
        })
        .collect();
    let name = |p: u32| nickname(room, 'P', p);
    let (status, body) = phones[0]
        .post("/api/rooms/create", &format!("name={}", name(0)))
        .await?;
    ensure!(status == 200, "creating a room answered {status}: {body}");
    let code: String = serde_json::from_str(&body)?;
    for (p, phone) in phones.iter_mut().enumerate().skip(1) {
        let (status, body) = phone
            .post(
                "/api/rooms/join",
                &format!("code={code}&name={}", name(p as u32)),
            )
            .await?;
        ensure!(status == 200, "joining answered {status}: {body}");
    }
    let (status, body) = phones[0]
        .post(
            "/api/rooms/settings",
            &format!(
                "code={code}&settings[max_players]=12&settings[rounds]={rounds}\
                 &settings[window_ms]=3000&settings[public]=false"
            ),
        )
        .await?;
    ensure!(status == 200, "settings answered {status}: {body}");
    // The host's deck, made now (outside the bill), and what its things' ids rule.
    let deck = match deck {
        true => Some(make_deck(&mut phones[0], room).await?),
        false => None,
    };
    // The audience: visitors who join it by name, each on an instance of their own.
    let fans = (0..audience).map(|a| Phone {
        shared: Arc::clone(&shared),
        base: bases[((room + args_players + a) as usize) % bases.len()].clone(),
        address: format!("10.{}.{}.{}", 128 + room / 250, room % 250, a + 1),
        cookie: None,
    });
    let mut phones: Vec<(Phone, bool)> = phones.into_iter().map(|p| (p, false)).collect();
    for (a, mut fan) in fans.enumerate() {
        let (status, body) = fan
            .post(
                "/api/rooms/audience",
                &format!("code={code}&name={}", nickname(room, 'A', a as u32)),
            )
            .await?;
        ensure!(
            status == 200,
            "joining the audience answered {status}: {body}"
        );
        phones.push((fan, true));
    }

    // Everyone listens, each on their own instance, for every match.
    let mut players = Vec::new();
    let mut listeners = tokio::task::JoinSet::new();
    for (p, (phone, along)) in phones.into_iter().enumerate() {
        let (send, receive) = tokio::sync::mpsc::unbounded_channel();
        let listener = Phone {
            shared: Arc::clone(&shared),
            base: phone.base.clone(),
            address: phone.address.clone(),
            cookie: phone.cookie.clone(),
        };
        let code = code.clone();
        listeners.spawn(async move {
            if let Err(err) = listener.listen(&code, &send).await {
                eprintln!("a live stream failed: {err:#}");
            }
        });
        players.push(Player {
            phone,
            feed: receive,
            nickname: name(p as u32),
            rng: rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ (u64::from(room) << 8) ^ p as u64),
            played: None,
            last: None,
            along,
            called: (0, Vec::new()),
        });
    }
    lobby(
        &shared,
        &bases,
        room,
        &code,
        rounds,
        &mut players,
        lobby_changes,
    )
    .await?;
    // The measured part starts when every room has its players and listeners.
    drop(permit);
    drop(ready);
    let total = matches + u32::from(deck.is_some());
    for k in 0..total {
        let start_at = loop {
            if let Some((m, at)) = *starts.borrow_and_update() {
                if m == k {
                    break at + offset;
                }
            }
            starts.changed().await?;
        };
        tokio::time::sleep_until(start_at.into()).await;
        // The match after the last built-in one plays the host's deck, chosen as it starts.
        let playing_deck = deck.as_ref().filter(|_| k == matches);
        if let Some((deck, _)) = playing_deck {
            let (status, body) = players[0]
                .phone
                .post(
                    "/api/decks/choose",
                    &format!("code={code}&deck={deck}&typed="),
                )
                .await?;
            ensure!(status == 200, "choosing the deck answered {status}: {body}");
        }
        // The host starts the next match of the same room, as after a podium.
        let (status, body, cost) = players[0]
            .phone
            .post_timed("/api/rooms/start", &format!("code={code}"))
            .await?;
        ensure!(
            status == 200,
            "starting match {} answered {status}: {body}",
            k + 1
        );
        if let Some(cost) = cost {
            shared.tally().starts[usize::from(playing_deck.is_some())].push(cost);
        }
        let flies = playing_deck.map_or(&catalog, |(_, rulings)| rulings);
        let playing = spawn_match(&shared, &mut players, &code, flies);
        for player in playing {
            players.push(player.await??);
        }
        let _ = finished.send((room, k));
    }
    // Once the bill is read, each audience member's seat must hold every call acknowledged
    // (the room page's `along`: bit i for the last match's round i).
    while !matches!(*starts.borrow_and_update(), Some((m, _)) if m == total) {
        starts.changed().await?;
    }
    for player in players.iter_mut().filter(|p| p.along) {
        let (first, calls) = std::mem::take(&mut player.called);
        let (status, body) = player
            .phone
            .post("/api/rooms/lobby", &format!("code={code}"))
            .await?;
        ensure!(status == 200, "the room page answered {status}: {body}");
        let page: serde_json::Value = serde_json::from_str(&body)?;
        let held = page["along"].as_u64().unwrap_or(0);
        let lost = calls
            .iter()
            .filter(|&&n| held >> (n - first) & 1 == 0)
            .count();
        shared.tally().audience_lost += lost as u64;
    }
    listeners.shutdown().await;
    Ok(())
}

/// The host makes the room's deck (unlisted, [`DECK_THINGS`] things): its code, and whether
/// each of its things flies, by the id it plays under.
async fn make_deck(host: &mut Phone, room: u32) -> anyhow::Result<(String, HashMap<String, bool>)> {
    let lines = deck_lines();
    let text: String = lines
        .iter()
        .map(|(name, flies)| format!("{name}, {}\n", if *flies { "yes" } else { "no" }))
        .collect();
    let form: String = form_urlencoded::Serializer::new(String::new())
        .append_pair("title", &format!("Room {room}'s deck"))
        .append_pair("description", "")
        .append_pair("lang", "en")
        .append_pair("visibility", "unlisted")
        .append_pair("lines", &text)
        .finish();
    let (status, body) = host.post("/api/decks/create", &form).await?;
    ensure!(status == 200, "making a deck answered {status}: {body}");
    let code: String = serde_json::from_str(&body)?;
    let parsed = app::ids::DeckCode::parse(&code)
        .map_err(|err| anyhow::anyhow!("a deck's code {code}: {err}"))?;
    let rulings = lines
        .iter()
        .enumerate()
        .map(|(i, (_, flies))| {
            let id = app::game::draw::deck_thing_id(&parsed, i);
            (id.as_str().to_owned(), *flies)
        })
        .collect();
    Ok((code, rulings))
}

/// Every player of a room plays the match just started, each in a task of their own.
pub(super) fn spawn_match(
    shared: &Arc<Shared>,
    players: &mut Vec<Player>,
    code: &str,
    flies: &HashMap<String, bool>,
) -> Vec<tokio::task::JoinHandle<anyhow::Result<Player>>> {
    players
        .drain(..)
        .map(|player| {
            tokio::spawn(play(
                Arc::clone(shared),
                player,
                code.to_owned(),
                flies.clone(),
            ))
        })
        .collect()
}

/// One player's match: taps on reveals, measures pushes, and at the end checks its
/// acknowledged taps against the results. Messages of the match before (still queued, or
/// re-sent) are left aside: this match is the first with a later first round.
async fn play(
    shared: Arc<Shared>,
    mut player: Player,
    code: String,
    flies: HashMap<String, bool>,
) -> anyhow::Result<Player> {
    let Player {
        phone,
        feed,
        nickname,
        rng,
        played,
        along,
        ..
    } = &mut player;
    let along = *along;
    let path = if along {
        "/api/rooms/tap-along"
    } else {
        "/api/rooms/tap"
    };
    let mut seen_reveal = HashSet::new();
    let mut seen_results = HashSet::new();
    let mut acked: HashSet<u32> = HashSet::new();
    let mut taps = tokio::task::JoinSet::new();
    let mut first_round = None;
    let mut last: Option<Match> = None;
    let deadline = Instant::now() + Duration::from_secs(400);
    while let Ok(Some((at, message))) = tokio::time::timeout_at(deadline.into(), feed.recv()).await
    {
        let RoomFeed::Room(Room {
            game: Some(game), ..
        }) = message
        else {
            continue;
        };
        if played.is_some_and(|before| game.first_round <= before) {
            continue;
        }
        if *first_round.get_or_insert(game.first_round) != game.first_round {
            continue;
        }
        let seen_ms = epoch_millis() - at.elapsed().as_millis() as i64;
        for round in &game.rounds {
            if let Some(thing) = &round.thing {
                if seen_reveal.insert(round.n) {
                    shared
                        .tally()
                        .reveal_push_ms
                        .push((seen_ms - round.reveal_ms) as f64);
                    let flyer = flies.get(thing.id.as_str()).copied().unwrap_or(false);
                    let tap = if flyer {
                        rng.random_bool(0.92)
                    } else {
                        rng.random_bool(0.12)
                    };
                    if tap {
                        // A human reaction: 250 ms at the fastest, mostly 350–700 ms.
                        let reaction: u32 =
                            250 + rng.random_range(0..300) + rng.random_range(0..300);
                        let form = format!(
                            "code={code}&round={}&reveal_ms={}&window_ms={}&reaction_ms={reaction}",
                            round.n, round.reveal_ms, game.window_ms
                        );
                        let mut tapper = Phone {
                            shared: Arc::clone(&shared),
                            base: phone.base.clone(),
                            address: phone.address.clone(),
                            cookie: phone.cookie.clone(),
                        };
                        let n = round.n;
                        let at = at + Duration::from_millis(u64::from(reaction));
                        taps.spawn(async move {
                            tokio::time::sleep_until(at.into()).await;
                            let sent = Instant::now();
                            let answer = tapper.post(path, &form).await;
                            (n, sent.elapsed(), answer.map(|(status, _)| status))
                        });
                    }
                }
            }
            if round.results.is_some() && seen_results.insert(round.n) {
                let closes = round.reveal_ms + i64::from(game.window_ms) + 400;
                shared
                    .tally()
                    .results_push_ms
                    .push((seen_ms - closes) as f64);
            }
        }
        let done = game.is_finished();
        last = Some(game);
        if done {
            break;
        }
    }
    while let Some(tap) = taps.join_next().await {
        let (n, took, status) = tap?;
        let status = status?;
        let mut tally = shared.tally();
        tally.tap_ack_ms.push(took.as_secs_f64() * 1e3);
        tally.window_tap_ms.push(took.as_secs_f64() * 1e3);
        if status == 200 && along {
            tally.audience_acked += 1;
            acked.insert(n);
        } else if status == 200 {
            tally.acked += 1;
            acked.insert(n);
        } else {
            *tally.refused_taps.entry(status).or_default() += 1;
        }
    }
    *played = first_round.or(*played);
    if along {
        // An audience member's calls, checked against their seat once the bill is read.
        let mut tally = shared.tally();
        match last.filter(Match::is_finished) {
            Some(game) => {
                tally.audience_rounds += u64::from(game.len());
                let mut calls: Vec<u32> = acked.iter().copied().collect();
                calls.sort_unstable();
                drop(tally);
                player.called = (game.first_round, calls);
            }
            None => tally.unfinished += 1,
        }
        return Ok(player);
    }
    {
        let mut tally = shared.tally();
        match last.filter(Match::is_finished) {
            Some(game) => {
                let me = game
                    .players
                    .iter()
                    .find(|p| p.nickname.as_str() == nickname.as_str())
                    .map(|p| p.user_id.clone());
                if let Some(me) = &me {
                    tally
                        .finished_by
                        .entry(nickname.clone())
                        .or_insert_with(|| (me.clone(), 0))
                        .1 += 1;
                }
                tally.player_rounds += u64::from(game.len());
                tally.player_matches += 1;
                if nickname.ends_with("P0") {
                    tally.matches += 1;
                }
                for round in &game.rounds {
                    if !acked.contains(&round.n) {
                        continue;
                    }
                    let counted = round
                        .results
                        .iter()
                        .flatten()
                        .any(|r| Some(&r.user_id) == me.as_ref() && r.reaction_ms.is_some());
                    if !counted {
                        tally.lost += 1;
                    }
                }
            }
            None => tally.unfinished += 1,
        }
    }
    Ok(player)
}
