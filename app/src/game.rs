//! The match played in a room: its shared types (`model`), the scoring rules (`rules`), which
//! taps count (`timing`), the draw of things (`draw`); starting (`store`), tapping (`taps`, with a
//! per-instance flood `throttle`) and resolving rounds exactly once (`resolve`); the durable
//! match records (`records`), the match kept for good (`sheet`, stored and read by `detail`) and
//! what each match cost (`receipts`); the audience's figures as this instance counted them
//! (`crowds`); the server functions (`api`), the match's part of the room page (`board`, with
//! the `podium`) and the pages of finished matches (`match_page`, `matches_page`).

pub mod api;
pub mod board;
pub mod match_page;
pub mod matches_page;
pub mod model;
pub mod podium;
pub mod rules;
pub mod sheet;
pub mod timing;
pub mod words;

#[cfg(feature = "ssr")]
pub mod crowds;
#[cfg(feature = "ssr")]
pub mod draw;
#[cfg(feature = "ssr")]
pub mod store;
#[cfg(feature = "ssr")]
pub mod throttle;

#[cfg(feature = "ssr")]
pub use draw::{draw_things, FLYER_SHARE};
pub use model::*;
pub use rules::*;
pub use sheet::{
    match_path, MatchDetail, MatchList, MatchSummary, Play, RoundSheet, SummaryPlayer, Totals,
};
pub use timing::{check_tap, Received, TapRejected, GRACE_MS, HUMAN_FLOOR_MS, LATENCY_CAP_MS};
