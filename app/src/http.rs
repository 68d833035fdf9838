//! The server-only HTTP surface: the shared state (`state`), the router (`router`), the request
//! guard (origins, proxies, CSP; `guard`), the whole-body deadline (`deadline`), the seal on
//! form errors (`form_errors`), the connection loop (`serve`), the embedded DynamoDB engine with
//! its HTTP front (`engine`) and, on Amazon ECS, the task's own address (`ecs`). Features never import from here: the router
//! hands them what they need (the store handle, the room-news bell, the tap throttle) as Leptos
//! context, and the guard's findings as request extensions (`crate::request`).

pub mod cards;
pub mod deadline;
pub mod ecs;
pub mod engine;
pub mod form_errors;
pub mod guard;
pub mod health;
pub mod metrics;
pub mod owner;
pub mod router;
pub mod serve;
pub mod state;

pub use guard::SecurityConfig;
pub use router::{router, MAX_BODY_BYTES};
pub use state::AppState;
