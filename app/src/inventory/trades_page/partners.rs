//! Whom the player played with lately, on the trades page: guests included (who have no
//! username to type), each a link to the offer form, with when they last played together.

use leptos::prelude::*;

use crate::game::sheet::Partner;
use crate::i18n::td_string;
use crate::lang::Locale;
use crate::ui::Moment;

pub(super) fn partners(partners: Vec<Partner>, l: Locale) -> Option<impl IntoView> {
    (!partners.is_empty()).then(|| {
        let names = crate::ui::told_apart(
            &partners
                .iter()
                .map(|p| (&p.user_id, p.nickname.as_str()))
                .collect::<Vec<_>>(),
        );
        let rows = partners
            .into_iter()
            .zip(names)
            .map(|(p, name)| {
                let href = format!("/trades?with={}", p.user_id);
                view! {
                    <li>
                        <a class="button secondary" href=href data-testid="partner" data-player=p.user_id.to_string()>
                            <span aria-hidden="true">{p.avatar.emoji()}" "</span>
                            {td_string!(l, trades.offer_to, name = name.as_str()).to_string()}
                        </a>
                        " "<span class="muted">{td_string!(l, trades.last_played)}" "<Moment ms=p.last_ms /></span>
                    </li>
                }
            })
            .collect_view();
        view! {
            <h3>{td_string!(l, trades.played_with)}</h3>
            <ul class="plain-list partners" data-testid="partners">{rows}</ul>
        }
    })
}
