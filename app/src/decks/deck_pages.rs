//! The decks' pages, drawn on the server with plain forms (no island: any island adds to the
//! room page's download until the bundle is split): `/decks` (the player's decks and a way to
//! make one), `/decks/new`, `/d/<CODE>` (a deck, its rulings hidden until the viewer asks) and
//! `/d/<CODE>/edit` (its author's editor: the things as lines, which is also the export).

use leptos::either::Either;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use crate::codec::Base64Json;
use crate::decks::api::{
    deck_path, my_decks, read_deck, read_deck_form, CopyDeck, CreateDeck, DeckFormData, DeckView,
    DeleteDeck, SaveDeck,
};
use crate::decks::gallery_page::Gallery;
use crate::decks::in_room::PlayDeckForm;
use crate::decks::model::{DeckLang, Visibility, MAX_THINGS, MIN_THINGS};
use crate::decks::moderation::{ReportDeckForm, ReportedNotice};
use crate::i18n::td_string;
use crate::ids::DeckCode;
use crate::lang::Locale;
use crate::ui::forms::FormError;
use crate::ui::{Missing, ShareTags};

/// `/decks`: the gallery of public decks, then the player's own, newest first, and the way to
/// make one.
#[component]
pub fn DecksPage() -> impl IntoView {
    let l = crate::lang::locale();
    let decks = Resource::<_, Base64Json>::new_with_options(|| (), |_| my_decks(), false);
    let title = td_string!(l, decks.pages.title).to_string();
    view! {
        <Title text=title.clone() />
        <h1 class="page-head">{title}</h1>
        <p>{td_string!(l, decks.pages.what).to_string()}</p>
        <p><a href="/decks/new" data-testid="new-deck-link">{td_string!(l, decks.pages.make_one).to_string()}</a></p>
        <Gallery />
        <section class="decks" data-testid="decks" aria-labelledby="my-decks-heading">
            <h2 id="my-decks-heading">{td_string!(l, decks.pages.mine_title).to_string()}</h2>
            <Suspense fallback=move || view! { <p class="muted">{td_string!(l, decks.pages.reading).to_string()}</p> }>
                {move || Suspend::new(async move {
                    match decks.await {
                        Ok(list) if list.is_empty() => Either::Left(view! {
                            <p class="empty">{td_string!(l, decks.pages.none_yet).to_string()}</p>
                        }.into_any()),
                        Ok(list) => Either::Left(view! {
                            <ul class="room-list" data-testid="my-decks">
                                {list.into_iter().map(|d| view! {
                                    <li>
                                        <a href=deck_path(&d.code)>
                                            <span>{d.title}</span>
                                            <span class="muted">{td_string!(l, decks.pages.count, count = d.count).to_string()}" · "{visibility_label(d.visibility, l)}</span>
                                        </a>
                                    </li>
                                }).collect_view()}
                            </ul>
                        }.into_any()),
                        Err(err) => Either::Right(view! { <p class="error" role="alert">{err.localized()}</p> }),
                    }
                })}
            </Suspense>
        </section>
    }
}

/// `/decks/new`: a deck's form, empty (or as sent, when it comes back refused).
#[component]
pub fn NewDeckPage() -> impl IntoView {
    let l = crate::lang::locale();
    let title = td_string!(l, decks.pages.new_title).to_string();
    view! {
        <Title text=title.clone() />
        <section class="decks">
            <h1 class="page-head">{title}</h1>
            <DeckFormPage code=None l />
        </section>
    }
}

/// `/d/<CODE>`: a deck, its things with their rulings hidden until asked, its author, and for
/// its author the editor's link and the delete.
#[component]
pub fn DeckPage() -> impl IntoView {
    let l = crate::lang::locale();
    let deck = deck_resource();
    // What became of a report sent from this page (a plain form post comes back here).
    let reported = leptos_router::hooks::use_query_map()
        .read_untracked()
        .get("reported");
    view! {
        <Suspense fallback=move || view! { <p class="muted">{td_string!(l, decks.pages.reading).to_string()}</p> }>
            {move || Suspend::new({
                let reported = reported.clone();
                async move {
                match deck.await {
                    Ok(data) => Either::Left(view! { <DeckShown data reported l /> }),
                    Err(err) => Either::Right(missing(err, l)),
                }
            }})}
        </Suspense>
    }
}

/// `/d/<CODE>/edit`: the author's editor, filled in from the deck as read (or as sent, when
/// it comes back refused).
#[component]
pub fn EditDeckPage() -> impl IntoView {
    let l = crate::lang::locale();
    let params = use_params_map();
    let code = params.read_untracked().get("code").unwrap_or_default();
    match DeckCode::parse(&code) {
        Ok(code) => Either::Left(
            view! { <section class="decks"><DeckFormPage code=Some(code) l /></section> },
        ),
        Err(err) => Either::Right(missing(err.into(), l)),
    }
}

/// The form of deck `code` (a new deck's for none), read for the session's player.
#[component]
fn DeckFormPage(code: Option<DeckCode>, l: Locale) -> impl IntoView {
    let paths: &'static [&'static str] = match code {
        Some(_) => &[SaveDeck::PATH],
        None => &[CreateDeck::PATH],
    };
    // A new deck from a room's suggestion box (`?from=suggestions`) starts from the form the
    // box kept, as a refused form comes back.
    let from_box = code.is_none()
        && leptos_router::hooks::use_query_map()
            .with_untracked(|q| q.get("from").as_deref() == Some("suggestions"));
    let refused = crate::ui::forms::form_error(paths).is_some() || from_box;
    let data = Resource::<_, Base64Json>::new_with_options(
        move || code.clone(),
        move |code| read_deck_form(code, refused),
        false,
    );
    view! {
        <Suspense fallback=move || view! { <p class="muted">{td_string!(l, decks.pages.reading).to_string()}</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(data) => Either::Left(view! { <DeckFormShown data paths l /> }),
                    Err(err) => Either::Right(missing(err, l)),
                }
            })}
        </Suspense>
    }
}

fn deck_resource() -> Resource<Result<DeckView, crate::error::AppError>, Base64Json> {
    let params = use_params_map();
    let code = move || params.read().get("code").unwrap_or_default();
    Resource::<_, Base64Json>::new_with_options(
        code,
        |code| async move {
            let code = DeckCode::parse(&code).map_err(crate::error::AppError::from);
            read_deck(crate::error::from_address(code)?).await
        },
        false,
    )
}

fn missing(err: crate::error::AppError, l: Locale) -> AnyView {
    view! {
        <Missing
            title=td_string!(l, decks.pages.missing_title).to_string()
            err
            href="/decks"
            link=td_string!(l, decks.pages.mine_title).to_string()
        />
    }
    .into_any()
}

fn visibility_label(visibility: Visibility, l: Locale) -> String {
    match visibility {
        Visibility::Private => td_string!(l, decks.pages.private).to_string(),
        Visibility::Unlisted => td_string!(l, decks.pages.unlisted).to_string(),
        Visibility::Public => td_string!(l, decks.pages.public).to_string(),
    }
}

pub(crate) fn lang_label(lang: DeckLang, l: Locale) -> String {
    match lang {
        DeckLang::En => td_string!(l, decks.pages.lang_en).to_string(),
        DeckLang::Hi => td_string!(l, decks.pages.lang_hi).to_string(),
        DeckLang::Both => td_string!(l, decks.pages.lang_both).to_string(),
    }
}

#[component]
fn DeckShown(data: DeckView, reported: Option<String>, l: Locale) -> impl IntoView {
    let DeckView {
        deck,
        author_name,
        mine,
        signed_in,
    } = data;
    let title = deck.draft.title.clone();
    let language = lang_label(deck.draft.lang, l);
    let about = td_string!(
        l,
        decks.pages.about,
        count = deck.draft.things.len(),
        author = author_name.as_str(),
        lang = language.as_str()
    )
    .to_string();
    let code = deck.code.clone();
    let things = deck.draft.things.clone();
    let plays = match deck.plays {
        0 => td_string!(l, decks.room.plays_none).to_string(),
        1 => td_string!(l, decks.room.plays_one).to_string(),
        count => td_string!(l, decks.room.plays, count = count).to_string(),
    };
    let board = crate::ids::BoardId::deck_best(&code).href();
    // A deck others may open previews with its card when its link is shared.
    let head = match deck.draft.visibility {
        Visibility::Private => Either::Left(view! { <Title text=title.clone() /> }),
        _ => Either::Right(view! {
            <ShareTags path=deck_path(&code) title=title.clone() description=about.clone() />
        }),
    };
    view! {
        {head}
        <section class="decks deck" data-testid="deck">
            <h1 class="page-head">{title}</h1>
            <ReportedNotice reported=reported l />
            {(mine && deck.hidden).then(|| view! {
                <p class="notice" role="status" data-testid="deck-hidden">{td_string!(l, decks.report.hidden_note).to_string()}</p>
            })}
            <p class="muted" data-testid="deck-about">{about}" · "{visibility_label(deck.draft.visibility, l)}</p>
            {(!deck.draft.description.is_empty()).then(|| view! { <p>{deck.draft.description.clone()}</p> })}
            <p>{td_string!(l, decks.pages.code, code = code.as_str()).to_string()}</p>
            <p data-testid="deck-plays" data-plays=deck.plays>{plays}" · "<a href=board>{td_string!(l, decks.room.board).to_string()}</a></p>
            <PlayDeckForm deck=code.clone() />
            <ul class="deck-things" data-testid="deck-things">
                {things.iter().map(|t| view! {
                    <li>
                        <span aria-hidden="true">{t.emoji.clone()}</span>" "
                        {t.en.clone()}
                        {(t.en.is_some() && t.hi.is_some()).then_some(" · ")}
                        {t.hi.clone().map(|hi| view! { <span lang="hi">{hi}</span> })}
                    </li>
                }).collect_view()}
            </ul>
            <details class="rule" data-testid="deck-rulings">
                <summary>{td_string!(l, decks.pages.show_rulings).to_string()}</summary>
                <ul>
                    {things.into_iter().map(|t| {
                        let name = t.en.clone().or(t.hi.clone()).unwrap_or_default();
                        let ruling = if t.flies { td_string!(l, decks.pages.flies).to_string() } else { td_string!(l, decks.pages.grounded).to_string() };
                        view! {
                            <li>{name}": "<strong>{ruling}</strong>{t.note.map(|n| view! { " ("{n}")" })}</li>
                        }
                    }).collect_view()}
                </ul>
            </details>
            {mine.then(|| view! {
                <p><a href=format!("{}/edit", deck_path(&code)) data-testid="edit-deck">{td_string!(l, decks.pages.edit).to_string()}</a></p>
                <FormError paths=&[DeleteDeck::PATH] />
                <form method="post" action=DeleteDeck::PATH>
                    <input type="hidden" name="code" value=code.to_string() />
                    <button type="submit" class="secondary" data-testid="delete-deck">{td_string!(l, decks.pages.delete).to_string()}</button>
                </form>
            })}
            <FormError paths=&[CopyDeck::PATH] />
            <form method="post" action=CopyDeck::PATH>
                <input type="hidden" name="code" value=code.to_string() />
                <button type="submit" class="secondary" data-testid="copy-deck">{td_string!(l, decks.pages.copy).to_string()}</button>
            </form>
            {(signed_in && !mine).then(|| view! { <ReportDeckForm code=code.clone() l /> })}
            <p><a href="/decks">{td_string!(l, decks.pages.mine_title).to_string()}</a></p>
        </section>
    }
}

/// A deck's form, from `data`: a new deck's, or an existing one's saved against the version
/// read. A new token is drawn for each form drawn (a save sent again after its answer was lost
/// is one save).
#[component]
fn DeckFormShown(data: DeckFormData, paths: &'static [&'static str], l: Locale) -> impl IntoView {
    let DeckFormData {
        code,
        version,
        saved_title,
        form,
    } = data;
    let action = if code.is_some() {
        SaveDeck::PATH
    } else {
        CreateDeck::PATH
    };
    let heading = code.as_ref().map(|code| {
        let title = td_string!(l, decks.pages.edit_title, title = saved_title.as_str()).to_string();
        view! {
            <Title text=title.clone() />
            <h1 class="page-head">{title}</h1>
            <p><a href=deck_path(code)>{td_string!(l, decks.pages.back_to_deck).to_string()}</a></p>
        }
    });
    let hidden = code.as_ref().map(|code| {
        view! {
            <input type="hidden" name="code" value=code.to_string() />
            <input type="hidden" name="version" value=version.to_string() />
            <input type="hidden" name="token" value=token() />
        }
    });
    let help = td_string!(
        l,
        decks.pages.lines_help,
        min = MIN_THINGS,
        max = MAX_THINGS
    )
    .to_string();
    let (lang, visibility) = (form.lang, form.visibility);
    view! {
        {heading}
        <FormError paths />
        <form method="post" action=action class="form" data-testid="deck-form">
            {hidden}
            <label class="field">{td_string!(l, decks.pages.title_label).to_string()}
                <input name="title" required maxlength="60" value=form.title data-testid="deck-title" />
            </label>
            <label class="field">{td_string!(l, decks.pages.description_label).to_string()}
                <input name="description" maxlength="200" value=form.description />
            </label>
            <fieldset class="choices card">
                <legend>{td_string!(l, decks.pages.lang_label).to_string()}</legend>
                {[DeckLang::En, DeckLang::Hi, DeckLang::Both].into_iter().map(|option| view! {
                    <label class="check"><input type="radio" name="lang" value=option.as_str() checked=option == lang />" "{lang_label(option, l)}</label>
                }).collect_view()}
            </fieldset>
            <fieldset class="choices card">
                <legend>{td_string!(l, decks.pages.visibility_label).to_string()}</legend>
                {[Visibility::Private, Visibility::Unlisted, Visibility::Public].into_iter().map(|option| view! {
                    <label class="check"><input type="radio" name="visibility" value=option.as_str() checked=option == visibility />" "{visibility_label(option, l)}</label>
                }).collect_view()}
            </fieldset>
            <label class="field">{td_string!(l, decks.pages.lines_label).to_string()}
                <textarea name="lines" rows="14" required aria-describedby="lines-help" data-testid="deck-lines">{form.lines}</textarea>
            </label>
            <p class="hint" id="lines-help">{help}</p>
            <button type="submit" data-testid="save-deck">{td_string!(l, decks.pages.save).to_string()}</button>
        </form>
    }
}

/// A random name for one save (the editor's hidden `token`).
fn token() -> String {
    #[cfg(feature = "ssr")]
    {
        ulid::Ulid::new().to_string()
    }
    #[cfg(not(feature = "ssr"))]
    {
        String::new()
    }
}
