//! The catalog over HTTP for the pages: the whole catalog in one server function. (The JSON
//! API for other clients, paged, is `GET /api/things` in the router.)

use leptos::prelude::*;

#[cfg(feature = "ssr")]
use crate::catalog::model::FlyFilter;
use crate::catalog::model::Thing;
use crate::error::AppError;

/// The whole catalog, sorted for display. One Query of the catalog collection.
#[server]
pub async fn list_things() -> Result<Vec<Thing>, AppError> {
    crate::error::answer("list_things", async move {
        let db = expect_context::<crate::store::Db>();
        db.catalog()
            .list_things(FlyFilter::All)
            .await
            .map_err(|e| AppError::from(e).with_status())
    })
    .await
}
