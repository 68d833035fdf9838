//! What the request guard learned about a request, for whatever handles it: the client's
//! address (through trusted proxies only), whether it came over TLS, the script nonce of its
//! page, and the form error it carries when the server sealed it. The guard and the form-error
//! layer (in `http`) insert them as request extensions; the session cookie, the rate limits,
//! the shell and the pages' `FormError` read them.

use std::net::IpAddr;
use std::sync::Arc;

/// The client as every per-address limit counts it, from the address the guard worked out: an
/// IPv4 address, or an IPv6 address's /64, which one home or phone usually holds whole (absent
/// when the server does not know the connection, as in tests that call the router directly).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddress(pub IpAddr);

impl ClientAddress {
    /// The client at `address`: itself if IPv4 (also when written as IPv6, `::ffff:a.b.c.d`),
    /// else its /64 (the address with its last 64 bits zero).
    pub fn of(address: IpAddr) -> Self {
        Self(match address {
            IpAddr::V4(v4) => IpAddr::V4(v4),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => IpAddr::V4(v4),
                None => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
            },
        })
    }
}

/// Whether the browser reached us over TLS (cookies get `Secure`, answers get HSTS).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OverTls(pub bool);

/// Where players reach us, `scheme://host[:port]`: the operator's public origin, or else this
/// request's scheme and (well-formed) Host. Pages make absolute links from it (`og:url`,
/// `og:image`). Absent when the Host is missing or malformed.
#[derive(Debug, Clone)]
pub struct PageOrigin(pub Arc<str>);

impl PageOrigin {
    /// The origin for a request with this public origin, TLS state and Host header.
    pub fn of(public_origin: Option<&str>, tls: bool, host: Option<&str>) -> Option<Self> {
        if let Some(origin) = public_origin {
            return Some(Self(origin.into()));
        }
        let host = host.filter(|h| {
            !h.is_empty()
                && h.len() < 256
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b".:-[]".contains(&b))
        })?;
        let scheme = if tls { "https" } else { "http" };
        Some(Self(format!("{scheme}://{host}").into()))
    }
}

/// This request's script nonce: the pages' scripts carry it and the CSP names it.
#[derive(Debug, Clone)]
pub struct CspNonce(pub Arc<str>);

/// The form error (`__path`, `__err`) in this request's address, when this server sealed it for
/// this browser within the last minute (see `http::form_errors`): the only one a page shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedFormError {
    pub path: Arc<str>,
    pub err: Arc<str>,
}
