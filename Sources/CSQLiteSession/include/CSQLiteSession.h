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

/// One value of a change: its SQLite type (SQLITE_INTEGER … SQLITE_NULL), or 0 for none (a
/// column an UPDATE leaves alone, the old values of an INSERT, the new ones of a DELETE). Text and
/// blob bytes stay valid until the next call of carnet_changes_next.
typedef struct {
    int type;
    int64_t integer;
    double real;
    const void *bytes;
    int size;
} carnet_value;

/// A changeset being read change by change (an sqlite3_changeset_iter).
typedef struct carnet_changes carnet_changes;

int carnet_changes_start(int size, const void *bytes, carnet_changes **changes);

/// The next change: SQLITE_ROW with its table, operation (SQLITE_INSERT, SQLITE_UPDATE,
/// SQLITE_DELETE), column count, primary key flags (one per column, non-zero for a key column)
/// and values (at most `capacity` columns); SQLITE_DONE after the last; or an error.
int carnet_changes_next(
    carnet_changes *changes, const char **table, int *op, int *columns, const unsigned char **primaryKey,
    carnet_value *old, carnet_value *new_, int capacity);

int carnet_changes_finish(carnet_changes *changes);

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
/// changed) is returned here. With `insertsByKey`, a row inserted is written with its key's
/// values alone (every other column "no value"): enough to undo the insert, which deletes the
/// row by its key, and a fraction of the size.
int carnet_recorder_changeset(carnet_recorder *recorder, int insertsByKey, int *size, void **bytes);

/// Bytes of heap the recorder holds.
int64_t carnet_recorder_memory(carnet_recorder *recorder);

/// Stops recording and frees the recorder.
void carnet_recorder_close(carnet_recorder *recorder);

// MARK: Compressed parts (compress.c)

/// Whether libz could be loaded (at the first call), so parts can be compressed and read back.
int carnet_history_can_compress(void);

/// `bytes` (a changeset) compressed as the history stores a long part (free `*stored` with
/// carnet_free); SQLITE_ERROR when libz is missing.
int carnet_history_compress(int size, const void *bytes, int *storedSize, void **stored);

/// Whether `bytes` is a part `carnet_history_compress` made (else a changeset).
int carnet_history_is_compressed(int size, const void *bytes);

/// The changeset of a part `carnet_history_compress` made (free `*changes` with carnet_free);
/// SQLITE_CANTOPEN when libz is missing, SQLITE_CORRUPT when the part is damaged.
int carnet_history_decompress(int size, const void *bytes, int *changesSize, void **changes);

#endif
