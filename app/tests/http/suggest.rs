//! The suggestion box over HTTP: each bad suggestion or answer a clear 4xx with nothing
//! written, only the host opens the box and answers, only the room's players suggest and vote,
//! and a flood of suggestions is refused past its limit.

use crate::support;

use axum::http::StatusCode;
use axum::Router;

use app::suggest::model::PER_MINUTE;
use support::{app, cookie_pair, form, post, send, Answer};

fn encode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// Opens a room as a new guest: its code and the host's session cookie.
async fn create(app: &Router) -> (String, String) {
    let reply = post(app, "/api/rooms/create", "name=Host", None).await;
    assert!(
        reply.status.is_success(),
        "{:?} {}",
        reply.status,
        reply.json
    );
    let cookie = cookie_pair(&reply.cookie.expect("a guest session"));
    (reply.json.as_str().unwrap().to_owned(), cookie)
}

/// A new visitor joins room `code` as `name`: their session cookie.
async fn join(app: &Router, code: &str, name: &str) -> String {
    let call = form("/api/rooms/join", &format!("code={code}&name={name}"), None);
    let answer = send(app, call).await;
    assert!(
        answer.status.is_success(),
        "{:?} {}",
        answer.status,
        answer.body
    );
    answer.cookie().expect("a guest session")
}

async fn call(app: &Router, path: &str, body: &str, cookie: Option<&str>, lang: &str) -> Answer {
    send(
        app,
        form(path, body, cookie).header("accept-language", lang),
    )
    .await
}

async fn suggest(app: &Router, code: &str, cookie: Option<&str>, name: &str, note: &str) -> Answer {
    let body = format!(
        "code={code}&name={}&flies=true&note={}",
        encode(name),
        encode(note)
    );
    call(app, "/api/suggest/send", &body, cookie, "en").await
}

/// How many suggestions room `code`'s box holds, as the table has them.
async fn held(engine: &app::http::engine::Engine, code: &str) -> usize {
    let db = app::store::Db::new(engine.client.clone(), "udd");
    let code = app::ids::RoomCode::parse(code).unwrap();
    let room = db.rooms().room_id_of(&code).await.unwrap();
    db.suggestions().list(&room).await.unwrap().len()
}

/// A bad suggestion: what it is, who sends it, its name and note, the answer's status and what
/// it says.
type Case<'a> = (
    &'a str,
    Option<&'a str>,
    String,
    &'a str,
    StatusCode,
    &'a str,
);

#[tokio::test]
async fn every_bad_suggestion_or_answer_is_a_clear_refusal_and_writes_nothing() {
    let (app, engine) = app().await;
    let (code, host) = create(&app).await;
    let asha = join(&app, &code, "Asha").await;
    let stranger = cookie_pair(
        &post(&app, "/api/guest", "name=Stranger&avatar=owl", None)
            .await
            .cookie
            .expect("a guest session"),
    );

    let closed = suggest(&app, &code, Some(&asha), "Bat", "").await;
    assert_eq!(closed.status, StatusCode::CONFLICT, "{}", closed.body);
    assert!(
        closed.body.contains("not taking suggestions"),
        "{}",
        closed.body
    );
    let open = |cookie: &str| {
        let body = format!("code={code}&open=true");
        let cookie = cookie.to_owned();
        let app = app.clone();
        async move { call(&app, "/api/suggest/open", &body, Some(&cookie), "en").await }
    };
    let by_player = open(&asha).await;
    assert_eq!(
        by_player.status,
        StatusCode::FORBIDDEN,
        "{}",
        by_player.body
    );
    assert_eq!(open(&host).await.status, StatusCode::OK);

    let cases: [Case; 7] = [
        (
            "signed out",
            None,
            "Bat".into(),
            "",
            StatusCode::UNAUTHORIZED,
            "",
        ),
        (
            "a stranger",
            Some(&stranger),
            "Bat".into(),
            "",
            StatusCode::FORBIDDEN,
            "Only the room's players",
        ),
        (
            "no name",
            Some(&asha),
            "  ".into(),
            "",
            StatusCode::BAD_REQUEST,
            "give the thing a name",
        ),
        (
            "a long name",
            Some(&asha),
            "x".repeat(61),
            "",
            StatusCode::BAD_REQUEST,
            "at most 60",
        ),
        (
            "a long note",
            Some(&asha),
            "Kite".into(),
            &"n".repeat(101),
            StatusCode::BAD_REQUEST,
            "at most 100",
        ),
        (
            "a comma",
            Some(&asha),
            "Kite, yes".into(),
            "",
            StatusCode::BAD_REQUEST,
            "without commas",
        ),
        (
            "a refused word",
            Some(&asha),
            "Fuck".into(),
            "",
            StatusCode::BAD_REQUEST,
            "choose other words",
        ),
    ];
    for (what, cookie, name, note, status, says) in &cases {
        let answer = suggest(&app, &code, *cookie, name, note).await;
        assert_eq!(answer.status, *status, "{what}: {}", answer.body);
        assert!(answer.body.contains(says), "{what}: {}", answer.body);
        assert!(
            !answer.body.contains("Fuck"),
            "the refused word is not repeated"
        );
    }
    let hindi = call(
        &app,
        "/api/suggest/send",
        &format!("code={code}&name=&flies=true"),
        Some(&asha),
        "hi",
    )
    .await;
    assert_eq!(hindi.status, StatusCode::BAD_REQUEST);
    assert!(hindi.body.contains("चीज़ का नाम"), "{}", hindi.body);
    let malformed = suggest(&app, "NOT-A-CODE", Some(&asha), "Bat", "").await;
    assert_eq!(
        malformed.status,
        StatusCode::BAD_REQUEST,
        "{}",
        malformed.body
    );
    assert_eq!(
        held(&engine, &code).await,
        0,
        "nothing written by a refusal"
    );

    // One good suggestion, then answers that are not the host's, or not readable.
    assert_eq!(
        suggest(&app, &code, Some(&asha), "Bat", "").await.status,
        StatusCode::OK
    );
    let db = app::store::Db::new(engine.client.clone(), "udd");
    let room = db
        .rooms()
        .room_id_of(&app::ids::RoomCode::parse(&code).unwrap())
        .await
        .unwrap();
    let id = db.suggestions().list(&room).await.unwrap()[0].id.clone();
    let answer = |cookie: &str, body: String| {
        let (app, cookie) = (app.clone(), cookie.to_owned());
        async move { call(&app, "/api/suggest/answer", &body, Some(&cookie), "en").await }
    };
    let by_asha = answer(&asha, format!("code={code}&id={id}&answer=reject")).await;
    assert_eq!(by_asha.status, StatusCode::FORBIDDEN, "{}", by_asha.body);
    let no_such = answer(&host, format!("code={code}&id=nonsense&answer=reject")).await;
    assert_eq!(no_such.status, StatusCode::BAD_REQUEST, "{}", no_such.body);
    let what = answer(&host, format!("code={code}&id={id}&answer=maybe")).await;
    assert_eq!(what.status, StatusCode::BAD_REQUEST, "{}", what.body);
    let unnamed = answer(
        &host,
        format!("code={code}&id={id}&answer=accept&flies=true"),
    )
    .await;
    assert_eq!(unnamed.status, StatusCode::BAD_REQUEST, "{}", unnamed.body);
    let vote = call(
        &app,
        "/api/suggest/vote",
        &format!("code={code}&id={id}&flies=true"),
        Some(&asha),
        "en",
    )
    .await;
    assert_eq!(
        vote.status,
        StatusCode::CONFLICT,
        "not put to the vote: {}",
        vote.body
    );
    let put = call(
        &app,
        "/api/suggest/put",
        &format!("code={code}&into=new"),
        Some(&asha),
        "en",
    )
    .await;
    assert_eq!(put.status, StatusCode::FORBIDDEN, "{}", put.body);
    let listed = db.suggestions().list(&room).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(
        listed[0].status,
        app::suggest::model::Status::New,
        "nothing answered"
    );

    // Accepted, then "a new deck": the editor's form is kept with it as its first line.
    let accept = answer(
        &host,
        format!("code={code}&id={id}&answer=accept&name=Bat&flies=true&note="),
    )
    .await;
    assert_eq!(accept.status, StatusCode::OK, "{}", accept.body);
    let put = call(
        &app,
        "/api/suggest/put",
        &format!("code={code}&into=new"),
        Some(&host),
        "en",
    )
    .await;
    assert_eq!(put.status, StatusCode::OK, "{}", put.body);
    let bad_deck = call(
        &app,
        "/api/suggest/put",
        &format!("code={code}&into=nonsense!"),
        Some(&host),
        "en",
    )
    .await;
    assert_eq!(
        bad_deck.status,
        StatusCode::BAD_REQUEST,
        "{}",
        bad_deck.body
    );
    let code = app::ids::RoomCode::parse(&code).unwrap();
    let host_id = db.rooms().lobby(&code).await.unwrap().unwrap().host_id;
    let kept = db
        .decks()
        .kept_form(&host_id, None)
        .await
        .unwrap()
        .expect("the editor's form");
    assert_eq!(kept.lines, "Bat, yes");
}

#[tokio::test]
async fn a_flood_of_suggestions_is_refused_past_its_limit() {
    let (app, engine) = app().await;
    let (code, host) = create(&app).await;
    let asha = join(&app, &code, "Asha").await;
    let open = call(
        &app,
        "/api/suggest/open",
        &format!("code={code}&open=true"),
        Some(&host),
        "en",
    )
    .await;
    assert_eq!(open.status, StatusCode::OK, "{}", open.body);
    for i in 0..PER_MINUTE {
        let sent = suggest(&app, &code, Some(&asha), &format!("Thing {i}"), "").await;
        assert_eq!(sent.status, StatusCode::OK, "suggestion {i}: {}", sent.body);
    }
    let refused = suggest(&app, &code, Some(&asha), "One more", "").await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.body
    );
    assert_eq!(
        held(&engine, &code).await,
        PER_MINUTE as usize,
        "the refused one not written"
    );
}
