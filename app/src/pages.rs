//! The pages, one module each.

mod account;
mod forms;
mod game;
mod home;
mod not_found;
mod room;
mod things;

pub use account::AccountPage;
pub use home::HomePage;
pub use not_found::NotFound;
pub use room::RoomPage;
pub use things::ThingsPage;
