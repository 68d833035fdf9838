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

fn rewards(cards: Vec<ThingId>, feathers: u64) -> Rewards {
    Rewards {
        cards,
        feathers,
        badges: Vec::new(),
    }
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
    db.grant_rewards(&me, &rewards(all.clone(), 50))
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
    db.grant_rewards(&asha, &rewards(vec![thing("crow")], 5))
        .await
        .unwrap();
    db.grant_rewards(&ravi, &rewards(vec![], 20)).await.unwrap();

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

#[tokio::test]
async fn trading_is_limited_per_player_across_instances_and_a_refused_offer_makes_nothing() {
    let (apps, engine) = support::instances(false, 2, Default::default()).await;
    let db = Db::new(engine.client.clone(), "udd");
    let (asha_cookie, asha) = guest(&apps[0], "Asha").await;
    let (ravi_guest, ravi) = guest(&apps[1], "Ravi").await;
    let claimed = post(
        &apps[1],
        "/api/claim",
        "username=ravi&password=correct+horse",
        Some(&ravi_guest),
    )
    .await;
    assert_eq!(claimed.status, StatusCode::OK, "{}", claimed.json);
    let ravi_cookie = cookie_pair(&claimed.cookie.unwrap());
    db.grant_rewards(&asha, &rewards(vec![thing("crow")], 0))
        .await
        .unwrap();

    // Nothing is held while an offer is open, so one crow may be offered many times: the limit
    // is what stops a flood, on whichever instance each request lands.
    let limit = app::inventory::api::TRADES_PER_WINDOW as usize;
    for i in 0..limit {
        let reply = post(
            &apps[i % 2],
            "/api/trades/offer",
            "to=ravi&give_cards=crow:1&want_feathers=1",
            Some(&asha_cookie),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "offer {i}: {}", reply.json);
    }
    for app in &apps {
        let refused = post(
            app,
            "/api/trades/offer",
            "to=ravi&give_cards=crow:1&want_feathers=1",
            Some(&asha_cookie),
        )
        .await;
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    }
    let incoming = db
        .offers(&ravi, app::inventory::trades::Direction::Incoming, 100)
        .await
        .unwrap();
    assert_eq!(incoming.len(), limit, "the refused offers made nothing");
    // The limit is Asha's, not Ravi's: he can still answer.
    let declined = post(
        &apps[0],
        "/api/trades/close",
        &format!("offer={}", incoming[0].id),
        Some(&ravi_cookie),
    )
    .await;
    assert_eq!(declined.status, StatusCode::OK, "{}", declined.json);
    // And Asha's accepts and cancels are limited too.
    let cancel = post(
        &apps[1],
        "/api/trades/close",
        &format!("offer={}", incoming[1].id),
        Some(&asha_cookie),
    )
    .await;
    assert_eq!(cancel.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        db.offer(&incoming[1].id)
            .await
            .unwrap()
            .is_some_and(|o| o.status == app::inventory::OfferStatus::Open),
        "a refused cancel changes nothing"
    );
}

#[tokio::test]
async fn offers_go_to_someone_in_your_room_and_from_a_cards_page_without_javascript() {
    let (app, engine) = app().await;
    let db = Db::new(engine.client.clone(), "udd");
    let (asha_cookie, asha) = guest(&app, "Asha").await;
    let (ravi_cookie, ravi) = guest(&app, "Ravi").await;
    let (mallory_cookie, mallory) = guest(&app, "Mallory").await;
    let (_, kiran) = guest(&app, "Kiran").await;
    let created = post(&app, "/api/rooms/create", "name=Asha", Some(&asha_cookie)).await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.json);
    let code = created.json.as_str().unwrap().to_owned();
    let joined = post(
        &app,
        "/api/rooms/join",
        &format!("code={code}&name=Ravi"),
        Some(&ravi_cookie),
    )
    .await;
    assert_eq!(joined.status, StatusCode::OK, "{}", joined.json);
    let crows = |n: usize, feathers: u64| rewards(vec![thing("crow"); n], feathers);
    db.grant_rewards(&asha, &crows(2, 0)).await.unwrap();
    db.grant_rewards(&ravi, &crows(3, 10)).await.unwrap();
    db.grant_rewards(&kiran, &crows(1, 0)).await.unwrap();
    db.grant_rewards(&mallory, &crows(2, 0)).await.unwrap();
    db.move_cards(&mallory, &thing("crow"), 2, Place::Bag)
        .await
        .unwrap();

    // The room's players, for Asha; nobody for Mallory, who is not in it.
    let page = send(
        &app,
        with_cookie(&format!("/trades?room={code}"), &asha_cookie),
    )
    .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains(r#"data-testid="room-offer""#));
    assert!(
        page.body.contains(&format!(r#"value="{ravi}""#)),
        "Ravi to choose"
    );
    assert!(
        !page.body.contains(&format!(r#"<option value="{asha}""#)),
        "not herself"
    );
    let outsider = send(
        &app,
        with_cookie(&format!("/trades?room={code}"), &mallory_cookie),
    )
    .await;
    assert!(outsider.body.contains(r#"data-testid="room-offer-none""#));
    assert!(!outsider.body.contains(&ravi.to_string()));
    let gone = send(&app, with_cookie("/trades?room=ZZZZ9", &asha_cookie)).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    let bad = send(&app, with_cookie("/trades?room=%3Cb%3E", &asha_cookie)).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);

    let offers_to = |user: UserId| {
        let db = db.clone();
        async move {
            db.offers(&user, app::inventory::trades::Direction::Incoming, 50)
                .await
                .unwrap()
                .len()
        }
    };
    for (body, cookie, want) in [
        // Mallory is not in the room.
        (
            format!("room={code}&to_player={ravi}&give_cards=crow:1"),
            &mallory_cookie,
            403,
        ),
        // Mallory is not in it to be offered to.
        (
            format!("room={code}&to_player={mallory}&give_cards=crow:1"),
            &asha_cookie,
            404,
        ),
        // A username and a room player at once.
        (
            format!("to=ravi&room={code}&to_player={ravi}&give_cards=crow:1"),
            &asha_cookie,
            400,
        ),
        (
            "room=&to_player=nobody&give_cards=crow:1".to_owned(),
            &asha_cookie,
            400,
        ),
        // Mallory's crows are in the bank.
        (
            format!("to_player={asha}&give_cards=crow:1"),
            &mallory_cookie,
            409,
        ),
    ] {
        let reply = post(&app, "/api/trades/offer", &body, Some(cookie)).await;
        assert_eq!(reply.status.as_u16(), want, "{body}: {}", reply.json);
    }
    assert_eq!(offers_to(ravi.clone()).await, 0, "refusals made nothing");
    assert_eq!(offers_to(mallory.clone()).await, 0);
    assert_eq!(offers_to(asha.clone()).await, 0);
    let offered = post(
        &app,
        "/api/trades/offer",
        &format!("room={code}&to_player={ravi}&give_cards=crow:1&want_feathers=3"),
        Some(&asha_cookie),
    )
    .await;
    assert_eq!(offered.status, StatusCode::OK, "{}", offered.json);
    assert_eq!(offered.json["to_name"], "Ravi");

    // The crow's page for Ravi: his own count; Asha has spares. Kiran has one, Mallory's
    // are banked, Ravi is himself: none of them listed.
    let card = send(&app, with_cookie("/cards/crow", &ravi_cookie)).await;
    assert_eq!(card.status, StatusCode::OK);
    assert!(!card.body.contains("<leptos-island"), "no island, no wasm");
    assert!(
        card.body.contains(r#"data-bag="3" data-bank="0""#),
        "{}",
        card.body
    );
    assert_eq!(count(&card.body, r#"data-testid="holder""#), 1);
    assert!(card.body.contains(&format!(r#"data-player="{asha}""#)));
    assert!(card.body.contains(r#"data-testid="offer-for-one""#));
    // A visitor sees who holds it, and no forms.
    let visitor = send(&app, get_page("/cards/crow")).await;
    assert_eq!(visitor.status, StatusCode::OK);
    assert_eq!(
        count(&visitor.body, r#"data-testid="holder""#),
        2,
        "Asha and Ravi"
    );
    assert!(!visitor.body.contains("offer-for-one"));
    for missing in ["/cards/no-such-thing", "/cards/%3Cscript%3E"] {
        let reply = send(&app, get_page(missing)).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{missing}");
        assert!(!reply.body.contains("<script>"));
    }
    // The page's form: four feathers for one of Asha's crows.
    let from_card = post(
        &app,
        "/api/trades/offer",
        &format!("to_player={asha}&want_cards=crow:1&give_feathers=4"),
        Some(&ravi_cookie),
    )
    .await;
    assert_eq!(from_card.status, StatusCode::OK, "{}", from_card.json);
    assert_eq!(offers_to(asha).await, 1);
}
