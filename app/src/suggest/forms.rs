//! What the room page draws of the suggestion box, on the server (no island: nothing of it is
//! in the room page's bundle): the host's box with an answer form for each suggestion, and a
//! player's form to send one, the rulings put to the vote and what they sent. The page's
//! island marks which of them show (the box open, new suggestions since the page was drawn).

use leptos::prelude::*;
use leptos::server_fn::ServerFn;

use crate::decks::model::DeckHead;
use crate::i18n::td_string;
use crate::ids::UserId;
use crate::lang::Locale;
use crate::suggest::api::{
    AnswerSuggestion, OpenSuggestions, PutSuggestions, SuggestThing, VoteRuling,
};
use crate::suggest::model::{Status, Suggestion, NAME_MAX};

/// The box's posts whose plain-form failures the room page shows.
pub const FORM_PATHS: &[&str] = &[
    OpenSuggestions::PATH,
    SuggestThing::PATH,
    AnswerSuggestion::PATH,
    VoteRuling::PATH,
    PutSuggestions::PATH,
];

/// What a post of the box came back with (`?sent=suggestion|vote`, `?put=<n>`), said at the
/// top of the room page.
#[component]
pub fn SentNotice(sent: Option<String>, put: Option<String>) -> impl IntoView {
    let l = crate::lang::locale();
    let said = match (sent.as_deref(), put.and_then(|p| p.parse::<u32>().ok())) {
        (Some("suggestion"), _) => Some(td_string!(l, suggest.sent).to_string()),
        (Some("vote"), _) => Some(td_string!(l, suggest.voted).to_string()),
        (_, Some(count)) => Some(td_string!(l, suggest.put_done, count = count).to_string()),
        _ => None,
    };
    said.map(
        |said| view! { <p class="notice ok" role="status" data-testid="suggest-notice">{said}</p> },
    )
}

fn ruling_label(l: Locale, flies: bool) -> String {
    match flies {
        true => td_string!(l, suggest.flies).to_string(),
        false => td_string!(l, suggest.grounded).to_string(),
    }
}

/// The two radios of a ruling, `flies` checked.
fn ruling_radios(l: Locale, flies: Option<bool>) -> impl IntoView {
    view! {
        <fieldset class="choices">
            <legend>{td_string!(l, suggest.ruling).to_string()}</legend>
            {[true, false].map(|value| view! {
                <label class="check">
                    <input type="radio" name="flies" value=value.to_string() required=value checked=flies == Some(value) />
                    " " {ruling_label(l, value)}
                </label>
            }).collect_view()}
        </fieldset>
    }
}

/// The state of a suggestion the host or its sender can no longer change, in words.
fn status_words(l: Locale, one: &Suggestion) -> String {
    match one.status {
        Status::New => td_string!(l, suggest.waiting).to_string(),
        Status::Vote => td_string!(l, suggest.voting).to_string(),
        Status::Accepted => td_string!(l, suggest.accepted).to_string(),
        Status::Rejected => td_string!(l, suggest.rejected).to_string(),
        Status::Saved => {
            let deck = one.deck.clone().unwrap_or_default();
            td_string!(l, suggest.in_deck, deck = deck.as_str()).to_string()
        }
    }
}

/// The host's box: closed, the button that opens it; open, each suggestion with its answer
/// form (the name, ruling and note to accept, prefilled with what was sent or with the room's
/// vote, and "Turn down" and "Ask the room" beside), then "put into a deck" and "close".
#[component]
pub fn HostBox(
    code: String,
    open: bool,
    suggestions: Vec<Suggestion>,
    names: Vec<(UserId, String)>,
    my_decks: Vec<DeckHead>,
) -> impl IntoView {
    let l = crate::lang::locale();
    let toggle = |open: bool| {
        let (label, class) = match open {
            true => (td_string!(l, suggest.open).to_string(), ""),
            false => (td_string!(l, suggest.close).to_string(), "secondary"),
        };
        view! {
            <form method="post" action=OpenSuggestions::PATH class="inline">
                <input type="hidden" name="code" value=code.clone() />
                <input type="hidden" name="open" value=open.to_string() />
                <button type="submit" class=class data-testid=if open { "open-suggestions" } else { "close-suggestions" }>{label}</button>
            </form>
        }
    };
    if !open {
        return view! {
            <section class="card" id="suggest" data-testid="suggest-closed">
                <h2>{td_string!(l, suggest.closed_heading).to_string()}</h2>
                <p class="muted">{td_string!(l, suggest.closed_help).to_string()}</p>
                {toggle(true)}
            </section>
        }
        .into_any();
    }
    let accepted = suggestions
        .iter()
        .filter(|s| s.status == Status::Accepted)
        .count();
    let name_of = |user: &UserId| {
        names
            .iter()
            .find(|(id, _)| id == user)
            .map(|(_, n)| n.clone())
    };
    let items = suggestions
        .iter()
        .map(|one| host_item(l, &code, one, name_of(&one.by)))
        .collect_view();
    view! {
        <section class="card suggest" id="suggest" data-testid="suggest-box" aria-live="polite">
            <h2>{td_string!(l, suggest.heading).to_string()}</h2>
            <p class="muted">{td_string!(l, suggest.host_help).to_string()}</p>
            <noscript><p class="muted">{td_string!(l, suggest.reload).to_string()}</p></noscript>
            {suggestions.is_empty().then(|| view! { <p class="muted">{td_string!(l, suggest.none).to_string()}</p> })}
            <ul class="suggestions">{items}</ul>
            {(accepted > 0).then(|| view! { <PutForm code=code.clone() accepted my_decks /> }.into_any())}
            {toggle(false)}
        </section>
    }
    .into_any()
}

/// One suggestion in the host's box.
fn host_item(l: Locale, code: &str, one: &Suggestion, from: Option<String>) -> AnyView {
    // Who sent it, by the name they play under (one who left since: unnamed).
    let said = match (from.as_deref(), one.sent.flies) {
        (Some(name), true) => td_string!(l, suggest.says_flies, name = name).to_string(),
        (Some(name), false) => td_string!(l, suggest.says_grounded, name = name).to_string(),
        (None, true) => td_string!(l, suggest.said_flies).to_string(),
        (None, false) => td_string!(l, suggest.said_grounded).to_string(),
    };
    // The note shows in the answer form while there is one.
    let note = (!one.status.open())
        .then(|| one.sent.note.clone())
        .flatten();
    let head = view! {
        <p><strong data-testid="suggestion-name">{one.sent.name.clone()}</strong>" · "<span class="muted">{said}</span></p>
        {note.map(|note| view! { <p class="muted">{note}</p> })}
    };
    let answer = one.status.open().then(|| {
        let (yes, no) = one.tally();
        let tally = (one.status == Status::Vote).then(|| match yes + no {
            0 => td_string!(l, suggest.tally_none).to_string(),
            _ => td_string!(l, suggest.tally, yes = yes, no = no).to_string(),
        });
        // Prefilled with the room's ruling when its vote has one: taking it is one press,
        // overriding it a change of radio.
        let flies = one.room_ruling().unwrap_or(one.sent.flies);
        view! {
            {tally.map(|t| view! { <p class="tally" data-testid="vote-tally">{t}</p> })}
            <form method="post" action=AnswerSuggestion::PATH class="answer">
                <input type="hidden" name="code" value=code.to_owned() />
                <input type="hidden" name="id" value=one.id.clone() />
                <label>{td_string!(l, suggest.name).to_string()}
                    <input name="name" required maxlength=NAME_MAX.to_string() value=one.sent.name.clone() />
                </label>
                {ruling_radios(l, Some(flies))}
                <label>{td_string!(l, suggest.note).to_string()}
                    <input name="note" maxlength=crate::decks::model::NOTE_MAX.to_string() value=one.sent.note.clone().unwrap_or_default() />
                </label>
                <p class="actions">
                    <button type="submit" name="answer" value="accept" class="small primary" data-testid="accept">{td_string!(l, suggest.accept).to_string()}</button>
                    <button type="submit" name="answer" value="reject" class="small secondary" formnovalidate data-testid="reject">{td_string!(l, suggest.reject).to_string()}</button>
                    {(one.status == Status::New).then(|| view! {
                        <button type="submit" name="answer" value="vote" class="small secondary" formnovalidate data-testid="to-vote">{td_string!(l, suggest.to_vote).to_string()}</button>
                    })}
                </p>
            </form>
        }
    });
    let closed = (!one.status.open()).then(|| view! { <p class="tag">{status_words(l, one)}</p> });
    // Erased types: the whole box as one type is past the compiler's depth limit.
    view! {
        <li class="suggestion" data-testid="suggestion" data-status=one.status.slug()>
            {head.into_any()}
            {answer.map(IntoAny::into_any)}
            {closed}
        </li>
    }
    .into_any()
}

/// "Put what you accepted into a deck": one of the host's decks, or a new one.
#[component]
fn PutForm(code: String, accepted: usize, my_decks: Vec<DeckHead>) -> impl IntoView {
    let l = crate::lang::locale();
    view! {
        <form method="post" action=PutSuggestions::PATH class="put" data-testid="put-suggestions">
            <input type="hidden" name="code" value=code />
            <h3>{td_string!(l, suggest.put_heading).to_string()}</h3>
            <label>{td_string!(l, suggest.put_into).to_string()}
                <select name="into">
                    {my_decks.into_iter().map(|deck| view! {
                        <option value=deck.code.to_string()>{deck.title}</option>
                    }).collect_view()}
                    <option value="new">{td_string!(l, suggest.put_new).to_string()}</option>
                </select>
            </label>
            <button type="submit" data-testid="put">{td_string!(l, suggest.put, count = accepted).to_string()}</button>
        </form>
    }
}

/// The rulings put to the room's vote, for a player to vote on: the question, their vote if
/// they gave one (its button marked pressed; they may change it until the host decides), and
/// the two buttons.
#[component]
pub fn PlayerVotes(code: String, me: UserId, suggestions: Vec<Suggestion>) -> impl IntoView {
    let l = crate::lang::locale();
    suggestions
        .iter()
        .filter(|s| s.status == Status::Vote)
        .map(|one| {
            let mine = one.votes.get(&me).copied();
            let said = mine.map(|flies| match flies {
                true => td_string!(l, suggest.your_vote_flies).to_string(),
                false => td_string!(l, suggest.your_vote_grounded).to_string(),
            });
            let question = td_string!(l, suggest.vote_question, name = one.sent.name.as_str()).to_string();
            let button = |flies: bool, testid: &'static str| {
                let chosen = mine == Some(flies);
                view! {
                    <button type="submit" name="flies" value=flies.to_string() class=if chosen { "" } else { "secondary" }
                        aria-pressed=chosen.to_string() data-testid=testid>{ruling_label(l, flies)}</button>
                }
            };
            view! {
                <form method="post" action=VoteRuling::PATH class="card vote" data-testid="vote">
                    <input type="hidden" name="code" value=code.clone() />
                    <input type="hidden" name="id" value=one.id.clone() />
                    <h2>{td_string!(l, suggest.vote_heading).to_string()}</h2>
                    <p><strong>{question}</strong></p>
                    {said.map(|m| view! { <p class="muted" data-testid="my-vote">{m}</p> })}
                    <p class="actions">
                        {button(true, "vote-flies")}
                        {button(false, "vote-grounded")}
                    </p>
                </form>
            }
        })
        .collect_view()
        .into_any()
}

/// A player's form to suggest a thing, and what they sent with what became of it. Drawn for
/// every player whether the box is open or not, so that it shows the moment the host opens it.
#[component]
pub fn PlayerSuggest(code: String, me: UserId, suggestions: Vec<Suggestion>) -> impl IntoView {
    let l = crate::lang::locale();
    let mine: Vec<&Suggestion> = suggestions.iter().filter(|s| s.by == me).collect();
    let sent = (!mine.is_empty()).then(|| view! {
        <h3>{td_string!(l, suggest.yours).to_string()}</h3>
        <ul class="suggestions" data-testid="my-suggestions">
            {mine.iter().map(|one| view! {
                <li><strong>{one.sent.name.clone()}</strong>" · "{ruling_label(l, one.sent.flies)}" · "<span class="muted">{status_words(l, one)}</span></li>
            }).collect_view()}
        </ul>
    });
    view! {
        <form method="post" action=SuggestThing::PATH class="card" id="suggest" data-testid="suggest-form">
            <input type="hidden" name="code" value=code />
            <h2>{td_string!(l, suggest.send_heading).to_string()}</h2>
            <p class="muted">{td_string!(l, suggest.send_help).to_string()}</p>
            <label>{td_string!(l, suggest.name).to_string()}
                <input name="name" required maxlength=NAME_MAX.to_string() autocomplete="off" aria-describedby="suggest-name-help" />
            </label>
            <p class="muted small" id="suggest-name-help">{td_string!(l, suggest.name_help).to_string()}</p>
            {ruling_radios(l, None)}
            <label>{td_string!(l, suggest.note).to_string()}
                <input name="note" maxlength=crate::decks::model::NOTE_MAX.to_string() autocomplete="off" />
            </label>
            <button type="submit" data-testid="send-suggestion">{td_string!(l, suggest.send).to_string()}</button>
            {sent.map(IntoAny::into_any)}
        </form>
    }
    .into_any()
}
