//! The real `udd-server` binary, run as processes: its commands and exit codes, an engine
//! restarted under a match, and shutdown in the middle of play. One test binary, one module
//! per subject, on the support in `server/tests/support`.

#[path = "../support/mod.rs"]
mod support;

mod engine_restart;
mod lifecycle;
mod shutdown;
