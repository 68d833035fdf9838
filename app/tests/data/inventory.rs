//! The inventory: stacks that never go negative or linger at zero, pages of one Query, the
//! alphabetical index and its prefix search, the shop's stock, trades that happen once, and
//! rewards granted once per match through the stream projector's crashes and replays.

use std::collections::BTreeMap;
use std::sync::Arc;

use app::catalog::Category;
use app::identity::UserId;
use app::inventory::rules::STRANGER_OFFERS;
use app::inventory::store::shop::ShopKind;
use app::inventory::store::trades::{Direction, Met, Party};
use app::inventory::store::{InventoryError, Refusal, CARDS};
use app::inventory::{Badge, OfferStatus, Place, Rewards, Side, ThingId};
use app::store::{keys, Db};
use rand::{Rng, SeedableRng};
use tokio::sync::Mutex;

use super::{player, test_table, TestTable};

pub(super) fn thing(raw: &str) -> ThingId {
    ThingId::parse(raw).unwrap()
}

pub(super) fn cards(list: &[&str]) -> Rewards {
    Rewards {
        cards: list.iter().map(|t| thing(t)).collect(),
        ..Rewards::default()
    }
}

pub(super) fn feathers(n: u64) -> Rewards {
    Rewards {
        feathers: n,
        ..Rewards::default()
    }
}

pub(super) async fn qty(db: &Db, user: &UserId, place: Place, raw: &str) -> u32 {
    db.inventory()
        .stack(user, place, &thing(raw))
        .await
        .unwrap()
        .map_or(0, |s| s.qty)
}

/// Asha offers Ravi one crow for 30 feathers, through `db`.
pub(super) async fn crow_for_thirty(
    db: &Db,
    asha: &UserId,
    ravi: &UserId,
) -> Result<app::inventory::Offer, InventoryError> {
    db.inventory()
        .make_offer(
            (asha, "Asha"),
            (ravi, "Ravi"),
            Side {
                cards: vec![(thing("crow"), 1)],
                feathers: 0,
            },
            Side {
                cards: Vec::new(),
                feathers: 30,
            },
            3_600,
        )
        .await
}

/// Every stack item in a player's inventory partition, read raw: (SK, qty).
async fn raw_stacks(t: &TestTable, user: &UserId) -> Vec<(String, i64)> {
    t.partition(&keys::inventory_partition(user))
        .await
        .into_iter()
        .filter_map(|i| {
            let qty = i.get("qty")?.as_n().ok()?.parse().ok()?;
            Some((i.get("SK")?.as_s().ok()?.clone(), qty))
        })
        .collect()
}

#[tokio::test]
async fn stacks_add_remove_and_move_without_going_negative_or_staying_at_zero() {
    let t = test_table().await;
    let me = player(&t, "Asha").await;
    t.db.inventory()
        .grant_rewards(&me, &cards(&["crow", "crow", "crow", "kite"]))
        .await
        .unwrap();
    assert_eq!(qty(&t.db, &me, Place::Bag, "crow").await, 3);
    t.db.inventory()
        .remove_cards(&me, Place::Bag, &thing("crow"), 2)
        .await
        .unwrap();
    assert_eq!(qty(&t.db, &me, Place::Bag, "crow").await, 1);
    let refused =
        t.db.inventory()
            .remove_cards(&me, Place::Bag, &thing("crow"), 2)
            .await;
    assert!(
        matches!(refused, Err(InventoryError::NotEnough(_))),
        "{refused:?}"
    );
    assert_eq!(qty(&t.db, &me, Place::Bag, "crow").await, 1, "unchanged");

    t.calls.reset();
    t.db.inventory()
        .move_cards(&me, &thing("crow"), 1, Place::Bag)
        .await
        .unwrap();
    assert_eq!(
        t.calls.ops(),
        vec!["BatchGetItem", "TransactWriteItems"],
        "a move is one read and one transaction"
    );
    assert_eq!(qty(&t.db, &me, Place::Bag, "crow").await, 0);
    assert_eq!(qty(&t.db, &me, Place::Bank, "crow").await, 1);
    let stacks = raw_stacks(&t, &me).await;
    assert!(
        stacks.iter().all(|(_, q)| *q > 0),
        "no stack at 0: {stacks:?}"
    );
    assert_eq!(stacks.len(), 2, "bank crow and bag kite: {stacks:?}");

    // Unknown cards and silly counts are refused before any write.
    t.calls.reset();
    for (raw, count) in [("dodo-bird-x", 1), ("crow", 0), ("crow", 1_000_000)] {
        let outcome =
            t.db.inventory()
                .move_cards(&me, &thing(raw), count, Place::Bank)
                .await;
        assert!(
            matches!(outcome, Err(InventoryError::Invalid(_))),
            "{outcome:?}"
        );
    }
    assert!(t.calls.ops().is_empty(), "{:?}", t.calls.ops());
}

#[tokio::test]
async fn racing_removals_on_two_instances_never_take_more_than_there_is() {
    let t = test_table().await;
    let me = player(&t, "Asha").await;
    let ten: Vec<&str> = vec!["bee"; 10];
    t.db.inventory()
        .grant_rewards(&me, &cards(&ten))
        .await
        .unwrap();
    let other = Db::new(t.engine.client.clone(), t.db.table_name());
    let tasks: Vec<_> = (0..30)
        .map(|i| {
            let db = if i % 2 == 0 {
                t.db.clone()
            } else {
                other.clone()
            };
            let me = me.clone();
            tokio::spawn(async move {
                db.inventory()
                    .remove_cards(&me, Place::Bag, &thing("bee"), 1)
                    .await
            })
        })
        .collect();
    let mut taken = 0;
    for task in tasks {
        match task.await.unwrap() {
            Ok(()) => taken += 1,
            Err(InventoryError::NotEnough(_)) | Err(InventoryError::Data(_)) => {}
            Err(other) => panic!("{other:?}"),
        }
    }
    let left = qty(&t.db, &me, Place::Bag, "bee").await;
    assert_eq!(taken + left, 10, "{taken} taken, {left} left");
    assert!(taken >= 1);
    assert!(raw_stacks(&t, &me).await.iter().all(|(_, q)| *q > 0));
}

#[tokio::test]
async fn an_inventory_page_is_one_query_with_signed_cursors_and_the_name_index_sorts_and_searches()
{
    let t = test_table().await;
    let me = player(&t, "Asha").await;
    let birds: Vec<&str> = vec![
        "crow",
        "sparrow",
        "parrot",
        "pigeon",
        "myna",
        "koel",
        "pied-cuckoo",
        "hawk-cuckoo",
    ];
    let mut all = birds.clone();
    all.extend(["bee", "butterfly", "kite", "cow"]);
    t.db.inventory()
        .grant_rewards(&me, &cards(&all))
        .await
        .unwrap();

    // The first cursor loads the table's signing secret once: not part of any read's cost.
    t.db.inventory()
        .cards(&me, Place::Bag, None, None, 1)
        .await
        .unwrap();
    t.calls.reset();
    let first =
        t.db.inventory()
            .cards(&me, Place::Bag, None, None, 5)
            .await
            .unwrap();
    assert_eq!(
        t.calls.ops(),
        vec!["Query"],
        "an inventory page is one Query"
    );
    assert_eq!(first.items.len(), 5);
    let mut seen = first.items.clone();
    let mut next = first.next.clone();
    while let Some(cursor) = next {
        let page =
            t.db.inventory()
                .cards(&me, Place::Bag, None, Some(&cursor), 5)
                .await
                .unwrap();
        seen.extend(page.items);
        next = page.next;
    }
    assert_eq!(seen.len(), all.len());
    let order: Vec<(String, String)> = seen
        .iter()
        .map(|s| (s.category.slug().to_owned(), s.thing.as_str().to_owned()))
        .collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted, "by category, then thing");

    // A cursor is bound to its query and cannot be forged.
    let cursor = first.next.unwrap();
    let other_query =
        t.db.inventory()
            .cards(&me, Place::Bank, None, Some(&cursor), 5)
            .await;
    assert!(matches!(other_query, Err(app::store::DataError::BadCursor)));
    let mut forged = cursor.clone();
    forged.replace_range(0..1, if forged.starts_with('A') { "B" } else { "A" });
    assert!(t
        .db
        .inventory()
        .cards(&me, Place::Bag, None, Some(&forged), 5)
        .await
        .is_err());

    // One category.
    let bird_page =
        t.db.inventory()
            .cards(&me, Place::Bag, Some(Category::Bird), None, 50)
            .await
            .unwrap();
    assert_eq!(bird_page.items.len(), birds.len());
    assert!(bird_page.items.iter().all(|s| s.category == Category::Bird));

    // Alphabetical, and a prefix search: one Query of the LSI each.
    t.calls.reset();
    let by_name =
        t.db.inventory()
            .cards_by_name(&me, Place::Bag, None, None, 50)
            .await
            .unwrap();
    assert_eq!(t.calls.ops(), vec!["Query"]);
    let names: Vec<String> = by_name
        .items
        .iter()
        .map(|s| app::inventory::rules::fold_name(&s.name))
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    let found =
        t.db.inventory()
            .cards_by_name(&me, Place::Bag, Some("HAWK"), None, 50)
            .await
            .unwrap();
    assert_eq!(
        found
            .items
            .iter()
            .map(|s| s.thing.as_str())
            .collect::<Vec<_>>(),
        vec!["hawk-cuckoo"]
    );
    let infix =
        t.db.inventory()
            .cards_by_name(&me, Place::Bag, Some("cuckoo"), None, 50)
            .await
            .unwrap();
    assert!(
        infix.items.is_empty(),
        "a prefix search finds nothing inside a name"
    );

    // Set completion.
    let sets = t.db.inventory().set_progress(&me).await.unwrap();
    let bird_set = sets.iter().find(|s| s.category == Category::Bird).unwrap();
    assert_eq!(bird_set.held, birds.len() as u32);
    let in_catalog = CARDS
        .values()
        .filter(|c| c.category == Category::Bird)
        .count();
    assert_eq!(bird_set.of, in_catalog as u32);
}

#[tokio::test]
async fn the_shop_sells_within_the_wallet_and_the_days_stock() {
    let t = test_table().await;
    t.db.inventory().seed_shop().await.unwrap();
    let shop = t.db.inventory().shop().await.unwrap();
    let limited = shop
        .iter()
        .find(|i| i.daily == Some(5) && matches!(i.kind, ShopKind::Look))
        .expect("a look with a daily stock of 5")
        .clone();
    let pack = shop
        .iter()
        .find(|i| matches!(i.kind, ShopKind::Pack { cards: 3 }))
        .unwrap()
        .clone();

    let poor = player(&t, "Poor").await;
    let refused = t.db.inventory().buy(&poor, &pack.id, 1).await;
    assert!(
        matches!(
            refused,
            Err(InventoryError::Invalid(Refusal::Feathers { .. }))
        ),
        "feathers short is a bad request (400): {refused:?}"
    );
    assert_eq!(t.db.inventory().feathers(&poor).await.unwrap(), 0);

    let rich = player(&t, "Rich").await;
    t.db.inventory()
        .grant_rewards(&rich, &feathers(1_000))
        .await
        .unwrap();
    t.calls.reset();
    let bought = t.db.inventory().buy(&rich, &pack.id, 99).await.unwrap();
    assert_eq!(
        t.calls.ops(),
        vec!["BatchGetItem", "TransactWriteItems"],
        "one read of what the buy changes, then one transaction"
    );
    assert_eq!(bought.cards.len(), 3);
    assert_eq!(
        t.db.inventory().feathers(&rich).await.unwrap(),
        1_000 - pack.price
    );
    let held: u32 = futures::future::join_all(
        bought
            .cards
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .map(|c| qty(&t.db, &rich, Place::Bag, c.as_str())),
    )
    .await
    .into_iter()
    .sum();
    assert_eq!(held, 3);

    // Twenty buyers race for a stock of five, on two instances: exactly five are sold.
    let other = Db::new(t.engine.client.clone(), t.db.table_name());
    let mut buyers = Vec::new();
    for i in 0..20 {
        let buyer = player(&t, "Buyer").await;
        t.db.inventory()
            .grant_rewards(&buyer, &feathers(limited.price))
            .await
            .unwrap();
        let db = if i % 2 == 0 {
            t.db.clone()
        } else {
            other.clone()
        };
        let id = limited.id.clone();
        buyers.push((
            buyer.clone(),
            tokio::spawn(async move { db.inventory().buy(&buyer, &id, 0).await }),
        ));
    }
    let mut sold = 0;
    for (buyer, task) in buyers {
        let outcome = task.await.unwrap();
        let left = t.db.inventory().feathers(&buyer).await.unwrap();
        match outcome {
            Ok(_) => {
                sold += 1;
                assert_eq!(left, 0);
            }
            Err(_) => assert_eq!(left, limited.price, "a refused buy takes nothing"),
        }
    }
    assert_eq!(sold, 5);
    let after = t.db.inventory().shop().await.unwrap();
    assert_eq!(
        after.iter().find(|i| i.id == limited.id).unwrap().left,
        Some(0)
    );
    // A look is owned once.
    t.db.inventory()
        .grant_rewards(&rich, &feathers(1_000))
        .await
        .unwrap();
    let night = shop.iter().find(|i| i.id == "look-night").unwrap();
    t.db.inventory().buy(&rich, &night.id, 0).await.unwrap();
    let before = t.db.inventory().feathers(&rich).await.unwrap();
    assert!(matches!(
        t.db.inventory().buy(&rich, &night.id, 0).await,
        Err(InventoryError::Invalid(_))
    ));
    assert_eq!(t.db.inventory().feathers(&rich).await.unwrap(), before);
    assert_eq!(
        t.db.inventory().looks(&rich).await.unwrap(),
        vec!["look-night".to_owned()]
    );
    // Unknown items.
    assert!(matches!(
        t.db.inventory().buy(&rich, "free-money", 0).await,
        Err(InventoryError::Invalid(_))
    ));
}

#[tokio::test]
async fn a_hundred_racing_accepts_of_one_offer_make_exactly_one_trade() {
    let t = test_table().await;
    let asha = player(&t, "Asha").await;
    let ravi = player(&t, "Ravi").await;
    t.db.inventory()
        .grant_rewards(&asha, &cards(&["crow", "crow"]))
        .await
        .unwrap();
    t.db.inventory()
        .grant_rewards(&ravi, &feathers(100))
        .await
        .unwrap();
    let offer = crow_for_thirty(&t.db, &asha, &ravi).await.unwrap();
    let other = Db::new(t.engine.client.clone(), t.db.table_name());
    let start = Arc::new(tokio::sync::Barrier::new(100));
    let tasks: Vec<_> = (0..100)
        .map(|i| {
            let db = if i % 2 == 0 {
                t.db.clone()
            } else {
                other.clone()
            };
            let (id, ravi, start) = (offer.id.clone(), ravi.clone(), start.clone());
            tokio::spawn(async move {
                start.wait().await;
                db.inventory().accept_offer(&id, &ravi).await
            })
        })
        .collect();
    let mut accepted = 0;
    for task in tasks {
        match task.await.unwrap() {
            Ok(_) => accepted += 1,
            Err(
                InventoryError::Closed | InventoryError::NotEnough(_) | InventoryError::Data(_),
            ) => {}
            Err(other) => panic!("{other:?}"),
        }
    }
    assert_eq!(accepted, 1);
    assert_eq!(qty(&t.db, &asha, Place::Bag, "crow").await, 1);
    assert_eq!(qty(&t.db, &ravi, Place::Bag, "crow").await, 1);
    assert_eq!(t.db.inventory().feathers(&asha).await.unwrap(), 30);
    assert_eq!(t.db.inventory().feathers(&ravi).await.unwrap(), 70);
    let stored = t.db.inventory().offer(&offer.id).await.unwrap().unwrap();
    assert_eq!(stored.status, OfferStatus::Accepted);
}

#[tokio::test]
async fn an_accept_is_one_transaction_after_reading_the_offer_and_both_sides() {
    let t = test_table().await;
    let asha = player(&t, "Asha").await;
    let ravi = player(&t, "Ravi").await;
    t.db.inventory()
        .grant_rewards(&asha, &cards(&["crow", "kite"]))
        .await
        .unwrap();
    t.db.inventory()
        .grant_rewards(&ravi, &feathers(40))
        .await
        .unwrap();
    let offer =
        t.db.inventory()
            .make_offer(
                (&asha, "Asha"),
                (&ravi, "Ravi"),
                Side {
                    cards: vec![(thing("crow"), 1), (thing("kite"), 1)],
                    feathers: 0,
                },
                Side {
                    cards: Vec::new(),
                    feathers: 25,
                },
                3_600,
            )
            .await
            .unwrap();
    t.calls.reset();
    t.db.inventory()
        .accept_offer(&offer.id, &ravi)
        .await
        .unwrap();
    assert_eq!(
        t.calls.ops(),
        vec!["GetItem", "BatchGetItem", "TransactWriteItems"],
        "the offer, then both sides' stacks and wallets, then one transaction"
    );
    assert_eq!(qty(&t.db, &ravi, Place::Bag, "kite").await, 1);
    assert_eq!(t.db.inventory().feathers(&asha).await.unwrap(), 25);
    assert_eq!(t.db.inventory().feathers(&ravi).await.unwrap(), 15);
}

#[tokio::test]
async fn trades_refuse_bad_offers_strangers_expiry_and_the_bank_and_change_nothing() {
    let t = test_table().await;
    let asha = player(&t, "Asha").await;
    let ravi = player(&t, "Ravi").await;
    let mallory = player(&t, "Mallory").await;
    t.db.inventory()
        .grant_rewards(&asha, &cards(&["crow", "kite"]))
        .await
        .unwrap();
    t.db.inventory()
        .grant_rewards(&asha, &feathers(10))
        .await
        .unwrap();
    t.db.inventory()
        .grant_rewards(&ravi, &cards(&["bee"]))
        .await
        .unwrap();
    t.db.inventory()
        .move_cards(&asha, &thing("kite"), 1, Place::Bag)
        .await
        .unwrap();
    let give = |raw: &str, n: u32| Side {
        cards: vec![(thing(raw), n)],
        feathers: 0,
    };
    let to_ravi = (&ravi, "Ravi");
    let from_asha = (&asha, "Asha");
    t.calls.reset();
    let bad: Vec<(Side, Side, i64)> = vec![
        (give("unknown-thing", 1), Side::default(), 3_600),
        (give("crow", 0), Side::default(), 3_600),
        (give("crow", 50_000), Side::default(), 3_600),
        (Side::default(), Side::default(), 3_600),
        (give("crow", 1), Side::default(), 10 * 86_400),
        (
            Side {
                cards: vec![(thing("crow"), 1), (thing("crow"), 1)],
                feathers: 0,
            },
            Side::default(),
            3_600,
        ),
    ];
    for (gives, wants, secs) in bad {
        let refused =
            t.db.inventory()
                .make_offer(from_asha, to_ravi, gives, wants, secs)
                .await;
        assert!(
            matches!(refused, Err(InventoryError::Invalid(_))),
            "{refused:?}"
        );
    }
    assert!(t.calls.ops().is_empty(), "refused before any call");
    // Offering what one does not hold: more than held, banked cards, more feathers.
    for (gives, what) in [
        (give("crow", 2), "two crows"),
        (give("kite", 1), "a banked kite"),
        (
            Side {
                cards: Vec::new(),
                feathers: 11,
            },
            "11 feathers",
        ),
    ] {
        let refused =
            t.db.inventory()
                .make_offer(from_asha, to_ravi, gives, Side::default(), 3_600)
                .await;
        assert!(
            matches!(refused, Err(InventoryError::NotEnough(_))),
            "{what}: {refused:?}"
        );
    }
    assert!(t
        .db
        .inventory()
        .make_offer(
            from_asha,
            (&asha, "Asha"),
            give("crow", 1),
            Side::default(),
            3_600
        )
        .await
        .is_err());

    let offer =
        t.db.inventory()
            .make_offer(from_asha, to_ravi, give("crow", 1), give("bee", 1), 3_600)
            .await
            .unwrap();
    assert_eq!(
        t.db.inventory()
            .offers(&ravi, Direction::Incoming, 10)
            .await
            .unwrap()[0]
            .id,
        offer.id
    );
    assert_eq!(
        t.db.inventory()
            .offers(&asha, Direction::Outgoing, 10)
            .await
            .unwrap()[0]
            .id,
        offer.id
    );
    // Someone else's offer.
    assert!(matches!(
        t.db.inventory().accept_offer(&offer.id, &mallory).await,
        Err(InventoryError::Forbidden)
    ));
    assert!(matches!(
        t.db.inventory().close_offer(&offer.id, &mallory).await,
        Err(InventoryError::Forbidden)
    ));
    // Expired: the time is enforced on read and in the accept's condition, TTL or not.
    t.engine
        .client
        .update_item()
        .table_name(t.db.table_name())
        .key(
            "PK",
            aws_sdk_dynamodb::types::AttributeValue::S(keys::offer(&offer.id).pk),
        )
        .key(
            "SK",
            aws_sdk_dynamodb::types::AttributeValue::S(keys::offer(&offer.id).sk),
        )
        .update_expression("SET expires_ms = :past")
        .expression_attribute_values(
            ":past",
            aws_sdk_dynamodb::types::AttributeValue::N("1000".into()),
        )
        .send()
        .await
        .unwrap();
    assert!(matches!(
        t.db.inventory().accept_offer(&offer.id, &ravi).await,
        Err(InventoryError::Closed)
    ));
    assert_eq!(qty(&t.db, &asha, Place::Bag, "crow").await, 1);
    assert_eq!(qty(&t.db, &ravi, Place::Bag, "bee").await, 1);
    assert_eq!(qty(&t.db, &ravi, Place::Bag, "crow").await, 0);

    // Decline and cancel close an offer once.
    let second =
        t.db.inventory()
            .make_offer(from_asha, to_ravi, give("crow", 1), Side::default(), 3_600)
            .await
            .unwrap();
    assert_eq!(
        t.db.inventory()
            .close_offer(&second.id, &ravi)
            .await
            .unwrap(),
        OfferStatus::Declined
    );
    assert!(matches!(
        t.db.inventory().close_offer(&second.id, &asha).await,
        Err(InventoryError::Closed)
    ));
    assert!(matches!(
        t.db.inventory().accept_offer(&second.id, &ravi).await,
        Err(InventoryError::Closed)
    ));
    // A giver who lost the card since: the accept is refused and nothing moves.
    let third =
        t.db.inventory()
            .make_offer(from_asha, to_ravi, give("crow", 1), give("bee", 1), 3_600)
            .await
            .unwrap();
    t.db.inventory()
        .move_cards(&asha, &thing("crow"), 1, Place::Bag)
        .await
        .unwrap();
    let refused = t.db.inventory().accept_offer(&third.id, &ravi).await;
    assert!(
        matches!(
            refused,
            Err(InventoryError::NotEnough(Refusal::MakerNoLongerHolds))
        ),
        "{refused:?}"
    );
    let told = refused.unwrap_err().to_string();
    assert!(
        told.contains("no longer holds") && !told.chars().any(|c| c.is_ascii_digit()),
        "what the maker holds is not the accepter's to know: {told}"
    );
    assert_eq!(qty(&t.db, &ravi, Place::Bag, "bee").await, 1);
    assert_eq!(qty(&t.db, &asha, Place::Bank, "crow").await, 1);
    assert_eq!(
        t.db.inventory()
            .offer(&third.id)
            .await
            .unwrap()
            .unwrap()
            .status,
        OfferStatus::Open
    );
}

/// What the random workload minted and what left the players, to check against what they hold.
#[derive(Default)]
struct Ledger {
    cards_minted: BTreeMap<ThingId, i64>,
    cards_sold: BTreeMap<ThingId, i64>,
    feathers_minted: i64,
    feathers_spent: i64,
}

/// Operations of the random workload running at once.
const IN_FLIGHT: usize = 32;

#[tokio::test]
async fn a_thousand_random_operations_conserve_every_card_and_feather() {
    let ops: usize = std::env::var("UDD_INVENTORY_OPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_200);
    let t = test_table().await;
    t.db.inventory().seed_shop().await.unwrap();
    let shop = t.db.inventory().shop().await.unwrap();
    let other = Db::new(t.engine.client.clone(), t.db.table_name());
    let mut players = Vec::new();
    for i in 0..6 {
        players.push(player(&t, &format!("P{i}")).await);
    }
    let pool: Vec<ThingId> = ["crow", "kite", "bee", "cow", "parrot", "dragon"]
        .iter()
        .map(|t| thing(t))
        .collect();
    let ledger = Arc::new(Mutex::new(Ledger::default()));
    let players = Arc::new(players);
    let pool = Arc::new(pool);
    let shop = Arc::new(shop);
    // Every operation is spawned at once; IN_FLIGHT of them run at a time. Without a bound, a
    // thousand calls queue inside DynamoDB Local past the SDK's attempt timeout, and an
    // operation the client saw fail may still have been applied, which a client-side ledger
    // cannot count.
    let in_flight = Arc::new(tokio::sync::Semaphore::new(IN_FLIGHT));
    let mut tasks = Vec::new();
    for i in 0..ops {
        let db = if i % 2 == 0 {
            t.db.clone()
        } else {
            other.clone()
        };
        let (ledger, players, pool, shop, in_flight) = (
            ledger.clone(),
            players.clone(),
            pool.clone(),
            shop.clone(),
            in_flight.clone(),
        );
        tasks.push(tokio::spawn(async move {
            let _permit = in_flight.acquire().await.unwrap();
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(i as u64);
            let me = &players[rng.random_range(0..players.len())];
            let you = &players[rng.random_range(0..players.len())];
            let card = &pool[rng.random_range(0..pool.len())];
            let place = if rng.random_bool(0.5) {
                Place::Bag
            } else {
                Place::Bank
            };
            match rng.random_range(0..8) {
                0 => {
                    let n = rng.random_range(1..4u32);
                    let reward = Rewards {
                        cards: vec![card.clone(); n as usize],
                        feathers: rng.random_range(0..30),
                        badges: vec![Badge::FirstWin],
                    };
                    if db.inventory().grant_rewards(me, &reward).await.is_ok() {
                        let mut l = ledger.lock().await;
                        *l.cards_minted.entry(card.clone()).or_default() += i64::from(n);
                        l.feathers_minted += reward.feathers as i64;
                    }
                }
                1 => {
                    let item = &shop[rng.random_range(0..shop.len())];
                    if let Ok(bought) = db.inventory().buy(me, &item.id, i as u64).await {
                        let mut l = ledger.lock().await;
                        l.feathers_spent += bought.paid as i64;
                        for c in bought.cards {
                            *l.cards_minted.entry(c).or_default() += 1;
                        }
                    }
                }
                2 => {
                    let _ = db
                        .inventory()
                        .move_cards(me, card, rng.random_range(1..3), place)
                        .await;
                }
                3 => {
                    if let Ok(earned) = db.inventory().sell_cards(me, card, 1, true).await {
                        let mut l = ledger.lock().await;
                        *l.cards_sold.entry(card.clone()).or_default() += 1;
                        l.feathers_minted += earned as i64;
                    }
                }
                4 | 5 => {
                    let gives = Side {
                        cards: vec![(card.clone(), rng.random_range(1..3))],
                        feathers: rng.random_range(0..5),
                    };
                    let wants = Side {
                        cards: vec![(pool[rng.random_range(0..pool.len())].clone(), 1)],
                        feathers: rng.random_range(0..5),
                    };
                    let _ = db
                        .inventory()
                        .make_offer((me, "Me"), (you, "You"), gives, wants, 600)
                        .await;
                }
                6 => {
                    let incoming = db
                        .inventory()
                        .offers(me, Direction::Incoming, 5)
                        .await
                        .unwrap_or_default();
                    if let Some(offer) = incoming.first() {
                        let _ = db.inventory().accept_offer(&offer.id, me).await;
                    }
                }
                _ => {
                    let outgoing = db
                        .inventory()
                        .offers(me, Direction::Outgoing, 5)
                        .await
                        .unwrap_or_default();
                    if let Some(offer) = outgoing.first() {
                        let _ = db.inventory().close_offer(&offer.id, me).await;
                    }
                }
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let ledger = ledger.lock().await;
    let mut held_cards: BTreeMap<ThingId, i64> = BTreeMap::new();
    let mut held_feathers = 0i64;
    for p in players.iter() {
        for (sk, qty) in raw_stacks(&t, p).await {
            assert!(qty > 0, "{sk} at {qty}");
            let thing = thing(sk.rsplit('#').next().unwrap());
            *held_cards.entry(thing).or_default() += qty;
        }
        held_feathers += t.db.inventory().feathers(p).await.unwrap() as i64;
    }
    let mut expected = ledger.cards_minted.clone();
    for (thing, sold) in &ledger.cards_sold {
        *expected.entry(thing.clone()).or_default() -= sold;
    }
    expected.retain(|_, n| *n != 0);
    assert_eq!(held_cards, expected, "cards: minted - sold = held");
    assert_eq!(
        held_feathers,
        ledger.feathers_minted - ledger.feathers_spent,
        "feathers: minted - spent = held"
    );
    let accepted = {
        let mut n = 0;
        for p in players.iter() {
            n +=
                t.db.inventory()
                    .offers(p, Direction::Outgoing, 50)
                    .await
                    .unwrap()
                    .iter()
                    .filter(|o| o.status == OfferStatus::Accepted)
                    .count();
        }
        n
    };
    eprintln!(
        "{ops} operations: {} cards and {held_feathers} feathers held, {accepted} trades accepted",
        held_cards.values().sum::<i64>()
    );
    assert!(accepted > 0, "the workload traded");
}

#[tokio::test]
async fn a_round_trip_budget_holds_for_the_read_patterns() {
    let t = test_table().await;
    let me = player(&t, "Asha").await;
    t.db.inventory()
        .grant_rewards(&me, &cards(&["crow"]))
        .await
        .unwrap();
    t.calls.reset();
    t.db.inventory()
        .stack(&me, Place::Bag, &thing("crow"))
        .await
        .unwrap();
    t.db.inventory().feathers(&me).await.unwrap();
    t.db.inventory().set_progress(&me).await.unwrap();
    t.db.inventory().badges(&me).await.unwrap();
    t.db.inventory()
        .offers(&me, Direction::Incoming, 10)
        .await
        .unwrap();
    assert_eq!(
        t.calls.ops(),
        vec!["GetItem", "GetItem", "Query", "Query", "Query"]
    );
}

#[tokio::test]
async fn match_rewards_are_granted_once_through_duplicates_replays_and_a_rebuild() {
    use app::game::model::MatchRecord;
    use app::game::store::resolve::match_record_item;
    use app::leaderboards::projector::Projector;

    let t = test_table().await;
    let asha = player(&t, "Asha").await;
    let room = app::rooms::RoomCode::parse("RWRD2").unwrap();
    let mut records = Vec::new();
    for i in 0..3 {
        let record = MatchRecord {
            record_id: ulid::Ulid::new().to_string(),
            user_id: asha.clone(),
            nickname: super::name("Asha"),
            avatar: app::identity::Avatar::Owl,
            room: room.clone(),
            room_id: None,
            score: 900 + i,
            placement: 1,
            players: 2,
            correct: 4,
            rounds: 5,
            average_reaction_ms: Some(300),
            finished_at_ms: app::store::epoch_millis() - 1_000 + i64::from(i),
            right: ["crow", "kite", "cow", "bee"]
                .iter()
                .map(|t| thing(t))
                .collect(),
            best_streak: 4,
            first_round: 1,
            daily: None,
            deck: None,
            flagged: false,
        };
        t.engine
            .client
            .put_item()
            .table_name(t.db.table_name())
            .set_item(Some(match_record_item(&record).unwrap()))
            .send()
            .await
            .unwrap();
        records.push(record);
    }
    let check = |label: &'static str| {
        let db = t.db.clone();
        let asha = asha.clone();
        async move {
            for (card, want) in [("crow", 3), ("kite", 3), ("cow", 3), ("bee", 0)] {
                assert_eq!(
                    qty(&db, &asha, Place::Bag, card).await,
                    want,
                    "{label}: {card}"
                );
            }
            // 1 for playing, 2 × 4 right, 15 for first place; three matches.
            assert_eq!(
                db.inventory().feathers(&asha).await.unwrap(),
                3 * 24,
                "{label}: feathers"
            );
            let badges: Vec<Badge> = db
                .inventory()
                .badges(&asha)
                .await
                .unwrap()
                .into_iter()
                .map(|b| b.0)
                .collect();
            assert_eq!(badges, vec![Badge::FirstWin], "{label}: badges");
        }
    };
    let projector = || Projector::new(t.db.clone(), t.engine.streams.clone());
    projector().catch_up().await.unwrap();
    check("counted").await;

    // A duplicate delivery of every record.
    let results: Vec<_> = records
        .iter()
        .map(|r| {
            app::leaderboards::store::apply::result_from_item(&match_record_item(r).unwrap())
                .unwrap()
        })
        .collect();
    assert_eq!(
        t.db.boards()
            .count_results(&results, &[])
            .await
            .unwrap()
            .counted,
        0
    );
    check("delivered twice").await;

    // A replay of the whole stream: every checkpoint forgotten.
    let leases = t.partition(keys::PROJECTOR).await;
    for lease in leases {
        t.engine
            .client
            .delete_item()
            .table_name(t.db.table_name())
            .key("PK", lease["PK"].clone())
            .key("SK", lease["SK"].clone())
            .send()
            .await
            .unwrap();
    }
    let replay = projector().catch_up().await.unwrap();
    assert!(replay.records >= 3);
    assert_eq!(replay.counted, 0);
    check("replayed").await;

    // And the rebuild from the match records.
    assert_eq!(t.db.boards().rebuild_boards().await.unwrap().counted, 0);
    check("rebuilt").await;
}

#[tokio::test]
async fn who_might_trade_a_card_lists_bag_spares_newest_first_in_one_query() {
    let t = test_table().await;
    let pause = || tokio::time::sleep(std::time::Duration::from_millis(5));
    let a = player(&t, "Asha").await;
    let b = player(&t, "Ravi").await;
    let c = player(&t, "Kiran").await;
    let d = player(&t, "Devi").await;
    t.db.inventory()
        .grant_rewards(&a, &cards(&["crow", "crow"]))
        .await
        .unwrap();
    pause().await;
    t.db.inventory()
        .grant_rewards(&b, &cards(&["crow"; 5]))
        .await
        .unwrap();
    pause().await;
    t.db.inventory()
        .grant_rewards(&c, &cards(&["crow"]))
        .await
        .unwrap();
    t.db.inventory()
        .grant_rewards(&d, &cards(&["crow", "crow"]))
        .await
        .unwrap();
    t.db.inventory()
        .move_cards(&d, &thing("crow"), 2, Place::Bag)
        .await
        .unwrap();
    pause().await;

    t.calls.reset();
    let holders =
        t.db.inventory()
            .card_holders(&thing("crow"), 60)
            .await
            .unwrap();
    assert_eq!(t.calls.ops(), vec!["Query"]);
    assert_eq!(
        holders,
        vec![(b.clone(), 5), (a.clone(), 2)],
        "one card is no spare; banked cards are not offered"
    );

    // Asha's stack changes last: she comes first. Ravi gives three away: one left, no spare.
    t.db.inventory()
        .grant_rewards(&a, &cards(&["crow"]))
        .await
        .unwrap();
    pause().await;
    t.db.inventory()
        .remove_cards(&b, Place::Bag, &thing("crow"), 4)
        .await
        .unwrap();
    let holders =
        t.db.inventory()
            .card_holders(&thing("crow"), 60)
            .await
            .unwrap();
    assert_eq!(holders, vec![(a.clone(), 3)]);
    // A card nobody holds, and one the catalog does not have.
    assert!(t
        .db
        .inventory()
        .card_holders(&thing("kite"), 60)
        .await
        .unwrap()
        .is_empty());
    assert!(matches!(
        t.db.inventory()
            .card_holders(&thing("no-such-thing"), 60)
            .await,
        Err(InventoryError::Invalid(_))
    ));
}

/// Writes each player's record of one finished match they all played (as a match's end
/// writes them): after it, they have played together.
async fn play_together(t: &TestTable, players: &[&UserId], code: &str) {
    use app::game::model::MatchRecord;
    use app::game::store::resolve::match_record_item;
    let room = app::rooms::RoomCode::parse(code).unwrap();
    let finished_at_ms = app::store::epoch_millis();
    for (i, user) in players.iter().enumerate() {
        let record = MatchRecord {
            record_id: ulid::Ulid::new().to_string(),
            user_id: (*user).clone(),
            nickname: super::name("Player"),
            avatar: app::identity::Avatar::Owl,
            room: room.clone(),
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
        t.engine
            .client
            .put_item()
            .table_name(t.db.table_name())
            .set_item(Some(match_record_item(&record).unwrap()))
            .send()
            .await
            .unwrap();
    }
}

/// An offer of nothing for one feather: the maker need hold nothing.
fn ask_a_feather() -> (Side, Side) {
    (
        Side::default(),
        Side {
            cards: Vec::new(),
            feathers: 1,
        },
    )
}

#[tokio::test]
async fn thirty_racing_strangers_leave_at_most_the_cap_of_offers_open() {
    let t = test_table().await;
    let ravi = player(&t, "Ravi").await;
    let mut senders = Vec::new();
    for i in 0..30 {
        senders.push(player(&t, &format!("Guest {i}")).await);
    }
    let other = Db::new(t.engine.client.clone(), t.db.table_name());
    let start = Arc::new(tokio::sync::Barrier::new(senders.len()));
    let tasks: Vec<_> = senders
        .iter()
        .enumerate()
        .map(|(i, sender)| {
            let db = if i % 2 == 0 {
                t.db.clone()
            } else {
                other.clone()
            };
            let (sender, ravi, start) = (sender.clone(), ravi.clone(), start.clone());
            tokio::spawn(async move {
                let (gives, wants) = ask_a_feather();
                start.wait().await;
                db.inventory()
                    .make_offer((&sender, "Guest"), (&ravi, "Ravi"), gives, wants, 3_600)
                    .await
            })
        })
        .collect();
    let (mut made, mut full) = (0, 0);
    for task in tasks {
        match task.await.unwrap() {
            Ok(offer) => {
                assert!(offer.from_stranger);
                made += 1;
            }
            Err(InventoryError::NotEnough(Refusal::StrangerOffersFull)) => full += 1,
            Err(InventoryError::Data(app::store::DataError::Conflict(_))) => {}
            Err(other) => panic!("{other:?}"),
        }
    }
    let now = app::store::epoch_millis();
    let open =
        t.db.inventory()
            .offers(&ravi, Direction::Incoming, 50)
            .await
            .unwrap()
            .into_iter()
            .filter(|o| o.is_open(now))
            .count();
    eprintln!("{made} offers made, {full} refused as over the cap");
    assert!(open <= STRANGER_OFFERS, "{open} open offers from strangers");
    assert_eq!(
        open, made,
        "every offer made is open; no refused one was kept"
    );
    assert_eq!(
        t.db.inventory().offers_from_strangers(&ravi).await.unwrap(),
        open
    );
    assert_eq!(made, STRANGER_OFFERS, "the places fill up despite the race");
    assert_eq!(full + made, 30, "the others are refused as over the cap");
}

#[tokio::test]
async fn a_strangers_offer_holds_a_place_until_it_is_declined_cancelled_accepted_or_expires() {
    let t = test_table().await;
    let ravi = player(&t, "Ravi").await;
    let asha = player(&t, "Asha").await;
    let kiran = player(&t, "Kiran").await;
    let mut strangers = Vec::new();
    for i in 0..14 {
        strangers.push(player(&t, &format!("Guest {i}")).await);
    }
    t.db.inventory()
        .grant_rewards(&ravi, &feathers(10))
        .await
        .unwrap();
    play_together(&t, &[&asha, &ravi, &strangers[13]], "K7QX2").await;
    // Another match, without Ravi: Kiran has not played with him.
    play_together(&t, &[&kiran, &asha], "GMSRT").await;
    let offer_from = |from: &UserId| {
        let (db, from, ravi) = (t.db.clone(), from.clone(), ravi.clone());
        async move {
            let (gives, wants) = ask_a_feather();
            db.inventory()
                .make_offer((&from, "Guest"), (&ravi, "Ravi"), gives, wants, 3_600)
                .await
        }
    };
    let places = || t.db.inventory().offers_from_strangers(&ravi);
    let incoming = || async {
        t.db.inventory()
            .offers(&ravi, Direction::Incoming, 50)
            .await
            .unwrap()
            .len()
    };

    let mut offers = Vec::new();
    t.calls.reset();
    offers.push(offer_from(&strangers[0]).await.unwrap());
    let mut calls = t.calls.ops();
    calls.sort();
    assert_eq!(
        calls,
        vec![
            "BatchGetItem",
            "GetItem",
            "Query",
            "Query",
            "TransactWriteItems"
        ],
        "the maker's holdings, both players' latest matches, the places; one transaction"
    );
    for stranger in &strangers[1..STRANGER_OFFERS] {
        offers.push(offer_from(stranger).await.unwrap());
    }
    assert!(offers.iter().all(|o| o.from_stranger));
    assert_eq!(places().await.unwrap(), STRANGER_OFFERS);
    let refused = offer_from(&strangers[10]).await;
    assert!(
        matches!(
            refused,
            Err(InventoryError::NotEnough(Refusal::StrangerOffersFull))
        ),
        "{refused:?}"
    );
    assert!(refused
        .unwrap_err()
        .to_string()
        .contains(&STRANGER_OFFERS.to_string()));
    assert_eq!(
        incoming().await,
        STRANGER_OFFERS,
        "the refused offer made nothing"
    );

    // Players he has played with, or shares a room with now, are not strangers and take no place.
    let friend = offer_from(&asha).await.unwrap();
    let played = offer_from(&strangers[13]).await.unwrap();
    let (gives, wants) = ask_a_feather();
    let roommate =
        t.db.inventory()
            .make_offer_as(
                Party {
                    id: &kiran,
                    name: "Kiran",
                    username: None,
                },
                Party {
                    id: &ravi,
                    name: "Ravi",
                    username: None,
                },
                gives,
                wants,
                3_600,
                Met::InRoomNow,
            )
            .await
            .unwrap();
    assert!(!friend.from_stranger && !played.from_stranger && !roommate.from_stranger);
    assert_eq!(places().await.unwrap(), STRANGER_OFFERS);
    assert_eq!(
        t.db.inventory()
            .close_offer(&friend.id, &ravi)
            .await
            .unwrap(),
        OfferStatus::Declined
    );
    assert_eq!(
        places().await.unwrap(),
        STRANGER_OFFERS,
        "a friend's decline frees none"
    );

    // A decline frees a place.
    assert_eq!(
        t.db.inventory()
            .close_offer(&offers[0].id, &ravi)
            .await
            .unwrap(),
        OfferStatus::Declined
    );
    assert_eq!(places().await.unwrap(), STRANGER_OFFERS - 1);
    offer_from(&strangers[10]).await.unwrap();
    assert!(offer_from(&strangers[11]).await.is_err(), "full again");
    // So does a cancel.
    assert_eq!(
        t.db.inventory()
            .close_offer(&offers[1].id, &strangers[1])
            .await
            .unwrap(),
        OfferStatus::Cancelled
    );
    assert_eq!(places().await.unwrap(), STRANGER_OFFERS - 1);
    offer_from(&strangers[11]).await.unwrap();
    // And an accept, in its one transaction.
    t.calls.reset();
    t.db.inventory()
        .accept_offer(&offers[2].id, &ravi)
        .await
        .unwrap();
    assert_eq!(
        t.calls.ops(),
        vec!["GetItem", "BatchGetItem", "TransactWriteItems"]
    );
    assert_eq!(t.db.inventory().feathers(&ravi).await.unwrap(), 9);
    assert_eq!(places().await.unwrap(), STRANGER_OFFERS - 1);
    offer_from(&strangers[0]).await.unwrap();
    assert!(offer_from(&strangers[12]).await.is_err(), "full again");

    // An offer that just expires frees its place with no write: the next sender leaves it out.
    let expired = &offers[3];
    let past =
        aws_sdk_dynamodb::types::AttributeValue::N((app::store::epoch_millis() - 1).to_string());
    let places_key = keys::offers_from_strangers(&ravi);
    for (key, expression) in [
        (keys::offer(&expired.id), "SET expires_ms = :past"),
        (places_key, "SET #open.#offer = :past"),
    ] {
        let mut request = t
            .engine
            .client
            .update_item()
            .table_name(t.db.table_name())
            .key("PK", aws_sdk_dynamodb::types::AttributeValue::S(key.pk))
            .key("SK", aws_sdk_dynamodb::types::AttributeValue::S(key.sk))
            .update_expression(expression)
            .expression_attribute_values(":past", past.clone());
        if expression.contains("#open") {
            request = request
                .expression_attribute_names("#open", "open")
                .expression_attribute_names("#offer", expired.id.as_str());
        }
        request.send().await.unwrap();
    }
    assert_eq!(places().await.unwrap(), STRANGER_OFFERS - 1);
    offer_from(&strangers[12]).await.unwrap();
    assert_eq!(places().await.unwrap(), STRANGER_OFFERS);
    let now = app::store::epoch_millis();
    let open_from_strangers =
        t.db.inventory()
            .offers(&ravi, Direction::Incoming, 50)
            .await
            .unwrap()
            .into_iter()
            .filter(|o| o.from_stranger && o.is_open(now))
            .count();
    assert_eq!(open_from_strangers, STRANGER_OFFERS);
}

#[tokio::test]
async fn offer_lists_page_with_signed_cursors_so_no_offer_is_buried() {
    let t = test_table().await;
    let ravi = player(&t, "Ravi").await;
    let asha = player(&t, "Asha").await;
    play_together(&t, &[&asha, &ravi], "K7QX2").await;
    let mut made = Vec::new();
    for _ in 0..25 {
        let (gives, wants) = ask_a_feather();
        let offer =
            t.db.inventory()
                .make_offer((&asha, "Asha"), (&ravi, "Ravi"), gives, wants, 3_600)
                .await
                .unwrap();
        made.push(offer.id.to_string());
    }
    made.sort();
    made.reverse();
    // The first cursor (which reads the table's signing secret once).
    let first =
        t.db.inventory()
            .offers_page(&ravi, Direction::Incoming, 5, None)
            .await
            .unwrap()
            .next
            .unwrap();
    for (user, direction, per_page, sizes) in [
        (&ravi, Direction::Incoming, 20, vec![20, 5]),
        (&asha, Direction::Outgoing, 10, vec![10, 10, 5]),
        (&ravi, Direction::Incoming, 25, vec![25]),
    ] {
        let (mut seen, mut got_sizes, mut cursor) = (Vec::new(), Vec::new(), None::<String>);
        loop {
            t.calls.reset();
            let page =
                t.db.inventory()
                    .offers_page(user, direction, per_page, cursor.as_deref())
                    .await
                    .unwrap();
            assert_eq!(t.calls.ops(), vec!["Query"], "a page is one Query");
            got_sizes.push(page.items.len());
            seen.extend(page.items.iter().map(|o| o.id.to_string()));
            match page.next {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        assert_eq!(got_sizes, sizes, "{direction:?} by {per_page}");
        assert_eq!(seen, made, "every offer once, newest first");
    }
    // A cursor belongs to one player's list in one direction.
    for (user, direction) in [(&asha, Direction::Incoming), (&ravi, Direction::Outgoing)] {
        assert!(matches!(
            t.db.inventory()
                .offers_page(user, direction, 5, Some(&first))
                .await,
            Err(app::store::DataError::BadCursor)
        ));
    }
    for junk in ["", "abc.def", "e30.AAAA"] {
        assert!(matches!(
            t.db.inventory()
                .offers_page(&ravi, Direction::Incoming, 5, Some(junk))
                .await,
            Err(app::store::DataError::BadCursor)
        ));
    }
}

/// Sets an offer's expiry to the past, in the offer and in its recipient's count (as the clock
/// passing it would).
async fn expire(t: &TestTable, offer: &app::inventory::Offer, map: &str) {
    use aws_sdk_dynamodb::types::AttributeValue;
    let past = AttributeValue::N((app::store::epoch_millis() - 1).to_string());
    for (key, expression) in [
        (keys::offer(&offer.id), "SET expires_ms = :past"),
        (
            keys::offers_from_strangers(&offer.to),
            "SET #map.#offer = :past",
        ),
    ] {
        let mut request = t
            .engine
            .client
            .update_item()
            .table_name(t.db.table_name())
            .key("PK", AttributeValue::S(key.pk))
            .key("SK", AttributeValue::S(key.sk))
            .update_expression(expression)
            .expression_attribute_values(":past", past.clone());
        if expression.contains("#map") {
            request = request
                .expression_attribute_names("#map", map)
                .expression_attribute_names("#offer", offer.id.as_str());
        }
        request.send().await.unwrap();
    }
}

/// The ids in one map of a player's count item, read raw.
async fn counted(t: &TestTable, user: &UserId, map: &str) -> Vec<String> {
    let key = keys::offers_from_strangers(user);
    t.partition(&key.pk)
        .await
        .into_iter()
        .find(|i| i.get("SK").and_then(|v| v.as_s().ok()) == Some(&key.sk))
        .and_then(|i| Some(i.get(map)?.as_m().ok()?.keys().cloned().collect()))
        .unwrap_or_default()
}

#[tokio::test]
async fn the_count_of_offers_waiting_is_one_item_kept_by_every_offer_answer_and_expiry() {
    use app::inventory::rules::WAITING_OFFERS;
    let t = test_table().await;
    let ravi = player(&t, "Ravi").await;
    let asha = player(&t, "Asha").await;
    let stranger = player(&t, "Guest").await;
    t.db.inventory()
        .grant_rewards(&ravi, &feathers(10))
        .await
        .unwrap();
    play_together(&t, &[&asha, &ravi], "K7QX2").await;
    let offer_from = |from: &UserId| {
        let (db, from, ravi) = (t.db.clone(), from.clone(), ravi.clone());
        async move {
            let (gives, wants) = ask_a_feather();
            db.inventory()
                .make_offer((&from, "Someone"), (&ravi, "Ravi"), gives, wants, 3_600)
                .await
        }
    };
    let waiting = || t.db.inventory().offers_waiting(&ravi);

    // Nothing waiting: the page's one read is one GetItem.
    t.calls.reset();
    assert_eq!(waiting().await.unwrap(), 0);
    assert_eq!(t.calls.ops(), vec!["GetItem"]);

    // Offers from a friend and a stranger both count; each made in one transaction with it.
    let first = offer_from(&asha).await.unwrap();
    let second = offer_from(&asha).await.unwrap();
    let strangers = offer_from(&stranger).await.unwrap();
    assert!(first.counted && !first.from_stranger && strangers.from_stranger);
    assert_eq!(waiting().await.unwrap(), 3);
    assert_eq!(
        t.db.inventory().offers_from_strangers(&ravi).await.unwrap(),
        1
    );
    assert_eq!(
        t.db.inventory().offers_waiting(&asha).await.unwrap(),
        0,
        "only offers made to a player"
    );

    // A decline, a cancel and an accept each take theirs out.
    t.db.inventory()
        .close_offer(&first.id, &ravi)
        .await
        .unwrap();
    assert_eq!(waiting().await.unwrap(), 2);
    t.db.inventory()
        .close_offer(&strangers.id, &stranger)
        .await
        .unwrap();
    assert_eq!(waiting().await.unwrap(), 1);
    t.calls.reset();
    t.db.inventory()
        .accept_offer(&second.id, &ravi)
        .await
        .unwrap();
    assert_eq!(
        t.calls.ops(),
        vec!["GetItem", "BatchGetItem", "TransactWriteItems"],
        "the count changes in the accept's one transaction"
    );
    assert_eq!(waiting().await.unwrap(), 0);
    assert!(counted(&t, &ravi, "met").await.is_empty());
    assert!(counted(&t, &ravi, "open").await.is_empty());
    // Refused answers change nothing.
    assert!(t
        .db
        .inventory()
        .close_offer(&first.id, &ravi)
        .await
        .is_err());
    assert_eq!(waiting().await.unwrap(), 0);

    // Expiry: an expired offer stops counting at once, with no write; the next offer to the
    // player drops its entry, so the item never keeps it.
    let lapsing = offer_from(&asha).await.unwrap();
    let lasting = offer_from(&asha).await.unwrap();
    assert_eq!(waiting().await.unwrap(), 2);
    expire(&t, &lapsing, "met").await;
    assert_eq!(waiting().await.unwrap(), 1, "expired: no longer waiting");
    assert!(counted(&t, &ravi, "met")
        .await
        .contains(&lapsing.id.to_string()));
    let next = offer_from(&stranger).await.unwrap();
    assert_eq!(waiting().await.unwrap(), 2);
    assert_eq!(
        counted(&t, &ravi, "met").await,
        vec![lasting.id.to_string()],
        "the expired entry is gone"
    );
    assert_eq!(counted(&t, &ravi, "open").await, vec![next.id.to_string()]);
    // An expired offer declined later leaves the count as it is.
    t.db.inventory()
        .close_offer(&lapsing.id, &ravi)
        .await
        .unwrap();
    assert_eq!(waiting().await.unwrap(), 2);

    // At most WAITING_OFFERS wait at once, from anyone; the refused one makes nothing.
    while waiting().await.unwrap() < WAITING_OFFERS {
        offer_from(&asha).await.unwrap();
    }
    let refused = offer_from(&asha).await;
    assert!(
        matches!(
            refused,
            Err(InventoryError::NotEnough(Refusal::WaitingFull))
        ),
        "{refused:?}"
    );
    assert_eq!(waiting().await.unwrap(), WAITING_OFFERS);
    let listed =
        t.db.inventory()
            .offers(&ravi, Direction::Incoming, 50)
            .await
            .unwrap()
            .into_iter()
            .filter(|o| o.is_open(app::store::epoch_millis()))
            .count();
    assert_eq!(listed, WAITING_OFFERS, "the count is the open offers");
}

#[tokio::test]
async fn an_offer_asking_for_cards_the_other_player_lacks_is_refused() {
    let t = test_table().await;
    let ravi = player(&t, "Ravi").await;
    let asha = player(&t, "Asha").await;
    t.db.inventory()
        .grant_rewards(&ravi, &cards(&["crow"]))
        .await
        .unwrap();
    t.db.inventory()
        .grant_rewards(&asha, &feathers(5))
        .await
        .unwrap();
    let ask = |thing_id: &str, n: u32| Side {
        cards: vec![(thing(thing_id), n)],
        feathers: 0,
    };
    let give = Side {
        cards: Vec::new(),
        feathers: 5,
    };
    for (thing_id, n) in [("crow", 2), ("kite", 1)] {
        let refused =
            t.db.inventory()
                .make_offer(
                    (&asha, "Asha"),
                    (&ravi, "Ravi"),
                    give.clone(),
                    ask(thing_id, n),
                    3_600,
                )
                .await;
        assert!(
            matches!(&refused, Err(InventoryError::NotEnough(Refusal::TheyLack(t))) if t.as_str() == thing_id),
            "{refused:?}"
        );
    }
    assert_eq!(t.db.inventory().offers_waiting(&ravi).await.unwrap(), 0);
    t.db.inventory()
        .make_offer(
            (&asha, "Asha"),
            (&ravi, "Ravi"),
            give,
            ask("crow", 1),
            3_600,
        )
        .await
        .unwrap();
    assert_eq!(t.db.inventory().offers_waiting(&ravi).await.unwrap(), 1);
}
