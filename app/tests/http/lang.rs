//! The interface's languages over HTTP: a page's language comes from the remembered choice,
//! else `Accept-Language`, else English; the toggle remembers a choice and goes back; and every
//! page a player can reach, rendered in Hindi, has no English words left in what a player reads.

use crate::support;

use axum::http::StatusCode;

use app::store::Db;
use support::{app_with_catalog, cookie_pair, get_page, post, send, Answer, Call};

const HINDI_BROWSER: &str = "hi-IN,hi;q=0.9,en-US;q=0.8,en;q=0.7";

fn lang_of(page: &Answer) -> &str {
    let start = page.body.find("<html lang=\"").expect("an <html lang>") + 12;
    let end = start + page.body[start..].find('"').unwrap();
    &page.body[start..end]
}

/// The plain form post the top bar's toggle sends, from the page at `from` (its `Referer`).
fn toggle(lang: &str, from: &str) -> Call {
    support::form("/api/lang", &format!("lang={lang}"), None)
        .header("accept", "text/html,application/xhtml+xml")
        .header("host", "udd.test")
        .header("referer", from)
}

fn lang_cookie(answer: &Answer) -> Option<String> {
    answer
        .headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("udd_lang="))
        .map(str::to_owned)
}

#[tokio::test]
async fn a_page_speaks_the_browsers_language_unless_a_choice_was_remembered() {
    let (app, _engine) = app_with_catalog().await;
    let page = |call: Call| {
        let app = app.clone();
        async move { send(&app, call).await }
    };

    let english = page(get_page("/").header("accept-language", "en-GB,en;q=0.9")).await;
    assert_eq!(english.status, StatusCode::OK);
    assert_eq!(lang_of(&english), "en");
    assert!(english.body.contains(">Boards<"), "{}", english.body);

    let hindi = page(get_page("/").header("accept-language", HINDI_BROWSER)).await;
    assert_eq!(lang_of(&hindi), "hi");
    assert!(hindi.body.contains(">बोर्ड<"), "{}", hindi.body);
    assert!(!hindi.body.contains(">Boards<"));
    // The toggle offers the other language, named in that language.
    assert!(hindi.body.contains(r#"lang="en""#) && hindi.body.contains(">English<"));

    let chose_english = page(
        get_page("/things")
            .header("accept-language", HINDI_BROWSER)
            .header("cookie", "udd_lang=en"),
    )
    .await;
    assert_eq!(lang_of(&chose_english), "en");
    let chose_hindi = page(
        get_page("/things")
            .header("accept-language", "en")
            .header("cookie", "udd_lang=hi"),
    )
    .await;
    assert_eq!(lang_of(&chose_hindi), "hi");
    let no_header = page(get_page("/things")).await;
    assert_eq!(lang_of(&no_header), "en");
}

#[tokio::test]
async fn the_toggle_remembers_the_choice_and_goes_back_to_the_page() {
    let (app, _engine) = app_with_catalog().await;
    let answer = send(&app, toggle("hi", "http://udd.test/things?flies=yes")).await;
    assert!(answer.status.is_redirection(), "{:?}", answer.status);
    assert_eq!(answer.header("location"), Some("/things?flies=yes"));
    let cookie = lang_cookie(&answer).expect("a udd_lang cookie");
    assert!(cookie.starts_with("udd_lang=hi; Path=/;"), "{cookie}");
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"));

    let after = send(
        &app,
        get_page("/things?flies=yes")
            .header("accept-language", "en")
            .header("cookie", &cookie_pair(&cookie)),
    )
    .await;
    assert_eq!(lang_of(&after), "hi");

    let back_again = send(&app, toggle("en", "http://udd.test/")).await;
    assert!(lang_cookie(&back_again)
        .unwrap()
        .starts_with("udd_lang=en;"));
}

#[tokio::test]
async fn the_toggle_refuses_a_language_we_lack_and_never_leaves_the_site() {
    let (app, _engine) = app_with_catalog().await;
    let refused = post(&app, "/api/lang", "lang=fr", None).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.json);
    assert!(refused.cookie.is_none(), "nothing remembered");
    let as_a_form = send(&app, toggle("xx", "http://udd.test/")).await;
    assert!(lang_cookie(&as_a_form).is_none(), "nothing remembered");
    let missing = post(&app, "/api/lang", "", None).await;
    assert_eq!(missing.status, StatusCode::BAD_REQUEST);

    for elsewhere in [
        "https://evil.example/",
        "http://udd.test.evil.example/",
        "//evil.example/",
        "javascript:alert(1)",
    ] {
        let answer = send(&app, toggle("hi", elsewhere)).await;
        assert!(answer.status.is_redirection(), "{elsewhere}");
        assert_eq!(answer.header("location"), Some("/"), "{elsewhere}");
    }
}

/// What a player reads on a page: its text, `<title>`, and the `title`, `aria-label`,
/// `placeholder` and `alt` attributes and the description and title `<meta>`s; not scripts,
/// styles, comments, or an element marked `lang="en"` (data that has no Hindi version).
fn readable(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    let mut skip_until: Option<(String, usize)> = None;
    while let Some(open) = rest.find('<') {
        if skip_until.is_none() {
            out.push_str(&rest[..open]);
            out.push(' ');
        }
        rest = &rest[open..];
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |end| &after[end + 3..]);
            continue;
        }
        let close = rest.find('>').unwrap_or(rest.len() - 1);
        let tag = &rest[1..close];
        rest = &rest[close + 1..];
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if let Some((skipped, depth)) = skip_until.as_mut() {
            if *skipped == name && !tag.ends_with('/') {
                if tag.starts_with('/') {
                    *depth -= 1;
                    if *depth == 0 {
                        skip_until = None;
                    }
                } else {
                    *depth += 1;
                }
            }
            continue;
        }
        if tag.starts_with('/') {
            continue;
        }
        if matches!(name.as_str(), "script" | "style") {
            let end = format!("</{name}>");
            rest = rest.find(&end).map_or("", |at| &rest[at + end.len()..]);
            continue;
        }
        let attribute = |attr: &str| {
            let key = format!(" {attr}=\"");
            tag.find(&key).map(|at| {
                let value = &tag[at + key.len()..];
                &value[..value.find('"').unwrap_or(value.len())]
            })
        };
        if attribute("lang") == Some("en") && name != "html" && !tag.ends_with('/') {
            skip_until = Some((name, 1));
            continue;
        }
        for attr in ["title", "aria-label", "placeholder", "alt"] {
            if let Some(value) = attribute(attr) {
                out.push_str(value);
                out.push(' ');
            }
        }
        if name == "meta" {
            let named = attribute("name").or(attribute("property")).unwrap_or("");
            if named.ends_with("title") || named.ends_with("description") {
                out.push_str(attribute("content").unwrap_or(""));
                out.push(' ');
            }
        }
    }
    out.push_str(rest);
    out.replace("&amp;", "&")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
}

/// Latin words of three letters or more in `text` (codes and ids, which have digits, aside),
/// but for the ones a Hindi page keeps.
fn english_words(text: &str, keep: &[&str]) -> Vec<String> {
    let mut words: Vec<String> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.len() >= 3 && w.chars().all(|c| c.is_ascii_alphabetic()))
        .filter(|w| !keep.iter().any(|k| k.eq_ignore_ascii_case(w)))
        .map(str::to_owned)
        .collect();
    words.sort();
    words.dedup();
    words
}

#[test]
fn the_readable_text_of_a_page_is_what_a_player_sees() {
    let html = r#"<html lang="hi"><head><title>Kamra · Udd</title><meta name="description" content="Khel"/><script>let hidden = 1;</script><style>.x{}</style></head><body><!-- note --><p title="Sheershak">Namaste <b>Dost</b></p><span lang="en">Bird <i>note</i></span><input placeholder="Naam"/><a aria-label="Ghar" href="/x">Jao</a></body></html>"#;
    assert_eq!(
        english_words(&readable(html), &["Udd"]),
        [
            "Dost",
            "Ghar",
            "Jao",
            "Kamra",
            "Khel",
            "Naam",
            "Namaste",
            "Sheershak"
        ]
    );
}

#[tokio::test]
async fn every_page_in_hindi_reads_in_hindi() {
    let (app, engine) = app_with_catalog().await;
    let db = Db::new(engine.client.clone(), "udd");
    let created = post(&app, "/api/rooms/create", "name=Ravi", None).await;
    let ravi = cookie_pair(&created.cookie.expect("a guest session"));
    let code = created.json.as_str().unwrap().to_owned();
    let joined = post(
        &app,
        "/api/rooms/join",
        &format!("code={code}&name=Asha"),
        None,
    )
    .await;
    assert!(joined.status.is_success(), "{}", joined.json);
    let lobby_code = code.clone();
    let started = post(
        &app,
        "/api/rooms/start",
        &format!("code={code}&seed=9"),
        Some(&ravi),
    )
    .await;
    assert_eq!(started.status, StatusCode::OK, "{}", started.json);
    let game = support::finish_match(&db, &code).await;
    let id = db
        .rooms()
        .room_id_of(&app::rooms::RoomCode::parse(&code).unwrap())
        .await
        .unwrap();
    let ravi_id = game
        .standings()
        .into_iter()
        .find(|(_, p)| p.nickname.as_str() == "Ravi")
        .map(|(_, p)| p.user_id.as_str().to_owned())
        .unwrap();

    // Words a Hindi page keeps: the product, the players and the room, the things' calls
    // ("Kauwa udd!"), and the UTC of a time.
    let mut keep: Vec<&str> = vec!["Udd", "Ravi", "Asha", &lobby_code, "UTC"];
    let calls: Vec<String> = app::catalog::seed::SEED
        .iter()
        .map(|t| t.hi_latin.to_owned())
        .collect();
    keep.extend(calls.iter().map(String::as_str));

    let pages = [
        "/".to_owned(),
        "/things".to_owned(),
        "/things?flies=yes".to_owned(),
        "/lb".to_owned(),
        "/lb/best/all/global".to_owned(),
        "/matches".to_owned(),
        format!("/matches?room={code}"),
        "/me".to_owned(),
        format!("/r/{code}"),
        format!("/r/{code}/lb"),
        format!("/m/{id}/{}", game.first_round),
        format!("/p/{ravi_id}"),
        "/inventory".to_owned(),
        "/shop".to_owned(),
        "/trades".to_owned(),
        "/cards/crow".to_owned(),
        "/r/ZZZZ".to_owned(),
        "/no-such-page".to_owned(),
    ];
    let mut failures = Vec::new();
    for path in pages {
        let page = send(
            &app,
            get_page(&path)
                .header("accept-language", HINDI_BROWSER)
                .header("cookie", &ravi),
        )
        .await;
        assert_eq!(lang_of(&page), "hi", "{path}");
        let words = english_words(&readable(&page.body), &keep);
        if !words.is_empty() {
            failures.push(format!("{path} ({}): {words:?}", page.status));
        }
    }
    assert!(
        failures.is_empty(),
        "English left on Hindi pages:\n{}",
        failures.join("\n")
    );

    // A Hindi page's share card is drawn in Hindi; a language we lack is a 400.
    let match_path = format!("/m/{id}/{}", game.first_round);
    let page = send(
        &app,
        get_page(&match_path)
            .header("accept-language", HINDI_BROWSER)
            .header("host", "udd.test"),
    )
    .await;
    let card = format!("/og{match_path}?lang=hi");
    assert!(
        page.body.contains(&format!(
            r#"<meta property="og:image" content="http://udd.test{card}""#
        )),
        "{}",
        page.body
    );
    for path in [card, format!("/og/p/{ravi_id}?lang=hi")] {
        let image = send(&app, get_page(&path)).await;
        assert_eq!(image.status, StatusCode::OK, "{path}");
        assert_eq!(image.header("content-type"), Some("image/png"), "{path}");
    }
    let english = send(&app, get_page(&format!("/og{match_path}"))).await;
    let hindi = send(&app, get_page(&format!("/og{match_path}?lang=hi"))).await;
    assert_ne!(english.body, hindi.body, "the Hindi card is drawn in Hindi");
    let unknown = send(&app, get_page(&format!("/og{match_path}?lang=fr"))).await;
    assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_refusal_at_the_door_is_in_the_browsers_language() {
    let (app, _engine) = app_with_catalog().await;
    let from_elsewhere = |lang: &str| {
        support::form("/api/rooms/create", "name=Ravi", None)
            .header("host", "udd.test")
            .header("origin", "https://evil.example")
            .header("accept-language", lang)
    };
    let hindi = send(&app, from_elsewhere(HINDI_BROWSER)).await;
    assert_eq!(hindi.status, StatusCode::FORBIDDEN);
    assert!(hindi.body.contains("दूसरी साइट"), "{}", hindi.body);
    let english = send(&app, from_elsewhere("en")).await;
    assert_eq!(english.status, StatusCode::FORBIDDEN);
    assert!(
        english.body.contains("came from another site"),
        "{}",
        english.body
    );
}

/// A message of the interface as its locale file words it (the oracle reads the file, not the
/// code that words refusals), with `{{ len }}` filled in.
pub(crate) fn worded(lang: &str, file: &str, path: &[&str]) -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../locales");
    let text = std::fs::read_to_string(format!("{dir}/{lang}/{file}.json")).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    for key in path {
        value = value[*key].take();
    }
    value.as_str().unwrap().replace("{{ len }}", "5")
}

#[tokio::test]
async fn a_malformed_argument_is_refused_in_the_players_language_with_or_without_javascript() {
    let (app, _engine) = app_with_catalog().await;
    // A room code, a name, a tap's room and a look, each refused while the arguments are read;
    // the home page's forms (join) also posted without JavaScript.
    let cases = [
        (
            "/api/rooms/join",
            "code=K7&name=Asha",
            ("common", &["invalid", "room_code"][..]),
            true,
        ),
        (
            "/api/rooms/join",
            "code=K7QX2&name=%20",
            ("identity", &["errors", "name_empty"][..]),
            true,
        ),
        (
            "/api/rooms/tap",
            "code=K7&round=1&reveal_ms=1&window_ms=3000&reaction_ms=300",
            ("common", &["invalid", "room_code"][..]),
            false,
        ),
        (
            "/api/shop/wear",
            "look=look-nope",
            ("common", &["invalid", "look"][..]),
            false,
        ),
    ];
    for lang in ["en", "hi"] {
        for (path, body, (file, key), plain_form) in cases {
            let expected = worded(lang, file, key);
            let cookie = format!("udd_lang={lang}");
            // With JavaScript: a 400 whose error is the message.
            let answer = send(&app, support::form(path, body, Some(&cookie))).await;
            assert_eq!(
                answer.status,
                StatusCode::BAD_REQUEST,
                "{lang} {path} {body}"
            );
            assert_eq!(
                answer.json(),
                serde_json::json!({ "BadRequest": expected }),
                "{lang} {path} {body}"
            );
            if !plain_form {
                continue;
            }
            // Without: back to the page the form was on, which shows the same words.
            let plain = support::form(path, body, Some(&cookie))
                .header("accept", "text/html")
                .header("host", "127.0.0.1:3000")
                .header("referer", "http://127.0.0.1:3000/");
            let refused = send(&app, plain).await;
            assert!(
                refused.status.is_redirection(),
                "{lang} {path}: {:?}",
                refused.status
            );
            let location = refused.header("location").unwrap().to_owned();
            assert!(location.starts_with("/?__path="), "{location}");
            let form_cookie = refused
                .headers
                .get_all("set-cookie")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .find(|v| v.starts_with("udd_form="))
                .map(cookie_pair);
            let cookie = match form_cookie {
                Some(form) => format!("{cookie}; {form}"),
                None => cookie,
            };
            let page = send(
                &app,
                get_page(&location)
                    .header("host", "127.0.0.1:3000")
                    .header("cookie", &cookie),
            )
            .await;
            assert_eq!(page.status, StatusCode::OK, "{location}");
            let shown = expected.replace('\'', "&#x27;").replace('"', "&quot;");
            assert!(
                page.body.contains(r#"data-testid="form-error""#) && page.body.contains(&shown),
                "{lang} {path}: the page does not show {expected:?}"
            );
        }
    }
}
