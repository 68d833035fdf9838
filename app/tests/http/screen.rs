//! The big screen over HTTP: `/r/<CODE>/screen` draws the room for nobody in particular, whoever
//! opens it (the host's own session included): none of the forms a player or a visitor gets,
//! with the room's link to join by and a stylesheet of its own, which the phone's room page
//! loads only in its "just the button" view. The oracle is the room page the same session gets.

use axum::http::StatusCode;

use crate::support::{app, cookie_pair, get_page, post, send};

fn has_testid(body: &str, id: &str) -> bool {
    body.contains(&format!(r#"data-testid="{id}""#))
}

#[tokio::test]
async fn the_big_screen_shows_the_room_to_nobody_in_particular_with_its_own_stylesheet() {
    let (app, _engine) = app().await;
    let created = post(&app, "/api/rooms/create", "name=Meera&public=false", None).await;
    let code = created.json.as_str().expect("the room code").to_owned();
    let host = cookie_pair(&created.cookie.expect("a guest session"));

    // The host's room page: the host's forms, the screen's link, no screen stylesheet.
    let room = send(
        &app,
        get_page(&format!("/r/{code}")).header("cookie", &host),
    )
    .await;
    assert_eq!(room.status, StatusCode::OK);
    assert!(
        has_testid(&room.body, "start-match"),
        "the host's page has the start form"
    );
    assert!(room.body.contains(&format!(r#"href="/r/{code}/screen""#)));
    assert!(!room.body.contains("/screen.css"));
    let visitor = send(&app, get_page(&format!("/r/{code}"))).await;
    assert!(
        has_testid(&visitor.body, "join-room"),
        "a visitor's page has the join form"
    );

    // The screen, opened by the host and by nobody: the room, none of either's forms.
    for cookie in [Some(host.as_str()), None] {
        let mut call = get_page(&format!("/r/{code}/screen"));
        if let Some(cookie) = cookie {
            call = call.header("cookie", cookie);
        }
        let screen = send(&app, call).await;
        assert_eq!(screen.status, StatusCode::OK);
        assert!(has_testid(&screen.body, "big-screen"));
        assert!(screen.body.contains(r#"href="/screen.css""#));
        assert!(
            screen.body.contains(&format!(r#"href="/r/{code}""#)),
            "the link to join by"
        );
        assert!(has_testid(&screen.body, "room-code") && screen.body.contains(&code));
        for form in ["start-match", "join-room", "you-host"] {
            assert!(!has_testid(&screen.body, form), "{form} on the screen");
        }
    }

    // A phone's "just the button" view: marked, with the screen's stylesheet, and a way back.
    let buttons = send(
        &app,
        get_page(&format!("/r/{code}?view=buttons")).header("cookie", &host),
    )
    .await;
    assert!(buttons.body.contains(r#"data-view="buttons""#));
    assert!(buttons.body.contains(r#"href="/screen.css""#));
    assert!(
        has_testid(&buttons.body, "start-match"),
        "the host keeps the host's forms"
    );
}

#[tokio::test]
async fn a_screen_for_a_room_that_is_not_there_says_so() {
    let (app, _engine) = app().await;
    for path in ["/r/ZZZZZ/screen", "/r/O0IL1/screen"] {
        let screen = send(&app, get_page(path)).await;
        assert!(!has_testid(&screen.body, "big-screen"), "{path}");
        assert!(
            screen.body.contains("No such room"),
            "{path}: {}",
            screen.body
        );
    }
}
