//! `/r/<CODE>/screen`: the room on a big screen ([`ScreenPage`]).

use leptos::either::Either;
use leptos::prelude::*;
use leptos_meta::{Link, Title};

use crate::game::words::around;
use crate::i18n::td_string;
use crate::live::room_page::{load_room, no_such_room, LiveRoom, SCREEN_CSS};
use crate::rooms::model::RoomCode;
use crate::ui::{code_param, IslandProps};

/// `/r/<CODE>/screen`: the room on a big screen (a TV, a projector, the laptop on the coffee
/// table), read from across a room. It is the room page's own island ([`LiveRoom`]) shown to
/// nobody in particular: no player of its own and no sign-in (the room as a visitor sees it),
/// none of the forms, and the room's link with its QR code for phones to join by. The stream
/// draws it as it draws every phone: the players as they arrive, each round's thing with its
/// countdown, at its close who tapped and was right and the fastest, the standings, the podium.
///
/// What makes it big is a stylesheet of its own (`/screen.css`, loaded on this page only), so
/// the phones' first load pays nothing for it, and the bundle nothing: it is the island the
/// room page already ships.
#[component]
pub fn ScreenPage() -> impl IntoView {
    let code = code_param();
    let l = crate::lang::locale();
    let title = match RoomCode::parse(&code()) {
        Ok(code) => around(td_string!(l, rooms.room.screen_title), code.as_str()),
        Err(_) => td_string!(l, rooms.room.no_such_room).to_string(),
    };
    view! {
        <Title text=title />
        <Link rel="stylesheet" href=SCREEN_CSS />
        <Suspense fallback=move || view! { <p class="muted">{td_string!(l, rooms.room.opening).to_string()}</p> }>
            // Awaited here, not held in a resource: a resource outside an island is written into
            // the page a second time (beside the island's props) for a hydration that never
            // reads it.
            {move || {
                let code = code();
                Suspend::new(async move {
                match load_room(code).await {
                    Ok(mut page) => {
                        // Nobody's screen: the room as a visitor sees it, whoever opened it.
                        page.me = None;
                        page.badges.clear();
                        page.my_tap = None;
                        page.along = None;
                        let room_href = format!("/r/{}", page.room.code);
                        // Read from across a room and typed into a phone: the whole address,
                        // without its scheme.
                        let address = crate::ui::absolute(&room_href);
                        let address = address
                            .split_once("://")
                            .map_or(address.as_str(), |(_, rest)| rest)
                            .to_owned();
                        Either::Left(view! {
                            <div class="big-screen" data-testid="big-screen">
                                <p class="screen-join" data-testid="screen-join">
                                    {td_string!(l, rooms.room.screen_join).to_string()}" "
                                    <a href=room_href>{address}</a>
                                </p>
                                <LiveRoom page=IslandProps(page)>
                                    <span></span>
                                </LiveRoom>
                            </div>
                        })
                    }
                    Err(err) => Either::Right(no_such_room(l, &err)),
                }
            })
            }}
        </Suspense>
    }
}
