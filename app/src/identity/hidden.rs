//! Names that are never drawn again where others see them, and what is drawn instead.
//!
//! A name is hidden when:
//! - the name filter refuses it: a name stored before the filter (or before a list grew) is
//!   read back from a board entry, a match record or a profile and refused now. Nothing is
//!   stored for it: the verdict is the filter's, remembered per name on each instance
//!   ([`VERDICTS`]); a player who renames shows again at once, and every old copy of the old
//!   name stays hidden;
//! - its player is in the **hidden set**: hidden by reports from enough distinct players or by
//!   an operator (`reports::store`), every name of theirs, until an operator clears them;
//! - it is a name an operator banned (`udd-server reports ban-name`), compared in its
//!   folded form (`DisplayName::folded`: case and look-alike letters); a banned name is also
//!   refused when typed.
//!
//! The hidden set is the table's `HIDDEN` partition, small and read whole. Each instance keeps
//! a copy ([`install`]) and checks the set's version item every few seconds (one eventually
//! consistent GetItem; the partition is read again only when the version moved:
//! `identity::store::hidden`), and at once after a change it made itself. So a name is
//! checked on every read with no round trip: [`shown`] is a hash lookup, and a filter verdict
//! the first time a name is seen (tens of microseconds).
//!
//! What is drawn instead is a neutral tag in the style of `ui::told_apart`: "👤·7KQ", the
//! last three characters of the player's id ([`tag`]).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, RwLock};

use crate::identity::model::{DisplayName, UserId};

/// The hidden set as an instance holds it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct HiddenSet {
    /// The set's version item when it was read (`-1`: never read).
    pub version: i64,
    /// Players hidden by reports or by an operator: every name of theirs.
    pub players: HashSet<UserId>,
    /// Names an operator banned, folded (`DisplayName::folded`).
    pub names: HashSet<String>,
}

static SET: LazyLock<RwLock<Arc<HiddenSet>>> = LazyLock::new(|| {
    RwLock::new(Arc::new(HiddenSet {
        version: -1,
        ..HiddenSet::default()
    }))
});

/// When this instance last asked the table for the set's version (epoch ms).
static CHECKED_MS: AtomicI64 = AtomicI64::new(0);
/// Whether a check is under way (one at a time per instance).
static CHECKING: AtomicBool = AtomicBool::new(false);

/// How often an instance asks whether the hidden set changed.
pub const CHECK_EVERY_MS: i64 = 5_000;

/// The most filter verdicts an instance remembers; past it, it starts again.
const VERDICTS_KEPT: usize = 50_000;

/// The filter's verdict on each name seen, by the name.
static VERDICTS: LazyLock<Mutex<HashMap<String, bool>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// This instance's copy of the hidden set.
pub fn current() -> Arc<HiddenSet> {
    Arc::clone(&SET.read().unwrap_or_else(|e| e.into_inner()))
}

/// What is told when this instance's copy changes: the live rooms, drawn again with the names
/// as hidden now (registered by the router: `live` is above this feature).
type Listener = Box<dyn Fn() + Send + Sync>;
static LISTENERS: LazyLock<Mutex<Vec<Listener>>> = LazyLock::new(|| Mutex::new(Vec::new()));

/// Calls `told` each time this instance's copy of the set changes.
pub fn on_change(told: impl Fn() + Send + Sync + 'static) {
    LISTENERS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(Box::new(told));
}

/// Keeps `set` as this instance's copy, unless the copy held is newer; tells the listeners
/// when what it hides changed.
pub fn install(set: HiddenSet) {
    let changed = {
        let mut held = SET.write().unwrap_or_else(|e| e.into_inner());
        if set.version < held.version {
            return;
        }
        let changed = set.players != held.players || set.names != held.names;
        crate::identity::name_filter::set_banned(set.names.clone());
        *held = Arc::new(set);
        changed
    };
    if changed {
        for told in LISTENERS.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            told();
        }
    }
}

/// Forgets this instance's copy, so the next check reads the set whole (for a process that
/// opens another table: the tests').
pub fn forget() {
    *SET.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(HiddenSet {
        version: -1,
        ..HiddenSet::default()
    });
    crate::identity::name_filter::set_banned(Default::default());
    CHECKED_MS.store(0, Ordering::Relaxed);
}

/// Whether it is time to ask the table for the set's version; if so, the caller does it and
/// calls [`checked`] after.
pub fn check_due(now_ms: i64) -> bool {
    now_ms - CHECKED_MS.load(Ordering::Relaxed) >= CHECK_EVERY_MS
        && CHECKING
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
}

/// The check [`check_due`] allowed is over (done or failed).
pub fn checked(now_ms: i64) {
    CHECKED_MS.store(now_ms, Ordering::Relaxed);
    CHECKING.store(false, Ordering::Release);
}

/// Whether the name filter refuses `name`, remembered per name.
pub fn refused(name: &str) -> bool {
    if let Some(&verdict) = VERDICTS.lock().unwrap_or_else(|e| e.into_inner()).get(name) {
        return verdict;
    }
    let verdict = crate::identity::name_filter::refuses(name);
    let mut verdicts = VERDICTS.lock().unwrap_or_else(|e| e.into_inner());
    if verdicts.len() >= VERDICTS_KEPT {
        verdicts.clear();
    }
    verdicts.insert(name.to_owned(), verdict);
    verdict
}

/// Whether an operator banned `name` (compared folded).
pub fn banned(name: &DisplayName) -> bool {
    use crate::identity::name_filter;
    name_filter::any_banned() && name_filter::banned(&name.folded())
}

/// Whether `name`, as a copy of `player`'s name, is not to be drawn where others see it.
pub fn hides(player: &UserId, name: &DisplayName) -> bool {
    let set = current();
    set.players.contains(player) || refused(name.as_str()) || banned(name)
}

/// `player`'s name as others may see it: `name`, or the neutral tag if it is hidden.
pub fn shown(player: &UserId, name: &DisplayName) -> DisplayName {
    match hides(player, name) {
        true => tag(player),
        false => name.clone(),
    }
}

/// Hides `name` in place if it is to be hidden (see [`shown`]).
pub fn mask(player: &UserId, name: &mut DisplayName) {
    if hides(player, name) {
        *name = tag(player);
    }
}

/// The neutral tag drawn for a hidden name: "👤·7KQ", a person's silhouette and the last three
/// characters of the player's id. It is the same in every language, because one copy of a room
/// goes to every listener of its live stream, whatever their page's language.
pub fn tag(player: &UserId) -> DisplayName {
    let id = player.as_str();
    let tag = format!("{TAG_MARK}·{}", &id[id.len().saturating_sub(3)..]);
    DisplayName::parse_stored_name(&tag).unwrap_or_else(|_| name_of_last_resort())
}

/// What every hidden name's tag begins with.
pub const TAG_MARK: &str = "👤";

fn name_of_last_resort() -> DisplayName {
    DisplayName::parse_stored_name(TAG_MARK).expect("an emoji is a name")
}

/// What holds copies of players' names: each draws its hidden ones as their tags.
pub trait HideNames {
    fn hide_names(&mut self);
}
