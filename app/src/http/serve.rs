//! The accept loop: axum's router on hyper, with the timeouts a public server needs. A client
//! must send a request's headers within [`Timeouts::header`] of their first byte (a trickled
//! request is cut off instead of holding a connection), each piece of its body within
//! [`BODY_READ_TIMEOUT`] (the body layer in `router`) and the whole body within the same from
//! its head (`deadline`); a keep-alive connection may wait idle
//! for its next request for [`Timeouts::idle`], longer than any load balancer or client pool in
//! front keeps it (an idle limit shorter than theirs resets the requests they send on a
//! connection the server is closing). Shutdown stops accepting, lets requests in flight finish,
//! and closes idle connections.
//!
//! hyper has one timer for both: its header timeout starts when it begins to wait for a head,
//! so on a keep-alive connection the idle wait counts against it. Here hyper's timeout is the
//! idle one, and each connection's timer ([`HeadTimer`]) shortens it to the header timeout once
//! the connection's reader ([`Watched`]) has seen the first byte of the head.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request};
use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tower::ServiceExt;

/// How long a client has to send a request's headers, from their first byte.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a client has to send each piece of a request's body, and the whole of it (set on
/// the router; see `deadline`).
pub const BODY_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an idle keep-alive connection is kept: above the 120 s the AWS template gives its
/// load balancer (`idle_timeout.timeout_seconds`), so the balancer always closes first.
pub const KEEP_ALIVE_IDLE: Duration = Duration::from_secs(130);

/// The connection timeouts of [`serve`].
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    /// From a request head's first byte to its end.
    pub header: Duration,
    /// An idle keep-alive connection's wait for its next request (and a new connection's for
    /// its first byte).
    pub idle: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            header: HEADER_READ_TIMEOUT,
            idle: KEEP_ALIVE_IDLE,
        }
    }
}

/// What one connection's reader and its head timer share: when the head being waited for
/// began to arrive.
#[derive(Debug, Default)]
struct Head {
    first_byte: Mutex<Option<Instant>>,
}

impl Head {
    fn first_byte(&self) -> Option<Instant> {
        *self.first_byte.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set(&self, at: Option<Instant>) {
        *self.first_byte.lock().unwrap_or_else(|e| e.into_inner()) = at;
    }
}

/// A connection's stream, noting the first byte read after its timer began to wait for a head.
struct Watched {
    stream: tokio::net::TcpStream,
    head: Arc<Head>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let read = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(read, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            let mut first = self
                .head
                .first_byte
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            first.get_or_insert_with(Instant::now);
        }
        read
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// One connection's timer for hyper's header timeout (set to the idle timeout): a wait for a
/// head starts with no byte seen, and ends at the idle deadline or `header` after the head's
/// first byte, whichever is first.
#[derive(Clone)]
struct HeadTimer {
    head: Arc<Head>,
    header: Duration,
}

struct HeadSleep {
    head: Arc<Head>,
    header: Duration,
    idle_deadline: Instant,
    sleep: Pin<Box<tokio::time::Sleep>>,
}

impl HeadSleep {
    fn deadline(&self) -> Instant {
        match self.head.first_byte() {
            Some(first) => self.idle_deadline.min(first + self.header),
            None => self.idle_deadline,
        }
    }
}

impl Future for HeadSleep {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let deadline = tokio::time::Instant::from_std(self.deadline());
        if self.sleep.deadline() != deadline {
            self.sleep.as_mut().reset(deadline);
        }
        self.sleep.as_mut().poll(cx)
    }
}

impl hyper::rt::Sleep for HeadSleep {}

impl hyper::rt::Timer for HeadTimer {
    fn sleep(&self, duration: Duration) -> Pin<Box<dyn hyper::rt::Sleep>> {
        self.sleep_until(Instant::now() + duration)
    }

    fn sleep_until(&self, deadline: Instant) -> Pin<Box<dyn hyper::rt::Sleep>> {
        // hyper starts this wait as it begins to read a head: no byte of it is seen yet.
        self.head.set(None);
        Box::pin(HeadSleep {
            head: self.head.clone(),
            header: self.header,
            idle_deadline: deadline,
            sleep: Box::pin(tokio::time::sleep_until(deadline.into())),
        })
    }

    fn reset(&self, sleep: &mut Pin<Box<dyn hyper::rt::Sleep>>, new_deadline: Instant) {
        *sleep = self.sleep_until(new_deadline);
    }
}

/// Serves `router` on `listener` until `shutdown` resolves, then drains.
pub async fn serve(
    listener: tokio::net::TcpListener,
    router: Router,
    timeouts: Timeouts,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    serve_with_grace(listener, router, timeouts, shutdown, None).await
}

/// [`serve`], draining for at most `grace` (when given): connections still busy then are
/// dropped.
pub async fn serve_with_grace(
    listener: tokio::net::TcpListener,
    router: Router,
    timeouts: Timeouts,
    shutdown: impl std::future::Future<Output = ()>,
    grace: Option<Duration>,
) -> std::io::Result<()> {
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
        // Each connection has its own builder: its timer shares the connection's head watch.
        let head = Arc::new(Head::default());
        let mut builder = Builder::new(TokioExecutor::new());
        builder
            .http1()
            .timer(HeadTimer {
                head: head.clone(),
                header: timeouts.header,
            })
            .header_read_timeout(timeouts.idle);
        builder.http2().timer(TokioTimer::new());
        let stream = Watched { stream, head };
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
