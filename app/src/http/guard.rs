//! The request guard, one layer in front of everything: whether the request names a path at all
//! (a target such as `x:1` is a 400 before any handler), who the client is (their own address,
//! or the one a configured proxy forwarded; an IPv6 client is its /64), whether a
//! state-changing request comes from our own pages, and the headers every answer carries (CSP
//! with a per-request script nonce, HSTS behind TLS, `no-store` on what is personal, redirects
//! kept on our own origin).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
pub use ipnet::IpNet;

pub use crate::request::{ClientAddress, CspNonce, OverTls, PageOrigin};

/// How the server sees the world around it, set by the operator (see the README's
/// "Security" section).
#[derive(Debug, Clone)]
pub struct SecurityConfig {
    /// `scheme://host[:port]` that players' browsers use, e.g. `https://udd.example`. When
    /// set, a state-changing request must come from exactly this origin; when not, from the
    /// origin the request's `Host` names.
    pub public_origin: Option<String>,
    /// Proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed. Nobody else's are.
    pub trusted_proxies: Vec<IpNet>,
    /// Whether answers carry `Server-Timing` (DynamoDB calls and capacity per request): for
    /// operators, because it tells a stranger how much work a request did.
    pub server_timing: bool,
    /// Live streams one client address may hold open across every instance.
    pub streams_per_client: u32,
}

impl Default for SecurityConfig {
    fn default() -> Self {
        Self {
            public_origin: None,
            trusted_proxies: Vec::new(),
            server_timing: false,
            streams_per_client: crate::live::STREAMS_PER_CLIENT,
        }
    }
}

impl SecurityConfig {
    /// Parses the public origin: `http` or `https`, a host, an optional port, nothing else.
    pub fn parse_origin(raw: &str) -> Result<String, String> {
        let origin = raw.trim().trim_end_matches('/').to_ascii_lowercase();
        let rest = origin
            .strip_prefix("https://")
            .or_else(|| origin.strip_prefix("http://"))
            .ok_or_else(|| format!("{raw:?}: the public origin starts with https:// or http://"))?;
        let ok = !rest.is_empty()
            && rest
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b));
        if ok {
            Ok(origin)
        } else {
            Err(format!(
                "{raw:?}: the public origin is scheme://host[:port], with no path"
            ))
        }
    }

    /// Parses a comma-separated list of addresses and CIDR ranges (`10.0.0.0/8, ::1`).
    pub fn parse_proxies(raw: &str) -> Result<Vec<IpNet>, String> {
        raw.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<IpNet>()
                    .or_else(|_| s.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| format!("{s:?} is not an IP address or CIDR range"))
            })
            .collect()
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        self.trusted_proxies.iter().any(|net| net.contains(&ip))
    }

    /// The client's address: the connection's peer, or, when the peer is a trusted proxy, the
    /// nearest address in `X-Forwarded-For` that is not a trusted proxy itself.
    pub fn client_address(&self, peer: Option<IpAddr>, headers: &HeaderMap) -> Option<IpAddr> {
        let peer = peer?;
        if !self.trusts(peer) {
            return Some(peer);
        }
        let forwarded: Vec<IpAddr> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|s| s.trim().parse().ok())
            .collect();
        // Walk from the proxy nearest to us outwards; the first hop we do not trust is the
        // client (anything further left was written by the client and proves nothing).
        let mut client = peer;
        for hop in forwarded.into_iter().rev() {
            client = hop;
            if !self.trusts(hop) {
                break;
            }
        }
        Some(client)
    }

    /// Whether the browser reached us over TLS: the public origin says so, or a trusted proxy
    /// does.
    fn over_tls(&self, peer: Option<IpAddr>, headers: &HeaderMap) -> bool {
        if let Some(origin) = &self.public_origin {
            return origin.starts_with("https://");
        }
        peer.is_some_and(|peer| self.trusts(peer))
            && headers
                .get("x-forwarded-proto")
                .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"https"))
    }

    /// Whether a state-changing request may have been made by a page of another origin
    /// (another site, another port or a sibling subdomain): refused before any handler runs.
    ///
    /// Browsers say where a request comes from: `Sec-Fetch-Site` (modern browsers, over HTTPS
    /// and on localhost) and `Origin` (on every POST). A request with neither did not come from
    /// a browser page, so it cannot carry a victim's cookie on an attacker's behalf. Without a
    /// public origin, ours is the scheme the browser reached us by (`tls`, see
    /// [`Self::over_tls`]) and the request's `Host`.
    pub fn is_cross_origin(&self, headers: &HeaderMap, tls: bool) -> bool {
        if let Some(site) = headers.get("sec-fetch-site") {
            // `none`: the person started it themselves (the address bar, a bookmark).
            return !matches!(site.as_bytes(), b"same-origin" | b"none");
        }
        let Some(origin) = headers.get(header::ORIGIN) else {
            return false;
        };
        let Ok(origin) = origin.to_str() else {
            return true;
        };
        let origin = origin.to_ascii_lowercase();
        match &self.public_origin {
            Some(expected) => &origin != expected,
            None => {
                let host = headers
                    .get(header::HOST)
                    .and_then(|h| h.to_str().ok())
                    .map(str::to_ascii_lowercase);
                let authority = origin.strip_prefix(if tls { "https://" } else { "http://" });
                !matches!((authority, host), (Some(a), Some(h)) if a == h)
            }
        }
    }

    /// The origin a redirect may point at: the public one, or the request's own host.
    fn own_origin_authority<'a>(&'a self, headers: &'a HeaderMap) -> Option<&'a str> {
        match &self.public_origin {
            Some(origin) => origin.split_once("://").map(|(_, authority)| authority),
            None => headers.get(header::HOST).and_then(|h| h.to_str().ok()),
        }
    }
}

fn new_nonce() -> Arc<str> {
    let mut bytes = [0u8; 18];
    getrandom::fill(&mut bytes).expect("the OS has randomness");
    URL_SAFE_NO_PAD.encode(bytes).into()
}

/// The Content-Security-Policy of a page: scripts only with this request's nonce (and what
/// they load), WebAssembly compiled, nothing framed, forms posted only to us.
pub fn content_security_policy(nonce: &str) -> String {
    format!(
        "default-src 'self'; script-src 'nonce-{nonce}' 'strict-dynamic' 'wasm-unsafe-eval'; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
         object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// Whether a request's target is a path (`/…`, HTTP/1.1's origin form), or a full address whose
/// path is one (the absolute form, which HTTP/1.1 servers must accept and HTTP/2 always sends).
/// Not an authority (`CONNECT x:1`, `GET x:1`) or `*`: nothing here answers those.
pub fn names_a_path(uri: &Uri) -> bool {
    uri.path_and_query()
        .is_some_and(|target| target.as_str().starts_with('/'))
}

/// The guard itself (an axum middleware on the whole router).
pub async fn guard(
    State(security): State<Arc<SecurityConfig>>,
    mut request: Request,
    next: Next,
) -> Response {
    if !names_a_path(request.uri()) {
        tracing::debug!(method = %request.method(), "refused a target that is not a path");
        let l = crate::lang::of_request(request.headers());
        let refused = crate::i18n::td_string!(l, common.not_a_path).to_string();
        return (StatusCode::BAD_REQUEST, refused).into_response();
    }
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip());
    let headers = request.headers();
    let client = security.client_address(peer, headers);
    let tls = security.over_tls(peer, headers);
    let unsafe_method = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if unsafe_method && security.is_cross_origin(headers, tls) {
        tracing::info!(
            path = request.uri().path(),
            origin = ?headers.get(header::ORIGIN),
            "refused a cross-origin request"
        );
        // In the language the request's browser reads (see `crate::lang`).
        let l = crate::lang::of_request(headers);
        let refused = crate::i18n::td_string!(l, common.cross_origin_refused).to_string();
        return (StatusCode::FORBIDDEN, refused).into_response();
    }
    let own_authority = security
        .own_origin_authority(headers)
        .map(str::to_ascii_lowercase);
    let personal = request.uri().path().starts_with("/api/");
    let nonce = new_nonce();
    if let Some(client) = client {
        request.extensions_mut().insert(ClientAddress::of(client));
    }
    request.extensions_mut().insert(OverTls(tls));
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok());
    if let Some(origin) = PageOrigin::of(security.public_origin.as_deref(), tls, host) {
        request.extensions_mut().insert(origin);
    }
    request.extensions_mut().insert(CspNonce(nonce.clone()));
    let locale = crate::lang::of_request(request.headers());
    request.extensions_mut().insert(locale);

    let mut response = next.run(request).await;

    let headers = response.headers_mut();
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let html = content_type.starts_with("text/html");
    if html {
        if let Ok(value) = HeaderValue::from_str(&content_security_policy(&nonce)) {
            headers.insert(header::CONTENT_SECURITY_POLICY, value);
        }
    }
    if (html || personal || content_type.starts_with("application/json"))
        && !headers.contains_key(header::CACHE_CONTROL)
    {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    if tls {
        headers.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000"),
        );
    }
    if let Some(location) = headers.get(header::LOCATION) {
        // Not even visible ASCII (raw bytes a browser might read otherwise): `/`.
        let safe = match location.to_str() {
            Ok(location) => same_origin_location(location, own_authority.as_deref()),
            Err(_) => Some("/".to_owned()),
        };
        if let Some(safe) = safe {
            let value = HeaderValue::from_str(&safe).unwrap_or(HeaderValue::from_static("/"));
            headers.insert(header::LOCATION, value);
        }
    }
    response
}

/// A redirect target on our own origin: a plain path stays as it is; an absolute URL on our
/// own origin becomes its path; anything else becomes `/`. "Plain" is judged as a browser
/// reads the address (the URL standard drops tabs and newlines anywhere and reads `\` as `/`),
/// so nothing dubious passes: another site, `//host`, `/\host`, a control character or DEL
/// anywhere, a backslash anywhere, a percent-encoded control character or backslash, or an
/// encoded slash right after the first one. `None` when nothing needs changing.
pub fn same_origin_location(location: &str, own_authority: Option<&str>) -> Option<String> {
    if is_plain_path(location) {
        return None;
    }
    let lower = location.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"));
    if let (Some(rest), Some(own)) = (rest, own_authority) {
        let authority_len = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        if &rest[..authority_len] == own {
            // Same origin: keep the path (from the original string, so its case survives), if
            // it is a plain one itself.
            let start = location.len() - rest.len() + authority_len;
            let path = &location[start..];
            let path = if path.starts_with('/') {
                path.to_owned()
            } else {
                format!("/{path}")
            };
            if is_plain_path(&path) {
                return Some(path);
            }
        }
    }
    Some("/".to_owned())
}

/// A path on our origin that every browser reads as one: starts with one `/`, then visible
/// ASCII only (no control character, DEL, space or backslash), no percent-encoded control
/// character, DEL or backslash, and no encoded slash or backslash right after the first `/`.
fn is_plain_path(location: &str) -> bool {
    let bytes = location.as_bytes();
    let visible = bytes.iter().all(|&b| b.is_ascii_graphic() && b != b'\\');
    let encoded = |at: usize| -> Option<u8> {
        let hex = bytes.get(at + 1..at + 3)?;
        u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()
    };
    let dubious_escape = bytes.iter().enumerate().any(|(i, &b)| {
        b == b'%'
            && encoded(i).is_some_and(|byte| {
                byte < 0x20 || byte == 0x7F || byte == b'\\' || (i == 1 && byte == b'/')
            })
    });
    bytes.first() == Some(&b'/')
        && !matches!(bytes.get(1), Some(b'/' | b'\\'))
        && visible
        && !dubious_escape
}
