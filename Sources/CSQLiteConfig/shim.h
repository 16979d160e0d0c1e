#ifndef CARNET_SQLITE_CONFIG_H
#define CARNET_SQLITE_CONFIG_H
#include <sqlite3.h>

/// sqlite3_db_config() is variadic, which Swift cannot call: this switches the connection's
/// triggers on or off (SQLITE_DBCONFIG_ENABLE_TRIGGER). Foreign key actions are not triggers and
/// stay on. Changing it expires the connection's prepared statements, which SQLite prepares again.
static inline int carnet_sqlite3_enable_triggers(sqlite3 *db, int enabled) {
    int now = -1;
    int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, enabled, &now);
    return rc == SQLITE_OK ? now : -1;
}

#endif
