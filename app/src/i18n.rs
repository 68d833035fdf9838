//! The interface's strings in every language (`app/locales`), as the module that build.rs
//! generates with `leptos_i18n` (`td!`, `td_string!`, `Locale`, ...).

// The generated module is named `i18n` too (leptos_i18n names it so).
#![allow(clippy::module_inception)]

include!(concat!(env!("OUT_DIR"), "/i18n.rs"));
pub use self::i18n::*;
