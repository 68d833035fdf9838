//! `/r/<CODE>`: a room. The lobby (players with avatars and the host's badge, the code in big
//! letters, its link with copy and share buttons and a QR code, host controls, leave, and a join
//! form for visitors) and the match (see `game::page`).
//!
//! The page is a server component; the room itself is one island, [`LiveRoom`]: rendered in
//! full on the server, then, in the browser, it listens to the room's live stream
//! (`/r/<CODE>/events`, reconnecting by itself) and redraws from each snapshot. The host's
//! controls are plain form posts that come back to this page (the same with or without
//! JavaScript, and no client code per action, which keeps the browser bundle small).

use leptos::either::{Either, EitherOf3};
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;

use crate::browser;
use crate::codec::Base64Json;
use crate::game::api::StartMatch;
use crate::game::page::{GameBoard, StartForm};
use crate::i18n::td_string;
use crate::identity::model::UserId;
use crate::leaderboards::page::BoardLink;
use crate::live::api::{room_page, RoomPageData};
use crate::live::feed::{events_path, RoomFeed};
use crate::rooms::api::{ChangeSettings, HandOver, JoinRoom, KickPlayer, LeaveRoom, LockRoom};
use crate::rooms::lobby::{JoinForm, LeaveForm, Players, SettingsForm, ShareBox};
use crate::rooms::model::{Lobby, RoomCode, RoomState};
use crate::ui::code_param;
use crate::ui::forms::FormError;

/// Server functions whose plain-form failures this page shows.
const FORM_PATHS: &[&str] = &[
    JoinRoom::PATH,
    KickPlayer::PATH,
    ChangeSettings::PATH,
    LeaveRoom::PATH,
    StartMatch::PATH,
    LockRoom::PATH,
    HandOver::PATH,
];

#[component]
pub fn RoomPage() -> impl IntoView {
    let code = code_param();
    let page = Resource::<_, Base64Json>::new_with_options(code, room_page, false);
    let l = crate::lang::locale();
    // The title names the room only when the link holds a well-formed code: nothing from the
    // address bar reaches the page unparsed. A plain string, worked out now: the head is
    // rendered after the body has resolved, when a closure over the route's params could find
    // them disposed (a panic seen when a reload cut a render short).
    let title = match RoomCode::parse(&code()) {
        Ok(code) => td_string!(l, rooms.room.title, code = code.as_str()).to_string(),
        Err(_) => td_string!(l, rooms.room.no_such_room).to_string(),
    };
    view! {
        <Title text=title />
        <Suspense fallback=move || view! { <p class="muted">{td_string!(l, rooms.room.opening).to_string()}</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Ok(page) => Either::Left(view! {
                        <FormError paths=FORM_PATHS />
                        // The match's controls appear only once the island is awake, so without
                        // JavaScript there is nothing dead to press: this note says why.
                        <noscript>
                            <p class="notice" data-testid="needs-js">{td_string!(l, rooms.room.needs_js).to_string()}</p>
                        </noscript>
                        <LiveRoom page />
                    }),
                    Err(err) => Either::Right(view! {
                        <section class="hero">
                            <h1>{td_string!(l, rooms.room.no_such_room).to_string()}</h1>
                            <p class="error" role="alert">{err.localized()}</p>
                            <p><a href="/">{td_string!(l, rooms.room.other_room).to_string()}</a></p>
                        </section>
                    }),
                }
            })}
        </Suspense>
    }
}

/// The room, live: everything on the room page changes with the room's stream, so the whole
/// view is the one island. It starts from the snapshot the server rendered (its props), then
/// redraws from every snapshot the stream sends.
#[island]
fn LiveRoom(page: RoomPageData) -> impl IntoView {
    let RoomPageData {
        room: first,
        me,
        qr_svg,
        ..
    } = page;
    let l = crate::lang::locale();
    let code = first.code.to_string();
    let was_member = me.as_ref().is_some_and(|id| first.player(id).is_some());
    let code_value = StoredValue::new(first.code.clone());
    let room = RwSignal::new(first.clone());
    let ended = RwSignal::new(false);
    let me_for_game = me.clone();
    let code_text = StoredValue::new(code.clone());
    let room_label =
        StoredValue::new(td_string!(l, rooms.room.title, code = code.as_str()).to_string());
    let qr = StoredValue::new(qr_svg);
    // The lobby's part of the page is drawn again only when the lobby changed (or a match
    // ended), not for every snapshot of a running match: a reveal redraws just the match.
    let lobby = Memo::new(move |_| room.with(|r| r.lobby.clone()));
    let played =
        Memo::new(move |_| room.with(|r| r.game.as_ref().is_some_and(|g| g.is_finished())));

    // After hydration: redraw from every snapshot the room's live stream sends.
    Effect::new(move |_| {
        let listener = StoredValue::new(None::<browser::Listener>);
        let stream = browser::listen(&events_path(&code_value.get_value()), 2000, move |data| {
            // `from_str`, as the island's props are read (Leptos reads them so): one copy of the
            // room's decoders in the bundle, not one per kind of JSON reader.
            match serde_json::from_str::<RoomFeed>(&data) {
                Ok(RoomFeed::Room(now)) => room.set(now),
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
            // The match comes first: on a phone the thing and the button must not be below the
            // fold. While it runs, the invitation shrinks to the code.
            <Show when=move || room.with(|r| r.game.is_some())>
                <GameBoard room me=me_for_game.clone() />
            </Show>
            <Show
                when=move || lobby.with(|l| l.state != RoomState::Playing)
                fallback=move || view! { <p class="muted">{room_label.get_value()}</p> }
            >
                <p class="muted">{td_string!(l, rooms.room.room_code).to_string()}</p>
                <h1 class="room-code" data-testid="room-code">{code_text.get_value()}</h1>
                <ShareBox code=code_text.get_value() qr_svg=qr.get_value() />
            </Show>
            {move || ended.get().then(|| view! {
                <p class="notice" role="status" data-testid="room-ended">
                    {td_string!(l, rooms.room.ended).to_string()}
                    <a href="/">{td_string!(l, rooms.room.open_new).to_string()}</a>
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
                        <p class="notice" role="status" data-testid="removed">{td_string!(l, rooms.room.removed).to_string()}</p>
                    })}
                    <Players lobby=lobby.clone() me=me.clone() />
                    <Controls lobby played=played.get() me />
                }
            }}
        </section>
    }
}

/// What the player can do here: the host starts and sets the room up, a member leaves, a
/// visitor joins; after a match, everyone gets the room board's link.
#[component]
fn Controls(lobby: Lobby, played: bool, me: Option<UserId>) -> impl IntoView {
    let code = lobby.code.to_string();
    let is_host = me.as_ref() == Some(&lobby.host_id);
    let is_member = me.as_ref().is_some_and(|id| lobby.player(id).is_some());
    let current = lobby.settings;
    let between = lobby.state == RoomState::Lobby;
    let board_href = crate::ids::BoardId::room_best(&lobby.id).href();
    let board = played.then(|| view! { <BoardLink href=board_href /> });
    match (is_member, is_host) {
        (true, true) => EitherOf3::A(view! {
            {board}
            {between.then(|| view! { <StartForm code=code.clone() again=played /> })}
            {between.then(|| view! { <SettingsForm code=code.clone() current /> })}
            <LeaveForm code />
        }),
        (true, false) => EitherOf3::B(view! { {board} <LeaveForm code /> }),
        (false, _) => EitherOf3::C(view! { <JoinForm code locked=lobby.locked /> }),
    }
}
