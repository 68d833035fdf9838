//! The pages, one module each.

mod home;
mod not_found;
mod things;

pub use home::HomePage;
pub use not_found::NotFound;
pub use things::ThingsPage;
