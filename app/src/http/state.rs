//! Everything a request handler may need, built once at start-up.

use std::sync::Arc;

use axum::extract::FromRef;
use leptos::prelude::LeptosOptions;

use crate::game::throttle::{RoomLoads, TapThrottle};
use crate::http::guard::SecurityConfig;
use crate::live::hub::{RoomHub, DEFAULT_POLL, MAX_STREAMS};
use crate::store::Db;

/// Everything a request handler may need, built once at start-up.
#[derive(Clone, Debug)]
pub struct AppState {
    pub leptos_options: LeptosOptions,
    pub db: Db,
    /// `embedded`, `endpoint` or `aws`, for `/healthz` and the logs.
    pub engine: &'static str,
    /// This instance's live-room watchers.
    pub hub: RoomHub,
    /// The operator's settings for origins, proxies and diagnostics.
    pub security: Arc<SecurityConfig>,
    /// This instance's throttle on taps.
    pub taps: TapThrottle,
    /// This instance's throttle on room loads by nobody signed in.
    pub room_loads: RoomLoads,
    /// This instance's share cards: kept by what they draw, and each client's budget of misses.
    pub cards: crate::http::cards::cache::Cards,
    /// The last deep health probe, shared by every `/healthz` within a second of it.
    pub health: crate::http::health::check::HealthCheck,
    /// The daily flight's clock: the system's, which tests move.
    pub daily: crate::daily::clock::DailyClock,
    /// The days' draws as this instance has read them (a draw never changes once made).
    pub draws: crate::daily::draws::DayDraws,
    /// How long a request's whole body may take to arrive, from its head (see
    /// `http::deadline`).
    pub body_deadline: std::time::Duration,
    /// Who may open the operators' review (`reports::Operators`).
    pub operators: crate::reports::Operators,
}

impl AppState {
    /// The state with a live-room hub polling at [`DEFAULT_POLL`].
    pub fn new(leptos_options: LeptosOptions, db: Db, engine: &'static str) -> Self {
        Self::with_poll(leptos_options, db, engine, DEFAULT_POLL)
    }

    /// The state with a live-room hub polling every `poll`.
    pub fn with_poll(
        leptos_options: LeptosOptions,
        db: Db,
        engine: &'static str,
        poll: std::time::Duration,
    ) -> Self {
        let hub = RoomHub::new(db.clone(), poll, MAX_STREAMS);
        Self {
            leptos_options,
            db,
            engine,
            hub,
            security: Arc::new(SecurityConfig::default()),
            taps: TapThrottle::default(),
            room_loads: RoomLoads::default(),
            cards: crate::http::cards::cache::Cards::default(),
            health: Default::default(),
            daily: Default::default(),
            draws: Default::default(),
            body_deadline: crate::http::serve::BODY_READ_TIMEOUT,
            operators: Default::default(),
        }
    }

    /// The same state with the operator's security settings.
    pub fn with_security(self, security: SecurityConfig) -> Self {
        Self {
            security: Arc::new(security),
            ..self
        }
    }

    /// The same state with these operators (usernames of claimed accounts).
    pub fn with_operators(self, operators: crate::reports::Operators) -> Self {
        Self { operators, ..self }
    }

    /// The same state with another deadline for a request's whole body (tests shorten it).
    pub fn with_body_deadline(self, body_deadline: std::time::Duration) -> Self {
        Self {
            body_deadline,
            ..self
        }
    }
}

impl FromRef<AppState> for LeptosOptions {
    fn from_ref(state: &AppState) -> Self {
        state.leptos_options.clone()
    }
}
