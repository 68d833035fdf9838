//! Secrets of identity, server only: session tokens (the browser holds the token, the table
//! only its SHA-256) and password hashing with argon2id.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use sha2::{Digest, Sha256};

use crate::players::Password;

/// A session token as the browser's cookie carries it: 32 random bytes, base64url.
#[derive(Clone, PartialEq, Eq)]
pub struct SessionToken(String);

impl std::fmt::Debug for SessionToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SessionToken(..)")
    }
}

/// What the table stores for a session: the token's SHA-256, hex.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SessionHash(String);

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
        SessionHash(
            Sha256::digest(self.0.as_bytes())
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect(),
        )
    }
}

impl SessionHash {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The argon2id PHC string for a password, with a fresh salt.
pub fn hash_password(password: &Password) -> Result<String, argon2::password_hash::Error> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).expect("the OS has randomness");
    let salt = SaltString::encode_b64(&salt)?;
    Ok(Argon2::default()
        .hash_password(password.expose().as_bytes(), &salt)?
        .to_string())
}

/// Whether `password` matches a stored PHC string (false for a malformed one).
pub fn verify_password(password: &Password, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|hash| {
        Argon2::default()
            .verify_password(password.expose().as_bytes(), &hash)
            .is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_only_their_hash_is_kept() {
        let a = SessionToken::generate();
        let b = SessionToken::generate();
        assert_ne!(a, b);
        assert_eq!(a.hash(), a.clone().hash());
        assert_ne!(a.hash(), b.hash());
        assert_eq!(a.hash().as_str().len(), 64);
        assert!(!a.hash().as_str().contains(a.as_str()));
        assert_eq!(format!("{a:?}"), "SessionToken(..)");
    }

    #[test]
    fn cookies_that_cannot_be_tokens_are_refused() {
        let token = SessionToken::generate();
        assert_eq!(SessionToken::from_cookie(token.as_str()), Some(token));
        for bad in [
            "",
            "short",
            &"a".repeat(44),
            &format!("{}!", "a".repeat(42)),
        ] {
            assert!(SessionToken::from_cookie(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn passwords_verify_against_their_argon2id_hash_only() {
        let password = Password::parse("correct horse battery").unwrap();
        let stored = hash_password(&password).unwrap();
        assert!(stored.starts_with("$argon2id$"));
        assert!(verify_password(&password, &stored));
        assert!(!verify_password(
            &Password::parse("wrong horse battery").unwrap(),
            &stored
        ));
        assert!(!verify_password(&password, "not a hash"));
    }
}
