//! The few browser APIs the islands call directly: a Server-Sent Events listener, the clipboard,
//! the Web Share API, the clock, the address bar, vibration, tones, remembered choices and a form post. In the server build they
//! do nothing and answer "no" (they are only reached from effects and event handlers, which the
//! server never runs).
//!
//! The listener is written here rather than taken from leptos-use because the browser bundle
//! has a size budget: `use_event_source` with its helper crates weighed about 15 KB of wasm.

#[cfg(feature = "hydrate")]
mod imp {
    use std::cell::{Cell, RefCell};
    use std::rc::{Rc, Weak};

    use js_sys::{Function, Object, Promise, Reflect};
    use send_wrapper::SendWrapper;
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    use web_sys::{EventSource, MessageEvent};

    struct Stream {
        url: String,
        retry_ms: i32,
        on_message: Closure<dyn Fn(MessageEvent)>,
        on_error: Closure<dyn Fn()>,
        source: RefCell<Option<EventSource>>,
        closed: Cell<bool>,
    }

    /// An open Server-Sent Events stream; closing it (or dropping the component that opened
    /// it) stops it for good.
    #[derive(Clone)]
    pub struct Listener(SendWrapper<Rc<Stream>>);

    impl Listener {
        pub fn close(&self) {
            self.0.closed.set(true);
            if let Some(source) = self.0.source.borrow_mut().take() {
                source.close();
            }
        }
    }

    fn open(stream: &Rc<Stream>) {
        if stream.closed.get() {
            return;
        }
        let Ok(source) = EventSource::new(&stream.url) else {
            return;
        };
        source.set_onmessage(Some(stream.on_message.as_ref().unchecked_ref()));
        source.set_onerror(Some(stream.on_error.as_ref().unchecked_ref()));
        if let Some(old) = stream.source.replace(Some(source)) {
            old.close();
        }
    }

    /// The browser reconnects a dropped stream by itself; one it gave up on (the server
    /// answered with an error status, such as 503 when an instance is at its limit) is opened
    /// again after `retry_ms`.
    fn on_error(stream: &Weak<Stream>) {
        let Some(stream) = stream.upgrade() else {
            return;
        };
        let gave_up = stream
            .source
            .borrow()
            .as_ref()
            .is_some_and(|s| s.ready_state() == EventSource::CLOSED);
        if !gave_up || stream.closed.get() {
            return;
        }
        let weak = Rc::downgrade(&stream);
        let reopen = Closure::once_into_js(move || {
            if let Some(stream) = weak.upgrade() {
                open(&stream);
            }
        });
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                reopen.unchecked_ref(),
                stream.retry_ms,
            );
        }
    }

    /// Listens to the Server-Sent Events at `url`, handing each message's data to
    /// `on_message`, until closed.
    pub fn listen(url: &str, retry_ms: i32, on_message: impl Fn(String) + 'static) -> Listener {
        let stream = Rc::new_cyclic(|weak: &Weak<Stream>| {
            let weak = weak.clone();
            Stream {
                url: url.to_owned(),
                retry_ms,
                on_message: Closure::new(move |event: MessageEvent| {
                    if let Some(data) = event.data().as_string() {
                        on_message(data);
                    }
                }),
                on_error: Closure::new(move || on_error(&weak)),
                source: RefCell::new(None),
                closed: Cell::new(false),
            }
        });
        open(&stream);
        Listener(SendWrapper::new(stream))
    }

    /// `path` on this page's origin.
    pub fn absolute(path: &str) -> String {
        let origin = web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default();
        format!("{origin}{path}")
    }

    /// Puts `text` on the clipboard; `false` when the browser refused (it needs a secure
    /// context, so plain http on a LAN address fails).
    pub async fn copy_text(text: &str) -> bool {
        let Some(window) = web_sys::window() else {
            return false;
        };
        let promise = window.navigator().clipboard().write_text(text);
        JsFuture::from(promise).await.is_ok()
    }

    fn share_fn() -> Option<(web_sys::Navigator, Function)> {
        let navigator = web_sys::window()?.navigator();
        let share = Reflect::get(&navigator, &"share".into()).ok()?;
        Some((navigator, share.dyn_into::<Function>().ok()?))
    }

    /// Whether the browser has the Web Share API (phones mostly do, desktops often not).
    pub fn can_share() -> bool {
        share_fn().is_some()
    }

    /// Opens the system share sheet; `false` if there is none or the player cancelled.
    pub async fn share(title: &str, url: &str) -> bool {
        let Some((navigator, share)) = share_fn() else {
            return false;
        };
        let data = Object::new();
        let filled = Reflect::set(&data, &"title".into(), &title.into()).is_ok()
            && Reflect::set(&data, &"url".into(), &url.into()).is_ok();
        if !filled {
            return false;
        }
        match share.call1(&navigator, &data) {
            Ok(promise) => match promise.dyn_into::<Promise>() {
                Ok(promise) => JsFuture::from(promise).await.is_ok(),
                Err(_) => false,
            },
            Err(_) => false,
        }
    }

    /// The browser's clock, in milliseconds since the epoch.
    pub fn now_ms() -> f64 {
        js_sys::Date::now()
    }

    fn call(target: &wasm_bindgen::JsValue, method: &str) -> Option<Function> {
        Reflect::get(target, &method.into()).ok()?.dyn_into().ok()
    }

    async fn settle(promise: wasm_bindgen::JsValue) -> Option<wasm_bindgen::JsValue> {
        JsFuture::from(promise.dyn_into::<Promise>().ok()?)
            .await
            .ok()
    }

    /// Posts `fields` as a form to `path` on this origin, asking for JSON, and answers the
    /// status and the body's text; `None` when no answer came (offline, aborted). The browser's
    /// own `fetch`, called through `Reflect`: no request-building crate in the bundle.
    pub async fn post_form(path: &str, fields: &[(&str, String)]) -> Option<(u16, String)> {
        let window: wasm_bindgen::JsValue = web_sys::window()?.into();
        let body = fields
            .iter()
            .map(|(name, value)| format!("{name}={}", js_sys::encode_uri_component(value)))
            .collect::<Vec<_>>()
            .join("&");
        let headers = Object::new();
        let init = Object::new();
        let built = Reflect::set(
            &headers,
            &"content-type".into(),
            &"application/x-www-form-urlencoded".into(),
        )
        .is_ok()
            && Reflect::set(&headers, &"accept".into(), &"application/json".into()).is_ok()
            && Reflect::set(&init, &"method".into(), &"POST".into()).is_ok()
            && Reflect::set(&init, &"headers".into(), &headers).is_ok()
            && Reflect::set(&init, &"body".into(), &body.into()).is_ok();
        if !built {
            return None;
        }
        let fetch = call(&window, "fetch")?;
        let response = settle(fetch.call2(&window, &path.into(), &init).ok()?).await?;
        let status = Reflect::get(&response, &"status".into()).ok()?.as_f64()? as u16;
        let text = settle(call(&response, "text")?.call0(&response).ok()?).await?;
        Some((status, text.as_string()?))
    }

    /// Moves the address bar to `url` (same origin) without loading a page.
    pub fn push_address(url: &str) {
        if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
            let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url));
        }
    }

    /// The values of `names` in the address's query string (decoded; `+` as a space).
    pub fn query_params<const N: usize>(names: &[&str; N]) -> [Option<String>; N] {
        let search = web_sys::window()
            .and_then(|w| w.location().search().ok())
            .unwrap_or_default();
        let mut found: [Option<String>; N] = std::array::from_fn(|_| None);
        for pair in search.trim_start_matches('?').split('&') {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            if let Some(i) = names.iter().position(|name| *name == key) {
                let value = value.replace('+', " ");
                found[i] = js_sys::decode_uri_component(&value)
                    .ok()
                    .and_then(|v| v.as_string());
            }
        }
        found
    }

    /// A short buzz where the device can (most phones; never desktops or iOS Safari), once the
    /// player has touched the page: before that the browser refuses it and says so in the
    /// console (a page opened mid-match hears verdicts before any tap). A browser without
    /// `navigator.userActivation` is simply asked.
    pub fn vibrate(ms: u32) {
        let Some(window) = web_sys::window() else {
            return;
        };
        let navigator = window.navigator();
        let touched = Reflect::get(&navigator, &"userActivation".into())
            .and_then(|activation| Reflect::get(&activation, &"hasBeenActive".into()))
            .map_or(true, |active| active.as_bool() != Some(false));
        if touched {
            let _ = navigator.vibrate_with_duration(ms);
        }
    }

    thread_local! {
        static AUDIO: RefCell<Option<web_sys::AudioContext>> = const { RefCell::new(None) };
    }

    /// Tones one after another, each `(hz, ms)` (one shared audio context, made on the first
    /// call; browsers start it suspended until the player has touched the page, so each call
    /// asks it to resume).
    pub fn tones(notes: &[(f32, u32)]) {
        let _ = AUDIO.with(|audio| -> Result<(), wasm_bindgen::JsValue> {
            let mut audio = audio.borrow_mut();
            if audio.is_none() {
                *audio = Some(web_sys::AudioContext::new()?);
            }
            let Some(context) = audio.as_ref() else {
                return Ok(());
            };
            if let Some(resume) = call(context, "resume") {
                let _ = resume.call0(context);
            }
            let mut at = context.current_time();
            for &(hz, ms) in notes {
                let tone = context.create_oscillator()?;
                tone.frequency().set_value(hz);
                tone.connect_with_audio_node(&context.destination())?;
                tone.start_with_when(at)?;
                at += f64::from(ms) / 1000.0;
                tone.stop_with_when(at)?;
            }
            Ok(())
        });
    }

    fn storage() -> Option<wasm_bindgen::JsValue> {
        Reflect::get(&web_sys::window()?.into(), &"localStorage".into())
            .ok()
            .filter(|s| !s.is_null() && !s.is_undefined())
    }

    /// A value this browser remembers for the site (`localStorage`; `None` where it is off).
    pub fn remembered(key: &str) -> Option<String> {
        let storage = storage()?;
        call(&storage, "getItem")?
            .call1(&storage, &key.into())
            .ok()?
            .as_string()
    }

    /// Remembers `value` under `key` (quietly nothing where storage is off or full).
    pub fn remember(key: &str, value: &str) {
        if let Some(storage) = storage() {
            if let Some(set) = call(&storage, "setItem") {
                let _ = set.call2(&storage, &key.into(), &value.into());
            }
        }
    }
}

#[cfg(not(feature = "hydrate"))]
mod imp {
    /// Nothing to listen to on the server.
    #[derive(Clone)]
    pub struct Listener;

    impl Listener {
        pub fn close(&self) {}
    }

    pub fn listen(_url: &str, _retry_ms: i32, _on_message: impl Fn(String) + 'static) -> Listener {
        Listener
    }

    pub fn absolute(path: &str) -> String {
        path.to_owned()
    }

    pub async fn copy_text(_text: &str) -> bool {
        false
    }

    pub fn can_share() -> bool {
        false
    }

    pub async fn share(_title: &str, _url: &str) -> bool {
        false
    }

    pub fn now_ms() -> f64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as f64)
            .unwrap_or_default()
    }

    pub fn vibrate(_ms: u32) {}

    pub async fn post_form(_path: &str, _fields: &[(&str, String)]) -> Option<(u16, String)> {
        None
    }

    pub fn push_address(_url: &str) {}

    pub fn query_params<const N: usize>(_names: &[&str; N]) -> [Option<String>; N] {
        std::array::from_fn(|_| None)
    }

    pub fn tones(_notes: &[(f32, u32)]) {}

    pub fn remembered(_key: &str) -> Option<String> {
        None
    }

    pub fn remember(_key: &str, _value: &str) {}
}

pub use imp::{
    absolute, can_share, copy_text, listen, now_ms, post_form, push_address, query_params,
    remember, remembered, share, tones, vibrate, Listener,
};

/// Calls the server function at `path` with `fields` as a plain form post and decodes its JSON
/// answer: the game's few calls from an island, without the server-function client (its
/// request builders and codecs weighed several KB of the bundle). A refusal decodes as the
/// server's own [`crate::error::AppError`].
pub async fn call_server<T: serde::de::DeserializeOwned>(
    path: &str,
    fields: &[(&str, String)],
) -> Result<T, crate::error::AppError> {
    use crate::error::AppError;
    let Some((status, body)) = post_form(path, fields).await else {
        return Err(AppError::Transport("—".into()));
    };
    if (200..300).contains(&status) {
        serde_json::from_str(&body).map_err(|_| AppError::Transport(status.to_string()))
    } else {
        Err(serde_json::from_str(&body).unwrap_or(AppError::Internal))
    }
}
