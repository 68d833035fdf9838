//! `/me`: who you are here. A guest can claim an account (username, password, optional email)
//! to keep their name and history; anyone can sign in by username or email; a signed-in player
//! can sign out (the session ends on the server). Plain form posts that come back here, with
//! the reason shown when the server refused.

use leptos::either::EitherOf3;
use leptos::prelude::*;

use crate::codec::Base64Json;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;

use crate::identity::api::{me, ClaimAccount, SignIn, SignOut};
use crate::identity::model::{Avatar, Profile};
use crate::ui::forms::FormError;

const FORM_PATHS: &[&str] = &[ClaimAccount::PATH, SignIn::PATH, SignOut::PATH];

#[component]
pub fn AccountPage() -> impl IntoView {
    let profile = Resource::<_, Base64Json>::new_with_options(|| (), |_| me(), false);
    view! {
        <Title text="You" />
        <section class="account" data-testid="account">
            <h1>"You"</h1>
            <FormError paths=FORM_PATHS />
            <Suspense fallback=|| view! { <p class="muted">"Looking you up…"</p> }>
                {move || Suspend::new(async move {
                    match profile.await {
                        Ok(Some(player)) if player.is_guest() => EitherOf3::A(view! {
                            <Who player />
                            <ClaimForm />
                            <SignInForm heading="Have an account already? Sign in" />
                        }),
                        Ok(Some(player)) => EitherOf3::B(view! {
                            <Who player />
                            <form method="post" action=SignOut::PATH>
                                <button type="submit" class="secondary">"Sign out"</button>
                            </form>
                        }),
                        Ok(None) | Err(_) => EitherOf3::C(view! {
                            <p>"You are not playing yet: open or join a room on the "<a href="/">"home page"</a>" as a guest, or sign in."</p>
                            <SignInForm heading="Sign in" />
                        }),
                    }
                })}
            </Suspense>
        </section>
    }
}

#[component]
fn Who(player: Profile) -> impl IntoView {
    let kind = match &player.username {
        Some(username) => format!("Signed in as @{username}"),
        None => "Playing as a guest".to_owned(),
    };
    view! {
        <div class="who" data-testid="who">
            <span class="avatar" role="img" aria-label=player.avatar.label()>{player.avatar.emoji()}</span>
            <div>
                <strong data-testid="display-name">{player.display_name.to_string()}</strong>
                <p class="muted" data-testid="account-kind">{kind}</p>
                <p><a href=crate::identity::profile_path(&player.id) data-testid="my-profile">"Your profile"</a></p>
            </div>
        </div>
    }
}

#[component]
fn ClaimForm() -> impl IntoView {
    view! {
        <form method="post" action=ClaimAccount::PATH class="card" data-testid="claim">
            <h2>"Keep your name: claim an account"</h2>
            <label>"Username" <input name="username" required minlength="3" maxlength="20" autocomplete="username" /></label>
            <label>"Password" <input type="password" name="password" required minlength="8" maxlength="128" autocomplete="new-password" /></label>
            <label>"Email (optional, to sign in with)" <input type="email" name="email" maxlength="254" autocomplete="email" /></label>
            <button type="submit">"Claim account"</button>
        </form>
    }
}

#[component]
fn SignInForm(heading: &'static str) -> impl IntoView {
    view! {
        <form method="post" action=SignIn::PATH class="card" data-testid="sign-in">
            <h2>{heading}</h2>
            <label>"Username or email" <input name="login" required maxlength="254" autocomplete="username" /></label>
            <label>"Password" <input type="password" name="password" required maxlength="128" autocomplete="current-password" /></label>
            <button type="submit">"Sign in"</button>
        </form>
    }
}

/// Twelve avatars as radio buttons named `avatar`; `chosen` starts checked.
#[component]
pub fn AvatarPicker(#[prop(optional)] chosen: Avatar) -> impl IntoView {
    view! {
        <fieldset class="avatars">
            <legend>"Avatar"</legend>
            {Avatar::ALL.into_iter().map(|avatar| view! {
                <label class="avatar-choice" title=avatar.label()>
                    <input type="radio" name="avatar" value=avatar.slug() checked=avatar == chosen />
                    <span aria-hidden="true">{avatar.emoji()}</span>
                    <span class="visually-hidden">{avatar.label()}</span>
                </label>
            }).collect_view()}
        </fieldset>
    }
}
