//! Profiles over HTTP: anyone may read any player's page.

use leptos::prelude::*;

use crate::error::AppError;
use crate::profiles::model::ProfileView;

#[cfg(feature = "ssr")]
use crate::{error::fail, identity::session, identity::UserId, store::Db};

/// Player `id`'s page (`/p/<id>`), with the page of matches after `after`.
#[server(endpoint = "profiles/read")]
pub async fn read_profile(id: String, after: Option<String>) -> Result<ProfileView, AppError> {
    let db = expect_context::<Db>();
    let missing = || fail(AppError::NotFound("No such player.".into()));
    let id = UserId::parse(id.trim()).map_err(|_| missing())?;
    let viewer = session::current_player(&db).await.map_err(fail)?;
    db.profile_page(&id, viewer.as_ref().map(|p| &p.id), after.as_deref())
        .await
        .map_err(fail)?
        .ok_or_else(missing)
}
