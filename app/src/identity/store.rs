//! Access patterns of identity: guests, sessions, account claims, sign-in lookups and the
//! sign-in rate limit. Uniqueness of usernames and emails is enforced by items written in the
//! same transaction as the claim, never by a read first.

use aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem, Update as UpdateAction};
use serde::{Deserialize, Serialize};

use crate::identity::auth::SessionHash;
use crate::identity::{Avatar, DisplayName, Email, Profile, UserId, Username};
use crate::store::expr::{attr, Cond, Expr, Expressions, KeyCond, Update};
use crate::store::keys::{self, Key};
use crate::store::tx::s;
use crate::store::{epoch_millis, key_map, DataError};

pub mod hidden;
pub mod sessions;

crate::store::handle!(
    /// The access patterns of players' accounts: guests, usernames, credentials, sessions.
    Accounts,
    accounts
);

/// How long a session lives without use.
pub const SESSION_LIFETIME_SECS: i64 = 30 * 24 * 3600;
/// A session used with less than this left is extended to the full lifetime again.
pub(crate) const SESSION_REFRESH_BELOW_SECS: i64 = SESSION_LIFETIME_SECS / 2;
/// A guest's profile outlives their last session by this much, then expires: with no session
/// and no password nobody can ever act as that guest again. Claimed accounts never expire.
/// What a guest leaves behind stays: match records and stats (no `ttl`), and their name on
/// room leaderboards (copied into each entry).
pub const GUEST_GRACE_SECS: i64 = 7 * 24 * 3600;

#[derive(Debug, Serialize, Deserialize)]
struct ProfileItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    id: UserId,
    display_name: DisplayName,
    avatar: Avatar,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    username: Option<Username>,
    created_at_ms: i64,
    /// Guests only: when the profile expires unless a session is used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ttl: Option<i64>,
    /// The look worn (a shop item's id; see [`Accounts::wear_look_action`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    look: Option<String>,
}

impl From<ProfileItem> for Profile {
    fn from(item: ProfileItem) -> Self {
        Profile {
            id: item.id,
            display_name: item.display_name,
            avatar: item.avatar,
            username: item.username,
            created_at_ms: item.created_at_ms,
            look: item.look.as_deref().and_then(crate::ids::Look::parse),
        }
    }
}

/// A profile from its stored item (`USER#<id>` / `PROFILE`), as a batch read returns it.
pub(crate) fn profile_from_item(item: crate::store::Item) -> Result<Profile, DataError> {
    Ok(serde_dynamo::from_item::<_, ProfileItem>(item)?.into())
}

#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct SessionItem {
    #[serde(rename = "PK")]
    pub(crate) pk: String,
    #[serde(rename = "SK")]
    pub(crate) sk: String,
    #[serde(rename = "GSI1PK")]
    gsi1pk: String,
    #[serde(rename = "GSI1SK")]
    gsi1sk: String,
    pub(crate) user_id: UserId,
    pub(crate) created_at_ms: i64,
    pub(crate) ttl: i64,
    /// The round trip the server last measured for this session's page (see
    /// [`Accounts::time_session`]): the network delay a tap's reaction figure may hide.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) latency_ms: Option<u32>,
}

/// A live sign-in session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub user_id: UserId,
    /// Epoch seconds when it lapses unless used.
    pub expires_at: i64,
    /// The round trip the server last measured for the session's page, if it ever did.
    pub latency_ms: Option<u32>,
}

#[derive(Debug, Serialize, Deserialize)]
struct CredentialsItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    #[serde(rename = "GSI1PK", default, skip_serializing_if = "Option::is_none")]
    gsi1pk: Option<String>,
    #[serde(rename = "GSI1SK", default, skip_serializing_if = "Option::is_none")]
    gsi1sk: Option<String>,
    user_id: UserId,
    username: Username,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    email: Option<Email>,
    password_hash: String,
}

/// What sign-in checks a password against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credentials {
    pub user_id: UserId,
    pub username: Username,
    pub password_hash: String,
}

impl From<CredentialsItem> for Credentials {
    fn from(item: CredentialsItem) -> Self {
        Credentials {
            user_id: item.user_id,
            username: item.username,
            password_hash: item.password_hash,
        }
    }
}

/// Why an account claim was refused.
#[derive(Debug, thiserror::Error)]
pub enum ClaimConflict {
    #[error("That username is taken.")]
    UsernameTaken,
    #[error("That email address is already in use.")]
    EmailTaken,
    #[error("This player has already claimed an account.")]
    AlreadyClaimed,
    #[error("There is no such player.")]
    NoSuchPlayer,
    #[error(transparent)]
    Data(#[from] DataError),
}

pub(crate) fn session_item(user: &UserId, hash: &SessionHash, now_ms: i64) -> SessionItem {
    let Key { pk, sk } = keys::session(hash);
    SessionItem {
        pk,
        sk,
        gsi1pk: keys::user_partition(user),
        gsi1sk: keys::session_by_user(now_ms, hash),
        user_id: user.clone(),
        created_at_ms: now_ms,
        ttl: now_ms / 1000 + SESSION_LIFETIME_SECS,
        latency_ms: None,
    }
}

impl Accounts<'_> {
    /// The action that sets the look `user` wears on their profile (or takes it off): the
    /// inventory checks in the same transaction that they own it. Joins copy it from there onto
    /// the player's place in a room.
    pub fn wear_look_action(
        self,
        user: &UserId,
        look: Option<crate::ids::Look>,
    ) -> Result<TransactWriteItem, DataError> {
        let wear = match look {
            Some(look) => Update::new().set(attr("look"), s(look.id())),
            None => Update::new().remove(attr("look")),
        };
        self.update_action(
            crate::store::tx::update(keys::user_profile(user))
                .expressions(Expr::update(wear).when(Cond::exists(attr(keys::PK)))),
        )
    }
}

impl Accounts<'_> {
    /// A new guest with a first session, in one transaction.
    #[tracing::instrument(skip(self, session), err(level = "debug"))]
    pub async fn create_guest(
        self,
        name: &DisplayName,
        avatar: Avatar,
        session: &SessionHash,
    ) -> Result<Profile, DataError> {
        let (profile, actions) = self.guest_actions(name, avatar, session)?;
        self.transact(actions).await?;
        Ok(profile)
    }

    /// A new guest and its first session as transaction actions, for a write that makes the
    /// guest only if it succeeds itself (joining a room): a refused join leaves no guest behind.
    pub fn guest_actions(
        self,
        name: &DisplayName,
        avatar: Avatar,
        session: &SessionHash,
    ) -> Result<(Profile, Vec<TransactWriteItem>), DataError> {
        let id = UserId::generate();
        let now_ms = epoch_millis();
        let Key { pk, sk } = keys::user_profile(&id);
        let profile = ProfileItem {
            pk,
            sk,
            id: id.clone(),
            display_name: name.clone(),
            avatar,
            username: None,
            created_at_ms: now_ms,
            ttl: Some(now_ms / 1000 + SESSION_LIFETIME_SECS + GUEST_GRACE_SECS),
            look: None,
        };
        let actions = vec![
            self.put_new(serde_dynamo::to_item(&profile)?)?,
            self.put_new(serde_dynamo::to_item(session_item(&id, session, now_ms))?)?,
        ];
        Ok((profile.into(), actions))
    }

    /// A player's profile.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn profile(self, id: &UserId) -> Result<Option<Profile>, DataError> {
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::user_profile(id)))),
            )
            .await?;
        Ok(item
            .map(serde_dynamo::from_item::<_, ProfileItem>)
            .transpose()?
            .map(Profile::from))
    }

    /// `id` is called `name` from now on: one UpdateItem of the profile, if it exists. What
    /// carries a copy of the old name keeps it (a board entry until the next match counted on
    /// it, a match's record for good); a copy the old name's hiding hides stays hidden.
    #[tracing::instrument(skip(self, name), err(level = "debug"))]
    pub async fn rename(self, id: &UserId, name: &DisplayName) -> Result<bool, DataError> {
        let change = self
            .client
            .update_item()
            .set_key(Some(key_map(keys::user_profile(id))))
            .expressions(
                Expr::update(Update::new().set(attr("display_name"), s(name.as_str())))
                    .when(Cond::exists(attr(keys::PK))),
            );
        match self.update_item(change).await {
            Ok(()) => Ok(true),
            Err(DataError::Conflict(crate::store::Conflict::ConditionFailed)) => Ok(false),
            Err(err) => Err(err),
        }
    }

    /// Several players' profiles, by id (those that exist): one BatchGetItem.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn profiles_of(
        self,
        ids: &[UserId],
    ) -> Result<std::collections::HashMap<UserId, Profile>, DataError> {
        let wanted = ids.iter().map(keys::user_profile).collect();
        let mut found = std::collections::HashMap::new();
        for item in self.batch_get(wanted, false).await? {
            let profile = Profile::from(serde_dynamo::from_item::<_, ProfileItem>(item)?);
            found.insert(profile.id.clone(), profile);
        }
        Ok(found)
    }

    /// Whether a username is owned (one GetItem of its owner item, keys only): a claim checks
    /// this before it spends an argon2 hash; the claim's transaction still decides a race.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn username_taken(self, username: &Username) -> Result<bool, DataError> {
        self.owner_exists(keys::username(username)).await
    }

    /// Whether an email address is owned (one GetItem, keys only).
    #[tracing::instrument(skip_all, err(level = "debug"))]
    pub async fn email_taken(self, email: &Email) -> Result<bool, DataError> {
        self.owner_exists(keys::email(email)).await
    }

    async fn owner_exists(self, key: Key) -> Result<bool, DataError> {
        Ok(self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(key)))
                    .expressions(Expr::default().project([attr(keys::PK)])),
            )
            .await?
            .is_some())
    }

    /// Turns a guest into an account: the profile gains the username (and stops expiring), and
    /// the username, the email (if any) and the credentials are written in the same
    /// transaction, each only if new. The session is rotated in it too: `session.0` starts,
    /// `session.1` (the guest's) ends. Ten players claiming one name at once: exactly one wins.
    #[tracing::instrument(skip(self, email, password_hash, session), err(level = "debug"))]
    pub async fn claim_account(
        self,
        user: &UserId,
        username: &Username,
        email: Option<&Email>,
        password_hash: &str,
        session: (&SessionHash, Option<&SessionHash>),
    ) -> Result<Profile, ClaimConflict> {
        let profile_update = UpdateAction::builder()
            .table_name(self.table_name())
            .set_key(Some(key_map(keys::user_profile(user))))
            .expressions(
                Expr::update(
                    Update::new()
                        .set(attr("username"), s(username.to_string()))
                        .remove(attr(keys::TTL)),
                )
                .when(Cond::exists(attr(keys::PK)).and(Cond::not_exists(attr("username")))),
            )
            .build()
            .map_err(|e| DataError::Internal(e.into()))?;
        let Key { pk, sk } = keys::username(username);
        let mut owner = key_map(Key { pk, sk });
        owner.insert("user_id".into(), AttributeValue::S(user.to_string()));
        let Key { pk, sk } = keys::user_credentials(user);
        let credentials = CredentialsItem {
            pk,
            sk,
            gsi1pk: email.map(keys::credentials_by_email),
            gsi1sk: email.map(|_| keys::user_partition(user)),
            user_id: user.clone(),
            username: username.clone(),
            email: email.cloned(),
            password_hash: password_hash.to_owned(),
        };
        let mut actions = vec![
            TransactWriteItem::builder().update(profile_update).build(),
            self.put_new(owner)?,
            self.put_new(serde_dynamo::to_item(&credentials).map_err(DataError::from)?)?,
        ];
        if let Some(email) = email {
            let mut owner = key_map(keys::email(email));
            owner.insert("user_id".into(), AttributeValue::S(user.to_string()));
            actions.push(self.put_new(owner)?);
        }
        let (new_session, old_session) = session;
        actions.push(
            self.put_new(
                serde_dynamo::to_item(session_item(user, new_session, epoch_millis()))
                    .map_err(DataError::from)?,
            )?,
        );
        if let Some(old) = old_session {
            actions.push(self.delete_action(keys::session(old))?);
        }
        match self.transact(actions).await {
            Ok(()) => {}
            Err(DataError::Conflict(conflict)) => {
                return Err(match conflict.failed_condition() {
                    Some(0) => match self.profile(user).await? {
                        Some(_) => ClaimConflict::AlreadyClaimed,
                        None => ClaimConflict::NoSuchPlayer,
                    },
                    Some(1) => ClaimConflict::UsernameTaken,
                    Some(3) => ClaimConflict::EmailTaken,
                    _ => ClaimConflict::Data(DataError::Conflict(conflict)),
                });
            }
            Err(err) => return Err(err.into()),
        }
        self.profile(user).await?.ok_or(ClaimConflict::NoSuchPlayer)
    }

    /// The player who owns a username, if anyone: one GetItem of the owner item.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn user_by_username(self, username: &Username) -> Result<Option<UserId>, DataError> {
        let owner = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::username(username)))),
            )
            .await?;
        Ok(owner.and_then(|o| {
            o.get("user_id")
                .and_then(|v| v.as_s().ok())
                .and_then(|s| UserId::parse(s).ok())
        }))
    }

    /// Sign-in by username: the username's owner item, then the owner's credentials.
    #[tracing::instrument(skip(self), err(level = "debug"))]
    pub async fn credentials_by_username(
        self,
        username: &Username,
    ) -> Result<Option<Credentials>, DataError> {
        let Some(owner) = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::username(username)))),
            )
            .await?
        else {
            // The same second read a known name costs, of a key nobody has, so an unknown name
            // takes as long to answer as a known one.
            self.get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::user_credentials(&UserId::nobody())))),
            )
            .await?;
            return Ok(None);
        };
        let Some(user) = owner
            .get("user_id")
            .and_then(|v| v.as_s().ok())
            .and_then(|s| UserId::parse(s).ok())
        else {
            return Err(DataError::Internal(
                "username owner without a user id".into(),
            ));
        };
        let item = self
            .get(
                self.client
                    .get_item()
                    .set_key(Some(key_map(keys::user_credentials(&user)))),
            )
            .await?;
        Ok(item
            .map(serde_dynamo::from_item::<_, CredentialsItem>)
            .transpose()?
            .map(Credentials::from))
    }

    /// Sign-in by email: one Query on GSI1, where credentials carry `EMAIL#<address>`.
    /// (Addresses stay out of the logs.)
    #[tracing::instrument(skip_all, err(level = "debug"))]
    pub async fn credentials_by_email(
        self,
        email: &Email,
    ) -> Result<Option<Credentials>, DataError> {
        let (items, _) = self
            .query_page(
                self.client
                    .query()
                    .index_name(keys::GSI1)
                    .expressions(Expr::query(KeyCond::partition(
                        keys::GSI1PK,
                        s(keys::credentials_by_email(email)),
                    )))
                    .limit(1),
                None,
            )
            .await?;
        Ok(items
            .into_iter()
            .next()
            .map(serde_dynamo::from_item::<_, CredentialsItem>)
            .transpose()?
            .map(Credentials::from))
    }
}
