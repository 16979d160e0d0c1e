// SQLite's session extension, as Carnet's history uses it.
//
// The system libsqlite3 is built with SQLITE_ENABLE_SESSION and SQLITE_ENABLE_PREUPDATE_HOOK,
// but sqlite3.h declares the session API only when those are defined, and GRDB's module
// includes it without them. This header declares a few small functions of Carnet's own
// (session.c includes sqlite3.h with the extension switched on), so no SQLite symbol is
// declared twice for Swift.
#ifndef CARNET_SQLITE_SESSION_H
#define CARNET_SQLITE_SESSION_H

#include <stdint.h>

struct sqlite3;

void carnet_free(void *pointer);

/// The changeset that undoes `bytes` (free it with carnet_free).
int carnet_changeset_invert(int size, const void *bytes, int *invertedSize, void **inverted);

/// One row a changeset inserts, or whose `version` it changes: the row's integer key and its
/// version before the change (for an insert, the version it inserts).
typedef struct {
    int64_t id;
    int64_t version;
} carnet_versioned_row;

/// The rows of `table` (key in column 0, version in column `versionColumn`) that `bytes`
/// inserts or whose version it changes, in changeset order (free `*rows` with carnet_free).
int carnet_changeset_versioned_rows(
    int size, const void *bytes, const char *table, int versionColumn, carnet_versioned_row **rows, int *count);

/// The first key column (an integer) of every row `bytes` changes in a table whose name is one of
/// `tables`, in changeset order (free `*keys` with carnet_free).
int carnet_changeset_keys(
    int size, const void *bytes, const char *const *tables, int tableCount, int64_t **keys, int *count);

/// Columns of one table whose values an apply does not compare: bookkeeping that an undo itself
/// moves on (a contact's version and updated_at), not the user's values.
typedef struct {
    const char *table;
    int columns[2];
} carnet_unchecked_columns;

/// Applies `bytes` to `db` as one all-or-nothing step: on the first conflict (a row changed,
/// missing or already there, a constraint or foreign key broken) nothing is written, and
/// `*conflict` says which (`table<TAB>kind<TAB>key[,key2]`; free it with carnet_free). A row
/// that differs only in `unchecked` columns is no conflict. Returns SQLITE_OK, SQLITE_ABORT after
/// a conflict, or another SQLite error.
int carnet_changeset_apply(
    struct sqlite3 *db, int size, const void *bytes, const carnet_unchecked_columns *unchecked, int uncheckedCount,
    char **conflict);

/// One line per change of `bytes`, for tests and for reading: `table OP old(…) new(…)`, each
/// value as SQL (a key column marked #1, #2…, a column an UPDATE leaves alone as -). Free `*text`
/// with carnet_free.
int carnet_changeset_text(int size, const void *bytes, char **text);

/// The changeset that turns `tables` of the attached database `from` into those of `main`
/// (sqlite3session_diff): what a recording of the writes between the two should hold.
int carnet_session_diff(struct sqlite3 *db, const char *from, const char *const *tables, int count, int *size, void **bytes);

// MARK: Recording changes (recorder.c)

/// Records the changes made through a connection, as sqlite3session_* does, and writes them as
/// the same changesets (see recorder.c for what it does differently, and why).
typedef struct carnet_recorder carnet_recorder;

#define CARNET_RECORDED_KEY_MAX 4

/// A table to record: its name, and its primary key's columns (by index, in key order).
typedef struct {
    const char *name;
    int keyCount;
    int key[CARNET_RECORDED_KEY_MAX];
} carnet_recorded_table;

/// Starts recording the changes made through `db` to `tables` (a changeset lists its tables in
/// this order). One recorder at a time per connection: SQLITE_MISUSE if one is recording.
int carnet_recorder_open(struct sqlite3 *db, const carnet_recorded_table *tables, int count, carnet_recorder **recorder);

/// The changes recorded so far, as a changeset (`*bytes` is NULL when there are none; free it
/// with carnet_free). An error met while recording (out of memory, a table whose columns
/// changed) is returned here.
int carnet_recorder_changeset(carnet_recorder *recorder, int *size, void **bytes);

/// Bytes of heap the recorder holds.
int64_t carnet_recorder_memory(carnet_recorder *recorder);

/// Stops recording and frees the recorder.
void carnet_recorder_close(carnet_recorder *recorder);

#endif
