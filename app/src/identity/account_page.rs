//! `/me`: who you are here. A guest can claim an account (username, password, optional email)
//! to keep their name and history; anyone can sign in by username or email; a signed-in player
//! can sign out (the session ends on the server). Plain form posts that come back here, with
//! the reason shown when the server refused.

use leptos::either::EitherOf3;
use leptos::prelude::*;

use crate::codec::Base64Json;
use crate::i18n::{td, td_string};
use crate::lang::Locale;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;

use crate::identity::api::{me, ClaimAccount, Rename, SignIn, SignOut};
use crate::identity::model::{Avatar, Profile};
use crate::ui::forms::FormError;

const FORM_PATHS: &[&str] = &[
    ClaimAccount::PATH,
    SignIn::PATH,
    SignOut::PATH,
    Rename::PATH,
];

#[component]
pub fn AccountPage() -> impl IntoView {
    let l = crate::lang::locale();
    let profile = Resource::<_, Base64Json>::new_with_options(|| (), |_| me(), false);
    view! {
        <Title text=td_string!(l, identity.title).to_string() />
        <section class="account" data-testid="account">
            <h1 class="page-head">{td_string!(l, identity.title).to_string()}</h1>
            <FormError paths=FORM_PATHS />
            <Suspense fallback=move || view! { <p class="muted">{td_string!(l, identity.loading).to_string()}</p> }>
                {move || Suspend::new(async move {
                    match profile.await {
                        Ok(Some(player)) if player.is_guest() => EitherOf3::A(view! {
                            <Who player=player.clone() l />
                            <RenameForm player l />
                            <Places l />
                            <ClaimForm l />
                            <SignInForm l heading=td_string!(l, identity.have_account).to_string() />
                        }),
                        Ok(Some(player)) => EitherOf3::B(view! {
                            <Who player=player.clone() l />
                            <RenameForm player l />
                            <Places l />
                            <form method="post" action=SignOut::PATH>
                                <button type="submit" class="secondary">{td_string!(l, identity.sign_out).to_string()}</button>
                            </form>
                        }),
                        Ok(None) | Err(_) => EitherOf3::C(view! {
                            <p>{td!(l, identity.not_playing, <a> = |children: ChildrenFn| view! { <a href="/">{children()}</a> })}</p>
                            <SignInForm l heading=td_string!(l, identity.sign_in_heading).to_string() />
                        }),
                    }
                })}
            </Suspense>
        </section>
    }
}

#[component]
fn Who(player: Profile, l: Locale) -> impl IntoView {
    let kind = match &player.username {
        Some(username) => {
            td_string!(l, identity.signed_in_as, username = username.as_str()).to_string()
        }
        None => td_string!(l, identity.playing_as_guest).to_string(),
    };
    view! {
        <div class="who" data-testid="who">
            <span class="avatar" role="img" aria-label=player.avatar.label_in(l)>{player.avatar.emoji()}</span>
            <div>
                <strong data-testid="display-name">{player.display_name.to_string()}</strong>
                <p class="muted" data-testid="account-kind">{kind}</p>
                <p><a href=crate::identity::profile_path(&player.id) data-testid="my-profile">{td_string!(l, identity.your_profile).to_string()}</a></p>
            </div>
        </div>
    }
}

/// Where a player goes from here: their cards, the shop, trades, the boards and the matches.
#[component]
fn Places(l: Locale) -> impl IntoView {
    let places = [
        (
            "/inventory",
            "🃏",
            td_string!(l, identity.places.cards).to_string(),
            td_string!(l, identity.places.cards_hint).to_string(),
        ),
        (
            "/shop",
            "🪶",
            td_string!(l, identity.places.shop).to_string(),
            td_string!(l, identity.places.shop_hint).to_string(),
        ),
        (
            "/trades",
            "🤝",
            td_string!(l, identity.places.trades).to_string(),
            td_string!(l, identity.places.trades_hint).to_string(),
        ),
        (
            "/lb",
            "🏆",
            td_string!(l, identity.places.boards).to_string(),
            td_string!(l, identity.places.boards_hint).to_string(),
        ),
        (
            "/matches",
            "🎯",
            td_string!(l, identity.places.matches).to_string(),
            td_string!(l, identity.places.matches_hint).to_string(),
        ),
    ];
    view! {
        <nav aria-label=td_string!(l, identity.places.label).to_string()>
            <ul class="tiles places" data-testid="places">
                {places.into_iter().map(|(href, emoji, name, hint)| view! {
                    <li class="tile">
                        <a class="tile-head" href=href>
                            <span class="emoji" aria-hidden="true">{emoji}</span>
                            <span class="name">{name}</span>
                        </a>
                        <p class="meta">{hint}</p>
                    </li>
                }).collect_view()}
            </ul>
        </nav>
    }
}

/// The player's name, to change; when others cannot see it (it is hidden: `identity::hidden`),
/// why and what they see instead, first.
#[component]
fn RenameForm(player: Profile, l: Locale) -> impl IntoView {
    #[cfg(feature = "ssr")]
    let hidden = crate::identity::hidden::hides(&player.id, &player.display_name)
        .then(|| crate::identity::hidden::tag(&player.id).to_string());
    #[cfg(not(feature = "ssr"))]
    let hidden: Option<String> = None;
    let notice = hidden.map(|tag| {
        view! {
            <p class="notice" role="status" data-testid="name-hidden">
                {td_string!(l, identity.hidden.notice, tag = tag.as_str()).to_string()}
            </p>
        }
    });
    view! {
        <form method="post" action=Rename::PATH class="card" data-testid="rename">
            <h2>{td_string!(l, identity.hidden.rename_heading).to_string()}</h2>
            {notice}
            <label>{td_string!(l, rooms.home.your_name).to_string()} <input name="name" required maxlength="24" autocomplete="nickname" value=player.display_name.to_string() /></label>
            <button type="submit">{td_string!(l, identity.hidden.rename_button).to_string()}</button>
        </form>
    }
}

#[component]
fn ClaimForm(l: Locale) -> impl IntoView {
    view! {
        <form method="post" action=ClaimAccount::PATH class="card" data-testid="claim">
            <h2>{td_string!(l, identity.claim_heading).to_string()}</h2>
            <label>{td_string!(l, identity.username).to_string()}<input name="username" required minlength="3" maxlength="20" autocomplete="username" /></label>
            <label>{td_string!(l, identity.password).to_string()}<input type="password" name="password" required minlength="8" maxlength="128" autocomplete="new-password" /></label>
            <label>{td_string!(l, identity.email_optional).to_string()}<input type="email" name="email" maxlength="254" autocomplete="email" /></label>
            <button type="submit">{td_string!(l, identity.claim_button).to_string()}</button>
        </form>
    }
}

#[component]
fn SignInForm(l: Locale, heading: String) -> impl IntoView {
    view! {
        <form method="post" action=SignIn::PATH class="card" data-testid="sign-in">
            <h2>{heading}</h2>
            <label>{td_string!(l, identity.login).to_string()}<input name="login" required maxlength="254" autocomplete="username" /></label>
            <label>{td_string!(l, identity.password).to_string()}<input type="password" name="password" required maxlength="128" autocomplete="current-password" /></label>
            <button type="submit">{td_string!(l, identity.sign_in_button).to_string()}</button>
        </form>
    }
}

/// Twelve avatars as radio buttons named `avatar`; `chosen` starts checked.
#[component]
pub fn AvatarPicker(#[prop(optional)] chosen: Avatar) -> impl IntoView {
    let l = crate::lang::locale();
    view! {
        <fieldset class="avatars">
            <legend>{td_string!(l, identity.avatar).to_string()}</legend>
            {Avatar::ALL.into_iter().map(|avatar| view! {
                <label class="avatar-choice" title=avatar.label_in(l)>
                    <input type="radio" name="avatar" value=avatar.slug() checked=avatar == chosen />
                    <span aria-hidden="true">{avatar.emoji()}</span>
                    <span class="visually-hidden">{avatar.label_in(l)}</span>
                </label>
            }).collect_view()}
        </fieldset>
    }
}
