//! The app's unit tests, in one binary beside the library so that a test build compiles the
//! library once (it has no test harness of its own: `[lib] test = false`). Each module tests the
//! source module at the same path (`game::timing` tests `app::game::timing`); `fences` reads the
//! sources and fails when a rule of the layout is broken.

mod bundle;
mod codec;
mod error;
mod fences;
mod lang;
mod request;
mod share;
mod ui;

mod catalog {
    mod model;
    mod seed;
    mod store;
    mod things_page;
}

mod decks {
    mod card;
    mod model;
}

mod daily {
    mod clock;
    mod model;
}

mod game {
    mod api;
    mod draw;
    mod model;
    mod rules;
    mod store {
        mod audience;
    }
    mod throttle;
    mod timing;
    mod words;
}

mod http {
    mod cards;
    mod ecs;
    mod engine {
        mod front;
    }
    mod form_errors;
    mod guard;
    mod metrics;
    mod router;
}

mod identity {
    mod auth;
    mod model;
    mod name_filter;
    mod session;
}

mod ids {
    mod board;
}

mod inventory {
    mod notice;
    mod rules;
    mod store;
}

mod leaderboards {
    mod boards_page;
    mod model;
    mod period;
    mod plan;
    mod store {
        mod apply;
    }
    mod tree;
}

mod live {
    mod peers;
}

mod profiles {
    mod model;
}

mod rooms {
    mod friendly;
    mod items;
    mod lobby;
    mod model;
}

mod store {
    mod cursor;
    mod db;
    mod error;
    mod expr;
    mod keys;
    mod metrics;
    mod table;
}
