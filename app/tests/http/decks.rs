//! Decks over HTTP: every bad deck a clear 4xx in the request's language with nothing written,
//! another player's deck neither saved nor deleted, a private deck closed to strangers, a save
//! against an old version told, and a flood of saves refused past its limit.

use crate::support;

use axum::http::StatusCode;
use axum::Router;

use support::{app, cookie_pair, form, post, send, Answer};

/// A new guest: their session cookie and id.
async fn guest(app: &Router, name: &str) -> (String, String) {
    let reply = post(app, "/api/guest", &format!("name={name}&avatar=owl"), None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    let cookie = cookie_pair(&reply.cookie.expect("a session cookie"));
    (cookie, reply.json["id"].as_str().unwrap().to_owned())
}

/// `count` good lines: `Pet 1, yes` …
fn lines(count: usize) -> String {
    (1..=count)
        .map(|i| format!("Pet {i}, {}\n", if i % 2 == 0 { "yes" } else { "no" }))
        .collect()
}

fn encode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

async fn create(app: &Router, cookie: Option<&str>, title: &str, body: &str, lang: &str) -> Answer {
    let call = form(
        "/api/decks/create",
        &format!(
            "title={}&description=&lang=en&visibility=unlisted&lines={}",
            encode(title),
            encode(body)
        ),
        cookie,
    )
    .header("accept-language", lang);
    send(app, call).await
}

async fn save(app: &Router, cookie: &str, code: &str, version: u64, body: &str) -> Answer {
    let call = form(
        "/api/decks/save",
        &format!(
            "code={code}&version={version}&token=t{version}-{}&title=Pets&description=&lang=en&visibility=private&lines={}",
            body.len(),
            encode(body)
        ),
        Some(cookie),
    );
    send(app, call).await
}

/// The decks player `id` has, as the table holds them.
async fn decks_of(engine: &app::http::engine::Engine, id: &str) -> usize {
    let db = app::store::Db::new(engine.client.clone(), "udd");
    let user = app::identity::UserId::parse(id).unwrap();
    db.decks().by_author(&user).await.unwrap().len()
}

#[tokio::test]
async fn every_bad_deck_is_a_clear_refusal_in_the_requests_language_and_writes_nothing() {
    let (app, engine) = app().await;
    let (asha, asha_id) = guest(&app, "Asha").await;
    let long_name = format!("{}, yes\n{}", "x".repeat(41), lines(10));
    let long_note = format!("Kite, yes, {}\n{}", "n".repeat(101), lines(10));
    let cases: [(&str, String, &str, &str); 9] = [
        (
            "nine things",
            lines(9),
            "at least 10 things",
            "कम से कम 10 चीज़ें",
        ),
        (
            "501 things",
            lines(501),
            "at most 500 things",
            "ज़्यादा से ज़्यादा 500 चीज़ें",
        ),
        (
            "an empty name",
            format!(" , yes\n{}", lines(10)),
            "Line 1",
            "पंक्ति 1",
        ),
        (
            "a filtered name",
            format!("{}Fuck, yes\n", lines(10)),
            "Line 11: please choose other words",
            "पंक्ति 11: कृपया कोई और शब्द चुनें",
        ),
        (
            "a name past its limit",
            long_name,
            "at most 40 characters",
            "40 अक्षरों",
        ),
        (
            "a note past its limit",
            long_note,
            "at most 100 characters",
            "100 अक्षरों",
        ),
        (
            "a thing twice",
            format!("{}Pet 3, no\n", lines(10)),
            "Line 11: the same thing as line 3",
            "पंक्ति 3",
        ),
        (
            "an emoji outside the set",
            format!("🤖 Robot, no\n{}", lines(10)),
            "Line 1: pick an emoji",
            "इमोजी",
        ),
        (
            "a line without a ruling",
            format!("{}Kite, maybe\n", lines(10)),
            "Line 11: write it as",
            "पंक्ति 11",
        ),
    ];
    for (what, body, english, hindi) in &cases {
        for (lang, expected) in [("en", english), ("hi", hindi)] {
            let answer = create(&app, Some(&asha), "Our pets", body, lang).await;
            assert_eq!(
                answer.status,
                StatusCode::BAD_REQUEST,
                "{what} ({lang}): {}",
                answer.body
            );
            assert!(
                answer.body.contains(expected),
                "{what} ({lang}): {}",
                answer.body
            );
            assert!(
                !answer.body.contains("Fuck"),
                "the refused word is not repeated: {}",
                answer.body
            );
        }
    }
    let untitled = create(&app, Some(&asha), " ", &lines(10), "en").await;
    assert_eq!(
        untitled.status,
        StatusCode::BAD_REQUEST,
        "{}",
        untitled.body
    );
    assert_eq!(decks_of(&engine, &asha_id).await, 0, "nothing written");

    let nobody = create(&app, None, "Our pets", &lines(10), "en").await;
    assert_eq!(nobody.status, StatusCode::UNAUTHORIZED, "{}", nobody.body);
    let made = create(&app, Some(&asha), "Our pets", &lines(10), "en").await;
    assert_eq!(made.status, StatusCode::OK, "{}", made.body);
    assert_eq!(decks_of(&engine, &asha_id).await, 1);
}

#[tokio::test]
async fn another_players_deck_is_left_alone_a_private_one_is_closed_and_an_old_save_is_told() {
    let (app, _engine) = app().await;
    let (asha, _) = guest(&app, "Asha").await;
    let (bilal, _) = guest(&app, "Bilal").await;
    let made = create(&app, Some(&asha), "Our pets", &lines(12), "en").await;
    let code = made.json().as_str().unwrap().to_owned();

    // Unlisted: anyone with the code reads it.
    let read = post(
        &app,
        "/api/decks/read",
        &format!("code={code}"),
        Some(&bilal),
    )
    .await;
    assert_eq!(read.status, StatusCode::OK, "{}", read.json);
    assert_eq!(read.json["deck"]["things"].as_array().unwrap().len(), 12);
    assert_eq!(read.json["mine"], false);

    // Bilal can neither save nor delete it.
    let theirs = save(&app, &bilal, &code, 1, &lines(12)).await;
    assert_eq!(theirs.status, StatusCode::FORBIDDEN, "{}", theirs.body);
    let deleted = send(
        &app,
        form("/api/decks/delete", &format!("code={code}"), Some(&bilal)),
    )
    .await;
    assert_eq!(deleted.status, StatusCode::FORBIDDEN, "{}", deleted.body);

    // Asha makes it private: Bilal is told there is no such deck, as for a code that names none.
    let saved = save(&app, &asha, &code, 1, &lines(11)).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    for (who, status) in [(&bilal, StatusCode::NOT_FOUND), (&asha, StatusCode::OK)] {
        let read = post(&app, "/api/decks/read", &format!("code={code}"), Some(who)).await;
        assert_eq!(read.status, status, "{}", read.json);
    }
    let nothing = post(&app, "/api/decks/read", "code=ZZZZZZZ", Some(&asha)).await;
    assert_eq!(nothing.status, StatusCode::NOT_FOUND);

    // A save from version 1 again (another token) is told of version 2; the deck keeps 11.
    let stale = send(
        &app,
        form(
            "/api/decks/save",
            &format!("code={code}&version=1&token=other&title=Old&description=&lang=en&visibility=public&lines={}", encode(&lines(15))),
            Some(&asha),
        ),
    )
    .await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.body);
    assert!(stale.body.contains("version 2"), "{}", stale.body);
    let read = post(
        &app,
        "/api/decks/read",
        &format!("code={code}"),
        Some(&asha),
    )
    .await;
    assert_eq!(read.json["deck"]["things"].as_array().unwrap().len(), 11);
    assert_eq!(read.json["deck"]["title"], "Pets");
}

#[tokio::test]
async fn a_flood_of_deck_saves_is_refused_past_its_limit() {
    let (app, _engine) = app().await;
    let (asha, _) = guest(&app, "Asha").await;
    let made = create(&app, Some(&asha), "Our pets", &lines(10), "en").await;
    let code = made.json().as_str().unwrap().to_owned();
    let limit = app::decks::api::DECK_WRITES_PER_HOUR as u64;
    // The make counted one; the saves count the rest.
    for version in 1..limit {
        let saved = save(&app, &asha, &code, version, &lines(10)).await;
        assert_eq!(
            saved.status,
            StatusCode::OK,
            "save {version}: {}",
            saved.body
        );
    }
    let refused = save(&app, &asha, &code, limit, &lines(10)).await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.body
    );
    let read = post(
        &app,
        "/api/decks/read",
        &format!("code={code}"),
        Some(&asha),
    )
    .await;
    assert_eq!(
        read.json["deck"]["version"], limit,
        "the refused save wrote nothing"
    );
}

#[tokio::test]
async fn a_refused_form_comes_back_with_everything_typed_in_it() {
    let (app, _engine) = app().await;
    let (asha, _) = guest(&app, "Asha").await;
    let typed = format!("{}Kite, maybe, it has a string\n", lines(30));
    let refused = create(&app, Some(&asha), "Our pets", &typed, "en").await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);
    // The new deck's form, as the page reads it when it comes back with the refusal.
    let back = post(&app, "/api/decks/form", "refused=true", Some(&asha)).await;
    assert_eq!(back.status, StatusCode::OK, "{}", back.json);
    assert_eq!(back.json["form"]["lines"], typed.as_str());
    assert_eq!(back.json["form"]["title"], "Our pets");
    // Drawn without a refusal, the form is empty.
    let fresh = post(&app, "/api/decks/form", "refused=false", Some(&asha)).await;
    assert_eq!(fresh.json["form"]["lines"], "");

    // A save refused as stale comes back with what was typed, at the version now.
    let made = create(&app, Some(&asha), "Our pets", &lines(12), "en").await;
    let code = made.json().as_str().unwrap().to_owned();
    assert_eq!(
        save(&app, &asha, &code, 1, &lines(13)).await.status,
        StatusCode::OK
    );
    let mine = lines(14);
    let stale = save(&app, &asha, &code, 1, &mine).await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.body);
    let back = post(
        &app,
        "/api/decks/form",
        &format!("code={code}&refused=true"),
        Some(&asha),
    )
    .await;
    assert_eq!(back.json["form"]["lines"], mine.as_str());
    assert_eq!(back.json["version"], 2);
    // Someone else opens no one's form.
    let (bilal, _) = guest(&app, "Bilal").await;
    let theirs = post(
        &app,
        "/api/decks/form",
        &format!("code={code}&refused=true"),
        Some(&bilal),
    )
    .await;
    assert_eq!(
        theirs.status,
        StatusCode::NOT_FOUND,
        "a private deck, as for a code that names none"
    );
}

/// A room of `cookie`'s: its code.
async fn room_of(app: &Router, cookie: &str) -> String {
    let made = post(
        app,
        "/api/rooms/create",
        "name=Host&avatar=crow",
        Some(cookie),
    )
    .await;
    assert_eq!(made.status, StatusCode::OK, "{}", made.json);
    made.json.as_str().unwrap().to_owned()
}

async fn choose(app: &Router, cookie: &str, room: &str, deck: &str, typed: &str) -> Answer {
    let call = form(
        "/api/decks/choose",
        &format!("code={room}&deck={}&typed={}", encode(deck), encode(typed)),
        Some(cookie),
    );
    send(app, call).await
}

/// What room `code` plays and how many rounds, as the table holds it.
async fn room_deck(
    engine: &app::http::engine::Engine,
    code: &str,
) -> (Option<app::rooms::model::RoomDeck>, u8) {
    let db = app::store::Db::new(engine.client.clone(), "udd");
    let code = app::rooms::RoomCode::parse(code).unwrap();
    let lobby = db.rooms().lobby(&code).await.unwrap().unwrap();
    (lobby.deck, lobby.settings.rounds)
}

#[tokio::test]
async fn a_room_plays_a_deck_its_host_chooses_and_every_bad_choice_is_a_clear_refusal() {
    let (app, engine) = app().await;
    let (asha, _) = guest(&app, "Asha").await;
    let (bilal, _) = guest(&app, "Bilal").await;
    let room = room_of(&app, &asha).await;
    let joined = post(
        &app,
        "/api/rooms/join",
        &format!("code={room}&name=Bilal&avatar=owl"),
        Some(&bilal),
    )
    .await;
    assert_eq!(joined.status, StatusCode::OK, "{}", joined.json);
    let pets = create(&app, Some(&asha), "Our pets", &lines(12), "en").await;
    let pets = pets.json().as_str().unwrap().to_owned();
    let theirs = create(&app, Some(&bilal), "Bilal's", &lines(11), "en").await;
    let theirs = theirs.json().as_str().unwrap().to_owned();
    // Bilal's deck made private (a save by its author).
    let private = send(
        &app,
        form(
            "/api/decks/save",
            &format!("code={theirs}&version=1&token=p&title=Mine&description=&lang=en&visibility=private&lines={}", encode(&lines(11))),
            Some(&bilal),
        ),
    )
    .await;
    assert_eq!(private.status, StatusCode::OK, "{}", private.body);

    let refusals = [
        (
            "a non-host",
            &bilal,
            pets.as_str(),
            "",
            StatusCode::FORBIDDEN,
            "Only the host",
        ),
        (
            "a stranger's private deck",
            &asha,
            "all",
            theirs.as_str(),
            StatusCode::NOT_FOUND,
            "cannot be played here",
        ),
        (
            "a deck nobody has",
            &asha,
            "ZZZZZZZ",
            "",
            StatusCode::NOT_FOUND,
            "cannot be played here",
        ),
        (
            "a category nobody has",
            &asha,
            "cat:unicorns",
            "",
            StatusCode::BAD_REQUEST,
            "no such category",
        ),
        (
            "a malformed code",
            &asha,
            "all",
            "K7!",
            StatusCode::BAD_REQUEST,
            "7",
        ),
    ];
    for (what, who, deck, typed, status, says) in refusals {
        let answer = choose(&app, who, &room, deck, typed).await;
        assert_eq!(answer.status, status, "{what}: {}", answer.body);
        assert!(answer.body.contains(says), "{what}: {}", answer.body);
        assert_eq!(
            room_deck(&engine, &room).await,
            (None, 10),
            "{what}: nothing written"
        );
    }

    // The host chooses a category: rounds lowered to what it has when fewer.
    let birds = choose(&app, &asha, &room, "cat:myth", "").await;
    assert_eq!(birds.status, StatusCode::OK, "{}", birds.body);
    let (deck, rounds) = room_deck(&engine, &room).await;
    let deck = deck.expect("a category chosen");
    assert_eq!(deck.pick, "cat:myth");
    assert_eq!(u32::from(rounds), deck.things.min(10));

    // Their own deck, by its typed code (any case); more rounds than it has: refused.
    let chosen = choose(&app, &asha, &room, "all", &pets.to_lowercase()).await;
    assert_eq!(chosen.status, StatusCode::OK, "{}", chosen.body);
    let (deck, _) = room_deck(&engine, &room).await;
    assert_eq!(
        deck.as_ref().map(|d| (d.pick.as_str(), d.things)),
        Some((pets.as_str(), 12))
    );
    let too_many = send(
        &app,
        form(
            "/api/rooms/settings",
            &format!("code={room}&settings[max_players]=8&settings[rounds]=13&settings[window_ms]=3000&settings[public]=false"),
            Some(&asha),
        ),
    )
    .await;
    assert_eq!(too_many.status, StatusCode::CONFLICT, "{}", too_many.body);
    assert!(too_many.body.contains("12 things"), "{}", too_many.body);
    assert_eq!(
        room_deck(&engine, &room).await.1,
        10,
        "the rounds as they were"
    );

    // "Play this": a stranger cannot open a room with a private deck; anyone can with Asha's.
    let play = |cookie: Option<&'static str>, deck: String| {
        let app = app.clone();
        async move {
            send(
                &app,
                form(
                    "/api/decks/play",
                    &format!("deck={deck}&name=Mina&avatar=owl"),
                    cookie,
                ),
            )
            .await
        }
    };
    let closed = play(None, theirs.clone()).await;
    assert_eq!(closed.status, StatusCode::NOT_FOUND, "{}", closed.body);
    let opened = play(None, pets.clone()).await;
    assert_eq!(opened.status, StatusCode::OK, "{}", opened.body);
    let code = opened.json().as_str().unwrap().to_owned();
    let (deck, _) = room_deck(&engine, &code).await;
    assert_eq!(deck.map(|d| d.pick), Some(pets));
}

#[tokio::test]
async fn a_copy_is_a_new_private_deck_of_the_copier_and_a_private_deck_is_not_copied() {
    let (app, _engine) = app().await;
    let (asha, _) = guest(&app, "Asha").await;
    let (bilal, bilal_id) = guest(&app, "Bilal").await;
    let made = create(&app, Some(&asha), "Our pets", &lines(12), "en").await;
    let code = made.json().as_str().unwrap().to_owned();
    let copied = send(
        &app,
        form("/api/decks/copy", &format!("code={code}"), Some(&bilal)),
    )
    .await;
    assert_eq!(copied.status, StatusCode::OK, "{}", copied.body);
    let copy = copied.json().as_str().unwrap().to_owned();
    assert_ne!(copy, code);
    let read = post(
        &app,
        "/api/decks/read",
        &format!("code={copy}"),
        Some(&bilal),
    )
    .await;
    assert_eq!(read.json["mine"], true);
    assert_eq!(read.json["deck"]["author"], bilal_id.as_str());
    assert_eq!(read.json["deck"]["title"], "Our pets (copy)");
    assert_eq!(read.json["deck"]["visibility"], "private");
    assert_eq!(read.json["deck"]["things"].as_array().unwrap().len(), 12);
    // Private: Asha cannot open it, nor copy it.
    let closed = send(
        &app,
        form("/api/decks/copy", &format!("code={copy}"), Some(&asha)),
    )
    .await;
    assert_eq!(closed.status, StatusCode::NOT_FOUND, "{}", closed.body);
    let nobody = send(&app, form("/api/decks/copy", &format!("code={code}"), None)).await;
    assert_eq!(nobody.status, StatusCode::UNAUTHORIZED, "{}", nobody.body);
}

#[tokio::test]
async fn the_gallery_lists_public_decks_only_and_refuses_a_search_past_its_limit() {
    let (app, _engine) = app().await;
    let (asha, _) = guest(&app, "Asha").await;
    let unlisted = create(&app, Some(&asha), "Our pets", &lines(10), "en").await;
    let unlisted = unlisted.json().as_str().unwrap().to_owned();
    let public = send(
        &app,
        form(
            "/api/decks/create",
            &format!(
                "title=Our+kites&description=&lang=en&visibility=public&lines={}",
                encode(&lines(10))
            ),
            Some(&asha),
        ),
    )
    .await;
    assert_eq!(public.status, StatusCode::OK, "{}", public.body);
    let public = public.json().as_str().unwrap().to_owned();
    for query in ["by=newest", "by=plays&lang=en", "q=our"] {
        let page = post(&app, "/api/decks/gallery", query, None).await;
        assert_eq!(page.status, StatusCode::OK, "{query}: {}", page.json);
        let codes: Vec<&str> = page.json["decks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap())
            .collect();
        assert_eq!(
            codes,
            [public.as_str()],
            "{query}: the public deck alone, never {unlisted}"
        );
    }
    for (query, says) in [
        (format!("q={}", "x".repeat(61)), "at most 60"),
        (format!("after={}", "9".repeat(41)), "at most 60"),
    ] {
        let page = send(&app, form("/api/decks/gallery", &query, None)).await;
        assert_eq!(page.status, StatusCode::BAD_REQUEST, "{}", page.body);
        assert!(page.body.contains(says), "{}", page.body);
    }
    let nothing = post(&app, "/api/decks/gallery", "lang=hi", None).await;
    assert_eq!(nothing.json["decks"].as_array().unwrap().len(), 0);
}

#[tokio::test]
async fn a_shared_decks_link_previews_with_its_card_and_a_private_one_has_none() {
    let (app, _engine) = app().await;
    let (asha, _) = guest(&app, "Asha").await;
    let shared = create(&app, Some(&asha), "Our pets", &lines(12), "en").await;
    let shared = shared.json().as_str().unwrap().to_owned();
    let private = create(&app, Some(&asha), "Secret", &lines(10), "en").await;
    let private = private.json().as_str().unwrap().to_owned();
    let made_private = save(&app, &asha, &private, 1, &lines(10)).await;
    assert_eq!(made_private.status, StatusCode::OK, "{}", made_private.body);

    let page = |code: &str| {
        support::get_page(&format!("/d/{code}"))
            .header("host", "udd.test")
            .header("cookie", asha.as_str())
    };
    let shown = send(&app, page(&shared)).await;
    assert_eq!(shown.status, StatusCode::OK, "{}", shown.body);
    assert!(
        shown.body.contains(&format!(
            r#"<meta property="og:image" content="http://udd.test/og/d/{shared}""#
        )),
        "{}",
        shown.body
    );
    let own = send(&app, page(&private)).await;
    assert_eq!(own.status, StatusCode::OK, "{}", own.body);
    assert!(
        own.body.contains("Pets"),
        "its author sees it (saved as Pets)"
    );
    assert!(!own.body.contains("og:image"), "no card for a private deck");

    for path in [format!("/og/d/{shared}"), format!("/og/d/{shared}?lang=hi")] {
        let image = send(&app, support::get_page(&path)).await;
        assert_eq!(image.status, StatusCode::OK, "{path}: {}", image.body);
        assert_eq!(image.header("content-type"), Some("image/png"), "{path}");
    }
    for (path, status) in [
        (format!("/og/d/{private}"), StatusCode::NOT_FOUND),
        ("/og/d/ZZZZZZZ".to_owned(), StatusCode::NOT_FOUND),
        ("/og/d/K7!".to_owned(), StatusCode::BAD_REQUEST),
        (format!("/og/d/{shared}?lang=fr"), StatusCode::BAD_REQUEST),
    ] {
        let answer = send(&app, support::get_page(&path)).await;
        assert_eq!(answer.status, status, "{path}: {}", answer.body);
    }
}

#[tokio::test]
async fn a_deck_reported_three_times_leaves_the_gallery_until_an_operator_restores_it() {
    let (app, _engine) = support::app_with_operators(&["opal"]).await;
    let (asha, _) = guest(&app, "Asha").await;
    let made = send(
        &app,
        form(
            "/api/decks/create",
            &format!(
                "title=Ourpets&description=&lang=en&visibility=public&lines={}",
                encode(&lines(10))
            ),
            Some(&asha),
        ),
    )
    .await;
    assert_eq!(made.status, StatusCode::OK, "{}", made.body);
    let code = made.json().as_str().unwrap().to_owned();
    let report = |cookie: Option<String>, deck: String, reason: &'static str| {
        let app = app.clone();
        async move {
            let call = form(
                "/api/decks/report",
                &format!("code={deck}&reason={reason}"),
                cookie.as_deref(),
            );
            send(&app, call).await
        }
    };
    let listed = || async {
        let page = post(&app, "/api/decks/gallery", "q=ourpets", None).await;
        page.json["decks"].as_array().unwrap().len()
    };
    assert_eq!(listed().await, 1);

    // Refusals, each a clear 4xx that counts nothing.
    let (bilal, _) = guest(&app, "Bilal").await;
    let hidden_one = create(&app, Some(&bilal), "Secret", &lines(10), "en").await;
    let private = hidden_one.json().as_str().unwrap().to_owned();
    let made_private = save(&app, &bilal, &private, 1, &lines(10)).await;
    assert_eq!(made_private.status, StatusCode::OK, "{}", made_private.body);
    for (what, cookie, deck, reason, status, says) in [
        (
            "nobody signed in",
            None,
            code.clone(),
            "words",
            StatusCode::UNAUTHORIZED,
            "",
        ),
        (
            "its author",
            Some(asha.clone()),
            code.clone(),
            "words",
            StatusCode::BAD_REQUEST,
            "your own deck",
        ),
        (
            "a stranger's private deck",
            Some(asha.clone()),
            private.clone(),
            "words",
            StatusCode::NOT_FOUND,
            "no such deck",
        ),
        (
            "a reason not on the list",
            Some(bilal.clone()),
            code.clone(),
            "boring",
            StatusCode::BAD_REQUEST,
            "",
        ),
    ] {
        let answer = report(cookie, deck, reason).await;
        assert_eq!(answer.status, status, "{what}: {}", answer.body);
        assert!(answer.body.contains(says), "{what}: {}", answer.body);
    }
    assert_eq!(listed().await, 1);

    // Three players report it: the third hides it.
    let mut outcomes = Vec::new();
    for name in ["Chitra", "Dev", "Esha"] {
        let (cookie, _) = guest(&app, name).await;
        let answer = report(Some(cookie), code.clone(), "spam").await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
        outcomes.push(answer.json());
    }
    assert_eq!(
        outcomes.last(),
        Some(&serde_json::json!({ "counted": { "hidden": true } }))
    );
    assert_eq!(listed().await, 0, "out of the gallery");
    let page = send(&app, support::get_page(&format!("/d/{code}"))).await;
    assert_eq!(page.status, StatusCode::OK, "its link still opens it");
    assert!(!page.body.contains("deck-hidden"), "a visitor is not told");
    let own = send(
        &app,
        support::get_page(&format!("/d/{code}")).header("cookie", asha.as_str()),
    )
    .await;
    assert!(
        own.body.contains(r#"data-testid="deck-hidden""#),
        "its author is told"
    );

    // Its author may not publish it again; the operator restores it.
    let again = send(
        &app,
        form(
            "/api/decks/save",
            &format!(
                "code={code}&version=1&token=x&title=Ourpets&description=&lang=en&visibility=public&lines={}",
                encode(&lines(10))
            ),
            Some(&asha),
        ),
    )
    .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
    assert!(again.body.contains("out of the gallery"), "{}", again.body);
    let stranger = post(
        &app,
        "/api/operator/act",
        &format!("act=restore-deck&deck={code}"),
        Some(&bilal),
    )
    .await;
    assert_eq!(stranger.status, StatusCode::FORBIDDEN);
    let (opal, _) = guest(&app, "opal").await;
    let claimed = post(
        &app,
        "/api/claim",
        "username=opal&password=correct+horse",
        Some(&opal),
    )
    .await;
    assert_eq!(claimed.status, StatusCode::OK, "{}", claimed.json);
    let operator = support::cookie_pair(&claimed.cookie.expect("a new session"));
    let review = post(&app, "/api/operator/review", "", Some(&operator)).await;
    assert_eq!(review.json["decks"][0]["code"], code.as_str());
    let restored = post(
        &app,
        "/api/operator/act",
        &format!("act=restore-deck&deck={code}"),
        Some(&operator),
    )
    .await;
    assert_eq!(restored.status, StatusCode::OK, "{}", restored.json);
    assert_eq!(listed().await, 1, "listed again");
}

#[tokio::test]
async fn a_flood_of_deck_reports_is_refused_past_the_reporters_hourly_limit() {
    let (app, _engine) = app().await;
    let (reporter, _) = guest(&app, "Asha").await;
    let mut refused = None;
    for i in 0..12 {
        let (author, _) = guest(&app, &format!("Author{i}")).await;
        let made = create(&app, Some(&author), "A deck", &lines(10), "en").await;
        let code = made.json().as_str().unwrap().to_owned();
        let answer = send(
            &app,
            form(
                "/api/decks/report",
                &format!("code={code}&reason=other"),
                Some(&reporter),
            ),
        )
        .await;
        if answer.status == StatusCode::TOO_MANY_REQUESTS {
            refused = Some(i);
            break;
        }
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    }
    assert_eq!(refused, Some(10), "ten reports an hour, then refused");
}
