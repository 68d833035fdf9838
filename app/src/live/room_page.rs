//! `/r/<CODE>`: a room (the same room on a big screen is `live::screen_page`). The lobby (players with avatars and the host's badge, the code in big
//! letters, its link with copy and share buttons and a QR code, host controls, leave, and a join
//! form for visitors) and the match (see `game::board`).
//!
//! The page is a server component; the room itself is one island, [`LiveRoom`]: rendered in
//! full on the server, then, in the browser, it listens to the room's live stream
//! (`/r/<CODE>/events`, reconnecting by itself) and redraws from each snapshot. The host's
//! controls are plain form posts that come back to this page (the same with or without
//! JavaScript, and no client code per action, which keeps the browser bundle small).

use leptos::either::Either;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::{Link, Title};

use crate::browser;
use crate::decks::in_room::{ChooseDeck, RoomDeckForm};
use crate::error::AppError;
use crate::game::api::{JoinAudience, StartMatch};
use crate::game::board::GameBoard;
use crate::game::podium::{AfterMatch, StartForm};
use crate::game::words::around;
use crate::i18n::td_string;
use crate::identity::model::UserId;
use crate::lang::Locale;
use crate::leaderboards::boards_page::BoardLink;
use crate::live::api::{room_page, RoomPageData};
use crate::live::feed::{events_path, RoomFeed, FOR_NOBODY};
use crate::rooms::api::{
    AnotherName, AnswerAsk, ChangeSettings, HandOver, JoinRoom, KickPlayer, LeaveRoom, LockRoom,
    SetRoomRule,
};
use crate::rooms::lobby::{
    settings_summary, AnotherNameForm, AskQueue, JoinForm, LeaveForm, LockForm, Players, RulesForm,
    SettingsForm, ShareBox,
};
use crate::rooms::model::{Lobby, RoomCode, RoomPlayer, RoomState};
use crate::suggest::forms::{HostBox, PlayerSuggest, PlayerVotes, SentNotice};
use crate::ui::forms::FormError;
use crate::ui::{code_param, IslandProps};

/// The big screen's stylesheet (in `public/`): loaded by `/r/<CODE>/screen`
/// (`live::screen_page`) and by this page in its "just the button" view only.
pub const SCREEN_CSS: &str = "/screen.css";

/// The room page's own stylesheet (in `public/`): rules no other page needs (the join queue's
/// notes), so the pages without islands do not pay for them.
pub const ROOM_CSS: &str = "/room.css";

/// Server functions whose plain-form failures this page shows.
const FORM_PATHS: &[&str] = &[
    JoinRoom::PATH,
    KickPlayer::PATH,
    ChangeSettings::PATH,
    LeaveRoom::PATH,
    StartMatch::PATH,
    LockRoom::PATH,
    HandOver::PATH,
    JoinAudience::PATH,
    SetRoomRule::PATH,
    AnswerAsk::PATH,
    AnotherName::PATH,
    ChooseDeck::PATH,
];

/// The room the address names, for its page: an address whose code is not one is refused as
/// a malformed argument is (400, the same words), without a call.
pub(crate) async fn load_room(code: String) -> Result<RoomPageData, AppError> {
    match RoomCode::parse(&code) {
        Ok(code) => room_page(code).await,
        #[cfg(feature = "ssr")]
        Err(invalid) => Err(crate::error::fail(invalid)),
        #[cfg(not(feature = "ssr"))]
        Err(invalid) => Err(AppError::from(invalid)),
    }
}

/// What the room page and the big screen show for a room that is not there (or a code that is
/// not one): why, and the way back.
pub(crate) fn no_such_room(l: Locale, err: &AppError) -> impl IntoView {
    view! {
        <section class="hero">
            <h1>{td_string!(l, rooms.room.no_such_room).to_string()}</h1>
            <p class="error" role="alert">{err.localized()}</p>
            <p><a href="/">{td_string!(l, rooms.room.other_room).to_string()}</a></p>
        </section>
    }
}

#[component]
pub fn RoomPage() -> impl IntoView {
    let code = code_param();
    let l = crate::lang::locale();
    // The settings form comes back here with `?saved=settings`: say what was saved.
    let query = leptos_router::hooks::use_query_map();
    let saved = move || query.with(|q| q.get("saved").as_deref() == Some("settings"));
    // `?view=buttons`: with the room on a big screen, the phone shows just the button, the
    // verdict and the standings (the big screen's stylesheet hides the rest).
    let buttons = query.with_untracked(|q| q.get("view").as_deref() == Some("buttons"));
    // The title names the room only when the link holds a well-formed code: nothing from the
    // address bar reaches the page unparsed. A plain string, worked out now: the head is
    // rendered after the body has resolved, when a closure over the route's params could find
    // them disposed (a panic seen when a reload cut a render short).
    let title = match RoomCode::parse(&code()) {
        Ok(code) => around(td_string!(l, rooms.room.title), code.as_str()),
        Err(_) => td_string!(l, rooms.room.no_such_room).to_string(),
    };
    view! {
        <Title text=title />
        <Suspense fallback=move || view! { <p class="muted">{td_string!(l, rooms.room.opening).to_string()}</p> }>
            // Awaited here, not held in a resource: a resource outside an island is written into
            // the page a second time (beside the island's props) for a hydration that never
            // reads it.
            {move || {
                let code = code();
                Suspend::new(async move {
                match load_room(code).await {
                    Ok(page) => Either::Left({
                        let room_code = page.room.code.to_string();
                        view! {
                        <FormError paths=FORM_PATHS />
                        <FormError paths=crate::suggest::forms::FORM_PATHS />
                        <SentNotice sent=query.with_untracked(|q| q.get("sent")) put=query.with_untracked(|q| q.get("put")) />
                        {saved().then(|| {
                            let summary = settings_summary(page.room.settings, page.room.deck.as_ref(), l);
                            view! {
                                <p class="notice ok" role="status" data-testid="settings-saved">
                                    {td_string!(l, rooms.lobby.saved, summary = summary.as_str()).to_string()}
                                </p>
                            }
                        })}
                        // The match's controls appear only once the island is awake, so without
                        // JavaScript there is nothing dead to press: this note says why.
                        <noscript>
                            <p class="notice" data-testid="needs-js">{td_string!(l, rooms.room.needs_js).to_string()}</p>
                        </noscript>
                        <Link rel="stylesheet" href=ROOM_CSS />
                        <div class="room-view" data-view=if buttons { "buttons" } else { "full" }>
                            {buttons.then(|| view! { <Link rel="stylesheet" href=SCREEN_CSS /> })}
                            <LiveRoom page=IslandProps(page.clone())>
                                <RoomForms lobby=Lobby::clone(&page.room) me=page.me.clone() along=page.along.is_some() my_decks=page.my_decks.clone() suggestions=page.suggestions.clone() />
                            </LiveRoom>
                            <RoomExtras code=room_code buttons />
                        </div>
                    }}),
                    Err(err) => Either::Right(no_such_room(l, &err)),
                }
            })
            }}
        </Suspense>
    }
}

/// The room, live: everything on the room page changes with the room's stream, so the whole
/// view is the one island. It starts from the snapshot the server rendered (its props), then
/// redraws from every snapshot the stream sends.
// The island's name in the page is its name and a hash of its tokens. Lazy (its own chunk of
// the split bundle, fetched by the pages that show it: this one and the big screen's).
#[island(lazy)]
pub(crate) fn LiveRoom(page: IslandProps<RoomPageData>, children: Children) -> impl IntoView {
    let IslandProps(RoomPageData {
        room: first,
        me,
        qr_svg,
        badges,
        my_tap,
        along,
        along_from,
        my_decks: _,
        suggestions: _,
    }) = page;
    let l = crate::lang::locale();
    let for_nobody = me.is_none();
    let code = first.code.to_string();
    let was_member = me.as_ref().is_some_and(|id| first.player(id).is_some());
    // The join queue as the page was drawn: an asker learns the host's no when their ask goes
    // without them joining, a host that the list drawn is out of date (whoever came or went).
    let asked = me.as_ref().is_some_and(|id| first.is_asking(id));
    let drawn = first.asking.clone();
    // The suggestion box's number and its last vote's as the page was drawn: a host learns
    // that suggestions or votes came in since, a player that a vote opened.
    let drawn_box = (first.suggest, first.vote);
    let code_value = StoredValue::new(first.code.clone());
    let room = RwSignal::new(first.clone());
    let ended = RwSignal::new(false);
    // This seat moved to the player's other device: this page stops listening.
    let moved = RwSignal::new(false);
    let me_for_game = me.clone();
    let me_for_forms = StoredValue::new(me.clone());
    let code_text = StoredValue::new(code.clone());
    let room_label = StoredValue::new(around(td_string!(l, rooms.room.title), &code));
    let qr = StoredValue::new(qr_svg);
    // The lobby's part of the page is drawn again only when the lobby changed (or a match
    // ended), not for every snapshot of a running match: a reveal redraws just the match.
    let lobby = Memo::new(move |_| room.with(|r| r.lobby.clone()));
    let played =
        Memo::new(move |_| room.with(|r| r.game.as_ref().is_some_and(|g| g.is_finished())));
    // Whether the host changed while the page is open (noted as each snapshot arrives): the
    // server-drawn notes in `RoomForms` say so, by the viewer's part (no words in the bundle).
    let host_changed = RwSignal::new(false);

    // After hydration: redraw from every snapshot the room's live stream sends.
    Effect::new(move |_| {
        let listener = StoredValue::new(None::<browser::Listener>);
        // The big screen is nobody's (`me` cleared): its stream must not take the seat of
        // whoever is signed in on the TV.
        let mut path = events_path(&code_value.get_value());
        if for_nobody {
            path = format!("{path}?{FOR_NOBODY}");
        }
        let stream = browser::listen(&path, 2000, move |data| {
            // `from_str`, as the island's props are read (Leptos reads them so): one copy of the
            // room's decoders in the bundle, not one per kind of JSON reader.
            match serde_json::from_str::<RoomFeed>(&data) {
                Ok(RoomFeed::Room(now)) => {
                    if room.with_untracked(|r| r.host_id != now.host_id) {
                        host_changed.set(true);
                    }
                    room.set(now)
                }
                Ok(feed @ (RoomFeed::Ended | RoomFeed::Moved)) => {
                    if feed == RoomFeed::Ended {
                        ended.set(true);
                    } else {
                        moved.set(true);
                    }
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
                <GameBoard room me=me_for_game.clone() held=badges.clone() tapped=my_tap along along_from />
            </Show>
            <Show
                when=move || lobby.with(|l| l.state != RoomState::Playing)
                fallback=move || view! { <p class="muted">{room_label.get_value()}</p> }
            >
                <p class="muted">{td_string!(l, rooms.room.room_code).to_string()}</p>
                <h1 class="room-code" data-testid="room-code">{code_text.get_value()}</h1>
                <ShareBox code=code_text.get_value() qr_svg=qr.get_value() />
            </Show>
            {move || moved.get().then(|| view! {
                <p class="notice" role="status" data-testid="seat-moved">
                    {td_string!(l, rooms.room.moved).to_string()}" "
                    <a href="">{td_string!(l, rooms.room.play_here).to_string()}</a>
                </p>
            })}
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
                    <p class="settings-line" data-testid="settings-summary">{settings_summary(lobby.settings, lobby.deck.as_ref(), l)}</p>
                }
            }}
            // The forms, drawn on the server (none of their code is in the browser bundle): which
            // of them show is up to the player's part and the room's state, in the stylesheet.
            <div class="room-forms"
                data-role=move || lobby.with(|lobby| role(lobby, me_for_forms.get_value().as_ref(), asked, &drawn, drawn_box))
                data-state=move || if lobby.with(|l| l.state == RoomState::Playing) { "playing" } else { "lobby" }
                data-played=move || if played.get() { "yes" } else { "no" }
                data-locked=move || if lobby.with(|l| l.locked) { "yes" } else { "no" }
                data-host-changed=move || if host_changed.get() { "yes" } else { "no" }>
                {children()}
            </div>
        </section>
    }
}

/// Below the room: its big screen (opened in another tab, for the TV), and the phone's view
/// with the thing on that screen: just the button, or everything.
#[component]
fn RoomExtras(code: String, buttons: bool) -> impl IntoView {
    let l = crate::lang::locale();
    let (view_href, view_label) = if buttons {
        (format!("/r/{code}"), td_string!(l, rooms.room.full_view))
    } else {
        (
            format!("/r/{code}?view=buttons"),
            td_string!(l, rooms.room.buttons_view),
        )
    };
    view! {
        <ul class="plain room-extras">
            <li>
                <a href=format!("/r/{code}/screen") target="_blank" data-testid="screen-link">
                    {td_string!(l, rooms.room.screen_link).to_string()}
                </a>
            </li>
            <li><a href=view_href data-testid="view-toggle">{view_label.to_string()}</a></li>
            <li><a href=format!("/r/{code}/report") data-testid="room-report-link">{td_string!(l, reports.room_link).to_string()}</a></li>
        </ul>
    }
}

/// The viewer's part in a room, which decides the forms they see: `host`, `guest` or `visitor`,
/// with more words for the join queue and the suggestion box (one attribute: each reactive one
/// costs the bundle about 800 B): a host whose queue changed since the page was drawn
/// (`queue-changed`) or whose box did (`box-changed`); a player while the box is open
/// (`suggest`) and when a vote opened since (`vote-changed`); a visitor whose ask waits
/// (`visitor asking`) or went without them joining (`visitor refused`).
fn role(
    lobby: &Lobby,
    me: Option<&UserId>,
    asked: bool,
    drawn: &[RoomPlayer],
    drawn_box: (Option<u32>, Option<u32>),
) -> &'static str {
    let box_moved = lobby.suggest != drawn_box.0;
    let vote_new = lobby.vote.is_some() && lobby.vote != drawn_box.1;
    match me {
        Some(id) if id == &lobby.host_id => match (lobby.asking != drawn, box_moved) {
            (true, true) => "host queue-changed box-changed",
            (true, false) => "host queue-changed",
            (false, true) => "host box-changed",
            (false, false) => "host",
        },
        Some(id) if lobby.player(id).is_some() => match (lobby.suggest.is_some(), vote_new) {
            (true, true) => "guest suggest vote-changed",
            (true, false) => "guest suggest",
            (false, _) => "guest",
        },
        Some(id) if lobby.is_asking(id) => "visitor asking",
        Some(_) if asked => "visitor refused",
        _ => "visitor",
    }
}

/// Every form of the room page, drawn once on the server as the island's children, each marked
/// with who sees it and when (`style/main.css`, "room forms"): the host starts the match
/// (after one, "Play again" moves to the top of the page) and sets the room up, the other players
/// are told they wait for the host, the host locks or unlocks the room, a player leaves, a visitor
/// joins (or is told the room is locked); after a match, everyone gets the room board's link.
/// Every form is a plain post that comes back to the room.
#[component]
fn RoomForms(
    lobby: Lobby,
    me: Option<UserId>,
    along: bool,
    my_decks: Vec<crate::decks::model::DeckHead>,
    suggestions: Vec<crate::suggest::model::Suggestion>,
) -> impl IntoView {
    let l = crate::lang::locale();
    let (suggest_top, suggest_box) =
        suggest_forms(&lobby, me.as_ref(), suggestions, my_decks.clone());
    // The host the room was handed on from while they were away, back: who hosts now (shown
    // while they are a player and not the host; taking the room back makes them host).
    let away_note = me.as_ref().and_then(|me| lobby.handed_on_from(me)).map(|now| {
        let name = now.nickname.to_string();
        view! {
            <p class="notice for-guest top" role="status" data-testid="away-note">
                {td_string!(l, rooms.room.you_were_away).to_string()}" "{name}" "{td_string!(l, rooms.room.hosts_now).to_string()}
            </p>
        }
    });
    let code = lobby.code.to_string();
    let board_href = crate::ids::BoardId::room_best(&lobby.id).href();
    let rules = lobby.rules();
    // A player's name drawn for them (a room with friendly names), and a visitor's ask.
    let drawn = me
        .as_ref()
        .and_then(|me| lobby.player(me))
        .filter(|_| rules.friendly)
        .map(|p| p.nickname.to_string());
    let asking = me
        .as_ref()
        .and_then(|me| lobby.asking.iter().find(|p| &p.user_id == me))
        .map(|p| p.nickname.to_string());
    // Someone waiting to be let in is offered nothing else meanwhile (the audience among it).
    let waits = asking.is_some();
    let visitor_way_in = match asking {
        Some(name) => Either::Left(view! {
            <p class="notice for-visitor if-asking" role="status" data-testid="asking">{td_string!(l, strangers.asking, name = name.as_str()).to_string()}</p>
            <p class="notice for-visitor if-refused" role="alert" data-testid="turned-away">{td_string!(l, strangers.turned_away).to_string()}</p>
        }),
        None => Either::Right(view! {
            <div class="for-visitor if-open"><JoinForm code=code.clone() avatar=lobby.free_avatar() friendly=rules.friendly approve=rules.approve /></div>
        }),
    };
    view! {
        {away_note}
        <p class="notice for-host if-queue top" role="status" data-testid="queue-changed">
            {td_string!(l, strangers.queue_changed).to_string()}" "
            <a href="">{td_string!(l, strangers.queue_show).to_string()}</a>
        </p>
        // The queue first when someone waits (the host's next step), else among the host's forms.
        {(rules.approve && !lobby.asking.is_empty()).then(|| view! { <div class="for-host top"><AskQueue code=code.clone() asking=lobby.asking.clone() /></div> })}
        {suggest_top}
        <p class="notice for-host if-host-changed top" role="status" data-testid="host-note">{td_string!(l, rooms.room.you_host_now).to_string()}</p>
        <p class="notice for-guest if-host-changed top" role="status" data-testid="new-host-note">{td_string!(l, rooms.room.new_host).to_string()}</p>
        <p class="notice ok for-host between step" data-testid="you-host">{td_string!(l, rooms.room.you_host).to_string()}</p>
        <div class="start-block for-host between step"><StartForm code=code.clone() /></div>
        <p class="notice waiting start-block for-guest between step" data-testid="waiting-for-host">
            <span class="fresh">{td_string!(l, game.start.waiting_first).to_string()}</span>
            <span class="again">{td_string!(l, game.start.waiting).to_string()}</span>
        </p>
        <div class="again for-member"><AfterMatch code=code.clone() /></div>
        <div class="again"><BoardLink href=board_href /></div>
        <div class="for-host between"><SettingsForm code=code.clone() current=lobby.settings /></div>
        <div class="for-host between"><RoomDeckForm code=code.clone() current=lobby.deck.clone() mine=my_decks /></div>
        {suggest_box}

        {drawn.map(|name| view! { <div class="for-guest between"><AnotherNameForm code=code.clone() name /></div> })}
        <div class="for-host if-open"><LockForm code=code.clone() locked=false /></div>
        <div class="for-host if-locked"><LockForm code=code.clone() locked=true /></div>
        {(rules.approve && lobby.asking.is_empty()).then(|| view! { <div class="for-host"><AskQueue code=code.clone() asking=Vec::new() /></div> })}
        <div class="for-host between"><RulesForm code=code.clone() friendly=rules.friendly approve=rules.approve /></div>
        <div class="for-member"><LeaveForm code=code.clone() /></div>
        {visitor_way_in}
        <p class="notice for-visitor if-locked" role="status" data-testid="room-locked">{td_string!(l, rooms.lobby.locked_notice).to_string()}</p>
        {if along {
            Either::Left(view! {
                <p class="notice top fresh" data-testid="along-note">{td_string!(l, rooms.room.along_note).to_string()}</p>
            })
        } else {
            Either::Right((!waits).then(|| view! { <div class="for-visitor if-open along-form"><AudienceForm code=lobby.code.to_string() named=me.is_some() || rules.friendly /></div> }))
        }}
    }
}

/// The suggestion box's part of the room's forms, in two places: at the top, the notes of what
/// came in since the page was drawn (the host's) or of a vote opened since (a player's) and the
/// rulings a player is asked to vote on; among the host's forms after what to play, the host's
/// box, and a player's form to suggest a thing (shown while the box is open).
fn suggest_forms(
    lobby: &Lobby,
    me: Option<&UserId>,
    suggestions: Vec<crate::suggest::model::Suggestion>,
    my_decks: Vec<crate::decks::model::DeckHead>,
) -> (AnyView, AnyView) {
    let l = crate::lang::locale();
    let code = lobby.code.to_string();
    let names: Vec<(UserId, String)> = (lobby.players.iter())
        .map(|p| (p.user_id.clone(), p.nickname.to_string()))
        .collect();
    let open = lobby.suggest.is_some();
    // The host's box for the host, a player's part for the others (a player made host while
    // the page is open is told so, and the next load draws the box).
    let hosts = me == Some(&lobby.host_id);
    let player = me
        .filter(|me| !hosts && lobby.player(me).is_some())
        .cloned();
    let votes = player.clone().map(|me| {
        let (code, suggestions) = (code.clone(), suggestions.clone());
        view! { <div class="for-guest top if-suggest"><PlayerVotes code me suggestions /></div> }
    });
    let top = view! {
        <p class="notice for-host if-box-changed top" role="status" data-testid="box-changed">
            {td_string!(l, suggest.changed).to_string()}" "<a href="">{td_string!(l, suggest.changed_show).to_string()}</a>
        </p>
        <p class="notice for-guest if-vote-changed top" role="status" data-testid="vote-changed">
            {td_string!(l, suggest.vote_open).to_string()}" "<a href="">{td_string!(l, suggest.vote_show).to_string()}</a>
        </p>
        {votes}
    }
    .into_any();
    let boxes = view! {
        {hosts.then(|| view! { <div class="for-host between"><HostBox code=code.clone() open suggestions=suggestions.clone() names my_decks /></div> })}
        {player.map(|me| view! { <div class="for-guest between if-suggest"><PlayerSuggest code me suggestions /></div> })}
    }
    .into_any();
    (top, boxes)
}

/// Joining the room's audience, for a visitor (the room may be full, or its match under way, or
/// they came to watch): one without a session gives a name (they become a guest); anyone signed
/// in just presses the button.
#[component]
fn AudienceForm(code: String, named: bool) -> impl IntoView {
    let l = crate::lang::locale();
    view! {
        <form method="post" action=JoinAudience::PATH class="card" data-testid="join-audience">
            <h2>{td_string!(l, rooms.room.along_heading).to_string()}</h2>
            <p class="muted">{td_string!(l, rooms.room.along_why).to_string()}</p>
            <input type="hidden" name="code" value=code />
            {(!named).then(|| view! {
                <label>{td_string!(l, rooms.home.your_name).to_string()} <input name="name" required maxlength="24" autocomplete="nickname" /></label>
            })}
            <button type="submit">{td_string!(l, rooms.room.along_button).to_string()}</button>
        </form>
    }
}
