//! The room page's one server function: who asks (a load by nobody signed in is limited per
//! address), and the room as `live::room_view` makes it for them.

use leptos::prelude::*;

use crate::error::AppError;
pub use crate::live::room_view::RoomPageData;

use crate::ids::RoomCode;
#[cfg(feature = "ssr")]
use crate::{game::throttle::RoomLoads, identity::session, store::Db};

/// A room as anyone with the code sees it now, and who is asking.
#[server(endpoint = "rooms/lobby")]
pub async fn room_page(code: RoomCode) -> Result<RoomPageData, AppError> {
    crate::error::answer("room_page", async move {
        let db = expect_context::<Db>();
        let me = session::current_user(&db).await?;
        // Nobody signed in: a load counts against the client address's minute (no read first).
        let limited = use_context::<RoomLoads>()
            .is_some_and(|loads| me.is_none() && !loads.0.allow(&session::client_address()));
        if limited {
            return Err(AppError::RateLimited);
        }
        crate::live::room_view::room_view(&db, &code, me).await
    })
    .await
}
