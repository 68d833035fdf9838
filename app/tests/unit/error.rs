//! The unit tests of `app::error`.

use std::sync::{Arc, Mutex};

use http::StatusCode;

use app::error::*;

#[test]
fn the_english_wording_is_the_locale_files() {
    assert_eq!(
        AppError::SignInRequired.to_string(),
        "Start playing or sign in first."
    );
    assert_eq!(
        AppError::Transport("timed out".into()).to_string(),
        "Could not reach the server: timed out"
    );
    assert_eq!(AppError::Conflict("x".into()).to_string(), "x");
}

#[test]
fn statuses_match_the_kind_of_failure() {
    assert_eq!(
        AppError::Unavailable.status(),
        StatusCode::SERVICE_UNAVAILABLE
    );
    assert_eq!(
        AppError::BadRequest("x".into()).status(),
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        AppError::Conflict("x".into()).status(),
        StatusCode::CONFLICT
    );
}

/// What a subscriber wrote.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Log {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_refusal_is_logged_in_a_span_named_after_its_server_function_with_its_player() {
    let log = Log::default();
    let writer = log.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::DEBUG)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    tracing::subscriber::with_default(subscriber, || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let refused: Result<(), AppError> = runtime.block_on(answer("join_room", async {
            // What `identity::session::current_user` records once it knows the player.
            tracing::Span::current().record(
                "player",
                tracing::field::display("01HASHAASHAASHAASHAASHAASH"),
            );
            Err(AppError::Forbidden("no".into()))
        }));
        assert_eq!(refused, Err(AppError::Forbidden("no".into())));
        let answered = runtime.block_on(answer("join_room", async { Ok(7) }));
        assert_eq!(answered, Ok(7));
    });
    let text = String::from_utf8(log.0.lock().unwrap().clone()).unwrap();
    let line = text
        .lines()
        .find(|line| line.contains("refused"))
        .unwrap_or_else(|| panic!("no refusal logged: {text}"));
    assert!(line.contains("server_fn"), "{line}");
    assert!(line.contains("join_room"), "{line}");
    assert!(line.contains("player=01HASHAASHAASHAASHAASHAASH"), "{line}");
    assert!(line.contains("status=403"), "{line}");
    assert_eq!(text.lines().count(), 1, "an answer logs nothing: {text}");
}
