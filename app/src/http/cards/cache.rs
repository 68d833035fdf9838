//! The cards an instance keeps, in two maps: what each card address showed when it was last read
//! (believed for a short while, then read again), and the drawn pictures by what they draw (a
//! digest of the card's SVG), kept until pushed out, least recently used first, within a budget
//! of bytes. A card read again that draws the same is not drawn again, however long ago it was
//! first drawn; one that changed is a new picture.

use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;

use super::budget::MissBudget;

/// An instance's share cards: the cache, each client's budget of misses, and the instance's own
/// budget of misses, all clients together (many addresses, each within its own budget, must
/// not take the cores from the players).
#[derive(Debug, Clone)]
pub struct Cards {
    pub cache: CardCache,
    pub budget: MissBudget,
    pub instance: MissBudget,
}

impl Default for Cards {
    fn default() -> Self {
        Self {
            cache: CardCache::default(),
            budget: MissBudget::default(),
            instance: MissBudget::new(
                super::budget::INSTANCE_BURST,
                super::budget::INSTANCE_PER_MINUTE,
            ),
        }
    }
}

/// What a card draws: the SHA-256 of its SVG (every text, cut and escaped, and the layout).
pub type Digest = [u8; 32];

/// Card addresses remembered at most (each some 100 bytes).
pub const ADDRESSES: usize = 16_384;
/// Bytes of drawn pictures kept at most (a card is about 30–60 KB: some 500–1,000 cards).
pub const PICTURE_BYTES: usize = 32 * 1024 * 1024;

/// A map that keeps its most recently used entries within a total weight.
#[derive(Debug)]
struct Lru<K, V> {
    entries: HashMap<K, Entry<V>>,
    /// Entries by last use (a counter), oldest first.
    order: BTreeMap<u64, K>,
    tick: u64,
    weight: usize,
    limit: usize,
}

#[derive(Debug)]
struct Entry<V> {
    used: u64,
    weight: usize,
    value: V,
}

impl<K: Eq + Hash + Clone, V> Lru<K, V> {
    fn new(limit: usize) -> Self {
        Self {
            entries: HashMap::new(),
            order: BTreeMap::new(),
            tick: 0,
            weight: 0,
            limit,
        }
    }

    /// The value at `key`, now the most recently used.
    fn get(&mut self, key: &K) -> Option<&V> {
        self.tick += 1;
        let entry = self.entries.get_mut(key)?;
        self.order.remove(&entry.used);
        entry.used = self.tick;
        self.order.insert(self.tick, key.clone());
        Some(&entry.value)
    }

    /// Keeps `value` at `key`, pushing out the least recently used entries until the total
    /// fits. A value heavier than the whole limit is not kept.
    fn put(&mut self, key: K, value: V, weight: usize) {
        self.remove(&key);
        if weight > self.limit {
            return;
        }
        while self.weight + weight > self.limit {
            let Some((_, oldest)) = self.order.pop_first() else {
                break;
            };
            if let Some(gone) = self.entries.remove(&oldest) {
                self.weight -= gone.weight;
            }
        }
        self.tick += 1;
        self.order.insert(self.tick, key.clone());
        self.weight += weight;
        self.entries.insert(
            key,
            Entry {
                used: self.tick,
                weight,
                value,
            },
        );
    }

    fn remove(&mut self, key: &K) {
        if let Some(gone) = self.entries.remove(key) {
            self.order.remove(&gone.used);
            self.weight -= gone.weight;
        }
    }
}

/// What an address showed when it was read: a card (its digest) or nothing (an unknown player,
/// match or an empty board), and until when that is believed.
#[derive(Debug, Clone, Copy)]
struct Seen {
    until: Instant,
    shows: Option<Digest>,
}

#[derive(Debug)]
struct Maps {
    addresses: Lru<String, Seen>,
    pictures: Lru<Digest, Bytes>,
}

/// An instance's cards (shared by every clone).
#[derive(Debug, Clone)]
pub struct CardCache(Arc<Mutex<Maps>>);

impl Default for CardCache {
    fn default() -> Self {
        Self::with_limits(ADDRESSES, PICTURE_BYTES)
    }
}

impl CardCache {
    /// A cache remembering `addresses` addresses and `picture_bytes` bytes of pictures.
    pub fn with_limits(addresses: usize, picture_bytes: usize) -> Self {
        Self(Arc::new(Mutex::new(Maps {
            addresses: Lru::new(addresses),
            pictures: Lru::new(picture_bytes),
        })))
    }

    fn maps(&self) -> std::sync::MutexGuard<'_, Maps> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What `address` showed, while that is still believed: `Some(Some(digest))` a card,
    /// `Some(None)` nothing to show, `None` not known (read it).
    pub fn seen(&self, address: &str) -> Option<Option<Digest>> {
        let mut maps = self.maps();
        let seen = *maps.addresses.get(&address.to_owned())?;
        (Instant::now() < seen.until).then_some(seen.shows)
    }

    /// Remembers what `address` shows, believed for `fresh_for`.
    pub fn saw(&self, address: String, shows: Option<Digest>, fresh_for: Duration) {
        let seen = Seen {
            until: Instant::now() + fresh_for,
            shows,
        };
        self.maps().addresses.put(address, seen, 1);
    }

    /// The picture drawn for `digest`, if it is still kept.
    pub fn picture(&self, digest: &Digest) -> Option<Bytes> {
        self.maps().pictures.get(digest).cloned()
    }

    /// Keeps the picture drawn for `digest`.
    pub fn keep(&self, digest: Digest, png: Bytes) {
        let weight = png.len();
        self.maps().pictures.put(digest, png, weight);
    }
}
