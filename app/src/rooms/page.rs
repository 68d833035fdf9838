//! The home page: what the game is, and the ways in: open a room, join one by code, or pick an
//! open public room. Plain form posts, the same with and without JavaScript: the server sends the
//! browser on to the room, or back here with the error shown above the forms.

use leptos::either::Either;
use leptos::prelude::*;

use crate::codec::Base64Json;
use leptos_meta::Title;
use leptos_router::components::A;

use leptos::server_fn::ServerFn;

use crate::identity::page::AvatarPicker;
use crate::rooms::api::{open_rooms, CreateRoom, JoinRoom};
use crate::ui::forms::FormError;

#[component]
pub fn HomePage() -> impl IntoView {
    let rooms = Resource::<_, Base64Json>::new_with_options(|| (), |_| open_rooms(), false);
    view! {
        <Title text="" />
        <section class="hero">
            <h1>"Kauwa udd! "<span lang="hi">"कौआ उड़!"</span></h1>
            <p class="lead">
                "A thing flashes up. Tap " <strong>"Udd!"</strong>
                " only if it can fly, faster than your friends. Crow? Tap. Elephant? Hold still."
            </p>
        </section>
        <FormError paths=&[CreateRoom::PATH, JoinRoom::PATH] />
        <section class="play-forms">
            <form method="post" action=CreateRoom::PATH class="card" data-testid="create-room">
                <h2>"Open a room"</h2>
                <label>"Your name" <input name="name" required maxlength="24" autocomplete="nickname" /></label>
                <AvatarPicker />
                <label class="check"><input type="checkbox" name="public" value="true" />" List it publicly"</label>
                <button type="submit">"Create room"</button>
            </form>
            <form method="post" action=JoinRoom::PATH class="card" data-testid="join-room">
                <h2>"Join with a code"</h2>
                <label>"Room code" <input name="code" required maxlength="5" autocapitalize="characters" class="code-input" /></label>
                <label>"Your name" <input name="name" required maxlength="24" autocomplete="nickname" /></label>
                <AvatarPicker />
                <button type="submit">"Join"</button>
            </form>
        </section>
        <section class="open-rooms">
            <h2>"Open rooms"</h2>
            <Suspense fallback=|| view! { <p class="muted">"Looking for rooms…"</p> }>
                {move || Suspend::new(async move {
                    match rooms.await {
                        Ok(list) if list.is_empty() => Either::Left(view! {
                            <p class="muted">"No public rooms right now. Open one!"</p>
                        }.into_any()),
                        Ok(list) => Either::Left(view! {
                            <ul class="room-list">
                                {list.into_iter().map(|room| view! {
                                    <li>
                                        <A href=format!("/r/{}", room.code)>
                                            <span class="code">{room.code.to_string()}</span>
                                            <span class="muted">{format!("{} of {} players", room.player_count, room.max_players)}</span>
                                        </A>
                                    </li>
                                }).collect_view()}
                            </ul>
                        }.into_any()),
                        Err(err) => Either::Right(view! { <p class="error">{err.to_string()}</p> }),
                    }
                })}
            </Suspense>
            <p><A href="/things">"See every thing and its ruling"</A></p>
        </section>
    }
}
