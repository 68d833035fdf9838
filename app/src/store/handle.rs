//! A feature's store handle: a borrowed view of the one [`Db`](super::Db) on which that feature's
//! access patterns are methods, so a call names its place (`db.rooms().join_room(..)` is in
//! `rooms/store`). The handle dereferences to the core, whose shared helpers (get, put, query,
//! transactions, capacity recording) every access pattern is written with.

/// Declares a feature's handle `$name<'a>` and the one accessor `Db::$accessor` that reaches it.
macro_rules! handle {
    ($(#[$meta:meta])* $name:ident, $accessor:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy)]
        pub struct $name<'a>(&'a $crate::store::Db);

        impl $crate::store::Db {
            #[doc = concat!("The [`", stringify!($name), "`] access patterns.")]
            pub fn $accessor(&self) -> $name<'_> {
                $name(self)
            }
        }

        impl<'a> $name<'a> {
            /// The table handle beneath, for work that outlives this borrow.
            pub fn db(&self) -> &'a $crate::store::Db {
                self.0
            }
        }

        impl ::std::ops::Deref for $name<'_> {
            type Target = $crate::store::Db;

            fn deref(&self) -> &$crate::store::Db {
                self.0
            }
        }
    };
}
pub(crate) use handle;
