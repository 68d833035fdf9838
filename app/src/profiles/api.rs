//! Profiles over HTTP: anyone may read any player's page.

use leptos::prelude::*;

use crate::error::AppError;
use crate::profiles::model::ProfileView;

use crate::identity::UserId;
#[cfg(feature = "ssr")]
use crate::{identity::session, store::Db};

/// Why a profile is not shown: nobody has that id (or it is not one).
pub fn no_such_player(l: crate::lang::Locale) -> AppError {
    AppError::NotFound(crate::i18n::td_string!(l, profiles.no_such_player).to_string())
}

/// Player `id`'s page (`/p/<id>`), with the page of matches after `after`.
#[server(endpoint = "profiles/read")]
pub async fn read_profile(id: UserId, after: Option<String>) -> Result<ProfileView, AppError> {
    crate::error::answer("read_profile", async move {
        let l = crate::lang::locale();
        let db = expect_context::<Db>();
        let missing = || no_such_player(l);
        let viewer = session::current_player(&db).await?;
        db.profiles()
            .profile_page(&id, viewer.as_ref().map(|p| &p.id), after.as_deref(), l)
            .await
            .map_err(|err| match err {
                crate::store::DataError::BadCursor => AppError::BadRequest(
                    crate::i18n::td_string!(l, profiles.bad_cursor).to_string(),
                ),
                err => AppError::from(err),
            })?
            .ok_or_else(missing)
            .map(|mut view| {
                // The run as it stands today by the daily's clock: 0 once a day was missed.
                let clock = use_context::<crate::daily::clock::DailyClock>().unwrap_or_default();
                view.days.run = view.days.on(clock.today());
                view
            })
    })
    .await
}
