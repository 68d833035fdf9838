//! `/r/<CODE>`: a room's lobby. Players with avatars and the host's badge, the code in big
//! letters and its link, host controls (kick, settings), leave; a join form for visitors.
//! Rendered in full on the server; forms work without JavaScript.

use leptos::either::{Either, EitherOf3};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use crate::lobby::{room_lobby, ChangeSettings, JoinRoom, KickPlayer, LeaveRoom};
use crate::players::UserId;
use crate::rooms::Lobby;

#[component]
pub fn RoomPage() -> impl IntoView {
    let params = use_params_map();
    let code = move || params.read().get("code").unwrap_or_default().to_uppercase();
    let kick = ServerAction::<KickPlayer>::new();
    let leave = ServerAction::<LeaveRoom>::new();
    let settings = ServerAction::<ChangeSettings>::new();
    let join = ServerAction::<JoinRoom>::new();
    let lobby = Resource::new(
        move || {
            (
                code(),
                kick.version().get(),
                leave.version().get(),
                settings.version().get(),
                join.version().get(),
            )
        },
        |(code, ..)| room_lobby(code),
    );
    view! {
        <Title text=move || format!("Room {}", code()) />
        <Suspense fallback=|| view! { <p class="muted">"Opening the room…"</p> }>
            {move || Suspend::new(async move {
                match lobby.await {
                    Ok((lobby, me)) => Either::Left(view! {
                        <LobbyView lobby me kick leave settings join />
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
    kick: ServerAction<KickPlayer>,
    leave: ServerAction<LeaveRoom>,
    settings: ServerAction<ChangeSettings>,
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
                                <ActionForm action=kick attr:class="inline">
                                    <input type="hidden" name="code" value=code />
                                    <input type="hidden" name="player" value=target />
                                    <button type="submit" class="small">"Remove"</button>
                                </ActionForm>
                            })}
                        </li>
                    }
                }).collect_view()}
            </ul>
            {let (code, settings_code) = (code.clone(), code.clone()); match (is_member, is_host) {
                (true, true) => EitherOf3::A(view! {
                    <ActionForm action=settings attr:class="card settings">
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
                        {move || settings.value().get().and_then(Result::err).map(|e| view! { <p class="error" role="alert">{e.to_string()}</p> })}
                    </ActionForm>
                    <LeaveForm code=code leave />
                }),
                (true, false) => EitherOf3::B(view! { <LeaveForm code=code leave /> }),
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
fn LeaveForm(code: String, leave: ServerAction<LeaveRoom>) -> impl IntoView {
    view! {
        <ActionForm action=leave attr:class="inline">
            <input type="hidden" name="code" value=code />
            <button type="submit" class="secondary">"Leave room"</button>
        </ActionForm>
    }
}
