//! Identity: guests, sessions (lookup, refresh, rotation, sign-out), account claims with unique
//! usernames and emails, sign-in lookups, and the sign-in rate limit.

use app::identity::auth::{SessionHash, SessionToken};
use app::identity::store::{ClaimConflict, GUEST_GRACE_SECS, SESSION_LIFETIME_SECS};
use app::identity::{Avatar, DisplayName, Email, UserId, Username};
use app::store::epoch_seconds;
use app::store::keys::Limited;
use aws_sdk_dynamodb::types::AttributeValue;

use super::{set_ttl, test_table, TestTable};

fn name(raw: &str) -> DisplayName {
    DisplayName::parse(raw).unwrap()
}

fn session_hash() -> SessionHash {
    SessionToken::generate().hash()
}

fn session_pk(hash: &SessionHash) -> String {
    format!("SESSION#{}", hash.as_str())
}

async fn guest(t: &TestTable, display: &str) -> (UserId, SessionHash) {
    let hash = session_hash();
    let profile =
        t.db.accounts()
            .create_guest(&name(display), Avatar::Owl, &hash)
            .await
            .unwrap();
    (profile.id, hash)
}

#[tokio::test]
async fn a_guest_is_one_transaction_and_gets_a_live_session() {
    let t = test_table().await;
    let hash = session_hash();
    let profile =
        t.db.accounts()
            .create_guest(&name("Asha"), Avatar::Parrot, &hash)
            .await
            .unwrap();
    assert_eq!(t.calls.ops(), ["TransactWriteItems"]);
    assert!(profile.is_guest());

    let stored =
        t.db.accounts()
            .profile(&profile.id)
            .await
            .unwrap()
            .expect("the profile");
    assert_eq!(stored, profile);
    let session =
        t.db.accounts()
            .session(&hash)
            .await
            .unwrap()
            .expect("a live session");
    assert_eq!(session.user_id, profile.id);
    assert!(session.expires_at > epoch_seconds() + SESSION_LIFETIME_SECS - 60);
}

#[tokio::test]
async fn unknown_and_expired_sessions_are_absent() {
    let t = test_table().await;
    assert_eq!(
        t.db.accounts().session(&session_hash()).await.unwrap(),
        None
    );
    let (_, hash) = guest(&t, "Ravi").await;
    set_ttl(&t, &session_pk(&hash), "SESSION", epoch_seconds() - 1).await;
    assert_eq!(t.db.accounts().session(&hash).await.unwrap(), None);
}

#[tokio::test]
async fn a_session_used_late_in_its_life_is_extended() {
    let t = test_table().await;
    let (_, hash) = guest(&t, "Meera").await;
    let soon = epoch_seconds() + 3600;
    set_ttl(&t, &session_pk(&hash), "SESSION", soon).await;
    t.calls.reset();
    let session = t.db.accounts().session(&hash).await.unwrap().unwrap();
    assert!(session.expires_at > soon + 3600);
    // The session, and the guest's profile with it.
    assert_eq!(t.calls.ops(), ["GetItem", "UpdateItem", "UpdateItem"]);

    t.calls.reset();
    let again = t.db.accounts().session(&hash).await.unwrap().unwrap();
    assert_eq!(
        again.expires_at, session.expires_at,
        "the extension was stored"
    );
    assert_eq!(t.calls.ops(), ["GetItem"], "a fresh session is one read");
}

#[tokio::test]
async fn signing_out_ends_one_session_or_all_of_them() {
    let t = test_table().await;
    let (user, first) = guest(&t, "Kabir").await;
    let second = session_hash();
    let third = session_hash();
    t.db.accounts()
        .start_session(&user, &second, None)
        .await
        .unwrap();
    t.db.accounts()
        .start_session(&user, &third, None)
        .await
        .unwrap();

    t.db.accounts().end_session(&first).await.unwrap();
    assert_eq!(t.db.accounts().session(&first).await.unwrap(), None);
    assert!(t.db.accounts().session(&second).await.unwrap().is_some());
    t.db.accounts()
        .end_session(&first)
        .await
        .expect("ending it twice is fine");

    assert_eq!(t.db.accounts().end_all_sessions(&user).await.unwrap(), 2);
    assert_eq!(t.db.accounts().session(&second).await.unwrap(), None);
    assert_eq!(t.db.accounts().session(&third).await.unwrap(), None);
}

#[tokio::test]
async fn rotation_replaces_the_old_session_in_one_transaction() {
    let t = test_table().await;
    let (user, old) = guest(&t, "Zoya").await;
    let new = session_hash();
    t.calls.reset();
    t.db.accounts()
        .start_session(&user, &new, Some(&old))
        .await
        .unwrap();
    assert_eq!(t.calls.ops(), ["TransactWriteItems"]);
    assert_eq!(t.db.accounts().session(&old).await.unwrap(), None);
    assert_eq!(
        t.db.accounts()
            .session(&new)
            .await
            .unwrap()
            .unwrap()
            .user_id,
        user
    );
}

#[tokio::test]
async fn claiming_an_account_makes_the_player_findable_by_username_and_email() {
    let t = test_table().await;
    let (user, _) = guest(&t, "Asha").await;
    let username = Username::parse("asha").unwrap();
    let email = Email::parse("Asha@Example.com").unwrap();
    let profile =
        t.db.accounts()
            .claim_account(
                &user,
                &username,
                Some(&email),
                "$argon2id$stored",
                (&session_hash(), None),
            )
            .await
            .unwrap();
    assert_eq!(profile.username, Some(username.clone()));
    assert!(!profile.is_guest());

    let by_name =
        t.db.accounts()
            .credentials_by_username(&username)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(by_name.user_id, user);
    assert_eq!(by_name.password_hash, "$argon2id$stored");
    t.calls.reset();
    let by_email =
        t.db.accounts()
            .credentials_by_email(&email)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(by_email, by_name);
    assert_eq!(t.calls.ops(), ["Query"], "email sign-in is one GSI query");

    let nobody = Username::parse("nobody").unwrap();
    assert_eq!(
        t.db.accounts()
            .credentials_by_username(&nobody)
            .await
            .unwrap(),
        None
    );
    let nowhere = Email::parse("no@where.com").unwrap();
    assert_eq!(
        t.db.accounts()
            .credentials_by_email(&nowhere)
            .await
            .unwrap(),
        None
    );
}

#[tokio::test]
async fn taken_names_and_emails_are_refused_and_write_nothing() {
    let t = test_table().await;
    let (asha, _) = guest(&t, "Asha").await;
    let (ravi, _) = guest(&t, "Ravi").await;
    let email = Email::parse("shared@example.com").unwrap();
    t.db.accounts()
        .claim_account(
            &asha,
            &Username::parse("asha").unwrap(),
            Some(&email),
            "h1",
            (&session_hash(), None),
        )
        .await
        .unwrap();

    let taken =
        t.db.accounts()
            .claim_account(
                &ravi,
                &Username::parse("asha").unwrap(),
                None,
                "h2",
                (&session_hash(), None),
            )
            .await;
    assert!(
        matches!(taken, Err(ClaimConflict::UsernameTaken)),
        "{taken:?}"
    );

    let ravi_name = Username::parse("ravi").unwrap();
    let email_taken =
        t.db.accounts()
            .claim_account(
                &ravi,
                &ravi_name,
                Some(&email),
                "h2",
                (&session_hash(), None),
            )
            .await;
    assert!(
        matches!(email_taken, Err(ClaimConflict::EmailTaken)),
        "{email_taken:?}"
    );
    assert_eq!(
        t.db.accounts()
            .credentials_by_username(&ravi_name)
            .await
            .unwrap(),
        None,
        "a refused claim leaves no username behind"
    );
    assert!(t
        .db
        .accounts()
        .profile(&ravi)
        .await
        .unwrap()
        .unwrap()
        .is_guest());

    let again =
        t.db.accounts()
            .claim_account(
                &asha,
                &Username::parse("asha2").unwrap(),
                None,
                "h3",
                (&session_hash(), None),
            )
            .await;
    assert!(
        matches!(again, Err(ClaimConflict::AlreadyClaimed)),
        "{again:?}"
    );
    let ghost = UserId::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap();
    let missing =
        t.db.accounts()
            .claim_account(
                &ghost,
                &Username::parse("ghost").unwrap(),
                None,
                "h4",
                (&session_hash(), None),
            )
            .await;
    assert!(
        matches!(missing, Err(ClaimConflict::NoSuchPlayer)),
        "{missing:?}"
    );
}

#[tokio::test]
async fn ten_concurrent_claims_of_one_username_have_one_winner() {
    let t = test_table().await;
    let mut players = Vec::new();
    for i in 0..10 {
        players.push(guest(&t, &format!("Player {i}")).await.0);
    }
    let username = Username::parse("kauwa").unwrap();
    let mut claims = tokio::task::JoinSet::new();
    for player in players {
        let db = t.db.clone();
        let username = username.clone();
        claims.spawn(async move {
            db.accounts()
                .claim_account(&player, &username, None, "h", (&session_hash(), None))
                .await
        });
    }
    let results = claims.join_all().await;
    let winners = results.iter().filter(|r| r.is_ok()).count();
    let taken = results
        .iter()
        .filter(|r| matches!(r, Err(ClaimConflict::UsernameTaken)))
        .count();
    assert_eq!((winners, taken), (1, 9), "{results:?}");
    let owner =
        t.db.accounts()
            .credentials_by_username(&username)
            .await
            .unwrap()
            .unwrap();
    let winner = results.into_iter().find_map(Result::ok).unwrap();
    assert_eq!(owner.user_id, winner.id);
}

#[tokio::test]
async fn the_rate_limit_allows_max_attempts_per_window_and_key() {
    let t = test_table().await;
    for _ in 0..3 {
        assert!(t
            .db
            .hit_rate_limit(Limited::SignInsOfLogin("asha"), 60, 3)
            .await
            .unwrap());
    }
    assert!(!t
        .db
        .hit_rate_limit(Limited::SignInsOfLogin("asha"), 60, 3)
        .await
        .unwrap());
    assert!(!t
        .db
        .hit_rate_limit(Limited::SignInsOfLogin("asha"), 60, 3)
        .await
        .unwrap());
    assert!(
        t.db.hit_rate_limit(Limited::SignInsOfLogin("ravi"), 60, 3)
            .await
            .unwrap(),
        "keys are separate"
    );
}

/// The profile item's `ttl`, read behind the data layer's back.
async fn profile_ttl(t: &TestTable, user: &UserId) -> Option<i64> {
    let item = t
        .engine
        .client
        .get_item()
        .table_name(t.db.table_name())
        .key("PK", AttributeValue::S(format!("USER#{user}")))
        .key("SK", AttributeValue::S("PROFILE".into()))
        .send()
        .await
        .unwrap()
        .item
        .expect("the profile item");
    item.get("ttl").map(|v| v.as_n().unwrap().parse().unwrap())
}

#[tokio::test]
async fn a_guest_profile_expires_after_its_sessions_and_a_claimed_one_never() {
    let t = test_table().await;
    let (user, old) = guest(&t, "Tara").await;
    let expires = profile_ttl(&t, &user)
        .await
        .expect("a guest profile expires");
    let lifetime = SESSION_LIFETIME_SECS + GUEST_GRACE_SECS;
    assert!(
        (expires - epoch_seconds() - lifetime).abs() < 60,
        "{expires}"
    );

    // A session used in the second half of its life is extended, and the profile with it.
    set_ttl(&t, &session_pk(&old), "SESSION", epoch_seconds() + 3600).await;
    set_ttl(
        &t,
        &format!("USER#{user}"),
        "PROFILE",
        epoch_seconds() + 3600,
    )
    .await;
    t.calls.reset();
    assert!(t.db.accounts().session(&old).await.unwrap().is_some());
    assert_eq!(t.calls.ops(), ["GetItem", "UpdateItem", "UpdateItem"]);
    let extended = profile_ttl(&t, &user).await.unwrap();
    assert!(extended > epoch_seconds() + lifetime - 60, "{extended}");

    // Claimed: the profile stops expiring, and the guest's session is rotated in the claim.
    let new = session_hash();
    t.db.accounts()
        .claim_account(
            &user,
            &Username::parse("tara").unwrap(),
            None,
            "h",
            (&new, Some(&old)),
        )
        .await
        .unwrap();
    assert_eq!(profile_ttl(&t, &user).await, None);
    assert_eq!(
        t.db.accounts().session(&old).await.unwrap(),
        None,
        "the guest token is dead"
    );
    assert_eq!(
        t.db.accounts()
            .session(&new)
            .await
            .unwrap()
            .unwrap()
            .user_id,
        user
    );

    // A guest whose profile has lapsed is nobody.
    let (gone, _) = guest(&t, "Gone").await;
    set_ttl(&t, &format!("USER#{gone}"), "PROFILE", epoch_seconds() - 1).await;
    assert_eq!(t.db.accounts().profile(&gone).await.unwrap(), None);
}

#[tokio::test]
async fn taken_usernames_and_emails_are_one_read_each() {
    let t = test_table().await;
    let (user, _) = guest(&t, "Asha").await;
    let username = Username::parse("asha").unwrap();
    let email = Email::parse("asha@example.com").unwrap();
    t.calls.reset();
    assert!(!t.db.accounts().username_taken(&username).await.unwrap());
    assert!(!t.db.accounts().email_taken(&email).await.unwrap());
    assert_eq!(t.calls.ops(), ["GetItem", "GetItem"]);
    t.db.accounts()
        .claim_account(&user, &username, Some(&email), "h", (&session_hash(), None))
        .await
        .unwrap();
    assert!(t.db.accounts().username_taken(&username).await.unwrap());
    assert!(t.db.accounts().email_taken(&email).await.unwrap());
}

#[tokio::test]
async fn known_and_unknown_usernames_cost_the_same_reads() {
    let t = test_table().await;
    let (user, _) = guest(&t, "Asha").await;
    let username = Username::parse("asha").unwrap();
    t.db.accounts()
        .claim_account(&user, &username, None, "h", (&session_hash(), None))
        .await
        .unwrap();
    t.calls.reset();
    assert!(t
        .db
        .accounts()
        .credentials_by_username(&username)
        .await
        .unwrap()
        .is_some());
    let known = t.calls.ops();
    t.calls.reset();
    let nobody = Username::parse("nobody").unwrap();
    assert!(t
        .db
        .accounts()
        .credentials_by_username(&nobody)
        .await
        .unwrap()
        .is_none());
    assert_eq!(t.calls.ops(), known, "the same calls, so the same time");
    assert_eq!(known, ["GetItem", "GetItem"]);
}
