//! Secrets of identity, server only: session tokens (the browser holds the token, the table
//! only its SHA-256) and password hashing with argon2id.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use sha2::{Digest, Sha256};

use crate::identity::model::Password;
pub use crate::ids::SessionHash;

/// A session token as the browser's cookie carries it: 32 random bytes, base64url.
#[derive(Clone, PartialEq, Eq)]
pub struct SessionToken(String);

impl std::fmt::Debug for SessionToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SessionToken(..)")
    }
}

impl SessionToken {
    pub fn generate() -> Self {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).expect("the OS has randomness");
        Self(URL_SAFE_NO_PAD.encode(bytes))
    }

    /// A token from a cookie; `None` when it cannot be one of ours (so it is never looked up).
    pub fn from_cookie(raw: &str) -> Option<Self> {
        let ok = raw.len() == 43
            && raw
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        ok.then(|| Self(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn hash(&self) -> SessionHash {
        SessionHash::from_hex(
            Sha256::digest(self.0.as_bytes())
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect(),
        )
    }
}

/// Password hashes computed at once on one instance, at most: argon2 takes ~20 ms of a core, so
/// a flood of claims or sign-ins waits its turn instead of taking every core from the game.
const HASHING_AT_ONCE: usize = 2;

fn hashing() -> &'static tokio::sync::Semaphore {
    static HASHING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(HASHING_AT_ONCE);
    &HASHING
}

/// Runs an argon2 computation off the async threads, at most [`HASHING_AT_ONCE`] at a time.
async fn with_hashing<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let _permit = hashing().acquire().await.ok()?;
    tokio::task::spawn_blocking(work).await.ok()
}

/// [`hash_password`], off the async threads and within the hashing limit.
pub async fn hash_password_limited(password: Password) -> Option<String> {
    with_hashing(move || hash_password(&password).ok())
        .await
        .flatten()
}

/// Whether `password` matches `stored`, off the async threads and within the hashing limit.
/// With no stored hash (an unknown login) it verifies against a hash nobody's password has, so
/// an unknown login takes as long as a wrong password: the time of the answer does not say
/// whether the account exists.
pub async fn verify_password_limited(password: Password, stored: Option<String>) -> bool {
    with_hashing(move || match stored {
        Some(stored) => verify_password(&password, &stored),
        None => {
            verify_password(&password, dummy_hash());
            false
        }
    })
    .await
    .unwrap_or(false)
}

/// An argon2id hash with the same parameters as every real one, of a random password. Made
/// once per process, ahead of time by [`prepare`] (so not even the first unknown login takes
/// longer than a known one), and not counted in [`argon2_runs`].
fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| {
        let mut random = [0u8; 24];
        getrandom::fill(&mut random).expect("the OS has randomness");
        let mut salt = [0u8; 16];
        getrandom::fill(&mut salt).expect("the OS has randomness");
        let salt = SaltString::encode_b64(&salt).expect("16 bytes encode");
        Argon2::default()
            .hash_password(URL_SAFE_NO_PAD.encode(random).as_bytes(), &salt)
            .expect("argon2 hashes any password")
            .to_string()
    })
}

/// Makes the dummy hash now, off the async threads: call once at start-up.
pub fn prepare() {
    std::thread::spawn(|| {
        dummy_hash();
    });
}

/// argon2 computations (hashes and verifications) this process has run: operators can watch
/// it, and tests use it to prove a refusal came before any hashing.
static ARGON2_RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

pub fn argon2_runs() -> u64 {
    ARGON2_RUNS.load(std::sync::atomic::Ordering::Relaxed)
}

fn count_argon2_run() {
    ARGON2_RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// Whether two secrets are equal, in time that does not depend on where they differ.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The argon2id PHC string for a password, with a fresh salt.
pub fn hash_password(password: &Password) -> Result<String, argon2::password_hash::Error> {
    count_argon2_run();
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).expect("the OS has randomness");
    let salt = SaltString::encode_b64(&salt)?;
    Ok(Argon2::default()
        .hash_password(password.expose().as_bytes(), &salt)?
        .to_string())
}

/// Whether `password` matches a stored PHC string (false for a malformed one).
pub fn verify_password(password: &Password, stored: &str) -> bool {
    count_argon2_run();
    PasswordHash::new(stored).is_ok_and(|hash| {
        Argon2::default()
            .verify_password(password.expose().as_bytes(), &hash)
            .is_ok()
    })
}
