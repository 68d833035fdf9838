//! The daily flight over HTTP, on a clock the test sets: nothing of the day's things leaves the
//! server before its reveal (not the page, the API, the share, the day's page), bad taps are
//! clear refusals that change nothing, one try a day, and the seed is shown once the day is
//! over and reproduces the draw.

use crate::support;

use app::daily::clock::{day_end_ms, day_start_ms};
use app::daily::model::{over_ms, reveal_ms, FLIGHT_ROUNDS};
use app::daily::store::{things_in_order, DayDraw};
use app::ids::Day;
use app::store::Db;
use axum::http::StatusCode;
use axum::Router;

use support::{app_with_clock, cookie_pair, get_page, post, send};

/// A day before the system's today: the boards (on the system's clock) have begun it.
const DAY: Day = Day {
    year: 2026,
    month: 11,
    day: 5,
};

async fn page(app: &Router, path: &str, cookie: Option<&str>) -> (StatusCode, String) {
    let mut call = get_page(path);
    if let Some(cookie) = cookie {
        call = call.header("cookie", cookie);
    }
    let answer = send(app, call).await;
    (answer.status, answer.body)
}

/// The day's draw as stored (read behind the server's back: the test's oracle of what must not
/// leak).
async fn draw(db: &Db) -> DayDraw {
    db.daily().draw_if_any(DAY).await.unwrap().expect("drawn")
}

/// Whether `text` names any of the draw's things (in either language, or by id as JSON).
fn names_a_thing(text: &str, draw: &DayDraw, but: &[usize]) -> Option<String> {
    draw.cards
        .iter()
        .enumerate()
        .filter(|(i, _)| !but.contains(i))
        .find(|(_, (card, _))| {
            text.contains(&card.hi) || text.contains(&format!("\"id\":\"{}\"", card.id))
        })
        .map(|(_, (card, _))| card.id.to_string())
}

#[tokio::test]
async fn a_flight_shows_each_thing_only_at_its_reveal_refuses_bad_taps_and_flies_once() {
    let (app, engine, clock) = app_with_clock().await;
    let db = Db::new(engine.client.clone(), "udd");
    let start = day_start_ms(DAY) + 10 * 3_600_000;
    clock.set_now(start);

    // A visitor sees what it is and how to start; nothing is drawn by looking.
    let (status, body) = page(&app, "/daily", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.contains("data-testid=\"start-flight\""), "{body}");
    assert!(db.daily().draw_if_any(DAY).await.unwrap().is_none());
    // Anonymous taps are refused.
    let anonymous = post(
        &app,
        "/api/daily/tap",
        "started_ms=1&reveal_ms=2&reaction_ms=300",
        None,
    )
    .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);

    // A visitor starts by name, as a guest.
    let nameless = post(&app, "/api/daily/start", "", None).await;
    assert_eq!(
        nameless.status,
        StatusCode::BAD_REQUEST,
        "{}",
        nameless.json
    );
    let started = post(&app, "/api/daily/start", "name=Asha", None).await;
    assert_eq!(started.status, StatusCode::OK, "{}", started.json);
    let asha = cookie_pair(&started.cookie.expect("a guest session"));
    let started_ms = started.json["flight"]["started_ms"].as_i64().unwrap();
    let draw = draw(&db).await;
    // Whose flight it is, read behind the server's back (the only flight in the table).
    let scan = engine
        .client
        .scan()
        .table_name("udd")
        .filter_expression("SK = :sk")
        .expression_attribute_values(
            ":sk",
            aws_sdk_dynamodb::types::AttributeValue::S(format!("FLIGHT#{DAY}")),
        )
        .send()
        .await
        .unwrap();
    let item = scan.items().first().expect("Asha's flight").clone();
    let user = serde_dynamo::from_item::<_, app::daily::store::Flight>(item)
        .unwrap()
        .user_id;
    let mine = things_in_order(&draw, &user);
    let index = |i: usize| {
        draw.cards
            .iter()
            .position(|(card, _)| card.id == mine[i])
            .unwrap()
    };

    // Before the first reveal: no thing in the answer, the API, or the page.
    let (_, body) = page(&app, "/daily", Some(&asha)).await;
    assert_eq!(
        names_a_thing(&body, &draw, &[]),
        None,
        "the page before any reveal"
    );
    let now = post(&app, "/api/daily/now", "", Some(&asha)).await;
    assert_eq!(now.json["flight"]["rounds"].as_array().unwrap().len(), 0);
    assert_eq!(names_a_thing(&now.json.to_string(), &draw, &[]), None);
    assert_eq!(names_a_thing(&started.json.to_string(), &draw, &[]), None);
    // A tap for a round not yet revealed is refused.
    let r0 = reveal_ms(started_ms, 0);
    let early = post(
        &app,
        "/api/daily/tap",
        &format!("started_ms={started_ms}&reveal_ms={r0}&reaction_ms=300"),
        Some(&asha),
    )
    .await;
    assert_eq!(early.status, StatusCode::BAD_REQUEST, "{}", early.json);

    // At the first reveal: exactly that thing, the player's first.
    clock.set_now(r0 + 200);
    let now = post(&app, "/api/daily/now", "", Some(&asha)).await;
    let rounds = now.json["flight"]["rounds"].as_array().unwrap().clone();
    assert_eq!(rounds.len(), 1);
    assert_eq!(rounds[0]["thing"]["id"].as_str().unwrap(), mine[0].as_str());
    assert_eq!(
        names_a_thing(&now.json.to_string(), &draw, &[index(0)]),
        None
    );
    // The tap counts once; again is refused; a forged reveal or another day's start too.
    let tap = |reveal: i64, started: i64| {
        format!("started_ms={started}&reveal_ms={reveal}&reaction_ms=150")
    };
    // The page timed its round trip when it loaded (`/api/time` twice, the second sending back
    // the first's answer): here as if the answer came back 100 ms later, so a reaction of 150
    // is believed for a tap the server saw 200 ms after the reveal (untimed, it would count 200).
    let answered = post(&app, "/api/time", "", Some(&asha))
        .await
        .json
        .as_i64()
        .unwrap();
    let timed = post(
        &app,
        "/api/time",
        &format!("echo={}", answered - 100),
        Some(&asha),
    )
    .await;
    assert_eq!(timed.status, StatusCode::OK, "{}", timed.json);
    let took = post(&app, "/api/daily/tap", &tap(r0, started_ms), Some(&asha)).await;
    assert_eq!(took.status, StatusCode::OK, "{}", took.json);
    assert_eq!(took.json, 150);
    // The island's thing: round 0's, and not round 1's before its reveal.
    let thing = post(
        &app,
        "/api/daily/thing",
        &format!("started_ms={started_ms}&round=0"),
        Some(&asha),
    )
    .await;
    let card = &draw.cards[index(0)].0;
    assert_eq!(
        thing.json,
        format!("{}|{}|{} udd!", card.emoji, card.en, card.hi_latin)
    );
    let early = post(
        &app,
        "/api/daily/thing",
        &format!("started_ms={started_ms}&round=1"),
        Some(&asha),
    )
    .await;
    assert_eq!(early.status, StatusCode::BAD_REQUEST, "{}", early.json);
    let forged = post(
        &app,
        "/api/daily/thing",
        &format!("started_ms={}&round=0", started_ms - 1),
        Some(&asha),
    )
    .await;
    assert!(forged.status.is_client_error(), "{}", forged.json);
    let again = post(&app, "/api/daily/tap", &tap(r0, started_ms), Some(&asha)).await;
    assert_eq!(
        again.status,
        StatusCode::OK,
        "the same tap's copy is the one counted"
    );
    let other = format!("started_ms={started_ms}&reveal_ms={r0}&reaction_ms=400");
    let twice = post(&app, "/api/daily/tap", &other, Some(&asha)).await;
    assert_eq!(twice.status, StatusCode::CONFLICT, "{}", twice.json);
    let forged = post(
        &app,
        "/api/daily/tap",
        &tap(r0 + 1, started_ms),
        Some(&asha),
    )
    .await;
    assert_eq!(forged.status, StatusCode::BAD_REQUEST, "{}", forged.json);
    let yesterday = started_ms - 86_400_000;
    let other_day = post(
        &app,
        "/api/daily/tap",
        &tap(reveal_ms(yesterday, 0), yesterday),
        Some(&asha),
    )
    .await;
    assert!(other_day.status.is_client_error(), "{}", other_day.json);
    let junk = post(
        &app,
        "/api/daily/tap",
        "started_ms=x&reveal_ms=1&reaction_ms=1",
        Some(&asha),
    )
    .await;
    assert_eq!(junk.status, StatusCode::BAD_REQUEST);
    // A second start (a reload, another tab) is refused.
    let second = post(&app, "/api/daily/start", "", Some(&asha)).await;
    assert_eq!(second.status, StatusCode::CONFLICT, "{}", second.json);
    let flight = db.daily().flight(&user, DAY).await.unwrap().unwrap();
    assert_eq!(flight.started_ms, started_ms, "the first start stands");
    assert_eq!(flight.taps.len(), 1, "one tap taken");

    // Past the last window: the result, a share that names no thing, a day page that shows
    // none of the day's things until the day is over.
    clock.set_now(over_ms(started_ms) + 10);
    let done = post(&app, "/api/daily/now", "", Some(&asha)).await;
    let result = &done.json["flight"]["result"];
    assert!(result.is_object(), "{}", done.json);
    assert_eq!(result["rounds"].as_u64().unwrap() as usize, FLIGHT_ROUNDS);
    let share = result["share"].as_str().unwrap();
    assert!(share.starts_with("Udd Daily #5 🐦 "), "{share}");
    assert!(share.contains("/daily/2026-11-05"), "{share}");
    for (card, _) in &draw.cards {
        assert!(
            !share.contains(&card.en) && !share.contains(&card.hi),
            "{share} names {}",
            card.id
        );
    }
    // The share's link: a page anyone opens (no thing named), whose preview is the flight's
    // card, drawn in either language; a malformed address is a 400, a flight nobody flew a 404.
    let flown = format!("/daily/2026-11-05/{}", user.as_str());
    assert!(share.ends_with(&flown), "{share}");
    let answer = send(&app, get_page(&flown).header("host", "udd.test")).await;
    let flown_page = answer.body;
    assert_eq!(answer.status, StatusCode::OK, "{flown_page}");
    assert_eq!(
        names_a_thing(&flown_page, &draw, &[]),
        None,
        "the shared page"
    );
    let card = format!("/og{flown}");
    assert!(
        flown_page.contains(&format!(
            r#"<meta property="og:image" content="http://udd.test{card}""#
        )),
        "{flown_page}"
    );
    for path in [card.clone(), format!("{card}?lang=hi")] {
        let image = send(&app, get_page(&path)).await;
        assert_eq!(image.status, StatusCode::OK, "{path}: {}", image.body);
        assert_eq!(image.header("content-type"), Some("image/png"), "{path}");
    }
    for (path, status) in [
        (
            "/og/daily/2026-11-31/01ARZ3NDEKTSV4RRFFQ69G5FAV".to_owned(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/og/daily/2026-11-05/nope".to_owned(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/og/daily/2026-11-05/01ARZ3NDEKTSV4RRFFQ69G5FAV".to_owned(),
            StatusCode::NOT_FOUND,
        ),
        (
            "/og/daily/2026-11-06/".to_owned() + user.as_str(),
            StatusCode::NOT_FOUND,
        ),
        (
            "/og/daily/2026-11-05/".to_owned() + user.as_str() + "?lang=xx",
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let answer = send(&app, get_page(&path)).await;
        assert_eq!(answer.status, status, "{path}: {}", answer.body);
    }
    let nobody = post(
        &app,
        "/api/daily/flown",
        "day=2026-11-05&user=01ARZ3NDEKTSV4RRFFQ69G5FAV",
        None,
    )
    .await;
    assert_eq!(nobody.status, StatusCode::NOT_FOUND, "{}", nobody.json);
    let forged = post(&app, "/api/daily/flown", "day=2026-11-5&user=x", None).await;
    assert_eq!(forged.status, StatusCode::BAD_REQUEST, "{}", forged.json);
    let (status, day_page) = page(&app, "/daily/2026-11-05", Some(&asha)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        names_a_thing(&day_page, &draw, &[]),
        None,
        "the day's page before it ends"
    );
    assert!(
        !day_page.contains(&draw.seed.to_string()),
        "no seed before the day ends"
    );
    let api = post(&app, "/api/daily/day", "day=2026-11-05", None).await;
    assert_eq!(api.json["things"].as_array().unwrap().len(), 0);
    assert!(api.json["seed"].is_null());
    let board = page(&app, "/lb/best/day-2026-11-05/daily", None).await;
    assert_eq!(board.0, StatusCode::OK);
    assert_eq!(
        names_a_thing(&board.1, &draw, &[]),
        None,
        "the board names no thing"
    );

    // After midnight: the things, and the seed, which reproduces the draw.
    clock.set_now(day_end_ms(DAY) + 1);
    let api = post(&app, "/api/daily/day", "day=2026-11-05", None).await;
    let things: Vec<String> = api.json["things"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t[0]["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(things.len(), FLIGHT_ROUNDS);
    let seed: u64 = api.json["seed"].as_str().unwrap().parse().unwrap();
    let catalog = app::catalog::validate(app::catalog::seed::SEED).unwrap();
    let drawn: Vec<String> = app::game::draw_things(&catalog, FLIGHT_ROUNDS, seed)
        .into_iter()
        .map(|id| id.to_string())
        .collect();
    assert_eq!(
        drawn, things,
        "the published seed reproduces the day's draw"
    );
    let (_, day_page) = page(&app, "/daily/2026-11-05", None).await;
    assert!(day_page.contains(&seed.to_string()));
    // A day that is not a date is a clear refusal.
    let bad = post(&app, "/api/daily/day", "day=2026-02-30", None).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_day_that_is_not_one_is_a_400_with_the_way_to_todays() {
    let (app, _engine, _clock) = app_with_clock().await;
    for (path, cookie, words) in [
        (
            "/daily/2026-13-01",
            "udd_lang=en",
            "There is no daily on that day.",
        ),
        ("/daily/nope", "udd_lang=hi", "उस दिन का कोई डेली नहीं है।"),
    ] {
        let (status, body) = page(&app, path, Some(cookie)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}");
        assert!(body.contains(words), "{path}: {body}");
        assert!(body.contains("<h1>"), "{path}: a heading");
        assert!(
            body.contains(r#"<a href="/daily">"#),
            "{path}: the way to today's"
        );
    }
}
