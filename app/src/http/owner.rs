//! One Leptos owner per request. `leptos_axum` runs a server function under `Owner::new()`,
//! whose parent is whatever owner the worker thread has current when the handler is first
//! polled; that can be an owner another request left behind (a page's), and everything that
//! page provided (who is signed in, for one) would be in the server function's reach. This
//! layer polls every request under a root owner of its own, so a server function's owner is a
//! child of its own request's root and of nothing else.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use leptos::prelude::Owner;

/// The layer's function (`axum::middleware::from_fn`).
pub async fn own_root(request: Request, next: Next) -> Response {
    Rooted {
        owner: Owner::new_root(None),
        inner: Box::pin(next.run(request)),
    }
    .await
}

/// A request's future, polled with its own root owner current (and the thread's previous owner
/// put back after each poll).
struct Rooted {
    owner: Owner,
    inner: Pin<Box<dyn Future<Output = Response> + Send>>,
}

impl Future for Rooted {
    type Output = Response;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Response> {
        let owner = self.owner.clone();
        owner.with(|| self.inner.as_mut().poll(cx))
    }
}
