//! A deck's share card (`/og/d/<CODE>`): its title, its language and code, who made it, how
//! many things it has and how often it was played, and the names of its first few things. Never
//! a ruling (a shared link must not let anyone study before a match), and never an emoji (the
//! cards' fonts have none). A private deck has no card: its page is its author's alone.

use crate::decks::deck_pages::lang_label;
use crate::decks::model::{Deck, DeckThing, Visibility};
use crate::decks::store::Decks;
use crate::i18n::td_string;
use crate::ids::DeckCode;
use crate::lang::Locale;
use crate::share::ShareImage;
use crate::store::DataError;

/// How many of a deck's things its card names.
pub const NAMED: usize = 4;

impl Decks<'_> {
    /// Deck `code`'s card in `l`'s language: the deck with its things (one Query, eventually
    /// consistent) and its author's profile (one GetItem). `None` for no deck or a private one.
    pub async fn deck_card(
        self,
        code: &DeckCode,
        l: Locale,
    ) -> Result<Option<ShareImage>, DataError> {
        let Some(deck) = self
            .deck(code, false)
            .await?
            .filter(|deck| deck.draft.visibility != Visibility::Private)
        else {
            return Ok(None);
        };
        let author = self.accounts().profile(&deck.author).await?;
        let author = author.map_or_else(String::new, |p| {
            crate::identity::hidden::shown(&p.id, &p.display_name).to_string()
        });
        Ok(Some(deck_card(&deck, &author, l)))
    }
}

/// A thing's name on a card in `l`: the Devanagari on a Hindi card when it has one, else the
/// English; the other when it has only one.
fn name_in(thing: &DeckThing, l: Locale) -> &str {
    let (first, second) = match l {
        Locale::hi => (&thing.hi, &thing.en),
        Locale::en => (&thing.en, &thing.hi),
    };
    first.as_deref().or(second.as_deref()).unwrap_or_default()
}

/// The card of `deck` by `author` in `l`'s language.
pub fn deck_card(deck: &Deck, author: &str, l: Locale) -> ShareImage {
    let things = &deck.draft.things;
    let names = things
        .iter()
        .take(NAMED)
        .map(|t| name_in(t, l))
        .collect::<Vec<_>>()
        .join(" · ");
    let more = match things.len().saturating_sub(NAMED) {
        0 => String::new(),
        count => td_string!(l, decks.card.more, count = count).to_string(),
    };
    let lang = lang_label(deck.draft.lang, l);
    let mut rows = vec![(names, more)];
    if !author.is_empty() {
        rows.push((td_string!(l, decks.card.by).to_string(), author.to_owned()));
    }
    rows.push((
        td_string!(l, decks.card.things).to_string(),
        things.len().to_string(),
    ));
    rows.push((
        td_string!(l, decks.card.plays).to_string(),
        deck.plays.to_string(),
    ));
    ShareImage {
        kicker: td_string!(
            l,
            decks.card.kicker,
            lang = lang.as_str(),
            code = deck.code.as_str()
        )
        .to_string(),
        title: deck.draft.title.clone(),
        grid: Vec::new(),
        rows,
        footer: td_string!(l, decks.card.footer).to_string(),
    }
}
