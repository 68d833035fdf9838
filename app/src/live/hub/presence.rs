//! Who is here: when each player was last heard listening (here, or in the others' news), who
//! shows away, and a player's streams by device, so that opening the room on another device
//! moves their seat there and tells the others.

use super::*;

impl HostClock {
    /// When `player` was last known here or elsewhere: heard listening, or joining, or (for a
    /// watcher that just began, which has heard nothing yet) its own start.
    fn last_seen(&self, player: &crate::rooms::model::RoomPlayer) -> i64 {
        let heard = self.seen.get(&player.user_id).copied().unwrap_or(i64::MIN);
        heard.max(player.joined_at_ms).max(self.since_ms)
    }

    /// Marks on `room` the players unseen for longer than `away_ms` at `now`.
    pub(super) fn mark_away(&self, room: &mut Room, now: i64, away_ms: i64) {
        for player in &mut room.lobby.players {
            player.away = now - self.last_seen(player) > away_ms;
        }
    }

    /// The next moment a player still seen would be marked away.
    pub(super) fn next_away(&self, room: &Room, now: i64, away_ms: i64) -> Option<i64> {
        room.players
            .iter()
            .map(|player| self.last_seen(player) + away_ms + 1)
            .filter(|at| *at > now)
            .min()
    }
}

/// One stream of a signed-in player, on one device (session).
pub(super) struct Device {
    pub(super) stream: u64,
    pub(super) user: UserId,
    pub(super) session: String,
    pub(super) opened_ms: i64,
    pub(super) moved: watch::Sender<bool>,
}

impl Watcher {
    pub(super) fn devices(&self) -> std::sync::MutexGuard<'_, Vec<Device>> {
        self.devices.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `user` opened the room on the device `session` at `opened_ms`: their streams here from
    /// other devices, opened before, are told their seat moved.
    pub(super) fn moved_to(&self, user: &UserId, session: &str, opened_ms: i64) {
        for device in self.devices().iter() {
            if &device.user == user && device.session != session && device.opened_ms <= opened_ms {
                device.moved.send_replace(true);
            }
        }
    }
}

impl RoomHub {
    /// [`RoomHub::subscribe_as`] for a signed-in player on a device (`session`, a digest of
    /// their session): their streams from other devices, here and (through the news) on every
    /// other instance, are told their seat moved here. The receiver says when this stream's
    /// seat moves on in turn.
    pub fn subscribe_from(
        &self,
        code: &RoomCode,
        user: UserId,
        session: String,
    ) -> (FeedReceiver, Listening, watch::Receiver<bool>) {
        static STREAMS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let (receiver, listening) = self.subscribe_as(code, Some(user.clone()));
        let mut listening = listening.expect("a listener for a player");
        let now = epoch_millis();
        let (moved, moved_rx) = watch::channel(false);
        let stream = STREAMS.fetch_add(1, Ordering::Relaxed);
        listening.watcher.moved_to(&user, &session, now);
        listening.watcher.devices().push(Device {
            stream,
            user: user.clone(),
            session: session.clone(),
            opened_ms: now,
            moved,
        });
        listening.stream = Some(stream);
        self.tell(PeerNews {
            opened: vec![(user, session, now)],
            ..PeerNews::of(code)
        });
        (receiver, listening, moved_rx)
    }
}
