//! The interface's strings in every language (`app/locales`), as the module that build.rs
//! generates with `leptos_i18n` (`td!`, `td_string!`, `Locale`, ...).

include!(concat!(env!("OUT_DIR"), "/i18n.rs"));
pub use self::i18n::*;
