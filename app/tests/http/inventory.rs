//! The inventory over HTTP, in-process: the pages without JavaScript (tabs, sort, search, next
//! page), a trade between two players, and a clear 4xx for every bad request with nothing
//! changed.

use crate::support;

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

/// Writes each player's record of one finished match they played together (as a match's end
/// writes them).
async fn play_together(db: &Db, client: &aws_sdk_dynamodb::Client, players: &[&UserId]) {
    let finished_at_ms = app::store::epoch_millis();
    for (i, user) in players.iter().enumerate() {
        let record = app::game::model::MatchRecord {
            record_id: ulid::Ulid::new().to_string(),
            user_id: (*user).clone(),
            nickname: app::identity::DisplayName::parse("Player").unwrap(),
            avatar: app::identity::Avatar::Owl,
            room: app::rooms::RoomCode::parse("K7QX2").unwrap(),
            room_id: None,
            score: 100,
            placement: i as u32 + 1,
            players: players.len() as u32,
            correct: 1,
            rounds: 5,
            average_reaction_ms: None,
            finished_at_ms,
            right: Vec::new(),
            best_streak: 1,
            first_round: 1,
            daily: None,
            deck: None,
            flagged: false,
        };
        client
            .put_item()
            .table_name(db.table_name())
            .set_item(Some(
                app::game::store::resolve::match_record_item(&record).unwrap(),
            ))
            .send()
            .await
            .unwrap();
    }
}

/// The offer ids of a list on a trades page, in order.
fn offer_ids(html: &str, list: &str) -> Vec<String> {
    let Some(start) = html.find(&format!(r#"data-testid="{list}""#)) else {
        return Vec::new();
    };
    let rest = &html[start..];
    let rest = &rest[..rest.find("</ul>").unwrap_or(rest.len())];
    rest.split(r#"data-offer=""#)
        .skip(1)
        .map(|r| r.split('"').next().unwrap().to_owned())
        .collect()
}

/// The address of a link on a page, by its test id.
fn link(html: &str, test_id: &str) -> Option<String> {
    let at = html.find(&format!(r#"data-testid="{test_id}""#))?;
    let open = html[..at].rfind('<')?;
    let close = at + html[at..].find('>')?;
    let href = html[open..close]
        .split(r#"href=""#)
        .nth(1)?
        .split('"')
        .next()?;
    Some(href.replace("&amp;", "&"))
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
    db.inventory()
        .grant_rewards(&me, &rewards(all.clone(), 50))
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
    db.inventory().seed_shop().await.unwrap();
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
    db.inventory().seed_shop().await.unwrap();
    db.inventory()
        .grant_rewards(&asha, &rewards(vec![thing("crow")], 5))
        .await
        .unwrap();
    db.inventory()
        .grant_rewards(&ravi, &rewards(vec![], 20))
        .await
        .unwrap();

    let state = || async {
        (
            db.inventory()
                .stack(&asha, Place::Bag, &thing("crow"))
                .await
                .unwrap()
                .map(|s| s.qty),
            db.inventory().feathers(&asha).await.unwrap(),
            db.inventory().feathers(&ravi).await.unwrap(),
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
            400,
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
        db.inventory()
            .stack(&ravi, Place::Bag, &thing("crow"))
            .await
            .unwrap()
            .map(|s| s.qty),
        Some(1)
    );
    assert_eq!(db.inventory().feathers(&asha).await.unwrap(), 20);
    assert_eq!(db.inventory().feathers(&ravi).await.unwrap(), 5);
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
    db.inventory()
        .grant_rewards(&asha, &rewards(vec![thing("crow")], 0))
        .await
        .unwrap();
    // They have played together, so Asha's offers are not capped as a stranger's.
    play_together(&db, &engine.client, &[&asha, &ravi]).await;

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
        .inventory()
        .offers(
            &ravi,
            app::inventory::store::trades::Direction::Incoming,
            100,
        )
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
        db.inventory()
            .offer(&incoming[1].id)
            .await
            .unwrap()
            .is_some_and(|o| o.status == app::inventory::OfferStatus::Open),
        "a refused cancel changes nothing"
    );
    // Declining what others sent never spends Ravi's own trade limit: he declines every one
    // of Asha's offers, more than his limit's worth of actions, and can still make his own.
    for (i, offer) in incoming.iter().enumerate().skip(1) {
        let declined = post(
            &apps[i % 2],
            "/api/trades/close",
            &format!("offer={}", offer.id),
            Some(&ravi_cookie),
        )
        .await;
        assert_eq!(
            declined.status,
            StatusCode::OK,
            "decline {i}: {}",
            declined.json
        );
    }
    let own = post(
        &apps[0],
        "/api/trades/offer",
        &format!("to_player={asha}&want_cards=crow:1"),
        Some(&ravi_cookie),
    )
    .await;
    assert_eq!(own.status, StatusCode::OK, "{}", own.json);
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
    db.inventory()
        .grant_rewards(&asha, &crows(2, 0))
        .await
        .unwrap();
    db.inventory()
        .grant_rewards(&ravi, &crows(3, 10))
        .await
        .unwrap();
    db.inventory()
        .grant_rewards(&kiran, &crows(1, 0))
        .await
        .unwrap();
    db.inventory()
        .grant_rewards(&mallory, &crows(2, 0))
        .await
        .unwrap();
    db.inventory()
        .move_cards(&mallory, &thing("crow"), 2, Place::Bag)
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
        page.body
            .contains(&format!(r#"href="/trades?with={ravi}&amp;room={code}""#)),
        "Ravi to choose"
    );
    assert!(!page.body.contains(&format!("with={asha}")), "not herself");
    // Choosing him opens the form, which offers inside the room.
    let form = send(
        &app,
        with_cookie(&format!("/trades?with={ravi}&room={code}"), &asha_cookie),
    )
    .await;
    assert_eq!(form.status, StatusCode::OK);
    assert!(form
        .body
        .contains(&format!(r#"name="room" value="{code}""#)));
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
            db.inventory()
                .offers(
                    &user,
                    app::inventory::store::trades::Direction::Incoming,
                    50,
                )
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
    // Asking for one of hers: the form with her crow picked.
    let ask = link(&card.body, "offer-for-one").expect("a link to the form");
    assert_eq!(ask, format!("/trades?with={asha}&want%5Bcrow%5D=1"));
    let form = send(&app, with_cookie(&ask, &ravi_cookie)).await;
    let crow = tag(&form.body, "want-crow").expect("her crow");
    assert!(crow.contains(r#"value="1""#), "{crow}");
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

/// The `<li>` of one offer on a trades page.
fn offer_row<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html
        .find(&format!(r#"data-offer="{id}""#))
        .expect("the offer's row");
    let rest = &html[start..];
    &rest[..rest.find("</li>").unwrap_or(rest.len())]
}

#[tokio::test]
async fn offers_from_strangers_cannot_bury_a_real_one_and_every_maker_is_told_apart() {
    let (app, engine) = support::app_with_catalog().await;
    let db = Db::new(engine.client.clone(), "udd");
    let claim = |cookie: String, username: &'static str| {
        let app = app.clone();
        async move {
            let claimed = post(
                &app,
                "/api/claim",
                &format!("username={username}&password=correct+horse"),
                Some(&cookie),
            )
            .await;
            assert_eq!(claimed.status, StatusCode::OK, "{}", claimed.json);
            cookie_pair(&claimed.cookie.unwrap())
        }
    };
    let (asha_guest, asha) = guest(&app, "Asha").await;
    let asha_cookie = claim(asha_guest, "asha_real").await;
    let (ravi_guest, _ravi) = guest(&app, "Ravi").await;
    let ravi_cookie = claim(ravi_guest, "ravi").await;

    // Asha and Ravi play a match together.
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
    let started = post(
        &app,
        "/api/rooms/start",
        &format!("code={code}&seed=9"),
        Some(&asha_cookie),
    )
    .await;
    assert_eq!(started.status, StatusCode::OK, "{}", started.json);
    support::finish_match(&db, &code).await;
    db.inventory()
        .grant_rewards(&asha, &rewards(vec![thing("crow")], 68))
        .await
        .unwrap();
    let real = post(
        &app,
        "/api/trades/offer",
        "to=ravi&give_cards=crow:1&want_feathers=5",
        Some(&asha_cookie),
    )
    .await;
    assert_eq!(real.status, StatusCode::OK, "{}", real.json);
    let real = real.json["id"].as_str().unwrap().to_owned();

    // 22 guests he never played with, the first also called Asha, each offer something.
    let cap = app::inventory::rules::STRANGER_OFFERS;
    let (mut made, mut impostor) = (Vec::new(), None);
    for i in 0..22 {
        let name = if i == 0 {
            "Asha".to_owned()
        } else {
            format!("Guest{i}")
        };
        let (cookie, id) = guest(&app, &name).await;
        let reply = post(
            &app,
            "/api/trades/offer",
            "to=ravi&want_feathers=1",
            Some(&cookie),
        )
        .await;
        if i < cap {
            assert_eq!(reply.status, StatusCode::OK, "offer {i}: {}", reply.json);
            made.push(reply.json["id"].as_str().unwrap().to_owned());
        } else {
            assert_eq!(
                reply.status,
                StatusCode::CONFLICT,
                "offer {i}: {}",
                reply.json
            );
            assert!(
                reply.json.to_string().contains("not played with"),
                "{}",
                reply.json
            );
        }
        if i == 0 {
            impostor = Some((id, made[0].clone()));
        }
    }
    let (impostor, impostor_offer) = impostor.unwrap();
    let page = send(&app, with_cookie("/trades", &ravi_cookie)).await;
    assert_eq!(page.status, StatusCode::OK);
    let shown = offer_ids(&page.body, "incoming");
    assert_eq!(shown.len(), cap + 1);
    assert!(shown.contains(&real), "the real offer is not buried");
    // Two makers called Asha: each row links to its maker's profile, with the username where
    // there is one.
    let row = offer_row(&page.body, &real);
    assert!(row.contains(&format!(r#"href="/p/{asha}""#)), "{row}");
    assert!(row.contains("@asha_real"), "{row}");
    let row = offer_row(&page.body, &impostor_offer);
    assert!(row.contains(&format!(r#"href="/p/{impostor}""#)), "{row}");
    assert!(!row.contains('@'), "a guest has no username: {row}");

    // More offers than a page: the older ones are a link away, without JavaScript.
    let mut all = shown.clone();
    for i in 0..25 {
        let reply = post(
            &app,
            "/api/trades/offer",
            "to=ravi&give_cards=crow:1&want_feathers=2",
            Some(&asha_cookie),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "offer {i}: {}", reply.json);
        all.push(reply.json["id"].as_str().unwrap().to_owned());
    }
    all.sort();
    let first = send(&app, with_cookie("/trades", &ravi_cookie)).await;
    let mut seen = offer_ids(&first.body, "incoming");
    assert_eq!(seen.len(), 20, "a page of 20");
    assert!(link(&first.body, "incoming-newest").is_none());
    let older = link(&first.body, "incoming-older").expect("an older-offers link");
    let second = send(&app, with_cookie(&older, &ravi_cookie)).await;
    assert_eq!(second.status, StatusCode::OK);
    seen.extend(offer_ids(&second.body, "incoming"));
    assert!(
        link(&second.body, "incoming-older").is_none(),
        "the last page"
    );
    assert_eq!(
        link(&second.body, "incoming-newest").as_deref(),
        Some("/trades")
    );
    seen.sort();
    assert_eq!(seen, all, "every offer, on one page or the next");
    // The same over the API, with the cursor; a forged cursor is a 400.
    let cursor = older
        .split("incoming_after=")
        .nth(1)
        .unwrap()
        .split('&')
        .next()
        .unwrap()
        .to_owned();
    let api = post(
        &app,
        "/api/trades/mine",
        &format!("incoming_after={cursor}"),
        Some(&ravi_cookie),
    )
    .await;
    assert_eq!(api.status, StatusCode::OK, "{}", api.json);
    assert_eq!(
        api.json["incoming"].as_array().unwrap().len(),
        all.len() - 20
    );
    assert!(api.json["incoming_next"].is_null());
    let forged = post(
        &app,
        "/api/trades/mine",
        &format!("incoming_after=x{cursor}"),
        Some(&ravi_cookie),
    )
    .await;
    assert_eq!(forged.status, StatusCode::BAD_REQUEST);

    // A stale offer is refused as no longer held, without what the maker has.
    let offer_feathers = || async {
        let reply = post(
            &app,
            "/api/trades/offer",
            "to=ravi&give_feathers=68",
            Some(&asha_cookie),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
        reply.json["id"].as_str().unwrap().to_owned()
    };
    let stale = offer_feathers().await;
    let spent = offer_feathers().await;
    let accept = |id: String, cookie: String| {
        let app = app.clone();
        async move {
            post(
                &app,
                "/api/trades/accept",
                &format!("offer={id}"),
                Some(&cookie),
            )
            .await
        }
    };
    assert_eq!(
        accept(spent, ravi_cookie.clone()).await.status,
        StatusCode::OK
    );
    for (cookie, words) in [
        (ravi_cookie.clone(), "no longer holds"),
        (format!("{ravi_cookie}; udd_lang=hi"), "अब वह नहीं है"),
    ] {
        let refused = accept(stale.clone(), cookie).await;
        assert_eq!(refused.status, StatusCode::CONFLICT);
        let told = refused.json.to_string();
        assert!(told.contains(words), "{told}");
        assert!(
            !told.contains("68") && !told.contains("held,"),
            "no amounts: {told}"
        );
    }
}

/// A plain form post from a browser without JavaScript, sent from the page at `from`.
fn browser_post(path: &str, body: &str, cookie: &str, from: &str) -> support::Call {
    support::form(path, body, Some(cookie))
        .header("accept", "text/html,application/xhtml+xml")
        .header("host", "127.0.0.1:3000")
        .header("referer", &format!("http://127.0.0.1:3000{from}"))
}

/// The cards in a player's bag: (thing, count), in key order.
async fn bag(db: &Db, user: &UserId) -> Vec<(String, u32)> {
    db.inventory()
        .cards(user, Place::Bag, None, None, 60)
        .await
        .unwrap()
        .items
        .into_iter()
        .map(|s| (s.thing.to_string(), s.qty))
        .collect()
}

#[tokio::test]
async fn the_shop_refuses_what_you_cannot_afford_and_a_pack_shows_what_it_gave() {
    let (app, engine) = app().await;
    let db = Db::new(engine.client.clone(), "udd");
    db.inventory().seed_shop().await.unwrap();
    let (cookie, me) = guest(&app, "Asha").await;
    db.inventory()
        .grant_rewards(&me, &rewards(vec![thing("crow"), thing("crow")], 12))
        .await
        .unwrap();
    let before = (
        db.inventory().feathers(&me).await.unwrap(),
        bag(&db, &me).await,
    );
    assert_eq!(before.0, 12);

    // The page: a pack of 20 feathers cannot be bought with 12; the button says so.
    let shop = send(&app, with_cookie("/shop", &cookie)).await;
    let pack = shop
        .body
        .split(r#"data-item="pack-3""#)
        .nth(1)
        .expect("the pack's tile")
        .split("</li>")
        .next()
        .unwrap()
        .to_owned();
    assert!(pack.contains("disabled"), "Buy is disabled: {pack}");
    assert!(pack.contains("Need 🪶 8 more"), "{pack}");

    // The server refuses it too (JSON and a plain form post), and nothing changes.
    let refused = post(&app, "/api/shop/buy", "item=pack-3", Some(&cookie)).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.json);
    let plain = send(
        &app,
        browser_post("/api/shop/buy", "item=pack-3", &cookie, "/shop"),
    )
    .await;
    let location = plain.header("location").unwrap_or_default().to_owned();
    assert!(
        location.contains("__err="),
        "refused, back with the error: {location}"
    );
    assert!(!location.contains("note="), "no success notice: {location}");
    assert_eq!(
        (
            db.inventory().feathers(&me).await.unwrap(),
            bag(&db, &me).await
        ),
        before,
        "feathers and bag unchanged"
    );

    // Rich enough: a plain form post lands back on /shop with a sealed notice, and the page
    // shows the pack's cards as the purchase wrote them (the bag holds them now).
    db.inventory()
        .grant_rewards(&me, &rewards(vec![], 100))
        .await
        .unwrap();
    let bought = send(
        &app,
        browser_post("/api/shop/buy", "item=pack-3", &cookie, "/shop"),
    )
    .await;
    assert!(bought.status.is_redirection(), "{:?}", bought.status);
    let location = bought.header("location").unwrap().to_owned();
    assert!(location.starts_with("/shop?note="), "{location}");
    assert_eq!(db.inventory().feathers(&me).await.unwrap(), 112 - 20);
    let page = send(&app, with_cookie(&location, &cookie)).await;
    assert!(page.body.contains(r#"role="status""#), "a notice");
    assert!(
        page.body.contains("Bought Pack of 3 cards for 🪶 20."),
        "{}",
        page.body
    );
    let shown: Vec<String> = page
        .body
        .split(r#"data-testid="opened-card" data-thing=""#)
        .skip(1)
        .map(|r| r.split('"').next().unwrap().to_owned())
        .collect();
    assert_eq!(shown.len(), 3, "the pack's three cards");
    let held = bag(&db, &me).await;
    for thing in &shown {
        let now = held.iter().find(|(t, _)| t == thing).map_or(0, |(_, n)| *n);
        let was = before
            .1
            .iter()
            .find(|(t, _)| t == thing)
            .map_or(0, |(_, n)| *n);
        assert!(now > was, "{thing} came with the pack");
    }
    // Someone else's browser, or a forged seal, shows neither the notice nor the pack.
    let (other, _) = guest(&app, "Mallory").await;
    let theirs = send(&app, with_cookie(&location, &other)).await;
    assert!(!theirs.body.contains("opened-card") && !theirs.body.contains("Bought"));
    let forged = location.replace("nsig=", "nsig=1");
    let forged = send(&app, with_cookie(&forged, &cookie)).await;
    assert!(!forged.body.contains("opened-card") && !forged.body.contains("Bought"));
}

#[tokio::test]
async fn selling_the_last_card_of_a_kind_needs_a_confirmation() {
    let (app, engine) = app().await;
    let db = Db::new(engine.client.clone(), "udd");
    let (cookie, me) = guest(&app, "Asha").await;
    db.inventory()
        .grant_rewards(&me, &rewards(vec![thing("crow"), thing("crow")], 0))
        .await
        .unwrap();

    // Two crows: one sells straight away, with a notice of what it earned.
    let sold = send(
        &app,
        browser_post(
            "/api/inventory/sell",
            "thing=crow&count=1",
            &cookie,
            "/inventory?place=bag",
        ),
    )
    .await;
    let location = sold.header("location").unwrap().to_owned();
    assert!(
        location.starts_with("/inventory?place=bag&note="),
        "{location}"
    );
    let page = send(&app, with_cookie(&location, &cookie)).await;
    assert!(page.body.contains("Sold 1 Crow for 🪶 2."), "{}", page.body);
    assert_eq!(db.inventory().feathers(&me).await.unwrap(), 2);

    // The last one: its Sell button goes to a step that asks first.
    let bag_page = send(&app, with_cookie("/inventory?place=bag", &cookie)).await;
    assert!(
        bag_page.body.contains("Sell one · 🪶 2"),
        "the price on the button"
    );
    let ask = send(
        &app,
        with_cookie("/inventory?place=bag&confirm=crow", &cookie),
    )
    .await;
    assert!(
        ask.body.contains("This is your last Crow in the bag"),
        "{}",
        ask.body
    );

    // Without the confirmation the server refuses it: 400, nothing changed.
    let refused = post(
        &app,
        "/api/inventory/sell",
        "thing=crow&count=1",
        Some(&cookie),
    )
    .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.json);
    assert_eq!(bag(&db, &me).await, vec![("crow".to_owned(), 1)]);
    assert_eq!(db.inventory().feathers(&me).await.unwrap(), 2);

    // Confirmed: sold.
    let done = post(
        &app,
        "/api/inventory/sell",
        "thing=crow&count=1&confirm=yes",
        Some(&cookie),
    )
    .await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.json);
    assert!(bag(&db, &me).await.is_empty());
    assert_eq!(db.inventory().feathers(&me).await.unwrap(), 4);

    // A move says what it did too.
    db.inventory()
        .grant_rewards(&me, &rewards(vec![thing("crow")], 0))
        .await
        .unwrap();
    let moved = send(
        &app,
        browser_post(
            "/api/inventory/move",
            "thing=crow&count=1&from=bag",
            &cookie,
            "/inventory",
        ),
    )
    .await;
    let page = send(
        &app,
        with_cookie(moved.header("location").unwrap(), &cookie),
    )
    .await;
    assert!(
        page.body.contains("Moved 1 Crow to the bank."),
        "{}",
        page.body
    );
}

#[tokio::test]
async fn searching_finds_any_word_of_a_name_and_an_empty_result_says_so() {
    let (app, engine) = app().await;
    let db = Db::new(engine.client.clone(), "udd");
    let (cookie, me) = guest(&app, "Asha").await;
    let two_words = app::inventory::store::CARDS
        .values()
        .find(|c| c.name.contains(' '))
        .expect("a card whose name has two words")
        .clone();
    db.inventory()
        .grant_rewards(
            &me,
            &rewards(vec![thing("crow"), two_words.thing.clone()], 0),
        )
        .await
        .unwrap();
    let last_word = two_words.name.rsplit(' ').next().unwrap().to_lowercase();
    let found = send(
        &app,
        with_cookie(&format!("/inventory?place=bag&q={last_word}"), &cookie),
    )
    .await;
    assert!(
        found
            .body
            .contains(&format!(r#"data-thing="{}""#, two_words.thing)),
        "{last_word} finds {}",
        two_words.name
    );
    assert!(!found.body.contains(r#"data-thing="crow""#));
    let none = send(&app, with_cookie("/inventory?place=bag&q=zzzz", &cookie)).await;
    assert!(none.body.contains(r#"data-testid="no-match""#));
    assert!(none.body.contains("match “zzzz”"), "{}", none.body);
    assert!(none.body.contains(r#"data-testid="clear-search""#));
    assert!(!none.body.contains("Nothing here yet"));
}

#[tokio::test]
async fn only_a_look_you_own_can_be_worn_and_the_room_shows_it() {
    let (app, engine) = app().await;
    let db = Db::new(engine.client.clone(), "udd");
    db.inventory().seed_shop().await.unwrap();
    let (cookie, me) = guest(&app, "Asha").await;
    db.inventory()
        .grant_rewards(&me, &rewards(vec![], 100))
        .await
        .unwrap();

    let refused = post(&app, "/api/shop/wear", "look=look-night", Some(&cookie)).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.json);
    let unknown = post(&app, "/api/shop/wear", "look=look-crown", Some(&cookie)).await;
    assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        db.accounts().profile(&me).await.unwrap().unwrap().look,
        None
    );

    let bought = post(&app, "/api/shop/buy", "item=look-night", Some(&cookie)).await;
    assert_eq!(bought.status, StatusCode::OK, "{}", bought.json);
    let shop = send(&app, with_cookie("/shop", &cookie)).await;
    let tile = shop
        .body
        .split(r#"data-item="look-night""#)
        .nth(1)
        .unwrap()
        .split("</li>")
        .next()
        .unwrap()
        .to_owned();
    assert!(tile.contains(r#"data-testid="owned""#) && tile.contains(r#"data-testid="wear""#));

    let worn = post(&app, "/api/shop/wear", "look=look-night", Some(&cookie)).await;
    assert_eq!(worn.status, StatusCode::OK, "{}", worn.json);
    assert_eq!(
        db.accounts().profile(&me).await.unwrap().unwrap().look,
        Some(app::ids::Look::Night)
    );
    let shop = send(&app, with_cookie("/shop", &cookie)).await;
    assert!(shop.body.contains(r#"data-testid="wearing""#));

    // In a room, the others see it on the lobby's player list.
    let created = post(&app, "/api/rooms/create", "name=Asha", Some(&cookie)).await;
    let code = created.json.as_str().unwrap().to_owned();
    let (ravi, _) = guest(&app, "Ravi").await;
    let lobby = send(&app, with_cookie(&format!("/r/{code}"), &ravi)).await;
    assert_eq!(
        count(&lobby.body, r#"data-look="look-night""#),
        1,
        "{}",
        lobby.body
    );
}

/// A browser's plain form post (no JavaScript) from a page of ours, as `cookie`: the answer is
/// a redirect.
async fn browser_send(
    app: &axum::Router,
    path: &str,
    body: &str,
    cookie: &str,
    page: &str,
) -> support::Answer {
    send(
        app,
        support::form(path, body, Some(cookie))
            .header("accept", "text/html,application/xhtml+xml")
            .header("host", "udd.test")
            .header("referer", &format!("http://udd.test{page}")),
    )
    .await
}

/// The `Location` of a redirect.
fn location(answer: &support::Answer) -> String {
    assert!(
        answer.status.is_redirection(),
        "{}: {}",
        answer.status,
        answer.body
    );
    answer.header("location").unwrap().to_owned()
}

/// The opening tag of the element with this test id.
fn tag<'a>(html: &'a str, test_id: &str) -> Option<&'a str> {
    let at = html.find(&format!(r#"data-testid="{test_id}""#))?;
    let open = html[..at].rfind('<')?;
    let close = at + html[at..].find('>')?;
    Some(&html[open..=close])
}

/// The count of offers waiting in the top bar (none shown: 0).
fn waiting_badge(html: &str) -> u32 {
    tag(html, "offers-waiting").map_or(0, |t| {
        t.split(r#"data-count=""#)
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    })
}

#[tokio::test]
async fn trades_are_made_by_picking_cards_and_every_bad_pick_is_a_clear_4xx_that_changes_nothing() {
    let (app, engine) = support::app_with_catalog().await;
    let db = Db::new(engine.client.clone(), "udd");
    let claim = |cookie: String, username: &'static str| {
        let app = app.clone();
        async move {
            let claimed = post(
                &app,
                "/api/claim",
                &format!("username={username}&password=correct+horse"),
                Some(&cookie),
            )
            .await;
            assert_eq!(claimed.status, StatusCode::OK, "{}", claimed.json);
            cookie_pair(&claimed.cookie.unwrap())
        }
    };
    let (asha_guest, asha) = guest(&app, "Asha").await;
    let asha_cookie = claim(asha_guest, "asha_k").await;
    let (ravi_guest, ravi) = guest(&app, "Ravi").await;
    let ravi_cookie = claim(ravi_guest, "ravi").await;
    let (mallory_cookie, _) = guest(&app, "Mallory").await;
    db.inventory()
        .grant_rewards(&asha, &rewards(vec![thing("crow"), thing("crow")], 5))
        .await
        .unwrap();
    db.inventory()
        .grant_rewards(&ravi, &rewards(vec![thing("kite")], 20))
        .await
        .unwrap();

    let state = || async {
        let mut held = Vec::new();
        for user in [&asha, &ravi] {
            for card in ["crow", "kite"] {
                held.push(
                    db.inventory()
                        .stack(user, Place::Bag, &thing(card))
                        .await
                        .unwrap()
                        .map_or(0, |s| s.qty),
                );
            }
        }
        (
            held,
            db.inventory().feathers(&asha).await.unwrap(),
            db.inventory().feathers(&ravi).await.unwrap(),
        )
    };
    let before = state().await;
    assert_eq!(before, (vec![2, 0, 0, 1], 5, 20));
    for (body, want, words) in [
        // Cards she does not hold.
        (
            "to=@ravi&give%5Bcrow%5D=3".to_owned(),
            409,
            "Not enough Crow",
        ),
        (
            "to=ravi&give%5Bkite%5D=1".to_owned(),
            409,
            "Not enough Kite",
        ),
        // Negative, huge, not numbers.
        ("to=ravi&give%5Bcrow%5D=-1".to_owned(), 400, "whole number"),
        (
            "to=ravi&give%5Bcrow%5D=99999999999".to_owned(),
            400,
            "at most 9999",
        ),
        ("to=ravi&give%5Bcrow%5D=abc".to_owned(), 400, "whole number"),
        ("to=ravi&give%5Bcrow%5D=1.5".to_owned(), 400, "whole number"),
        ("to=ravi&want%5Bkite%5D=-1".to_owned(), 400, "whole number"),
        ("to=ravi&give_feathers=-5".to_owned(), 400, "whole number"),
        ("to=ravi&give_feathers=lots".to_owned(), 400, "whole number"),
        (
            "to=ravi&give_feathers=6".to_owned(),
            409,
            "Not enough feathers",
        ),
        (
            "to=ravi&want_feathers=99999999999999".to_owned(),
            400,
            "at most",
        ),
        // Cards the other player does not hold.
        (
            "to=ravi&want%5Bkite%5D=2".to_owned(),
            409,
            "do not have that many Kite",
        ),
        (
            "to=ravi&want%5Bcrow%5D=1".to_owned(),
            409,
            "do not have that many Crow",
        ),
        // No such card; nothing picked; the hours out of range.
        (
            "to=ravi&give%5Bno-such-thing%5D=1".to_owned(),
            400,
            "no such card",
        ),
        ("to=ravi".to_owned(), 400, "Pick at least one"),
        (
            "to=ravi&give%5Bcrow%5D=0&want%5Bkite%5D=".to_owned(),
            400,
            "Pick at least one",
        ),
        (
            "to=ravi&give%5Bcrow%5D=1&hours=0".to_owned(),
            400,
            "1 to 168 hours",
        ),
        (
            "to=ravi&give%5Bcrow%5D=1&hours=999".to_owned(),
            400,
            "1 to 168 hours",
        ),
        // To herself, by username or id; to nobody.
        (
            "to=@asha_k&give%5Bcrow%5D=1".to_owned(),
            400,
            "someone else",
        ),
        (
            format!("to_player={asha}&give%5Bcrow%5D=1"),
            400,
            "someone else",
        ),
        (
            "to=@nobody_here&give%5Bcrow%5D=1".to_owned(),
            404,
            "No player has that username",
        ),
    ] {
        let reply = post(&app, "/api/trades/offer", &body, Some(&asha_cookie)).await;
        assert_eq!(reply.status.as_u16(), want, "{body}: {}", reply.json);
        assert!(
            reply.json.to_string().contains(words),
            "{body}: {}",
            reply.json
        );
    }
    assert_eq!(state().await, before, "nothing changed");
    assert_eq!(
        db.inventory().offers_waiting(&ravi).await.unwrap(),
        0,
        "no offer made"
    );
    let page = send(&app, with_cookie("/trades", &ravi_cookie)).await;
    assert_eq!(waiting_badge(&page.body), 0);
    assert!(tag(&page.body, "incoming-empty").is_some(), "says so");

    // `@name` and a name are both accepted: two crows and three feathers for Ravi's kite.
    let offer = post(
        &app,
        "/api/trades/offer",
        "to=@ravi&give%5Bcrow%5D=2&give_feathers=3&want%5Bkite%5D=1&want%5Bcrow%5D=0",
        Some(&asha_cookie),
    )
    .await;
    assert_eq!(offer.status, StatusCode::OK, "{}", offer.json);
    let id = offer.json["id"].as_str().unwrap().to_owned();

    // Someone else's offer: nobody but Ravi answers it, and Asha only cancels.
    for (path, cookie) in [
        ("/api/trades/accept", &mallory_cookie),
        ("/api/trades/close", &mallory_cookie),
        ("/api/trades/accept", &asha_cookie),
    ] {
        let reply = post(&app, path, &format!("offer={id}"), Some(cookie)).await;
        assert_eq!(
            reply.status,
            StatusCode::FORBIDDEN,
            "{path}: {}",
            reply.json
        );
        assert!(
            reply.json.to_string().contains("not yours"),
            "{}",
            reply.json
        );
    }
    assert_eq!(state().await, before, "nothing changed");

    // Ravi's top bar counts it; the offer reads in names and emoji, never ids.
    let page = send(&app, with_cookie("/trades", &ravi_cookie)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(waiting_badge(&page.body), 1);
    assert!(page.body.contains("1 offer waiting"), "its accessible name");
    let row = offer_row(&page.body, &id);
    assert!(row.contains("🐦‍⬛ 2 × Crow"), "{row}");
    assert!(row.contains("🪁 1 × Kite"), "{row}");
    assert!(row.contains("3 feathers"), "{row}");
    assert!(row.contains(&format!(r#"href="/p/{asha}""#)) && row.contains("@asha_k"));
    assert!(!row.contains(">crow") && !row.contains("kite:"), "{row}");
    let hindi = send(
        &app,
        with_cookie("/trades", &format!("{ravi_cookie}; udd_lang=hi")),
    )
    .await;
    let row = offer_row(&hindi.body, &id);
    assert!(row.contains("2 × कौआ") && row.contains("1 × पतंग"), "{row}");
    assert!(hindi.body.contains("1 ऑफ़र इंतज़ार में"));
    // Every other page's top bar shows it too; a visitor's shows none.
    let other = send(&app, with_cookie("/things", &ravi_cookie)).await;
    assert_eq!(waiting_badge(&other.body), 1);
    let visitor = send(&app, get_page("/things")).await;
    assert_eq!(waiting_badge(&visitor.body), 0);
    let asha_page = send(&app, with_cookie("/trades", &asha_cookie)).await;
    assert_eq!(
        waiting_badge(&asha_page.body),
        0,
        "her own offer waits for Ravi"
    );

    // Ravi accepts without JavaScript: back to his trades with a notice of what he got.
    let accepted = browser_send(
        &app,
        "/api/trades/accept",
        &format!("offer={id}"),
        &ravi_cookie,
        "/trades",
    )
    .await;
    let back = location(&accepted);
    assert_eq!(back, format!("/trades?done={id}"));
    let page = send(&app, with_cookie(&back, &ravi_cookie)).await;
    let notice = tag(&page.body, "notice").expect("a notice");
    assert!(notice.contains(r#"role="status""#), "{notice}");
    assert!(
        page.body.contains(
            "Trade done with Asha: you got 🐦‍⬛ 2 × Crow, 🪶 3 feathers and gave 🪁 1 × Kite."
        ),
        "{}",
        page.body
    );
    assert_eq!(waiting_badge(&page.body), 0, "nothing waiting now");
    assert_eq!(
        state().await,
        (vec![0, 1, 2, 0], 2, 23),
        "both bags changed"
    );
    // Nobody else reads a notice of it.
    let forged = send(&app, with_cookie(&back, &mallory_cookie)).await;
    assert!(tag(&forged.body, "notice").is_none());
}

#[tokio::test]
async fn a_refused_offer_form_comes_back_as_it_was_with_the_error_beside_its_field() {
    let (app, engine) = support::app_with_catalog().await;
    let db = Db::new(engine.client.clone(), "udd");
    let (asha_cookie, asha) = guest(&app, "Asha").await;
    let (ravi_cookie, ravi) = guest(&app, "Ravi").await;
    db.inventory()
        .grant_rewards(&asha, &rewards(vec![thing("crow"), thing("crow")], 1))
        .await
        .unwrap();
    db.inventory()
        .grant_rewards(&ravi, &rewards(vec![thing("kite")], 0))
        .await
        .unwrap();
    let form_page = format!("/trades?with={ravi}");

    // The form: both bags as tiles, names and counts, a quantity each; no ids to type.
    let page = send(&app, with_cookie(&form_page, &asha_cookie)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(
        count(&page.body, r#"data-testid="make-offer""#),
        1,
        "one form"
    );
    assert!(
        tag(&page.body, "choose-player").is_none(),
        "and only that one"
    );
    let crow = tag(&page.body, "give-crow").expect("her crow");
    assert!(
        crow.contains(r#"max="2""#) && crow.contains(r#"name="give[crow]""#),
        "{crow}"
    );
    let kite = tag(&page.body, "want-kite").expect("his kite");
    assert!(kite.contains(r#"max="1""#), "{kite}");
    assert!(page.body.contains("Crow") && page.body.contains("You have 2"));
    assert!(!page.body.contains("crow:"), "no ids to type");

    // A refusal: back to the form with what was typed, the error beside its field.
    let refused = browser_send(
        &app,
        "/api/trades/offer",
        &format!("to_player={ravi}&give%5Bcrow%5D=2&want%5Bkite%5D=1&give_feathers=50&hours=12"),
        &asha_cookie,
        &form_page,
    )
    .await;
    let back = location(&refused);
    assert!(back.starts_with("/trades?with="), "{back}");
    assert!(
        back.contains("field=give_feathers") && back.contains("__sig="),
        "{back}"
    );
    let page = send(&app, with_cookie(&back, &asha_cookie)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(tag(&page.body, "give-crow")
        .unwrap()
        .contains(r#"value="2""#));
    assert!(tag(&page.body, "want-kite")
        .unwrap()
        .contains(r#"value="1""#));
    assert!(tag(&page.body, "give_feathers")
        .unwrap()
        .contains(r#"value="50""#));
    assert!(tag(&page.body, "hours").unwrap().contains(r#"value="12""#));
    let feathers = tag(&page.body, "give_feathers").unwrap();
    assert!(feathers.contains(r#"aria-invalid="true""#), "{feathers}");
    let error = &page.body[page
        .body
        .find(r#"data-testid="give_feathers-error""#)
        .unwrap()..];
    assert!(
        error.contains("Not enough feathers: you have 1, and it takes 50."),
        "{error}"
    );
    assert!(
        tag(&page.body, "form-error").is_none(),
        "beside the field, not above"
    );
    // A quantity that is not a number: the error beside that card.
    let refused = browser_send(
        &app,
        "/api/trades/offer",
        &format!("to_player={ravi}&give%5Bcrow%5D=abc"),
        &asha_cookie,
        &form_page,
    )
    .await;
    let page = send(&app, with_cookie(&location(&refused), &asha_cookie)).await;
    let tile = &page.body[page.body.find(r#"data-field="give.crow""#).unwrap()..];
    let tile = &tile[..tile.find("</li>").unwrap()];
    assert!(tile.contains("Type a whole number"), "{tile}");
    assert_eq!(
        db.inventory().offers_waiting(&ravi).await.unwrap(),
        0,
        "nothing made"
    );

    // Sent: to the trades page with a notice.
    let sent = browser_send(
        &app,
        "/api/trades/offer",
        &format!("to_player={ravi}&give%5Bcrow%5D=1&want%5Bkite%5D=1&give_feathers=0&want_feathers=0&hours=24"),
        &asha_cookie,
        &form_page,
    )
    .await;
    let back = location(&sent);
    assert!(back.starts_with("/trades?done="), "{back}");
    let page = send(&app, with_cookie(&back, &asha_cookie)).await;
    assert!(page.body.contains("Offer sent to Ravi."), "{}", page.body);
    assert_eq!(db.inventory().offers_waiting(&ravi).await.unwrap(), 1);
    // Ravi declines it: a notice, and nothing changed hands.
    let id = back.trim_start_matches("/trades?done=").to_owned();
    let declined = browser_send(
        &app,
        "/api/trades/close",
        &format!("offer={id}"),
        &ravi_cookie,
        "/trades",
    )
    .await;
    let page = send(&app, with_cookie(&location(&declined), &ravi_cookie)).await;
    assert!(page.body.contains("You declined Asha"), "{}", page.body);
    assert_eq!(db.inventory().offers_waiting(&ravi).await.unwrap(), 0);
    assert_eq!(
        db.inventory()
            .stack(&asha, Place::Bag, &thing("crow"))
            .await
            .unwrap()
            .map(|s| s.qty),
        Some(2)
    );

    // The player is chosen by typing their name: an unknown one is told beside the field, as
    // typed.
    let page = send(
        &app,
        with_cookie("/trades?with=%40nobody_here", &asha_cookie),
    )
    .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(tag(&page.body, "with")
        .unwrap()
        .contains(r#"value="@nobody_here""#));
    assert!(tag(&page.body, "with-error").is_some());
    assert!(tag(&page.body, "make-offer").is_none());
    let own = send(
        &app,
        with_cookie(&format!("/trades?with={asha}"), &asha_cookie),
    )
    .await;
    assert!(tag(&own.body, "with-error").is_some(), "not to herself");

    // A profile links to the form; one's own does not.
    let profile = send(&app, with_cookie(&format!("/p/{ravi}"), &asha_cookie)).await;
    assert_eq!(
        link(&profile.body, "offer-trade").as_deref(),
        Some(format!("/trades?with={ravi}").as_str())
    );
    let mine = send(&app, with_cookie(&format!("/p/{asha}"), &asha_cookie)).await;
    assert!(link(&mine.body, "offer-trade").is_none());
}

#[tokio::test]
async fn a_player_declines_every_strangers_offer_in_one_action_and_the_places_free_at_once() {
    let (app, engine) = support::app_with_catalog().await;
    let db = Db::new(engine.client.clone(), "udd");
    let (ravi_cookie, ravi) = guest(&app, "Ravi").await;
    let offer = |cookie: String| {
        let app = app.clone();
        let ravi = ravi.clone();
        async move {
            post(
                &app,
                "/api/trades/offer",
                &format!("to_player={ravi}&want_feathers=1&hours=168"),
                Some(&cookie),
            )
            .await
        }
    };
    // Strangers fill every place, each asking for a week: a stranger's offer stays a day.
    let cap = app::inventory::rules::STRANGER_OFFERS;
    let mut made = Vec::new();
    for i in 0..cap {
        let (cookie, _) = guest(&app, &format!("Guest{i}")).await;
        let reply = offer(cookie).await;
        assert_eq!(reply.status, StatusCode::OK, "offer {i}: {}", reply.json);
        let lasts =
            reply.json["expires_ms"].as_i64().unwrap() - reply.json["made_ms"].as_i64().unwrap();
        assert!(lasts <= 86_400_000, "open {lasts} ms");
        made.push(reply.json["id"].as_str().unwrap().to_owned());
    }
    let (late, _) = guest(&app, "Late").await;
    let full = offer(late.clone()).await;
    assert_eq!(full.status, StatusCode::CONFLICT, "{}", full.json);

    // The trades page offers the one action; another player's post of it declines only theirs.
    let page = send(&app, with_cookie("/trades", &ravi_cookie)).await;
    assert!(page.body.contains(r#"data-testid="decline-strangers""#));
    let theirs = post(&app, "/api/trades/decline-strangers", "", Some(&late)).await;
    assert_eq!(theirs.status, StatusCode::OK, "{}", theirs.json);
    assert_eq!(theirs.json, serde_json::json!(0));
    assert_eq!(
        db.inventory().offers_from_strangers(&ravi).await.unwrap(),
        cap
    );

    let cleared = post(
        &app,
        "/api/trades/decline-strangers",
        "",
        Some(&ravi_cookie),
    )
    .await;
    assert_eq!(cleared.status, StatusCode::OK, "{}", cleared.json);
    assert_eq!(cleared.json, serde_json::json!(cap));
    for id in &made {
        let id = app::inventory::OfferId::parse(id).unwrap();
        let stored = db.inventory().offer(&id).await.unwrap().unwrap();
        assert_eq!(stored.status, app::inventory::OfferStatus::Declined);
    }
    assert_eq!(
        db.inventory().offers_from_strangers(&ravi).await.unwrap(),
        0
    );
    // The places are free at once: the stranger who was turned away gets in now.
    let again = offer(late).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.json);
    // Without JavaScript the form comes back to the trades page, saying how many.
    let form = browser_post("/api/trades/decline-strangers", "", &ravi_cookie, "/trades");
    let back = send(&app, form).await;
    assert!(back.status.is_redirection(), "{}", back.status);
    assert_eq!(back.header("location"), Some("/trades?cleared=1"));
    let told = send(&app, with_cookie("/trades?cleared=1", &ravi_cookie)).await;
    assert!(
        told.body
            .contains("You declined 1 offer from a player you have not played with."),
        "the notice"
    );
}
