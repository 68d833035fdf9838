//! A watcher's loop: what it reads and when, how it closes rounds on the match's clock, looks
//! after the room's host, and follows the match's receipt.

use super::*;

impl RoomHub {
    /// Draws every room watched here again, without reading it (its names as hidden now:
    /// `identity::hidden`); a room whose feed changes is sent to its listeners.
    pub fn redraw_all(&self) {
        for watcher in self.rooms().values() {
            watcher.wake.notify_one();
        }
    }

    pub(super) async fn watch(self, code: RoomCode, watcher: Arc<Watcher>) {
        let mut room: Option<Room> = None;
        let mut receipt = ReceiptView::default();
        let mut failures = 0u32;
        // When this watcher last told the others the host listens here, and when it began.
        let mut host = HostClock {
            beat_ms: i64::MIN / 2,
            since_ms: epoch_millis(),
            told_ms: i64::MIN / 2,
            seen: HashMap::new(),
        };
        // When the safety-net poll is next due (the first pass reads the room).
        let mut poll_at = i64::MIN;
        loop {
            let now = epoch_millis();
            // While a match is in play, each round's close is the safety net instead: every
            // watcher that has not heard of the close by its turn reads the room then.
            let in_play = room.as_ref().is_some_and(|r| r.state == RoomState::Playing);
            let wake = Wake {
                written: watcher.written.swap(false, Ordering::AcqRel),
                heard: watcher.take_heard(),
                poll: now >= poll_at && !in_play,
            };
            let written = wake.written;
            if wake.poll {
                poll_at = now + self.inner.poll.as_millis() as i64;
            }
            metrics::counter!(crate::store::metrics::series::WATCHER_PASSES).increment(1);
            match self
                .refresh(&code, &watcher, wake, &mut room, &mut receipt, &mut host)
                .await
            {
                Ok(feed) => {
                    failures = 0;
                    let news = watcher.feed.borrow().as_deref().map(|s| &s.feed) != Some(&feed);
                    if news {
                        metrics::counter!(crate::store::metrics::series::SNAPSHOTS).increment(1);
                        watcher.feed.send_replace(Some(Snapshot::new(feed)));
                    }
                }
                Err(err) => {
                    failures += 1;
                    tracing::warn!(%code, error = ?err, failures, "room watcher read failed");
                    // Try again soon (backing off), and still pass on a write made here.
                    let retry = RETRY_AFTER * 2u32.pow(failures.min(4));
                    poll_at = now + retry.min(self.inner.poll).as_millis() as i64;
                    if written {
                        watcher.written.store(true, Ordering::Release);
                    }
                }
            }
            let now = epoch_millis();
            // In play the poll waits (the rounds are the safety net): its time, long past, must
            // not wake the watcher every 25 ms for the whole match.
            let in_play = room.as_ref().is_some_and(|r| r.state == RoomState::Playing);
            let mut pause = if in_play {
                self.inner.poll
            } else {
                Duration::from_millis((poll_at - now).max(25) as u64)
            };
            // What the pause waits for (the wakes' metric says why watchers run).
            let mut cause = "poll";
            // While failing, still wake for the next reveal (one attempt each, so no spin): a
            // transient error must not push this instance's reveal back by a whole backoff.
            let event = room.as_ref().and_then(|room| match failures {
                0 => next_event(room, now, self.close_after(&code)),
                _ => room.game.as_ref().and_then(|g| g.next_reveal_after(now)),
            });
            if let Some(at) = event {
                // Never spin: a round still due after an attempt waits a little.
                let until = Duration::from_millis((at - now).max(25) as u64);
                if until < pause {
                    (pause, cause) = (until, "round");
                }
            }
            if let Some(at) = room
                .as_ref()
                .and_then(|room| host.next_away(room, now, self.presence_away_ms()))
            {
                // A player goes grey the moment they have been unheard long enough.
                let until = Duration::from_millis((at - now) as u64);
                if until < pause {
                    (pause, cause) = (until, "away");
                }
            }
            if !watcher.listeners().is_empty() {
                // The next news of who listens here.
                let at = (host.told_ms + self.host_beat_ms()).max(now + 25);
                let until = Duration::from_millis((at - now) as u64);
                if until < pause {
                    (pause, cause) = (until, "here");
                }
            }
            if let Some(room) = room.as_ref() {
                let next = if watcher.hears(&room.host_id) {
                    // The next news that the host listens here.
                    Some((host.beat_ms + self.host_beat_ms()).max(now + 25))
                } else {
                    // The moment the host would be judged away here, if no news moves it on
                    // (once past, the poll and the rounds wake the watcher as before).
                    let seen = room
                        .lobby
                        .host_seen_ms
                        .unwrap_or(i64::MIN)
                        .max(host.since_ms);
                    Some(seen + self.host_away_ms() + 1).filter(|at| *at > now)
                };
                if let Some(at) = next {
                    let until = Duration::from_millis((at - now) as u64);
                    if until < pause {
                        (pause, cause) = (until, "host");
                    }
                }
            }
            let wakes = crate::store::metrics::series::WATCHER_WAKES;
            tokio::select! {
                () = tokio::time::sleep(pause) => metrics::counter!(wakes, "by" => cause).increment(1),
                () = watcher.wake.notified() => metrics::counter!(wakes, "by" => "bell").increment(1),
                () = watcher.feed.closed() => {}
            }
            let mut rooms = self.rooms();
            if watcher.feed.receiver_count() == 0 {
                if rooms
                    .get(&code)
                    .is_some_and(|current| Arc::ptr_eq(current, &watcher))
                {
                    rooms.remove(&code);
                }
                return;
            }
        }
    }

    /// Brings `room` up to date (from news, or reading it after a write here, or when the
    /// safety-net poll finds its version moved), looks after its host (news that the host
    /// listens here, while they do; else hands the room on if the host is away), resolves what
    /// is due, tells the other instances what changed through this one, and returns what
    /// browsers may see now.
    pub(super) async fn refresh(
        &self,
        code: &RoomCode,
        watcher: &Watcher,
        wake: Wake,
        room: &mut Option<Room>,
        receipt: &mut ReceiptView,
        host: &mut HostClock,
    ) -> Result<RoomFeed, DataError> {
        // What the watcher does for a match in play is on that match's receipt.
        let in_play = room
            .as_ref()
            .filter(|room| room.state == RoomState::Playing)
            .and_then(|room| room.game.as_ref())
            .map(|game| game.first_round);
        let db = &match in_play {
            Some(first) => self.inner.watchers.game().billed_to_match(code, first),
            None => self.inner.watchers.clone(),
        };
        let version = |room: &Option<Room>| room.as_ref().map(|room| room.version);
        let progress = |room: &Option<Room>| room.as_ref().map(crate::live::peers::progress);
        let mut read = wake.written || (wake.poll && room.is_none());
        // Who listens: here, now; elsewhere, as the others' news said.
        let heard_at = epoch_millis();
        let here: Vec<UserId> = watcher.listeners().keys().cloned().collect();
        for user in here
            .iter()
            .chain(wake.heard.iter().flat_map(|heard| &heard.here))
        {
            host.seen.insert(user.clone(), heard_at);
        }
        if let Some(heard) = wake.heard {
            if heard.ended {
                // Another instance saw the room end: one read, and this stream ends too.
                read = true;
            }
            match heard.room {
                Some(theirs) if progress(room).is_none_or(|p| theirs.progress() > p) => {
                    let seen = room.as_ref().and_then(|r| r.lobby.host_seen_ms);
                    let mut theirs = theirs.into_room();
                    theirs.lobby.host_seen_ms = theirs.lobby.host_seen_ms.max(seen);
                    *room = Some(theirs);
                }
                // Too big to carry: read it.
                None if progress(room).is_some_and(|p| heard.progress() > p) => read = true,
                _ => {}
            }
            if let (Some(room), Some(seen)) = (room.as_mut(), heard.host_seen_ms) {
                room.lobby.host_seen_ms = room.lobby.host_seen_ms.max(Some(seen));
            }
            if let Some((first, theirs)) = heard.receipt {
                let newer = receipt.first != first
                    || receipt.receipt.is_none_or(|mine| theirs.calls > mine.calls);
                if newer {
                    receipt.first = first;
                    receipt.receipt = Some(theirs);
                }
            }
        }
        // When the host was last seen as this instance knows it (its own streams, the others'
        // news, just taken in): kept across a read of the table, which holds only when hosting
        // last passed.
        let known_seen = room
            .as_ref()
            .map(|room| (room.host_id.clone(), room.lobby.host_seen_ms));
        let before = version(room);
        if read {
            *room = db.game().room(code).await?;
        } else if wake.poll {
            // The safety net: a version a second stale is caught by the next poll.
            match db.rooms().room_pulse_eventually(code).await? {
                None => *room = db.game().room(code).await?,
                Some(pulse) => {
                    if version(room).is_none_or(|v| pulse.version > v) {
                        *room = db.game().room(code).await?;
                    }
                    if let Some(room) = room.as_mut().filter(|room| room.host_id == pulse.host_id) {
                        // Hosting passing moves `host_seen` with a new version; news of the
                        // host moves it here only, so the later of the two stands.
                        room.lobby.host_seen_ms = room.lobby.host_seen_ms.max(pulse.host_seen_ms);
                    }
                }
            }
        }
        keep_seen(room, &known_seen);
        // What changed through this instance, the others hear of.
        let mut tell = wake.written;
        match self
            .look_after_host(code, watcher, room.as_ref(), host)
            .await
        {
            HostCare::Nothing => {
                // Who listens here, told every beat while anyone does (the host's beat below
                // carries it when the host is among them).
                if !here.is_empty() && heard_at - host.told_ms >= self.host_beat_ms() {
                    host.told_ms = heard_at;
                    self.tell(PeerNews {
                        here: here.clone(),
                        ..PeerNews::of(code)
                    });
                }
            }
            HostCare::Beat(seen) => {
                if let Some(room) = room.as_mut() {
                    room.lobby.host_seen_ms = room.lobby.host_seen_ms.max(Some(seen));
                }
                host.told_ms = seen;
                self.tell(PeerNews {
                    host_seen_ms: Some(seen),
                    here: here.clone(),
                    ..PeerNews::of(code)
                });
            }
            HostCare::HandedOn => {
                *room = db.game().room(code).await?;
                tell = true;
            }
        }
        let now = epoch_millis();
        let work = room
            .as_ref()
            .is_some_and(|room| room.has_work(now - self.close_after(code)));
        if work {
            if let Some(now) = room.take() {
                let was = crate::live::peers::progress(&now);
                *room = db.game().advance(code, now).await?;
                // `advance` reads the room from the table again.
                keep_seen(room, &known_seen);
                tell |= progress(room) != Some(was);
            }
        }
        if tell {
            self.tell(match room.as_ref() {
                Some(room) => PeerNews::room(room),
                None => PeerNews {
                    ended: true,
                    ..PeerNews::of(code)
                },
            });
        } else if before.is_some() && room.is_none() {
            tracing::debug!(%code, "the room ended");
        }
        if let Some(room) = room.as_mut() {
            self.follow_receipt(code, room, receipt).await;
            self.count_audience(code, room).await;
        }
        Ok(match room {
            Some(room) => {
                let mut shown = room.visible_at(epoch_millis());
                host.mark_away(&mut shown, epoch_millis(), self.presence_away_ms());
                // What browsers are sent, and nothing else: a change to the server's own fields
                // alone (each beat of a listening host moves `host_seen`) is no news to them,
                // and must not send every stream the same snapshot again.
                shown.lobby.host_seen_ms = None;
                shown.lobby.away_host = None;
                shown.lobby.away_until_ms = None;
                shown.lobby.audience = 0;
                for round in shown.game.iter_mut().flat_map(|g| g.rounds.iter_mut()) {
                    round.taps.clear();
                }
                if let Some(game) = shown.game.as_mut() {
                    if game.first_round == receipt.first {
                        game.receipt = receipt.receipt.map(Box::new);
                    }
                }
                RoomFeed::Room(shown)
            }
            None => RoomFeed::Ended,
        })
    }

    /// Gives the room back to the host it was handed on from while away, when they listen here
    /// again in time; while the host listens on this instance, says every [`HOST_BEAT_MS`] that
    /// they are here (for the other instances: nothing is written); otherwise, if they have been
    /// unseen longer than the grace (by the table's `host_seen`, the others' news, and this
    /// watcher's own time), hands the room on (each exactly once across instances: the write's
    /// condition decides).
    pub(super) async fn look_after_host(
        &self,
        code: &RoomCode,
        watcher: &Watcher,
        room: Option<&Room>,
        host: &mut HostClock,
    ) -> HostCare {
        let Some(room) = room else {
            return HostCare::Nothing;
        };
        let db = &self.inner.watchers;
        let now = epoch_millis();
        // The host the room was handed on from while away listens here again (a stream that
        // came back without a page load, or a match that ended since they returned): theirs
        // again, if in time.
        if let Some(away) = room
            .lobby
            .away_host
            .as_ref()
            .filter(|away| watcher.hears(away) && room.lobby.may_take_back(away, now))
        {
            match db.rooms().take_back(&room.lobby, away, now).await {
                Ok(true) => {
                    tracing::debug!(%code, %away, "the away host is back; hosting returned");
                    return HostCare::HandedOn;
                }
                Ok(false) => {}
                Err(err) => tracing::debug!(%code, error = ?err, "giving hosting back failed"),
            }
        }
        if watcher.hears(&room.host_id) {
            if now - host.beat_ms >= self.host_beat_ms() {
                host.beat_ms = now;
                return HostCare::Beat(now);
            }
            return HostCare::Nothing;
        }
        // Unseen by what this watcher knows, and for a whole grace of its own.
        let seen = room.lobby.host_seen_ms.max(Some(host.since_ms));
        let away = self.host_away_ms();
        if !crate::rooms::model::host_is_away(seen, now, away) {
            return HostCare::Nothing;
        }
        let lobby = crate::rooms::model::Lobby {
            host_seen_ms: seen,
            ..room.lobby.clone()
        };
        match db.rooms().hand_over_if_host_away(&lobby, now, away).await {
            Ok(Some(next)) => {
                tracing::debug!(%code, %next, "the host was away; handed the room on");
                HostCare::HandedOn
            }
            Ok(None) => HostCare::Nothing,
            Err(err) => {
                tracing::debug!(%code, error = ?err, "handing on an away host's room failed");
                HostCare::Nothing
            }
        }
    }

    /// Once the room's match is over: adds this instance's tally to its receipt (the sum so far
    /// comes back with the write, and goes to the other instances). With nothing to add, it
    /// waits for the others' news of the receipt if it saw the match in play (the instance that
    /// closed the last round always has something to add, and tells); a watcher that first saw
    /// the match over reads the receipt once.
    pub(super) async fn follow_receipt(
        &self,
        code: &RoomCode,
        room: &Room,
        view: &mut ReceiptView,
    ) {
        let Some(game) = room.game.as_ref() else {
            return;
        };
        if room.state == RoomState::Playing {
            view.played = game.first_round;
            return;
        }
        if !game.is_finished() {
            return;
        }
        let first = game.first_round;
        let db = &self.inner.watchers;
        match db.game().add_to_receipt(&room.id, first).await {
            Ok(Some(receipt)) => {
                if view.first != first || view.receipt.is_none_or(|r| receipt.calls > r.calls) {
                    view.first = first;
                    view.receipt = Some(receipt);
                }
                self.tell(PeerNews {
                    receipt: Some((first, receipt)),
                    ..PeerNews::of(code)
                });
                return;
            }
            Ok(None) => {}
            Err(err) => tracing::debug!(%code, error = ?err, "adding to the receipt failed; later"),
        }
        if view.first == first || view.played == first {
            return;
        }
        match db.game().match_receipt(&room.id, first).await {
            Ok(receipt) => {
                view.first = first;
                view.receipt = receipt;
            }
            Err(err) => tracing::debug!(%code, error = ?err, "reading the receipt failed"),
        }
    }
}

impl RoomHub {
    /// Counts the room's audience into its match's resolved rounds, from this instance's
    /// figures ([`crate::game::crowds::Crowds`]): the seats are read at each round's close (one
    /// Query, only for a room with an audience), so a call written just after a close is
    /// counted at the next; and once more a second after the last close, so the podium's counts
    /// hold every call the window took. The page loads here share the figures.
    async fn count_audience(&self, code: &RoomCode, room: &mut Room) {
        let crowds = &self.inner.crowds;
        if let Err(err) = crowds.count(&self.inner.watchers, code, room).await {
            tracing::debug!(%code, error = ?err, "reading the audience failed; later");
        }
    }
}

/// Puts back on `room`, read again from the table, when its host was last seen as this instance
/// knew it (`known`: the host then, and when), if the host is the same: the table holds only when
/// hosting last passed; what this instance saw and heard of the host since is in memory alone.
fn keep_seen(room: &mut Option<Room>, known: &Option<(UserId, Option<i64>)>) {
    if let (Some(room), Some((host_id, seen))) = (room.as_mut(), known) {
        if &room.host_id == host_id {
            room.lobby.host_seen_ms = room.lobby.host_seen_ms.max(*seen);
        }
    }
}
