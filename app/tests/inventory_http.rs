//! The inventory over HTTP, in-process: the pages without JavaScript (tabs, sort, search, next
//! page), a trade between two players, and a clear 4xx for every bad request with nothing
//! changed.

mod support;

use app::identity::UserId;
use app::inventory::{Place, Rewards, ThingId};
use app::store::Db;
use axum::http::StatusCode;

use support::{app, cookie_pair, get_page, post, send};

fn thing(raw: &str) -> ThingId {
    ThingId::parse(raw).unwrap()
}

/// A guest's cookie and id.
async fn guest(app: &axum::Router, name: &str) -> (String, UserId) {
    let reply = post(app, "/api/guest", &format!("name={name}"), None).await;
    let cookie = cookie_pair(&reply.cookie.expect("a guest session"));
    (
        cookie,
        UserId::parse(reply.json["id"].as_str().unwrap()).unwrap(),
    )
}

fn with_cookie(path: &str, cookie: &str) -> support::Call {
    get_page(path).header("cookie", cookie)
}

fn count(html: &str, needle: &str) -> usize {
    html.matches(needle).count()
}

#[tokio::test]
async fn the_inventory_pages_work_without_javascript() {
    let (app, engine) = app().await;
    let db = Db::new(engine.client.clone(), "udd");
    let (cookie, me) = guest(&app, "Asha").await;
    let all: Vec<ThingId> = app::inventory::store::CARDS
        .keys()
        .take(40)
        .cloned()
        .collect();
    db.grant_rewards(
        &me,
        &Rewards {
            cards: all.clone(),
            feathers: 50,
            badges: Vec::new(),
        },
    )
    .await
    .unwrap();

    let page = send(&app, with_cookie("/inventory", &cookie)).await;
    assert_eq!(page.status, StatusCode::OK);
    let html = page.body;
    assert!(!html.contains("<leptos-island"), "no island, no wasm");
    assert_eq!(count(&html, r#"data-testid="card""#), 30, "a page of 30");
    assert!(html.contains("50<!> feathers"), "the wallet");
    assert_eq!(count(&html, r#"data-testid="category-tab""#), 12);
    let next = html
        .split(r#"data-testid="next-page" href=""#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a next-page link")
        .replace("&amp;", "&");
    let second = send(&app, with_cookie(&next, &cookie)).await;
    assert_eq!(second.status, StatusCode::OK);
    assert_eq!(count(&second.body, r#"data-testid="card""#), 10);
    assert!(!second.body.contains("next-page"));

    // A category tab.
    let birds = send(
        &app,
        with_cookie("/inventory?place=bag&category=bird", &cookie),
    )
    .await;
    let held_birds = all
        .iter()
        .filter(|t| {
            app::inventory::store::card(t).unwrap().category == app::catalog::Category::Bird
        })
        .count();
    assert_eq!(
        count(&birds.body, r#"data-testid="card""#),
        held_birds.min(30)
    );

    // Sorted by name; and a prefix search.
    let by_name = send(&app, with_cookie("/inventory?place=bag&sort=name", &cookie)).await;
    let names: Vec<String> = by_name
        .body
        .split(r#"data-testid="card-name">"#)
        .skip(1)
        .map(|rest| app::inventory::rules::fold_name(rest.split('<').next().unwrap()))
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    let first = app::inventory::store::card(&all[0]).unwrap();
    let prefix: String = first.name.chars().take(3).collect();
    let found = send(
        &app,
        with_cookie(&format!("/inventory?place=bag&q={prefix}"), &cookie),
    )
    .await;
    assert!(found.body.contains(&first.name), "{prefix}: {}", found.body);

    // A move through a plain form post, then the bank.
    let moved = post(
        &app,
        "/api/inventory/move",
        &format!("thing={}&count=1&from=bag", all[0]),
        Some(&cookie),
    )
    .await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.json);
    let bank = send(&app, with_cookie("/inventory?place=bank", &cookie)).await;
    assert_eq!(count(&bank.body, r#"data-testid="card""#), 1);

    // The shop page and a buy.
    db.seed_shop().await.unwrap();
    let shop = send(&app, with_cookie("/shop", &cookie)).await;
    assert_eq!(shop.status, StatusCode::OK);
    assert!(count(&shop.body, r#"data-testid="shop-item""#) >= 3);
    let bought = post(&app, "/api/shop/buy", "item=pack-3", Some(&cookie)).await;
    assert_eq!(bought.status, StatusCode::OK, "{}", bought.json);
    assert_eq!(bought.json["cards"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn a_trade_over_http_and_every_bad_request_is_a_clear_4xx_that_changes_nothing() {
    let (app, engine) = app().await;
    let db = Db::new(engine.client.clone(), "udd");
    let (asha_cookie, asha) = guest(&app, "Asha").await;
    let (ravi_guest, ravi) = guest(&app, "Ravi").await;
    let claimed = post(
        &app,
        "/api/claim",
        "username=ravi&password=correct+horse",
        Some(&ravi_guest),
    )
    .await;
    assert_eq!(claimed.status, StatusCode::OK, "{}", claimed.json);
    let ravi_cookie = cookie_pair(&claimed.cookie.unwrap());
    let (mallory_cookie, _) = guest(&app, "Mallory").await;
    db.seed_shop().await.unwrap();
    db.grant_rewards(
        &asha,
        &Rewards {
            cards: vec![thing("crow")],
            feathers: 5,
            badges: vec![],
        },
    )
    .await
    .unwrap();
    db.grant_rewards(
        &ravi,
        &Rewards {
            cards: vec![],
            feathers: 20,
            badges: vec![],
        },
    )
    .await
    .unwrap();

    let state = || async {
        (
            db.stack(&asha, Place::Bag, &thing("crow"))
                .await
                .unwrap()
                .map(|s| s.qty),
            db.feathers(&asha).await.unwrap(),
            db.feathers(&ravi).await.unwrap(),
        )
    };
    let before = state().await;
    let nobody = String::new();
    for (path, body, cookie, want) in [
        (
            "/api/inventory/move",
            "thing=crow&count=1&from=attic",
            &asha_cookie,
            400,
        ),
        (
            "/api/inventory/move",
            "thing=no-such-thing&count=1&from=bag",
            &asha_cookie,
            400,
        ),
        (
            "/api/inventory/move",
            "thing=crow&count=0&from=bag",
            &asha_cookie,
            400,
        ),
        (
            "/api/inventory/move",
            "thing=crow&count=-3&from=bag",
            &asha_cookie,
            400,
        ),
        (
            "/api/inventory/move",
            "thing=crow&count=99999999999&from=bag",
            &asha_cookie,
            400,
        ),
        (
            "/api/inventory/move",
            "thing=CROW%0A&count=1&from=bag",
            &asha_cookie,
            400,
        ),
        (
            "/api/inventory/sell",
            "thing=crow&count=2",
            &asha_cookie,
            409,
        ),
        ("/api/shop/buy", "item=free-money", &asha_cookie, 400),
        (
            "/api/shop/buy",
            "item=look-golden-feather",
            &asha_cookie,
            409,
        ),
        (
            "/api/trades/offer",
            "to=nobody_here&give_cards=crow:1",
            &asha_cookie,
            404,
        ),
        (
            "/api/trades/offer",
            "to=ravi&give_cards=crow:2",
            &asha_cookie,
            409,
        ),
        (
            "/api/trades/offer",
            "to=ravi&give_cards=crow:x",
            &asha_cookie,
            400,
        ),
        (
            "/api/trades/offer",
            "to=ravi&give_feathers=6",
            &asha_cookie,
            409,
        ),
        ("/api/trades/offer", "to=ravi", &asha_cookie, 400),
        (
            "/api/trades/accept",
            "offer=not-an-offer",
            &asha_cookie,
            400,
        ),
        (
            "/api/trades/accept",
            "offer=01ARZ3NDEKTSV4RRFFQ69G5FAV",
            &asha_cookie,
            404,
        ),
        (
            "/api/inventory/move",
            "thing=crow&count=1&from=bag",
            &nobody,
            401,
        ),
    ] {
        let cookie = (!cookie.is_empty()).then_some(cookie.as_str());
        let reply = post(&app, path, body, cookie).await;
        assert_eq!(reply.status.as_u16(), want, "{path} {body}: {}", reply.json);
    }
    assert_eq!(state().await, before, "nothing changed");

    // Asha offers her crow for 15 feathers; Mallory cannot answer it; Ravi accepts.
    let offer = post(
        &app,
        "/api/trades/offer",
        "to=Ravi&give_cards=crow:1&want_feathers=15&hours=2",
        Some(&asha_cookie),
    )
    .await;
    assert_eq!(offer.status, StatusCode::OK, "{}", offer.json);
    let id = offer.json["id"].as_str().unwrap().to_owned();
    for path in ["/api/trades/accept", "/api/trades/close"] {
        let stranger = post(&app, path, &format!("offer={id}"), Some(&mallory_cookie)).await;
        assert_eq!(stranger.status, StatusCode::FORBIDDEN, "{path}");
    }
    let own = post(
        &app,
        "/api/trades/accept",
        &format!("offer={id}"),
        Some(&asha_cookie),
    )
    .await;
    assert_eq!(
        own.status,
        StatusCode::FORBIDDEN,
        "the maker cannot accept their own offer"
    );
    assert_eq!(state().await, before, "nothing changed");

    let trades = send(&app, with_cookie("/trades", &ravi_cookie)).await;
    assert!(trades.body.contains(&id), "Ravi sees the offer");
    let accepted = post(
        &app,
        "/api/trades/accept",
        &format!("offer={id}"),
        Some(&ravi_cookie),
    )
    .await;
    assert_eq!(accepted.status, StatusCode::OK, "{}", accepted.json);
    assert_eq!(
        db.stack(&ravi, Place::Bag, &thing("crow"))
            .await
            .unwrap()
            .map(|s| s.qty),
        Some(1)
    );
    assert_eq!(db.feathers(&asha).await.unwrap(), 20);
    assert_eq!(db.feathers(&ravi).await.unwrap(), 5);
    let again = post(
        &app,
        "/api/trades/accept",
        &format!("offer={id}"),
        Some(&ravi_cookie),
    )
    .await;
    assert_eq!(again.status, StatusCode::CONFLICT);
}
