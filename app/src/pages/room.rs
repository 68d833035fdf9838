//! `/r/<CODE>`: a room's lobby. Players with avatars and the host's badge, the code in big
//! letters, its link with copy and share buttons and a QR code, host controls (kick, settings),
//! leave, and a join form for visitors.
//!
//! Rendered in full on the server; after hydration the page listens to the room's live stream
//! (`/r/<CODE>/events`, reconnecting by itself) and redraws the players and controls from each
//! snapshot. The host's controls are plain form posts that come back to this page (the same with
//! or without JavaScript, and no client code per action, which keeps the browser bundle small).

use leptos::either::{Either, EitherOf3};
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use super::forms::{AvatarPicker, FormError};
use super::game::{BoardLink, GameBoard, StartForm};
use crate::browser;
use crate::codec::Base64Json;
use crate::live::{events_path, RoomFeed};
use crate::lobby::{room_lobby, ChangeSettings, JoinRoom, KickPlayer, LeaveRoom, LobbyPage};
use crate::play::StartMatch;
use crate::players::UserId;
use crate::rooms::{Lobby, RoomCode, RoomState};

/// Server functions whose plain-form failures this page shows.
const FORM_PATHS: &[&str] = &[
    JoinRoom::PATH,
    KickPlayer::PATH,
    ChangeSettings::PATH,
    LeaveRoom::PATH,
    StartMatch::PATH,
];

#[component]
pub fn RoomPage() -> impl IntoView {
    let params = use_params_map();
    let code = move || {
        params
            .read()
            .get("code")
            .unwrap_or_default()
            .to_ascii_uppercase()
    };
    let lobby = Resource::<_, Base64Json>::new_with_options(code, room_lobby, false);
    // The title names the room only when the link holds a well-formed code: nothing from the
    // address bar reaches the page unparsed.
    let title = move || match RoomCode::parse(&code()) {
        Ok(code) => format!("Room {code}"),
        Err(_) => "No such room".to_owned(),
    };
    view! {
        <Title text=title />
        <Suspense fallback=|| view! { <p class="muted">"Opening the room…"</p> }>
            {move || Suspend::new(async move {
                match lobby.await {
                    Ok(page) => Either::Left(view! { <LobbyView page /> }),
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
fn LobbyView(page: LobbyPage) -> impl IntoView {
    let LobbyPage {
        lobby: first,
        me,
        qr_svg,
    } = page;
    let code = first.code.to_string();
    let was_member = me.as_ref().is_some_and(|id| first.player(id).is_some());
    let code_value = StoredValue::new(first.code.clone());
    let lobby = RwSignal::new(first.clone());
    let ended = RwSignal::new(false);
    let me_for_game = me.clone();
    let code_text = StoredValue::new(code.clone());
    let qr = StoredValue::new(qr_svg);

    // After hydration: redraw from every snapshot the room's live stream sends.
    Effect::new(move |_| {
        let listener = StoredValue::new(None::<browser::Listener>);
        let stream = browser::listen(&events_path(&code_value.get_value()), 2000, move |data| {
            // `from_slice`, like every other decoder in the bundle: one copy of the JSON reader code.
            match serde_json::from_slice::<RoomFeed>(data.as_bytes()) {
                Ok(RoomFeed::Lobby(now)) => lobby.set(now),
                Ok(RoomFeed::Ended) => {
                    ended.set(true);
                    listener.try_with_value(|l| l.as_ref().map(browser::Listener::close));
                }
                Err(_) => {}
            }
        });
        listener.set_value(Some(stream.clone()));
        on_cleanup(move || stream.close());
    });

    view! {
        <section class="lobby" data-testid="lobby">
            <FormError paths=FORM_PATHS />
            // The match comes first: on a phone the thing and the button must not be below the
            // fold. While it runs, the invitation shrinks to the code.
            <Show when=move || lobby.with(|l| l.game.is_some())>
                <GameBoard lobby me=me_for_game.clone() />
            </Show>
            <Show
                when=move || lobby.with(|l| l.state != RoomState::Playing)
                fallback=move || view! { <p class="muted">"Room " {code_text.get_value()}</p> }
            >
                <p class="muted">"Room code"</p>
                <h1 class="room-code" data-testid="room-code">{code_text.get_value()}</h1>
                <ShareBox code=code_text.get_value() qr_svg=qr.get_value() />
            </Show>
            {move || ended.get().then(|| view! {
                <p class="notice" role="status" data-testid="room-ended">
                    "This room has ended. " <a href="/">"Open a new one"</a>
                </p>
            })}
            {move || {
                let lobby = lobby.get();
                let me = me.clone();
                let removed = was_member
                    && me.as_ref().is_some_and(|id| lobby.player(id).is_none())
                    && !ended.get();
                view! {
                    {removed.then(|| view! {
                        <p class="notice" role="status" data-testid="removed">"You are no longer in this room."</p>
                    })}
                    <Players lobby=lobby.clone() me=me.clone() />
                    <Controls lobby me />
                }
            }}
        </section>
    }
}

/// The room's link: shown, copyable, shareable where the browser can, and as a QR code.
#[component]
fn ShareBox(code: String, qr_svg: String) -> impl IntoView {
    let path = format!("/r/{code}");
    let hydrated = RwSignal::new(false);
    Effect::new(move |_| hydrated.set(true));
    let status = RwSignal::new(String::new());
    let link = StoredValue::new(path.clone());
    let title = StoredValue::new(format!("Join my Udd room {code}"));
    // Copy closures (only stored handles inside), so the buttons can be drawn again and again.
    let copy = move |_| {
        let url = browser::absolute(&link.get_value());
        leptos::task::spawn_local(async move {
            status.set(if browser::copy_text(&url).await {
                "Link copied.".to_owned()
            } else {
                "Could not copy: press and hold the link instead.".to_owned()
            });
        });
    };
    let share = move |_| {
        let url = browser::absolute(&link.get_value());
        let title = title.get_value();
        leptos::task::spawn_local(async move {
            browser::share(&title, &url).await;
        });
    };
    view! {
        <p class="share">
            "Invite with the code or the link: "
            <a href=path.clone() data-testid="share-link">{path.clone()}</a>
        </p>
        <Show when=move || hydrated.get()>
            <div class="share-actions">
                <button type="button" class="secondary" data-testid="copy-link" on:click=copy>"Copy link"</button>
                <Show when=browser::can_share>
                    <button type="button" class="secondary" data-testid="share-room" on:click=share>"Share…"</button>
                </Show>
                <span class="muted" role="status" aria-live="polite" data-testid="share-status">{move || status.get()}</span>
            </div>
        </Show>
        // Our own SVG from the QR encoder on the server: no player text in it.
        <figure class="qr" data-testid="room-qr" inner_html=qr_svg aria-label="QR code of the room link"></figure>
    }
}

#[component]
fn Players(lobby: Lobby, me: Option<UserId>) -> impl IntoView {
    let is_host = me.as_ref() == Some(&lobby.host_id);
    let code = lobby.code.to_string();
    let host_id = lobby.host_id.clone();
    let count = lobby.players.len();
    let max = lobby.settings.max_players;
    view! {
        <h2 data-testid="player-count">{format!("Players ({count} of {max})")}</h2>
        <ul class="players" data-testid="players" aria-live="polite">
            {lobby.players.into_iter().map(|player| {
                let code = code.clone();
                let hosting = player.user_id == host_id;
                let target = player.user_id.to_string();
                let kickable = is_host && !hosting;
                let mine = me.as_ref() == Some(&player.user_id);
                view! {
                    <li class="player" data-testid="player">
                        <span class="avatar" role="img" aria-label=player.avatar.label()>{player.avatar.emoji()}</span>
                        <span class="nickname">{player.nickname.to_string()}</span>
                        {mine.then(|| view! { <span class="muted">" (you)"</span> })}
                        {hosting.then(|| view! { <span class="badge">"Host"</span> })}
                        {kickable.then(move || view! {
                            <form method="post" action=KickPlayer::PATH class="inline">
                                <input type="hidden" name="code" value=code />
                                <input type="hidden" name="player" value=target />
                                <button type="submit" class="small">"Remove"</button>
                            </form>
                        })}
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}

#[component]
fn Controls(lobby: Lobby, me: Option<UserId>) -> impl IntoView {
    let code = lobby.code.to_string();
    let is_host = me.as_ref() == Some(&lobby.host_id);
    let is_member = me.as_ref().is_some_and(|id| lobby.player(id).is_some());
    let current = lobby.settings;
    let between = lobby.state == RoomState::Lobby;
    let played = lobby.game.as_ref().is_some_and(|g| g.is_finished());
    let board = played.then(|| view! { <BoardLink code=code.clone() /> });
    match (is_member, is_host) {
        (true, true) => EitherOf3::A(view! {
            {board}
            {between.then(|| view! { <StartForm code=code.clone() again=played /> })}
            {between.then(|| view! {
            <form method="post" action=ChangeSettings::PATH class="card settings" data-testid="settings">
                <h2>"Settings"</h2>
                <input type="hidden" name="code" value=code.clone() />
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
            })}
            <LeaveForm code />
        }),
        (true, false) => EitherOf3::B(view! { {board} <LeaveForm code /> }),
        (false, _) => EitherOf3::C(view! {
            <form method="post" action=JoinRoom::PATH class="card" data-testid="join-room">
                <h2>"Join this room"</h2>
                <input type="hidden" name="code" value=code />
                <label>"Your name" <input name="name" required maxlength="24" autocomplete="nickname" /></label>
                <AvatarPicker />
                <button type="submit">"Join"</button>
            </form>
        }),
    }
}

#[component]
fn LeaveForm(code: String) -> impl IntoView {
    view! {
        <form method="post" action=LeaveRoom::PATH class="inline">
            <input type="hidden" name="code" value=code />
            <button type="submit" class="secondary">"Leave room"</button>
        </form>
    }
}
