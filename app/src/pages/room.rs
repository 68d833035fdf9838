//! `/r/<CODE>`: a room's lobby. Players with avatars and the host's badge, the code in big
//! letters and its link, host controls (kick, settings), leave; a join form for visitors.
//! Rendered in full on the server. The host's controls are plain form posts that come back to
//! this page (the same with or without JavaScript, and no client code per action, which keeps
//! the browser bundle small); joining shares the home page's form action for inline errors.

use leptos::either::{Either, EitherOf3};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use crate::lobby::{room_lobby, JoinRoom};
use crate::players::UserId;
use crate::rooms::Lobby;

#[component]
pub fn RoomPage() -> impl IntoView {
    let params = use_params_map();
    let code = move || params.read().get("code").unwrap_or_default().to_uppercase();
    let join = ServerAction::<JoinRoom>::new();
    let lobby = Resource::new(
        move || (code(), join.version().get()),
        |(code, _)| room_lobby(code),
    );
    view! {
        <Title text=move || format!("Room {}", code()) />
        <Suspense fallback=|| view! { <p class="muted">"Opening the room…"</p> }>
            {move || Suspend::new(async move {
                match lobby.await {
                    Ok(page) => Either::Left(view! {
                        <LobbyView lobby=page.lobby me=page.me qr_svg=page.qr_svg join />
                    }),
                    Err(err) => Either::Right(view! {
                        <section class="hero">
                            <h1>"No such room"</h1>
                            <p class="error" role="alert">{err.to_string()}</p>
                            <p><a href="/">"Open or join another room"</a></p>
                        </section>
                    }),
                }
            })}
        </Suspense>
    }
}

#[component]
fn LobbyView(
    lobby: Lobby,
    me: Option<UserId>,
    qr_svg: String,
    join: ServerAction<JoinRoom>,
) -> impl IntoView {
    let code = lobby.code.to_string();
    let link = format!("/r/{code}");
    let is_host = me.as_ref() == Some(&lobby.host_id);
    let is_member = me.as_ref().is_some_and(|id| lobby.player(id).is_some());
    let host_id = lobby.host_id.clone();
    let players = lobby.players.clone();
    let count = players.len();
    let current = lobby.settings;
    view! {
        <section class="lobby" data-testid="lobby">
            <p class="muted">"Room code"</p>
            <h1 class="room-code" data-testid="room-code">{code.clone()}</h1>
            <p class="share">
                "Invite with the code or the link: "
                <a href=link.clone() data-testid="share-link">{link.clone()}</a>
            </p>
            // Our own SVG from the QR encoder on the server: no player text in it.
            <figure class="qr" data-testid="room-qr" inner_html=qr_svg aria-label="QR code of the room link"></figure>
            <h2>{format!("Players ({count} of {})", current.max_players)}</h2>
            <ul class="players" data-testid="players">
                {players.into_iter().map(|player| {
                    let code = code.clone();
                    let hosting = player.user_id == host_id;
                    let target = player.user_id.to_string();
                    let kickable = is_host && !hosting;
                    view! {
                        <li class="player" data-testid="player">
                            <span class="avatar" aria-hidden="true">{player.avatar.emoji()}</span>
                            <span class="nickname">{player.nickname.to_string()}</span>
                            {hosting.then(|| view! { <span class="badge">"Host"</span> })}
                            {kickable.then(move || view! {
                                <form method="post" action="/api/rooms/kick" class="inline">
                                    <input type="hidden" name="code" value=code />
                                    <input type="hidden" name="player" value=target />
                                    <button type="submit" class="small">"Remove"</button>
                                </form>
                            })}
                        </li>
                    }
                }).collect_view()}
            </ul>
            {let (code, settings_code) = (code.clone(), code.clone()); match (is_member, is_host) {
                (true, true) => EitherOf3::A(view! {
                    <form method="post" action="/api/rooms/settings" class="card settings">
                        <h2>"Settings"</h2>
                        <input type="hidden" name="code" value=settings_code />
                        <label>"Players (2–12)" <input type="number" name="settings[max_players]" min="2" max="12" value=current.max_players.to_string() /></label>
                        <label>"Rounds (1–30)" <input type="number" name="settings[rounds]" min="1" max="30" value=current.rounds.to_string() /></label>
                        <label>"Round window (ms)" <input type="number" name="settings[window_ms]" min="1000" max="10000" step="500" value=current.window_ms.to_string() /></label>
                        <label>"Public"
                            <select name="settings[public]">
                                <option value="false" selected=!current.public>"No"</option>
                                <option value="true" selected=current.public>"Yes"</option>
                            </select>
                        </label>
                        <button type="submit">"Save settings"</button>
                    </form>
                    <LeaveForm code=code />
                }),
                (true, false) => EitherOf3::B(view! { <LeaveForm code=code /> }),
                (false, _) => EitherOf3::C(view! {
                    <ActionForm action=join attr:class="card" attr:data-testid="join-room">
                        <h2>"Join this room"</h2>
                        <input type="hidden" name="code" value=code />
                        <label>"Your name" <input name="name" required maxlength="24" /></label>
                        <button type="submit">"Join"</button>
                        {move || join.value().get().and_then(Result::err).map(|e| view! { <p class="error" role="alert">{e.to_string()}</p> })}
                    </ActionForm>
                }),
            }}
        </section>
    }
}

#[component]
fn LeaveForm(code: String) -> impl IntoView {
    view! {
        <form method="post" action="/api/rooms/leave" class="inline">
            <input type="hidden" name="code" value=code />
            <button type="submit" class="secondary">"Leave room"</button>
        </form>
    }
}
