//! The expression builder: each request's expressions, names and values as DynamoDB reads
//! them, written out here by hand (the oracle), for the shapes the stores use.

use std::collections::HashMap;

use app::store::expr::{attr, Compare, Cond, Expr, KeyCond, Operand, Update};
use app::store::tx::{n, s};
use aws_sdk_dynamodb::types::AttributeValue;

fn names(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn values(pairs: &[(&str, AttributeValue)]) -> HashMap<String, AttributeValue> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

#[test]
fn a_tap_is_a_set_into_a_map_by_the_players_id_an_add_and_five_conditions() {
    let player = "p-123 with spaces.and.dots";
    let expr = Expr::update(
        Update::new()
            .set(attr("taps").key(player), s("tap"))
            .add(attr("tap_count"), n(1)),
    )
    .when(
        Cond::eq(attr("n"), n(7))
            .and(Cond::eq(attr("reveal_ms"), n(1000)))
            .and(Cond::not_exists(attr("resolved_at_ms")))
            .and(Cond::contains(attr("players"), s(player)))
            .and(Cond::not_exists(attr("taps").key(player))),
    );
    assert_eq!(
        expr.update.as_deref(),
        Some("SET #n0.#n1 = :v0 ADD #n2 :v1")
    );
    assert_eq!(
        expr.condition.as_deref(),
        Some(
            "#n3 = :v2 AND #n4 = :v3 AND attribute_not_exists(#n5) \
             AND contains(#n6, :v4) AND attribute_not_exists(#n0.#n1)"
        )
    );
    assert_eq!(
        expr.names,
        names(&[
            ("#n0", "taps"),
            ("#n1", player),
            ("#n2", "tap_count"),
            ("#n3", "n"),
            ("#n4", "reveal_ms"),
            ("#n5", "resolved_at_ms"),
            ("#n6", "players"),
        ])
    );
    assert_eq!(
        expr.values,
        values(&[
            (":v0", s("tap")),
            (":v1", n(1)),
            (":v2", n(7)),
            (":v3", n(1000)),
            (":v4", s(player)),
        ])
    );
}

#[test]
fn the_same_name_or_value_is_placed_once() {
    let expr = Expr::update(
        Update::new()
            .set(attr("version"), Operand::Plus(attr("version"), n(1)))
            .set(attr("count"), n(1)),
    )
    .when(Cond::lt(attr("count"), n(1)).or(Cond::not_exists(attr("count"))));
    assert_eq!(
        expr.update.as_deref(),
        Some("SET #n0 = #n0 + :v0, #n1 = :v0")
    );
    assert_eq!(
        expr.condition.as_deref(),
        Some("#n1 < :v0 OR attribute_not_exists(#n1)")
    );
    assert_eq!(expr.names.len(), 2);
    assert_eq!(expr.values, values(&[(":v0", n(1))]));
}

#[test]
fn groups_keep_their_meaning_and_every_clause_has_its_word() {
    let expr = Expr::update(
        Update::new()
            .set(attr("seen"), Operand::IfNotExists(attr("seen"), n(0)))
            .set(
                attr("log"),
                Operand::Append(attr("log"), AttributeValue::L(vec![s("x")])),
            )
            .add(attr("tags"), AttributeValue::Ss(vec!["a".into()]))
            .delete(attr("removed"), AttributeValue::Ss(vec!["b".into()]))
            .remove(attr("list").at(2))
            .remove(attr("away")),
    )
    .when(
        Cond::exists(attr("PK"))
            .and(Cond::eq(attr("a"), n(1)).or(Cond::eq(attr("b"), n(2))))
            .and(Cond::begins_with(attr("SK"), s("AUD#")).not()),
    );
    assert_eq!(
        expr.update.as_deref(),
        Some(
            "SET #n0 = if_not_exists(#n0, :v0), #n1 = list_append(#n1, :v1) \
             ADD #n2 :v2 DELETE #n3 :v3 REMOVE #n4[2], #n5"
        )
    );
    assert_eq!(
        expr.condition.as_deref(),
        Some(
            "attribute_exists(#n6) AND (#n7 = :v4 OR #n8 = :v5) \
             AND NOT (begins_with(#n9, :v6))"
        )
    );
}

#[test]
fn a_query_names_its_keys_filters_and_projects() {
    let expr = Expr::query(KeyCond::partition("PK", s("ROOM#ABCDE")).begins_with("SK", s("AUD#")))
        .filter(Cond::gt(attr("ttl"), n(99)))
        .project([attr("PK"), attr("calls").key("3")]);
    assert_eq!(
        expr.key_condition.as_deref(),
        Some("#pk = :pk AND begins_with(#sk, :sk)")
    );
    assert_eq!(expr.filter.as_deref(), Some("#n0 > :v0"));
    assert_eq!(expr.projection.as_deref(), Some("#n1, #n2.#n3"));
    assert_eq!(
        expr.names,
        names(&[
            ("#pk", "PK"),
            ("#sk", "SK"),
            ("#n0", "ttl"),
            ("#n1", "PK"),
            ("#n2", "calls"),
            ("#n3", "3")
        ])
    );
    assert_eq!(
        expr.values,
        values(&[(":pk", s("ROOM#ABCDE")), (":sk", s("AUD#")), (":v0", n(99))])
    );
    let between =
        Expr::query(KeyCond::partition("GSI1PK", s("B")).between("GSI1SK", s("a"), s("b")));
    assert_eq!(
        between.key_condition.as_deref(),
        Some("#pk = :pk AND #sk BETWEEN :sk AND :sk2")
    );
    assert_eq!(between.values[":sk2"], s("b"));
    let compare = Expr::query(KeyCond::partition("PK", s("X")).compare("SK", Compare::Ge, s("R")));
    assert_eq!(
        compare.key_condition.as_deref(),
        Some("#pk = :pk AND #sk >= :sk")
    );
}
