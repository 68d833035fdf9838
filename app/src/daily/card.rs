//! A finished flight's share card (`/og/daily/<day>/<id>`): the day's number, who flew, the
//! right calls out of ten, the grid of right and wrong calls drawn as shapes, the points and the
//! mean reaction. Nothing on it names a thing, so it spoils nothing whenever it is shared.

use crate::daily::model::number;
use crate::daily::store::Flight;
use crate::i18n::td_string;
use crate::lang::Locale;
use crate::share::ShareImage;

/// The card of `flight` in `l`'s language; `None` until the flight has its result.
pub fn flight_card(flight: &Flight, l: Locale) -> Option<ShareImage> {
    let result = flight.result.as_ref()?;
    let grid: Vec<bool> = result.grid.chars().map(|c| c == '1').collect();
    let day = flight.day.to_string();
    let name = crate::identity::hidden::shown(&flight.user_id, &flight.nickname).to_string();
    let speed = match result.average_ms {
        Some(ms) => format!("{ms} ms"),
        None => td_string!(l, daily.card.speed_none).to_string(),
    };
    Some(ShareImage {
        kicker: td_string!(
            l,
            daily.card.kicker,
            n = number(flight.day),
            day = day.as_str()
        )
        .to_string(),
        title: td_string!(
            l,
            daily.card.title,
            name = name.as_str(),
            correct = result.correct,
            rounds = grid.len()
        )
        .to_string(),
        rows: vec![
            (
                td_string!(l, daily.card.points).to_string(),
                result.score.to_string(),
            ),
            (td_string!(l, daily.card.speed).to_string(), speed),
        ],
        grid,
        footer: td_string!(l, daily.card.footer).to_string(),
    })
}
