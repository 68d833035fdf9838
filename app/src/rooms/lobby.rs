//! The lobby's pieces, drawn from a [`Lobby`]: the room's link with copy, share and a QR code,
//! the players with the host's controls (remove, make host, lock), the settings form, and the
//! join (or "locked") and leave forms. The
//! room page (in `live`) puts them together with the match; every form is a plain post that
//! comes back to the room page, the same with or without JavaScript.

use leptos::prelude::*;
use leptos::server_fn::ServerFn;

use crate::browser;
use crate::i18n::td_string;
use crate::identity::account_page::AvatarPicker;
use crate::identity::model::UserId;
use crate::rooms::api::{
    AnotherName, AnswerAsk, ChangeSettings, HandOver, JoinRoom, KickPlayer, LeaveRoom, LockRoom,
    SetRoomRule,
};
use crate::rooms::model::{Lobby, RoomPlayer, RoomRule, RoomSettings};

/// The room's link: shown, copyable, shareable where the browser can, and as a QR code.
#[component]
pub fn ShareBox(code: String, qr_svg: String) -> impl IntoView {
    let l = crate::lang::locale();
    let path = format!("/r/{code}");
    let hydrated = RwSignal::new(false);
    Effect::new(move |_| hydrated.set(true));
    let status = RwSignal::new(String::new());
    let link = StoredValue::new(path.clone());
    let title =
        StoredValue::new(td_string!(l, rooms.lobby.share_title, code = code.as_str()).to_string());
    // Copy closures (only stored handles inside), so the buttons can be drawn again and again.
    let copy = move |_| {
        let url = browser::absolute(&link.get_value());
        leptos::task::spawn_local(async move {
            status.set(if browser::copy_text(&url).await {
                td_string!(l, rooms.lobby.link_copied).to_string()
            } else {
                td_string!(l, rooms.lobby.copy_failed).to_string()
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
            {td_string!(l, rooms.lobby.invite).to_string()}
            <a href=path.clone() data-testid="share-link">{path.clone()}</a>
        </p>
        <Show when=move || hydrated.get()>
            <div class="share-actions">
                <button type="button" class="secondary" data-testid="copy-link" on:click=copy>{td_string!(l, rooms.lobby.copy_link).to_string()}</button>
                <Show when=browser::can_share>
                    <button type="button" class="secondary" data-testid="share-room" on:click=share>{td_string!(l, rooms.lobby.share).to_string()}</button>
                </Show>
                <span class="muted" role="status" aria-live="polite" data-testid="share-status">{move || status.get()}</span>
            </div>
        </Show>
        // Our own SVG from the QR encoder on the server: no player text in it.
        <figure class="qr" data-testid="room-qr" inner_html=qr_svg aria-label=td_string!(l, rooms.lobby.qr_label).to_string()></figure>
    }
}

#[component]
pub fn Players(lobby: Lobby, me: Option<UserId>) -> impl IntoView {
    let l = crate::lang::locale();
    let is_host = me.as_ref() == Some(&lobby.host_id);
    let code = lobby.code.to_string();
    let host_id = lobby.host_id.clone();
    let count = lobby.players.len();
    let max = lobby.settings.max_players;
    let locked = lobby.locked;
    view! {
        <h2 data-testid="player-count">
            {td_string!(l, rooms.lobby.players_heading, count = count, max = max).to_string()}
            {locked.then(|| view! { " " <span class="badge" data-testid="locked-marker">{td_string!(l, rooms.lobby.locked_marker).to_string()}</span> })}
        </h2>
        <ul class="players" data-testid="players" aria-live="polite">
            {lobby.players.into_iter().map(|player| {
                let code = code.clone();
                let hosting = player.user_id == host_id;
                let target = player.user_id.to_string();
                let kickable = is_host && !hosting;
                let mine = me.as_ref() == Some(&player.user_id);
                let (hand_code, hand_target) = (code.clone(), target.clone());
                // The avatar is decoration beside the name (its label in two languages would be
                // in the bundle for nothing a screen reader needs).
                view! {
                    <li class="player" class:away=player.away class:me=mine data-testid="player">
                        <span class=crate::ids::Look::avatar_class(player.look) aria-hidden="true" data-look=player.look.map(|look| look.id())>{player.avatar.emoji()}</span>
                        <span class="nickname">{player.nickname.to_string()}</span>
                        {player.away.then(|| view! { <span class="muted" data-testid="away">{td_string!(l, rooms.lobby.away).to_string()}</span> })}
                        {mine.then(|| view! { <span class="muted">{td_string!(l, rooms.lobby.you).to_string()}</span> })}
                        {hosting.then(|| view! { <span class="badge">{td_string!(l, rooms.lobby.host).to_string()}</span> })}
                        {kickable.then(move || view! {
                            <span class="player-actions">
                            // Hosting is not handed to a player whose page has gone quiet.
                            <form method="post" action=HandOver::PATH class="inline" hidden=player.away>
                                <input type="hidden" name="code" value=hand_code />
                                <input type="hidden" name="player" value=hand_target />
                                <button type="submit" class="small secondary" data-testid="make-host">{td_string!(l, rooms.lobby.make_host).to_string()}</button>
                            </form>
                            <form method="post" action=KickPlayer::PATH class="inline">
                                <input type="hidden" name="code" value=code />
                                <input type="hidden" name="player" value=target />
                                <button type="submit" class="small">{td_string!(l, rooms.lobby.remove).to_string()}</button>
                            </form>
                            </span>
                        })}
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}

/// The host's lock: one button that locks the room or unlocks it, with what it means.
#[component]
pub fn LockForm(code: String, locked: bool) -> impl IntoView {
    let l = crate::lang::locale();
    let (button, help) = if locked {
        (
            td_string!(l, rooms.lobby.unlock).to_string(),
            td_string!(l, rooms.lobby.unlock_help).to_string(),
        )
    } else {
        (
            td_string!(l, rooms.lobby.lock).to_string(),
            td_string!(l, rooms.lobby.lock_help).to_string(),
        )
    };
    view! {
        <form method="post" action=LockRoom::PATH class="inline" data-testid="lock-room">
            <input type="hidden" name="code" value=code />
            <input type="hidden" name="locked" value=(!locked).to_string() />
            <button type="submit" class="secondary">{button}</button>
            " "
            <span class="muted">{help}</span>
        </form>
    }
}

/// The room's settings in plain words: "8 rounds · 3.5 s to decide · up to 8 players · by
/// invitation".
pub fn settings_summary(
    settings: RoomSettings,
    deck: Option<&crate::rooms::model::RoomDeck>,
    l: crate::lang::Locale,
) -> String {
    let seconds = seconds(settings.window_ms);
    let listed = if settings.public {
        td_string!(l, rooms.lobby.summary_public)
    } else {
        td_string!(l, rooms.lobby.summary_private)
    };
    let rounds = match settings.rounds {
        1 => td_string!(l, rooms.lobby.one_round).to_string(),
        n => td_string!(l, rooms.lobby.n_rounds, n = n).to_string(),
    };
    let summary = td_string!(
        l,
        rooms.lobby.summary,
        rounds = rounds.as_str(),
        s = seconds.as_str(),
        max = settings.max_players
    );
    match deck {
        Some(deck) => format!("{} · {summary} · {listed}", deck.label),
        None => format!("{summary} · {listed}"),
    }
}

/// Milliseconds as seconds a player reads: "3", "3.5".
pub fn seconds(ms: u16) -> String {
    match ms % 1000 {
        0 => (ms / 1000).to_string(),
        rest => format!(
            "{}.{}",
            ms / 1000,
            format!("{:03}", rest).trim_end_matches('0')
        ),
    }
}

/// The choices of time to decide (the window's 1–10 s in half seconds is more than anyone
/// needs): these, plus the room's own if it is none of them.
const WINDOW_CHOICES: [u16; 11] = [
    1000, 1500, 2000, 2500, 3000, 3500, 4000, 5000, 6000, 8000, 10_000,
];

/// The host's settings form (between matches).
#[component]
pub fn SettingsForm(code: String, current: RoomSettings) -> impl IntoView {
    let l = crate::lang::locale();
    let mut windows = WINDOW_CHOICES.to_vec();
    if !windows.contains(&current.window_ms) {
        windows.push(current.window_ms);
        windows.sort_unstable();
    }
    view! {
            <form method="post" action=ChangeSettings::PATH class="card settings" data-testid="settings">
                <h2>{td_string!(l, rooms.lobby.settings).to_string()}</h2>
                <input type="hidden" name="code" value=code />
                <label>{td_string!(l, rooms.lobby.rounds).to_string()} <input type="number" name="settings[rounds]" min="1" max="30" value=current.rounds.to_string() /></label>
                <label>{td_string!(l, rooms.lobby.window_ms).to_string()}
                    <select name="settings[window_ms]">
                        {windows.into_iter().map(|ms| {
                            let s = seconds(ms);
                            view! {
                                <option value=ms.to_string() selected=ms == current.window_ms>
                                    {td_string!(l, rooms.lobby.seconds, s = s.as_str()).to_string()}
                                </option>
                            }
                        }).collect_view()}
                    </select>
                </label>
                <label>{td_string!(l, rooms.lobby.max_players).to_string()} <input type="number" name="settings[max_players]" min="2" max="12" value=current.max_players.to_string() /></label>
                <label>{td_string!(l, rooms.lobby.public).to_string()}
                    <select name="settings[public]">
                        <option value="false" selected=!current.public>{td_string!(l, rooms.lobby.no).to_string()}</option>
                        <option value="true" selected=current.public>{td_string!(l, rooms.lobby.yes).to_string()}</option>
                    </select>
                </label>
                <button type="submit">{td_string!(l, rooms.lobby.save_settings).to_string()}</button>
            </form>
    }
}

/// The join form for a visitor (the room page shows it only while the room is open): a name and
/// an avatar, or only the avatar where names are drawn (`friendly`); "Ask to join" where the host
/// approves each join.
#[component]
pub fn JoinForm(
    code: String,
    avatar: crate::identity::Avatar,
    #[prop(optional)] friendly: bool,
    #[prop(optional)] approve: bool,
) -> impl IntoView {
    let l = crate::lang::locale();
    let (button, help) = if approve {
        (
            td_string!(l, strangers.ask_button).to_string(),
            Some(td_string!(l, strangers.ask_help).to_string()),
        )
    } else {
        (td_string!(l, rooms.home.join).to_string(), None)
    };
    view! {
            <form method="post" action=JoinRoom::PATH class="card" data-testid="join-room">
                <h2>{td_string!(l, rooms.lobby.join_heading).to_string()}</h2>
                <input type="hidden" name="code" value=code />
                {if friendly {
                    view! { <p class="muted" data-testid="friendly-help">{td_string!(l, strangers.friendly_help).to_string()}</p> }.into_any()
                } else {
                    view! { <label>{td_string!(l, rooms.home.your_name).to_string()} <input name="name" required maxlength="24" autocomplete="nickname" /></label> }.into_any()
                }}
                <AvatarPicker chosen=avatar />
                {help.map(|help| view! { <p class="muted">{help}</p> })}
                <button type="submit">{button}</button>
            </form>
    }
}

/// The host's rules for strangers: friendly names and approving each join, each said in words
/// with one button that turns it on or off.
#[component]
pub fn RulesForm(code: String, friendly: bool, approve: bool) -> impl IntoView {
    let l = crate::lang::locale();
    let rule = move |rule: RoomRule, on: bool| {
        let (name, state) = match (rule, on) {
            (RoomRule::Friendly, true) => (
                td_string!(l, strangers.friendly),
                td_string!(l, strangers.friendly_on),
            ),
            (RoomRule::Friendly, false) => (
                td_string!(l, strangers.friendly),
                td_string!(l, strangers.friendly_off),
            ),
            (RoomRule::Approve, true) => (
                td_string!(l, strangers.approve),
                td_string!(l, strangers.approve_on),
            ),
            (RoomRule::Approve, false) => (
                td_string!(l, strangers.approve),
                td_string!(l, strangers.approve_off),
            ),
        };
        let (value, testid) = match rule {
            RoomRule::Friendly => ("friendly", "rule-friendly"),
            RoomRule::Approve => ("approve", "rule-approve"),
        };
        let button = if on {
            td_string!(l, strangers.turn_off)
        } else {
            td_string!(l, strangers.turn_on)
        };
        view! {
            <form method="post" action=SetRoomRule::PATH class="rule" data-testid=testid data-on=on.to_string()>
                <input type="hidden" name="code" value=code.clone() />
                <input type="hidden" name="rule" value=value />
                <input type="hidden" name="on" value=(!on).to_string() />
                <p><strong>{name.to_string()}</strong>" "<span class="muted">{state.to_string()}</span></p>
                <button type="submit" class="small secondary">{button.to_string()}</button>
            </form>
        }
    };
    view! {
        <section class="card rules" data-testid="room-rules">
            <h2>{td_string!(l, strangers.rules_heading).to_string()}</h2>
            {rule(RoomRule::Friendly, friendly)}
            {rule(RoomRule::Approve, approve)}
        </section>
    }
}

/// The host's queue: who waits to join as the page was drawn, each with "Let in" and "Turn away"
/// (the room page says when it changed since, with a link that draws it again).
#[component]
pub fn AskQueue(code: String, asking: Vec<RoomPlayer>) -> impl IntoView {
    let l = crate::lang::locale();
    let empty = asking.is_empty();
    view! {
        <section class="card queue" data-testid="join-queue" aria-live="polite">
            <h2>{td_string!(l, strangers.queue_heading).to_string()}</h2>
            {empty.then(|| view! { <p class="muted">{td_string!(l, strangers.queue_none).to_string()}</p> })}
            <ul class="players">
                {asking.into_iter().map(|asker| {
                    let target = asker.user_id.to_string();
                    let answer = |let_in: bool, label: String, class: &'static str, testid: &'static str| view! {
                        <form method="post" action=AnswerAsk::PATH class="inline">
                            <input type="hidden" name="code" value=code.clone() />
                            <input type="hidden" name="player" value=target.clone() />
                            <input type="hidden" name="let_in" value=let_in.to_string() />
                            <button type="submit" class=class data-testid=testid>{label}</button>
                        </form>
                    };
                    view! {
                        <li class="player" data-testid="asker">
                            <span class="avatar" aria-hidden="true">{asker.avatar.emoji()}</span>
                            <span class="nickname">{asker.nickname.to_string()}</span>
                            <span class="player-actions">
                                {answer(true, td_string!(l, strangers.let_in).to_string(), "small", "let-in")}
                                {answer(false, td_string!(l, strangers.turn_away).to_string(), "small secondary", "turn-away")}
                            </span>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    }
}

/// A player's drawn name, and the button that draws another (in a room with friendly names).
#[component]
pub fn AnotherNameForm(code: String, name: String) -> impl IntoView {
    let l = crate::lang::locale();
    view! {
        <form method="post" action=AnotherName::PATH class="card" data-testid="another-name">
            <input type="hidden" name="code" value=code />
            <h2>{td_string!(l, strangers.renamed, name = name.as_str()).to_string()}</h2>
            <p class="muted">{td_string!(l, strangers.another_help).to_string()}</p>
            <button type="submit" class="secondary">{td_string!(l, strangers.another_name).to_string()}</button>
        </form>
    }
}

#[component]
pub fn LeaveForm(code: String) -> impl IntoView {
    let l = crate::lang::locale();
    view! {
        <form method="post" action=LeaveRoom::PATH class="inline">
            <input type="hidden" name="code" value=code />
            <button type="submit" class="secondary">{td_string!(l, rooms.lobby.leave).to_string()}</button>
        </form>
    }
}
