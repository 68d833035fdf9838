//! The rate limits' counters: one per limit and fixed window.

use super::table::Key;
use crate::ids::UserId;

/// What one rate limit counts: every limit is its own fixed-window counter, keyed by what is
/// counted and whose (an address, a player, a login). Addresses and logins are kept out of logs.
#[derive(Clone, Copy)]
pub enum Limited<'a> {
    /// Guests made from an address.
    GuestsFrom(&'a str),
    /// A guest's tries to claim an account.
    Claims(&'a UserId),
    /// Claims from an address.
    ClaimsFrom(&'a str),
    /// Sign-ins from an address.
    SignInsFrom(&'a str),
    /// Sign-ins to an account from a device that signed in to it before (its device id).
    SignInsOnDevice(&'a UserId, &'a str),
    /// Sign-ins with a login (username or email) from an address.
    SignInsOfLoginFrom(&'a str, &'a str),
    /// Sign-ins with a login, from anywhere.
    SignInsOfLogin(&'a str),
    /// Rooms opened from an address, and public ones among them.
    RoomsFrom(&'a str),
    PublicRoomsFrom(&'a str),
    /// Rooms a player opened.
    Rooms(&'a UserId),
    /// Joins from an address, and a player's joins.
    JoinsFrom(&'a str),
    Joins(&'a UserId),
    /// A player's renames.
    Renames(&'a UserId),
    /// A player's reports of other players.
    Reports(&'a UserId),
    /// A player's purchases and sales in the shop.
    Shop(&'a UserId),
    /// A player's trade offers and answers, and declines.
    Trades(&'a UserId),
    Declines(&'a UserId),
    /// A player's decks made and saved.
    Decks(&'a UserId),
    /// A player's suggestions and votes in rooms' suggestion boxes.
    Suggestions(&'a UserId),
}

impl Limited<'_> {
    /// The counter's name, as stored after `RATE#` (stored data: changing one resets a limit).
    fn name(&self) -> String {
        match self {
            Limited::GuestsFrom(address) => format!("guest#{address}"),
            Limited::Claims(user) => format!("claim#{user}"),
            Limited::ClaimsFrom(address) => format!("claim-from#{address}"),
            Limited::SignInsFrom(address) => format!("sign-in-from#{address}"),
            Limited::SignInsOnDevice(user, device) => format!("sign-in-device#{user}#{device}"),
            Limited::SignInsOfLoginFrom(login, address) => format!("sign-in#{login}#{address}"),
            Limited::SignInsOfLogin(login) => format!("sign-in#{login}"),
            Limited::RoomsFrom(address) => format!("rooms-from#{address}"),
            Limited::PublicRoomsFrom(address) => format!("public-rooms-from#{address}"),
            Limited::Rooms(user) => format!("rooms#{user}"),
            Limited::JoinsFrom(address) => format!("joins-from#{address}"),
            Limited::Joins(user) => format!("joins#{user}"),
            Limited::Renames(user) => format!("rename#{user}"),
            Limited::Reports(user) => format!("report#{user}"),
            Limited::Shop(user) => format!("shop#{user}"),
            Limited::Trades(user) => format!("trade#{user}"),
            Limited::Declines(user) => format!("decline#{user}"),
            Limited::Decks(user) => format!("decks#{user}"),
            Limited::Suggestions(user) => format!("suggest#{user}"),
        }
    }
}

/// A rate-limit counter for one limit in one fixed window: `RATE#<limit>` / `W#<window start>`.
pub fn rate_window(limited: Limited<'_>, window_start: i64) -> Key {
    Key {
        pk: format!("RATE#{}", limited.name()),
        sk: format!("W#{window_start}"),
    }
}
