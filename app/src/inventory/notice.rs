//! The notice after a move, a sale, a buy or a look worn. A plain form post that succeeds is
//! sent back to its page with what happened in the address (`?note=<kind>&nsig=<seal>`); the
//! text is built by the server from the notice's kind and the catalog, and shown only when the
//! seal is this server's, for this browser's session, at most a minute old (the seal of
//! `http::form_errors`, under a purpose of its own). A link someone else wrote shows nothing.

use serde::{Deserialize, Serialize};

use crate::ids::{Look, Place, ThingId};

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "lowercase")]
pub enum Notice {
    Moved {
        thing: ThingId,
        n: u32,
        to: Place,
    },
    Sold {
        thing: ThingId,
        n: u32,
        feathers: u64,
    },
    Bought {
        item: String,
        paid: u64,
    },
    Wore {
        look: Option<Look>,
    },
}

/// The query parameters a notice travels in.
pub const NOTE: &str = "note";
pub const SIG: &str = "nsig";

#[cfg(feature = "ssr")]
pub mod server {
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine;

    use super::{Notice, NOTE, SIG};
    use crate::i18n::td_string;
    use crate::identity::sealed::{is_sealed, seal, Binding};
    use crate::ids::{Look, Place};
    use crate::inventory::store::card;
    use crate::lang::Locale;
    use crate::store::{epoch_millis, Db};

    /// The seal's "path": no server function has it, so a notice seal is never a form error's.
    const PURPOSE: &str = "notice";

    fn encode(notice: &Notice) -> Option<String> {
        serde_json::to_vec(notice)
            .ok()
            .map(|json| URL_SAFE_NO_PAD.encode(json))
    }

    /// Sends a plain form post back to the page it came from (an inventory, shop or card page;
    /// else `fallback`) with `notice` sealed for this session. A request from the server
    /// function client (JavaScript) gets no redirect: it reads the function's answer.
    pub async fn redirect_with(db: &Db, notice: &Notice, fallback: &str) {
        let Some(parts) = leptos::prelude::use_context::<http::request::Parts>() else {
            return;
        };
        let accepts_html = parts
            .headers
            .get(http::header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("text/html"));
        if !accepts_html {
            return;
        }
        let back = parts
            .headers
            .get(http::header::REFERER)
            .and_then(|v| v.to_str().ok())
            .and_then(page_of)
            .unwrap_or_else(|| fallback.to_owned());
        let Some(token) = crate::identity::session::token_from_request() else {
            return;
        };
        let Some(note) = encode(notice) else {
            return;
        };
        let now = epoch_millis();
        let Ok(sig) = seal(db, &Binding::Session(token), PURPOSE, &note, now).await else {
            tracing::warn!("could not seal a notice");
            leptos_axum::redirect(&back);
            return;
        };
        let sep = if back.contains('?') { '&' } else { '?' };
        let mut out = form_urlencoded::Serializer::new(String::new());
        out.append_pair(NOTE, &note);
        out.append_pair(SIG, &sig);
        leptos_axum::redirect(&format!("{back}{sep}{}", out.finish()));
    }

    /// The path and query of a Referer on one of the pages a notice may land on, without any
    /// earlier notice, confirmation or form error.
    pub fn page_of(referer: &str) -> Option<String> {
        let rest = match referer.find("://") {
            Some(i) => &referer[i + 3..],
            None => referer,
        };
        let path_and_query = &rest[rest.find('/')?..];
        let (path, query) = match path_and_query.split_once('?') {
            Some((p, q)) => (p, q),
            None => (path_and_query, ""),
        };
        let allowed = path == "/inventory" || path == "/shop" || path.starts_with("/cards/");
        if !allowed || path.contains("//") {
            return None;
        }
        let mut out = form_urlencoded::Serializer::new(String::new());
        for (key, value) in form_urlencoded::parse(query.as_bytes()) {
            if ![NOTE, SIG, "confirm", "__path", "__err", "__sig"].contains(&&*key) {
                out.append_pair(&key, &value);
            }
        }
        let query = out.finish();
        Some(if query.is_empty() {
            path.to_owned()
        } else {
            format!("{path}?{query}")
        })
    }

    /// The notice in an address, when this server sealed it for this session within the last
    /// minute; otherwise none.
    pub async fn open(db: &Db, note: Option<&str>, sig: Option<&str>) -> Option<Notice> {
        let (note, sig) = (note?, sig?);
        let token = crate::identity::session::token_from_request()?;
        let binding = Binding::Session(token);
        if !is_sealed(db, &binding, PURPOSE, note, sig, epoch_millis()).await {
            return None;
        }
        let json = URL_SAFE_NO_PAD.decode(note).ok()?;
        serde_json::from_slice(&json).ok()
    }

    fn look_name(look: Look, l: Locale) -> String {
        crate::inventory::store::shop::catalog()
            .into_iter()
            .find(|i| i.id == look.id())
            .map(|i| i.name_in(l))
            .unwrap_or_else(|| look.id().to_owned())
    }

    impl Notice {
        /// The notice in `l`'s words, from the catalog and the shop's list.
        pub fn text(&self, l: Locale) -> String {
            let name = |thing: &crate::ids::ThingId| {
                card(thing).map_or_else(|| thing.as_str().to_owned(), |c| c.name_in(l).to_owned())
            };
            match self {
                Notice::Moved { thing, n, to } => {
                    let name = name(thing);
                    match to {
                        Place::Bank => td_string!(
                            l,
                            inventory.notice.moved_to_bank,
                            n = *n,
                            name = name.as_str()
                        )
                        .to_string(),
                        Place::Bag => td_string!(
                            l,
                            inventory.notice.moved_to_bag,
                            n = *n,
                            name = name.as_str()
                        )
                        .to_string(),
                    }
                }
                Notice::Sold { thing, n, feathers } => {
                    let name = name(thing);
                    td_string!(
                        l,
                        inventory.notice.sold,
                        n = *n,
                        name = name.as_str(),
                        feathers = *feathers
                    )
                    .to_string()
                }
                Notice::Bought { item, paid } => {
                    let item = crate::inventory::store::shop::catalog()
                        .into_iter()
                        .find(|i| &i.id == item)
                        .map_or_else(|| item.clone(), |i| i.name_in(l));
                    td_string!(
                        l,
                        inventory.notice.bought,
                        item = item.as_str(),
                        paid = *paid
                    )
                    .to_string()
                }
                Notice::Wore { look: Some(look) } => {
                    let item = look_name(*look, l);
                    td_string!(l, inventory.notice.wearing, item = item.as_str()).to_string()
                }
                Notice::Wore { look: None } => td_string!(l, inventory.notice.took_off).to_string(),
            }
        }
    }
}

#[cfg(feature = "ssr")]
pub use server::{open, redirect_with};
