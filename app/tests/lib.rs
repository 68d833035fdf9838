//! The app's tests are the test binaries of this package (`data`, `http`, `unit`; see
//! Cargo.toml); this library is empty.
