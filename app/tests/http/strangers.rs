//! The host's rules for strangers over HTTP: friendly names drawn in the page's language (a typed
//! name ignored), a join the host approves (the ask waits, is let in or turned away, and the
//! turned-away player is told, in both languages), and a removed player's browser kept out when
//! it comes back as a fresh guest.

use crate::support;

use axum::http::{header, StatusCode};
use axum::Router;

use app::lang::Locale;
use app::rooms::friendly::words;
use support::{app, cookie_pair, form, post, send, Answer};

/// Opens a room as a new guest called `name` with the rules given; its code and the host's
/// session cookie.
async fn create(app: &Router, name: &str, rules: &str) -> (String, String) {
    let reply = post(
        app,
        "/api/rooms/create",
        &format!("name={name}&{rules}"),
        None,
    )
    .await;
    assert!(
        reply.status.is_success(),
        "{:?} {}",
        reply.status,
        reply.json
    );
    let cookie = cookie_pair(&reply.cookie.expect("a guest session"));
    (reply.json.as_str().unwrap().to_owned(), cookie)
}

/// A join (or an ask) as a browser in `lang` with `cookies` (none for a new visitor).
async fn join(app: &Router, code: &str, name: &str, lang: &str, cookies: Option<&str>) -> Answer {
    send(
        app,
        form(
            "/api/rooms/join",
            &format!("code={code}&name={name}"),
            cookies,
        )
        .header("accept-language", lang),
    )
    .await
}

/// The `name=value` of the cookie called `name` (or `__Host-<name>`) an answer sets.
fn set_cookie(answer: &Answer, name: &str) -> Option<String> {
    answer
        .headers
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")) || v.starts_with(&format!("__Host-{name}=")))
        .map(cookie_pair)
}

/// The lobby as the room's page data has it: (players, asking) by name.
async fn lobby(app: &Router, code: &str, cookie: &str) -> (Vec<String>, Vec<String>) {
    let page = post(
        app,
        "/api/rooms/lobby",
        &format!("code={code}"),
        Some(cookie),
    )
    .await;
    let names = |list: &serde_json::Value| {
        list.as_array()
            .map(|l| {
                l.iter()
                    .map(|p| p["nickname"].as_str().unwrap().to_owned())
                    .collect()
            })
            .unwrap_or_default()
    };
    (
        names(&page.json["lobby"]["players"]),
        names(&page.json["lobby"]["asking"]),
    )
}

/// Asserts that a call was answered with success, saying what came back if not.
fn succeeded(answer: &Answer) {
    assert!(
        answer.status.is_success(),
        "{:?} {}",
        answer.status,
        answer.body
    );
}

/// The id of the player signed in with `cookie`, as the room's page data names them.
async fn me(app: &Router, code: &str, cookie: &str) -> String {
    let page = post(
        app,
        "/api/rooms/lobby",
        &format!("code={code}"),
        Some(cookie),
    )
    .await;
    page.json["me"].as_str().expect("signed in").to_owned()
}

fn is_friendly(name: &str, locale: Locale) -> bool {
    let words = words(locale);
    (0..words.len()).any(|i| words.name(i) == name)
}

#[tokio::test]
async fn a_friendly_room_names_each_joiner_in_the_page_language_and_ignores_a_typed_name() {
    let (app, _engine) = app().await;
    let (code, host) = create(&app, "Teacher", "friendly=true").await;
    let english = join(&app, &code, "Typed%20Name", "en", None).await;
    succeeded(&english);
    let hindi = join(&app, &code, "Typed%20Name", "hi", None).await;
    succeeded(&hindi);
    // No name typed at all is no error where names are drawn.
    let untyped = send(
        &app,
        form("/api/rooms/join", &format!("code={code}"), None).header("accept-language", "en"),
    )
    .await;
    succeeded(&untyped);

    let (players, _) = lobby(&app, &code, &host).await;
    assert_eq!(players.len(), 4, "{players:?}");
    assert_eq!(players[0], "Teacher", "the host keeps the name they typed");
    assert!(is_friendly(&players[1], Locale::en), "{players:?}");
    assert!(is_friendly(&players[2], Locale::hi), "{players:?}");
    assert!(is_friendly(&players[3], Locale::en), "{players:?}");
    assert!(!players.iter().any(|p| p == "Typed Name"));
    let distinct: std::collections::HashSet<_> = players.iter().collect();
    assert_eq!(distinct.len(), 4, "{players:?}");
}

#[tokio::test]
async fn a_join_the_host_approves_waits_until_let_in_and_a_turned_away_player_is_told() {
    let (app, _engine) = app().await;
    let (code, host) = create(&app, "Host", "approve=true").await;
    let asha = join(&app, &code, "Asha", "en", None).await;
    succeeded(&asha);
    let asha_cookie = asha.cookie().expect("Asha's guest session");
    let bo = join(&app, &code, "Bo", "en", None).await;
    let bo_cookie = bo.cookie().expect("Bo's guest session");
    let bo_mark = set_cookie(&bo, "udd_mark").expect("Bo's browser's mark");
    assert_eq!(
        lobby(&app, &code, &host).await,
        (vec!["Host".into()], vec!["Asha".into(), "Bo".into()])
    );
    let asha_id = me(&app, &code, &asha_cookie).await;
    let bo_id = me(&app, &code, &bo_cookie).await;

    // Only the host answers.
    let stranger = post(
        &app,
        "/api/rooms/answer",
        &format!("code={code}&player={asha_id}&let_in=true"),
        Some(&bo_cookie),
    )
    .await;
    assert_eq!(stranger.status, StatusCode::FORBIDDEN, "{}", stranger.json);

    let let_in = post(
        &app,
        "/api/rooms/answer",
        &format!("code={code}&player={asha_id}&let_in=true"),
        Some(&host),
    )
    .await;
    assert!(
        let_in.status.is_success(),
        "{:?} {}",
        let_in.status,
        let_in.json
    );
    let away = post(
        &app,
        "/api/rooms/answer",
        &format!("code={code}&player={bo_id}&let_in=false"),
        Some(&host),
    )
    .await;
    assert!(away.status.is_success(), "{:?} {}", away.status, away.json);
    assert_eq!(
        lobby(&app, &code, &host).await,
        (vec!["Host".into(), "Asha".into()], Vec::<String>::new())
    );

    // Bo asks again, in either language, with his session or as a new guest from his browser:
    // told, and nothing changes.
    let again = join(
        &app,
        &code,
        "Bo",
        "en",
        Some(&format!("{bo_cookie}; {bo_mark}")),
    )
    .await;
    assert_eq!(again.status, StatusCode::FORBIDDEN, "{}", again.body);
    assert!(again.body.contains("turned you away"), "{}", again.body);
    let hindi = join(&app, &code, "Bobby", "hi", Some(&bo_mark)).await;
    assert_eq!(hindi.status, StatusCode::FORBIDDEN, "{}", hindi.body);
    assert!(hindi.body.contains("लौटा"), "{}", hindi.body);
    assert!(hindi.cookie().is_none(), "a refused ask makes no guest");
    assert_eq!(
        lobby(&app, &code, &host).await,
        (vec!["Host".into(), "Asha".into()], Vec::<String>::new())
    );
}

#[tokio::test]
async fn a_removed_player_back_as_a_fresh_guest_from_the_same_browser_is_refused() {
    let (app, _engine) = app().await;
    let (code, host) = create(&app, "Host", "public=false").await;
    let asha = join(&app, &code, "Asha", "en", None).await;
    let asha_cookie = asha.cookie().expect("a guest session");
    let mark = set_cookie(&asha, "udd_mark").expect("the browser's mark, a year long");
    assert!(
        asha.headers
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .any(|v| v.starts_with("udd_mark=")
                && v.contains("HttpOnly")
                && v.contains("Max-Age=31536000")),
        "the mark's cookie is HttpOnly and lasts a year"
    );
    let asha_id = me(&app, &code, &asha_cookie).await;
    let kicked = post(
        &app,
        "/api/rooms/kick",
        &format!("code={code}&player={asha_id}"),
        Some(&host),
    )
    .await;
    assert!(kicked.status.is_success(), "{:?}", kicked.status);

    // Signed out (no session), the same browser, another name: refused, nothing written.
    let back = join(&app, &code, "Not%20Asha", "en", Some(&mark)).await;
    assert!(
        back.status.is_client_error(),
        "{:?} {}",
        back.status,
        back.body
    );
    assert!(back.body.contains("removed"), "{}", back.body);
    assert!(back.cookie().is_none(), "no guest made");
    // A forged mark is no mark: this browser is new to the room.
    let last = if mark.ends_with('A') { 'B' } else { 'A' };
    let forged = format!("{}{last}", &mark[..mark.len() - 1]);
    let other = join(&app, &code, "Not%20Asha", "en", Some(&forged)).await;
    succeeded(&other);
    assert_eq!(
        lobby(&app, &code, &host).await.0,
        vec!["Host".to_string(), "Not Asha".to_string()]
    );
}
