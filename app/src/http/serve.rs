//! The accept loop: axum's router on hyper, with the timeouts a public server needs. A client
//! must send a request's headers within [`HEADER_READ_TIMEOUT`] (a trickled request is cut off
//! instead of holding a connection), and its body within [`BODY_READ_TIMEOUT`] (the body layer
//! in `router`). Shutdown stops accepting, lets requests in flight finish, and closes idle
//! connections.

use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::{ConnectInfo, Request};
use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tower::ServiceExt;

/// How long a client has to send a request's headers.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a client has to send a request's body (set on the router).
pub const BODY_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves `router` on `listener` until `shutdown` resolves, then drains.
pub async fn serve(
    listener: tokio::net::TcpListener,
    router: Router,
    header_timeout: Duration,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    serve_with_grace(listener, router, header_timeout, shutdown, None).await
}

/// [`serve`], draining for at most `grace` (when given): connections still busy then are
/// dropped.
pub async fn serve_with_grace(
    listener: tokio::net::TcpListener,
    router: Router,
    header_timeout: Duration,
    shutdown: impl std::future::Future<Output = ()>,
    grace: Option<Duration>,
) -> std::io::Result<()> {
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    builder.http2().timer(TokioTimer::new());
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    // Out of file descriptors and the like: wait, do not spin.
                    tracing::debug!(%err, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let service =
            router
                .clone()
                .map_request(move |mut request: Request<hyper::body::Incoming>| {
                    request
                        .extensions_mut()
                        .insert(ConnectInfo::<SocketAddr>(remote));
                    request.map(axum::body::Body::new)
                });
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), TowerToHyperService::new(service))
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(err) = connection.await {
                tracing::debug!(error = %err, "connection ended with an error");
            }
        });
    }
    drop(listener);
    match grace {
        Some(grace) => {
            if tokio::time::timeout(grace, graceful.shutdown())
                .await
                .is_err()
            {
                tracing::warn!(
                    ?grace,
                    "connections still busy at the end of the grace; dropped"
                );
            }
        }
        None => graceful.shutdown().await,
    }
    Ok(())
}
