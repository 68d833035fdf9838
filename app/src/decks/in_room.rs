//! A room's deck: what the host chooses to play in the lobby (the whole catalog, one of its
//! categories, one of their decks, or a deck by its code) and the form that chooses it, drawn
//! by the server (no island: nothing of it is in the room page's bundle).

use leptos::prelude::*;
use leptos::server_fn::ServerFn;

use crate::decks::model::DeckHead;
use crate::error::AppError;
use crate::i18n::td_string;
use crate::rooms::model::{RoomCode, RoomDeck};

/// The host of room `code` chooses what it plays: `deck` from the form's list (`all`,
/// `cat:<category>` or a deck's code), or the code `typed` when one was typed. A room set to
/// more rounds than the choice has things is set to as many; the room page says what it plays.
#[server(endpoint = "decks/choose")]
pub async fn choose_deck(
    code: RoomCode,
    deck: String,
    typed: Option<String>,
) -> Result<(), AppError> {
    crate::error::answer("choose_deck", async move {
        let db = expect_context::<crate::store::Db>();
        let host = crate::identity::session::require_player(&db).await?;
        let pick = typed.filter(|t| !t.trim().is_empty()).unwrap_or(deck);
        let chosen = ssr::room_deck(&db, &host.id, pick.trim()).await?;
        db.rooms().choose_deck(&code, &host.id, chosen).await?;
        crate::news::announce(&code);
        leptos_axum::redirect(&format!("/r/{code}?saved=settings"));
        Ok(())
    })
    .await
}

/// "Play this": opens a room that plays deck `deck`, with the caller (or a new guest called
/// `name`) as host, and goes to its lobby. A private deck only its author can play.
#[server(endpoint = "decks/play")]
pub async fn play_deck(
    deck: crate::ids::DeckCode,
    name: crate::identity::model::NewName,
    avatar: Option<crate::identity::model::Avatar>,
) -> Result<RoomCode, AppError> {
    crate::error::answer("play_deck", async move {
        let db = expect_context::<crate::store::Db>();
        let me = crate::identity::session::current_user(&db).await?;
        let me = me.unwrap_or_else(crate::identity::model::UserId::nobody);
        let chosen = ssr::room_deck(&db, &me, deck.as_str()).await?;
        let rules = crate::rooms::model::RoomRules::default();
        let nickname = name.into_inner();
        let avatar = avatar.unwrap_or_default();
        let code = crate::rooms::admission::open_room(&db, &nickname, avatar, false, rules, chosen)
            .await?;
        leptos_axum::redirect(&format!("/r/{code}"));
        Ok(code)
    })
    .await
}

#[cfg(feature = "ssr")]
mod ssr {
    use crate::catalog::model::Category;
    use crate::decks::model::Visibility;
    use crate::error::AppError;
    use crate::i18n::td_string;
    use crate::identity::model::UserId;
    use crate::ids::DeckCode;
    use crate::rooms::model::RoomDeck;
    use crate::store::Db;

    /// How many of the built-in things are in `category` (all of them: `None`).
    pub fn catalog_count(category: Option<Category>) -> u32 {
        crate::catalog::seed::SEED
            .iter()
            .filter(|t| category.is_none_or(|c| t.category == c))
            .count() as u32
    }

    /// What `pick` names for a room of `host`'s: `None` for the whole catalog. A private deck
    /// of someone else's is one there is none of, as its page has it.
    pub async fn room_deck(
        db: &Db,
        host: &UserId,
        pick: &str,
    ) -> Result<Option<RoomDeck>, AppError> {
        let l = crate::lang::locale();
        if pick.is_empty() || pick == "all" {
            return Ok(None);
        }
        if let Some(slug) = pick.strip_prefix(RoomDeck::CATEGORY) {
            let category = Category::from_slug(slug).ok_or_else(|| {
                AppError::BadRequest(td_string!(l, common.invalid.category).to_string())
            })?;
            return Ok(Some(RoomDeck {
                pick: pick.to_owned(),
                label: category.label_in(l),
                things: catalog_count(Some(category)),
            }));
        }
        let code = DeckCode::parse(pick)?;
        let gone = || AppError::NotFound(td_string!(l, decks.errors.not_playable).to_string());
        let head = db.decks().head(&code).await?.ok_or_else(gone)?;
        if head.visibility == Visibility::Private && &head.author != host {
            return Err(gone());
        }
        Ok(Some(RoomDeck {
            pick: code.to_string(),
            label: head.title,
            things: head.count,
        }))
    }
}

/// "Play this" on a deck's page: the host's name and avatar, and a new room playing it.
#[component]
pub fn PlayDeckForm(deck: crate::ids::DeckCode) -> impl IntoView {
    let l = crate::lang::locale();
    view! {
        <crate::ui::forms::FormError paths=&[PlayDeck::PATH] />
        <form method="post" action=PlayDeck::PATH class="card" data-testid="play-deck">
            <h2>{td_string!(l, decks.room.play_heading).to_string()}</h2>
            <input type="hidden" name="deck" value=deck.to_string() />
            <label>{td_string!(l, rooms.home.your_name).to_string()}" "
                <input name="name" required maxlength="24" autocomplete="nickname" />
            </label>
            <crate::identity::account_page::AvatarPicker chosen=crate::identity::model::Avatar::default() />
            <button type="submit">{td_string!(l, decks.room.play).to_string()}</button>
        </form>
    }
}

/// The host's choice of what the room plays, in the lobby: the built-in things (all, or one
/// category), the host's own decks, or a deck by its code; and the way to the gallery.
#[component]
pub fn RoomDeckForm(code: String, current: Option<RoomDeck>, mine: Vec<DeckHead>) -> impl IntoView {
    let l = crate::lang::locale();
    let chosen = current
        .as_ref()
        .map_or("all".to_owned(), |d| d.pick.clone());
    #[cfg(feature = "ssr")]
    let count = ssr::catalog_count;
    #[cfg(not(feature = "ssr"))]
    let count = |_: Option<crate::catalog::model::Category>| 0u32;
    let option = |value: String, label: String| {
        let selected = value == chosen;
        view! { <option value=value selected=selected>{label}</option> }
    };
    let all = td_string!(l, decks.room.all, count = count(None)).to_string();
    let categories = crate::catalog::model::Category::ALL
        .into_iter()
        .map(|c| {
            let name = c.label_in(l);
            let label = td_string!(
                l,
                decks.room.category,
                name = name.as_str(),
                count = count(Some(c))
            );
            option(
                format!("{}{}", RoomDeck::CATEGORY, c.slug()),
                label.to_string(),
            )
        })
        .collect_view();
    // A deck by code that is not the host's own shows as its own choice, chosen.
    let other = current
        .as_ref()
        .filter(|d| d.deck_code().is_some() && !mine.iter().any(|m| m.code.as_str() == d.pick))
        .map(|d| {
            option(
                d.pick.clone(),
                td_string!(
                    l,
                    decks.room.mine,
                    title = d.label.as_str(),
                    count = d.things
                )
                .to_string(),
            )
        });
    let mine_group = (!mine.is_empty()).then(|| {
        let options = mine
            .into_iter()
            .map(|d| option(d.code.to_string(), td_string!(l, decks.room.mine, title = d.title.as_str(), count = d.count).to_string()))
            .collect_view();
        view! { <optgroup label=td_string!(l, decks.room.mine_group).to_string()>{options}</optgroup> }
    });
    view! {
        <form method="post" action=ChooseDeck::PATH class="card settings" data-testid="room-deck">
            <h2>{td_string!(l, decks.room.heading).to_string()}</h2>
            <input type="hidden" name="code" value=code />
            <label>{td_string!(l, decks.room.choice_label).to_string()}" "
                <select name="deck" data-testid="deck-choice">
                    <optgroup label=td_string!(l, decks.room.catalog_group).to_string()>
                        {option("all".to_owned(), all)}
                        {categories}
                    </optgroup>
                    {mine_group}
                    {other}
                </select>
            </label>
            <label>{td_string!(l, decks.room.by_code).to_string()}" "
                <input name="typed" maxlength="12" autocomplete="off" autocapitalize="characters" spellcheck="false" aria-describedby="deck-code-help" data-testid="deck-code" />
            </label>
            <p class="muted" id="deck-code-help">{td_string!(l, decks.room.by_code_help).to_string()}</p>
            <button type="submit">{td_string!(l, decks.room.choose).to_string()}</button>
            <p><a href="/decks">{td_string!(l, decks.room.gallery).to_string()}</a></p>
        </form>
    }
}
