#include <sqlite3.h>

/// sqlite3_config is variadic, which Swift cannot call: this sets SQLITE_CONFIG_URI, so that a
/// `file:` name is read as a URI (for `immutable=1`) whatever SQLite was built with. It works
/// only before SQLite's first connection, and returns SQLITE_MISUSE after it.
static inline int mf_sqlite3_enable_uri(void) {
    return sqlite3_config(SQLITE_CONFIG_URI, 1);
}
