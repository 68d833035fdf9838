//! The pages, one module each.

mod forms;
mod home;
mod not_found;
mod room;
mod things;

pub use home::HomePage;
pub use not_found::NotFound;
pub use room::RoomPage;
pub use things::ThingsPage;
