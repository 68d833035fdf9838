//! Page pieces every feature's pages share: the form helpers and the not-found page.

pub mod forms;
pub mod not_found;
