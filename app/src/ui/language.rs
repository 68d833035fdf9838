//! The top bar's language switch (see `crate::lang`): a plain form, so it works without
//! JavaScript, and the server function it posts to.

use leptos::prelude::*;

use crate::error::AppError;
use crate::lang::{locale, other};

/// The toggle: remembers `lang` (`en` or `hi`) in the `udd_lang` cookie and sends the browser
/// back to the page it came from (its `Referer`; the request guard turns an address on another
/// site into `/`). A plain form post, so it works without JavaScript; a language we don't have
/// is a 400 and sets nothing. The page's own address is never written into the form: a page
/// shows nothing of a malformed address.
#[server(endpoint = "lang")]
pub async fn set_language(lang: String) -> Result<(), AppError> {
    crate::error::answer("set_language", async move {
        use crate::i18n::td_string;
        let Some(chosen) = crate::lang::parse(&lang) else {
            return Err(AppError::BadRequest(
                td_string!(locale(), common.no_such_language).to_string(),
            ));
        };
        let parts = use_context::<http::request::Parts>();
        let secure = parts
            .as_ref()
            .and_then(|parts| parts.extensions.get::<crate::request::OverTls>().copied())
            .is_some_and(|tls| tls.0);
        if let (Some(response), Ok(cookie)) = (
            use_context::<leptos_axum::ResponseOptions>(),
            http::HeaderValue::from_str(&crate::lang::cookie_value(chosen, secure)),
        ) {
            response.append_header(http::header::SET_COOKIE, cookie);
        }
        let back = parts
            .as_ref()
            .and_then(|parts| parts.headers.get(http::header::REFERER))
            .and_then(|referer| referer.to_str().ok())
            .unwrap_or("/");
        leptos_axum::redirect(back);
        Ok(())
    })
    .await
}

/// The top bar's language switch: a one-button form that offers the other language, named in
/// that language; the answer brings the browser back to this page.
#[component]
pub fn LanguageToggle() -> impl IntoView {
    use leptos::server_fn::ServerFn;
    use leptos_i18n::Locale as _;
    let current = locale();
    let offered = other(current);
    view! {
        <form method="post" action=SetLanguage::PATH class="lang-toggle">
            <input type="hidden" name="lang" value=offered.as_str() />
            <button
                type="submit"
                lang=offered.as_str()
                title=crate::i18n::td_string!(current, common.language_label).to_string()
                data-testid="lang-toggle"
            >
                {crate::i18n::td_string!(current, common.switch_to).to_string()}
            </button>
        </form>
    }
}
