//! The lobby before the first match: settings changed, a visitor joining and kicked, each change
//! timed from its answer to every listener's stream showing it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, ensure, Context};
use app::live::RoomFeed;
use rand::{Rng, SeedableRng};

use super::phone::{Phone, Player, Shared};

/// What a lobby change should look like once a listener's stream shows it.
enum Expect {
    MaxPlayers(u8),
    Present(String),
    Absent(String),
}

impl Expect {
    fn seen(&self, feed: &RoomFeed) -> bool {
        let RoomFeed::Room(room) = feed else {
            return false;
        };
        let named = |name: &str| room.players.iter().any(|p| p.nickname.as_str() == name);
        match self {
            Expect::MaxPlayers(n) => room.settings.max_players == *n,
            Expect::Present(name) => named(name),
            Expect::Absent(name) => !named(name),
        }
    }
}

/// The lobby before the first match: `changes` changes made in turn (the host's settings, a
/// visitor joining through the instance after the host's, the host kicking them), each timed
/// from its answer to each listener's stream showing it, split by whether the listener is on
/// the instance that made the change.
pub(super) async fn lobby(
    shared: &Arc<Shared>,
    bases: &[String],
    room: u32,
    code: &str,
    rounds: u8,
    players: &mut [Player],
    changes: u32,
) -> anyhow::Result<()> {
    if changes == 0 {
        return Ok(());
    }
    // Everyone's first snapshot first: a change is timed against a stream already open.
    for player in players.iter_mut() {
        let first = tokio::time::timeout(Duration::from_secs(10), player.feed.recv()).await;
        let Ok(Some((at, feed))) = first else {
            bail!("a live stream sent nothing");
        };
        player.last = Some((at, feed));
    }
    let host_base = players[0].phone.base.clone();
    let visitor_base = bases[(room as usize + 1) % bases.len()].clone();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(u64::from(room) ^ 0x10bb);
    let mut visitor_name = String::new();
    for i in 0..changes {
        // Changes land at random moments of the watchers' polls.
        tokio::time::sleep(Duration::from_millis(rng.random_range(300..900))).await;
        let sent = Instant::now();
        let (base, expect, (status, body)) = match i % 3 {
            0 => {
                let max = 8 + (i / 3 % 5) as u8;
                let form = format!(
                    "code={code}&settings[max_players]={max}&settings[rounds]={rounds}\
                     &settings[window_ms]=3000&settings[public]=false"
                );
                let answer = players[0].phone.post("/api/rooms/settings", &form).await?;
                (host_base.clone(), Expect::MaxPlayers(max), answer)
            }
            1 => {
                // A new visitor each time: a player kicked from a room may not join it again.
                let mut visitor = Phone {
                    shared: Arc::clone(shared),
                    base: visitor_base.clone(),
                    address: format!("10.{}.{}.{}", room / 250, room % 250, 200 + i % 50),
                    cookie: None,
                };
                visitor_name = super::phone::nickname(room, 'V', i);
                let answer = visitor
                    .post(
                        "/api/rooms/join",
                        &format!("code={code}&name={visitor_name}"),
                    )
                    .await?;
                (
                    visitor_base.clone(),
                    Expect::Present(visitor_name.clone()),
                    answer,
                )
            }
            _ => {
                // The host kicks the visitor, whose id they know from their own stream.
                let id = players[0]
                    .last
                    .as_ref()
                    .and_then(|(_, feed)| match feed {
                        RoomFeed::Room(room) => room
                            .players
                            .iter()
                            .find(|p| p.nickname.as_str() == visitor_name)
                            .map(|p| p.user_id.to_string()),
                        RoomFeed::Ended | RoomFeed::Moved => None,
                    })
                    .context("the host's stream never showed the visitor")?;
                let answer = players[0]
                    .phone
                    .post("/api/rooms/kick", &format!("code={code}&player={id}"))
                    .await?;
                (
                    host_base.clone(),
                    Expect::Absent(visitor_name.clone()),
                    answer,
                )
            }
        };
        ensure!(status == 200, "lobby change {i} answered {status}: {body}");
        let answered = Instant::now();
        shared.tally().lobby_answer_ms[(i % 3) as usize]
            .push(answered.duration_since(sent).as_secs_f64() * 1e3);
        for player in players.iter_mut() {
            let cross = player.phone.base != base;
            let deadline = answered + Duration::from_secs(5);
            let seen = loop {
                // The first message since the change was sent that shows it.
                if let Some((at, feed)) = &player.last {
                    if *at >= sent && expect.seen(feed) {
                        break Some(*at);
                    }
                }
                match tokio::time::timeout_at(deadline.into(), player.feed.recv()).await {
                    Ok(Some(message)) => player.last = Some(message),
                    _ => break None,
                }
            };
            let mut tally = shared.tally();
            match seen {
                Some(at) => {
                    // Shown before the answer reached the player: 0 (the stream was quicker).
                    let ms = at.saturating_duration_since(answered).as_secs_f64() * 1e3;
                    if cross {
                        tally.lobby_cross_ms.push(ms);
                    } else {
                        tally.lobby_same_ms.push(ms);
                    }
                }
                None => tally.lobby_missed += 1,
            }
        }
    }
    Ok(())
}
