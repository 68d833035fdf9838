//! The home page: what the game is, and the ways in: open a room, join one by code, or pick an
//! open public room. Plain form posts, the same with and without JavaScript: the server sends the
//! browser on to the room, or back here with the error shown above the forms.

use leptos::either::Either;
use leptos::prelude::*;

use crate::codec::Base64Json;
use leptos_meta::Title;
use leptos_router::components::A;

use leptos::server_fn::ServerFn;

use crate::i18n::{td, td_string};
use crate::identity::account_page::AvatarPicker;
use crate::rooms::api::{open_rooms, CreateRoom, JoinRoom};
use crate::ui::forms::FormError;

#[component]
pub fn HomePage() -> impl IntoView {
    let rooms = Resource::<_, Base64Json>::new_with_options(|| (), |_| open_rooms(), false);
    let l = crate::lang::locale();
    let your_name = move || td_string!(l, rooms.home.your_name).to_string();
    view! {
        <Title text="" />
        <section class="hero">
            <h1>"Kauwa udd! "<span lang="hi">"कौआ उड़!"</span></h1>
            <p class="lead">
                {td!(l, rooms.home.lead, <strong> = |children: ChildrenFn| view! { <strong>{children()}</strong> })}
            </p>
            <p><a href="/daily" class="daily-link" data-testid="daily-link">{td_string!(l, rooms.home.daily).to_string()}</a></p>
            <p><a href="/decks" data-testid="decks-link">{td_string!(l, decks.pages.home_link).to_string()}</a></p>
        </section>
        <FormError paths=&[CreateRoom::PATH, JoinRoom::PATH] />
        <section class="play-forms">
            <form method="post" action=CreateRoom::PATH class="card" data-testid="create-room">
                <h2>{td_string!(l, rooms.home.open_heading).to_string()}</h2>
                <label>{your_name()} <input name="name" required maxlength="24" autocomplete="nickname" /></label>
                <AvatarPicker />
                <label class="check"><input type="checkbox" name="public" value="true" />{td_string!(l, rooms.home.list_publicly).to_string()}</label>
                <label class="check"><input type="checkbox" name="friendly" value="true" data-testid="create-friendly" />{td_string!(l, strangers.create_friendly).to_string()}</label>
                <label class="check"><input type="checkbox" name="approve" value="true" data-testid="create-approve" />{td_string!(l, strangers.create_approve).to_string()}</label>
                <button type="submit">{td_string!(l, rooms.home.create).to_string()}</button>
            </form>
            <form method="post" action=JoinRoom::PATH class="card" data-testid="join-room">
                <h2>{td_string!(l, rooms.home.join_heading).to_string()}</h2>
                <label>{td_string!(l, rooms.home.room_code).to_string()} <input name="code" required maxlength="5" autocapitalize="characters" class="code-input" /></label>
                <label>{your_name()} <input name="name" required maxlength="24" autocomplete="nickname" /></label>
                <AvatarPicker />
                <button type="submit">{td_string!(l, rooms.home.join).to_string()}</button>
            </form>
        </section>
        <section class="open-rooms">
            <h2>{td_string!(l, rooms.home.open_rooms).to_string()}</h2>
            <Suspense fallback=move || view! { <p class="muted">{td_string!(l, rooms.home.looking).to_string()}</p> }>
                {move || Suspend::new(async move {
                    match rooms.await {
                        Ok(list) if list.is_empty() => Either::Left(view! {
                            <p class="muted">{td_string!(l, rooms.home.none_open).to_string()}</p>
                        }.into_any()),
                        Ok(list) => Either::Left(view! {
                            <ul class="room-list">
                                {list.into_iter().map(|room| view! {
                                    <li>
                                        <A href=format!("/r/{}", room.code)>
                                            <span class="code">{room.code.to_string()}</span>
                                            <span class="muted">{td_string!(l, rooms.home.players_of, count = room.player_count, max = room.max_players).to_string()}</span>
                                        </A>
                                    </li>
                                }).collect_view()}
                            </ul>
                        }.into_any()),
                        Err(err) => Either::Right(view! { <p class="error">{err.localized()}</p> }),
                    }
                })}
            </Suspense>
            <p><A href="/things">{td_string!(l, rooms.home.see_things).to_string()}</A></p>
        </section>
    }
}
