//! The home page: what the game is, and the ways in: open a room, join one by code, or pick an
//! open public room. Plain forms, so they work before (and without) JavaScript.

use leptos::either::Either;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

use crate::lobby::{open_rooms, CreateRoom, JoinRoom};

#[component]
pub fn HomePage() -> impl IntoView {
    let create = ServerAction::<CreateRoom>::new();
    let join = ServerAction::<JoinRoom>::new();
    let rooms = Resource::new(|| (), |_| open_rooms());
    let error_of =
        |message: Option<String>| message.map(|m| view! { <p class="error" role="alert">{m}</p> });
    view! {
        <Title text="" />
        <section class="hero">
            <h1>"Kauwa udd! "<span lang="hi">"कौआ उड़!"</span></h1>
            <p class="lead">
                "A thing flashes up. Tap " <strong>"Udd!"</strong>
                " only if it can fly, faster than your friends. Crow? Tap. Elephant? Hold still."
            </p>
        </section>
        <section class="play-forms">
            <ActionForm action=create attr:class="card" attr:data-testid="create-room">
                <h2>"Open a room"</h2>
                <label>"Your name" <input name="name" required maxlength="24" autocomplete="nickname" /></label>
                <label class="check"><input type="checkbox" name="public" value="true" />" List it publicly"</label>
                <button type="submit">"Create room"</button>
                {move || error_of(create.value().get().and_then(Result::err).map(|e| e.to_string()))}
            </ActionForm>
            <ActionForm action=join attr:class="card" attr:data-testid="join-room">
                <h2>"Join with a code"</h2>
                <label>"Room code" <input name="code" required maxlength="5" autocapitalize="characters" class="code-input" /></label>
                <label>"Your name" <input name="name" required maxlength="24" autocomplete="nickname" /></label>
                <button type="submit">"Join"</button>
                {move || error_of(join.value().get().and_then(Result::err).map(|e| e.to_string()))}
            </ActionForm>
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
