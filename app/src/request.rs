//! What the request guard learned about a request, for whatever handles it: the client's
//! address (through trusted proxies only), whether it came over TLS, and the script nonce of
//! its page. The guard (in `http`) inserts them as request extensions; the session cookie, the
//! rate limits and the shell read them.

use std::net::IpAddr;
use std::sync::Arc;

/// The client's address, as the guard worked it out (absent when the server does not know the
/// connection, as in tests that call the router directly).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddress(pub IpAddr);

/// Whether the browser reached us over TLS (cookies get `Secure`, answers get HSTS).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OverTls(pub bool);

/// This request's script nonce: the pages' scripts carry it and the CSP names it.
#[derive(Debug, Clone)]
pub struct CspNonce(pub Arc<str>);
