// Carnet's change recorder: what sqlite3session_* records, written as the same changesets, for
// a fraction of the cost per transaction.
//
// SQLite's session object reads each table's description (PRAGMA table_info) the first time a
// transaction changes the table, and again when it writes the changeset, then runs a SELECT per
// table to read every changed row as it is at the end; each of those statements is compiled anew
// in every transaction (SQLite 3.40 cannot reset a session), through the connection's authorizer.
// For one edit that was 1.2 million instructions, three times the edit itself. This recorder
// keeps, from SQLite's pre-update hook (the one the session uses), each changed row's values from
// before its first change and after its last, and writes the changeset from them: no statement
// is compiled or run. The caller names the tables and their primary key columns.
//
// The changeset is the session's, row for row: per table (in the order given), an INSERT with
// every column for a row that did not exist before, a DELETE with every column for one that does
// not exist after, and an UPDATE with the key and the changed columns only (old and new values)
// for one that changed; a row put back as it was, or inserted and deleted again, is left out.
// See https://www.sqlite.org/sessionintro.html and the changeset format in sqlite3session.h.
//
// What it relies on: every change to a recorded row passes through the pre-update hook (as for
// the session), and no statement that changed rows is rolled back on its own while the
// transaction goes on (Carnet rolls the whole transaction back on any SQL error). The session
// would read such a row back as it is; this recorder would keep the values the statement wrote.
#define SQLITE_ENABLE_SESSION 1
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>
#include <stdint.h>
#include <string.h>
#include "CSQLiteSession.h"

/// The widest table recorded (Carnet's widest has 20 columns).
#define MAX_COLUMNS 256

typedef struct change change;

/// One row's changes: its key, its values before the first change (if it existed) and after the
/// last one (if it still exists), each as a changeset record of every column.
struct change {
    change *nextInBucket;
    change *nextInTable;
    uint64_t hash;
    int keySize, oldSize, newSize, newCapacity;
    unsigned char *key;
    unsigned char *old;   // NULL: the row did not exist before
    unsigned char *now;   // NULL: the row does not exist now
    int indirect;
};

typedef struct {
    char *name;
    int keyCount;
    int key[CARNET_RECORDED_KEY_MAX];
    unsigned char *keyOrdinal;  // per column: 0, or its place in the primary key from 1 (as PRAGMA table_info says)
    int columns;                // 0 until the first change
    change *first, *last;
} table;

/// A block of the recorder's arena: changes and their values are cut from blocks and freed with
/// the recorder, all at once.
typedef struct block block;
struct block {
    block *next;
    size_t used, size;
    unsigned char bytes[];
};

/// A growable byte buffer (a row or key being read).
typedef struct {
    unsigned char *bytes;
    int size, capacity;
    int error;
} buffer;

struct carnet_recorder {
    sqlite3 *db;
    block *blocks;      // the newest first
    buffer old, now, oldKey, newKey;  // what the hook reads, kept from one change to the next
    table *tables;
    int tableCount;
    const char *lastName;  // the table name the hook saw last (SQLite's own pointer), and its index
    int lastTable;
    change **buckets;
    int bucketCount;
    int changeCount;
    int64_t memory;
    int error;
};

// MARK: - Buffers

static int reserve(buffer *b, int more) {
    if (b->error) return 0;
    if (b->size + more <= b->capacity) return 1;
    int64_t wanted = b->capacity ? b->capacity : 256;
    while (wanted < (int64_t)b->size + more) wanted *= 2;
    if (wanted > 0x7fffffff) { b->error = SQLITE_TOOBIG; return 0; }
    unsigned char *bigger = sqlite3_realloc64(b->bytes, (sqlite3_uint64)wanted);
    if (!bigger) { b->error = SQLITE_NOMEM; return 0; }
    b->bytes = bigger;
    b->capacity = (int)wanted;
    return 1;
}

static void append(buffer *b, const void *bytes, int size) {
    if (size > 0 && reserve(b, size)) {
        memcpy(b->bytes + b->size, bytes, (size_t)size);
        b->size += size;
    }
}

static void appendByte(buffer *b, unsigned char byte) { append(b, &byte, 1); }

/// SQLite's varint (sqlite3PutVarint): 1 to 9 bytes, big-endian, 7 bits a byte, all 8 in the 9th.
static void appendVarint(buffer *b, uint64_t v) {
    unsigned char out[9];
    int n = 0;
    if (v & (((uint64_t)0xff000000) << 32)) {
        out[8] = (unsigned char)v;
        v >>= 8;
        for (int i = 7; i >= 0; i--) { out[i] = (unsigned char)((v & 0x7f) | 0x80); v >>= 7; }
        append(b, out, 9);
        return;
    }
    unsigned char reversed[10];
    do { reversed[n++] = (unsigned char)((v & 0x7f) | 0x80); v >>= 7; } while (v != 0);
    reversed[0] &= 0x7f;
    for (int i = 0; i < n; i++) out[i] = reversed[n - 1 - i];
    append(b, out, n);
}

static int varintSize(const unsigned char *p, uint64_t *value) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) {
        v = (v << 7) | (p[i] & 0x7f);
        if (!(p[i] & 0x80)) { *value = v; return i + 1; }
    }
    *value = (v << 8) | p[8];
    return 9;
}

static void appendBigEndian(buffer *b, uint64_t v) {
    unsigned char out[8];
    for (int i = 7; i >= 0; i--) { out[i] = (unsigned char)v; v >>= 8; }
    append(b, out, 8);
}

/// One value as a changeset writes it: its type (1 integer, 2 real, 3 text, 4 blob, 5 null), then
/// 8 big-endian bytes, or a varint size and the bytes.
static void appendValue(buffer *b, sqlite3_value *value) {
    switch (value ? sqlite3_value_type(value) : SQLITE_NULL) {
    case SQLITE_INTEGER:
        appendByte(b, SQLITE_INTEGER);
        appendBigEndian(b, (uint64_t)sqlite3_value_int64(value));
        break;
    case SQLITE_FLOAT: {
        double d = sqlite3_value_double(value);
        uint64_t bits;
        memcpy(&bits, &d, 8);
        appendByte(b, SQLITE_FLOAT);
        appendBigEndian(b, bits);
        break;
    }
    case SQLITE_TEXT: {
        const unsigned char *text = sqlite3_value_text(value);
        int n = sqlite3_value_bytes(value);
        appendByte(b, SQLITE_TEXT);
        appendVarint(b, (uint64_t)n);
        append(b, text, n);
        break;
    }
    case SQLITE_BLOB: {
        const void *blob = sqlite3_value_blob(value);
        int n = sqlite3_value_bytes(value);
        appendByte(b, SQLITE_BLOB);
        appendVarint(b, (uint64_t)n);
        append(b, blob, n);
        break;
    }
    default:
        appendByte(b, SQLITE_NULL);
        break;
    }
}

/// The size of the value at `p` in a record.
static int valueSize(const unsigned char *p) {
    switch (p[0]) {
    case SQLITE_INTEGER:
    case SQLITE_FLOAT: return 9;
    case SQLITE_TEXT:
    case SQLITE_BLOB: {
        uint64_t n;
        int header = varintSize(p + 1, &n);
        return 1 + header + (int)n;
    }
    default: return 1;  // 0 (no value) or 5 (NULL)
    }
}

// MARK: - Rows

static uint64_t hashBytes(const unsigned char *bytes, int size) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < size; i++) { h ^= bytes[i]; h *= 1099511628211ULL; }
    return h;
}

/// `size` bytes from the arena (8-byte aligned), or NULL with `r->error` set. An import records
/// hundreds of thousands of rows: a malloc and a free for each change, its key and its values
/// were a sixth of what the recorder cost, and freeing them one by one at the end another tenth.
static void *allocate(carnet_recorder *r, size_t size) {
    size = (size + 7) & ~(size_t)7;
    block *b = r->blocks;
    if (!b || b->size - b->used < size) {
        size_t wanted = size > (64 << 10) ? size : (64 << 10);
        b = sqlite3_malloc64(sizeof(block) + wanted);
        if (!b) { r->error = SQLITE_NOMEM; return NULL; }
        b->next = r->blocks;
        b->used = 0;
        b->size = wanted;
        r->blocks = b;
    }
    void *at = b->bytes + b->used;
    b->used += size;
    r->memory += (int64_t)size;
    return at;
}

static unsigned char *copyOf(carnet_recorder *r, buffer *b, int *size) {
    if (b->error) { r->error = b->error; return NULL; }
    unsigned char *copy = allocate(r, b->size > 0 ? (size_t)b->size : 1);
    if (!copy) return NULL;
    memcpy(copy, b->bytes, (size_t)b->size);
    *size = b->size;
    return copy;
}

/// Every column's value before (`old`) or after the change, as a record.
static void readRow(carnet_recorder *r, int columns, int old, buffer *out) {
    out->size = 0;
    for (int i = 0; i < columns; i++) {
        sqlite3_value *value = NULL;
        int rc = old ? sqlite3_preupdate_old(r->db, i, &value) : sqlite3_preupdate_new(r->db, i, &value);
        if (rc != SQLITE_OK) { r->error = rc; return; }
        appendValue(out, value);
    }
}

/// The primary key values of a row record, after the table's index (one byte).
static void readKey(const table *t, int tableIndex, const buffer *row, buffer *key) {
    key->size = 0;
    appendByte(key, (unsigned char)tableIndex);
    const unsigned char *p = row->bytes;
    const unsigned char *at[MAX_COLUMNS];
    int columns = t->columns;
    for (int i = 0; i < columns; i++) { at[i] = p; p += valueSize(p); }
    for (int k = 0; k < t->keyCount; k++) {
        const unsigned char *value = at[t->key[k]];
        append(key, value, valueSize(value));
    }
}

static int grow(carnet_recorder *r) {
    int count = r->bucketCount ? r->bucketCount * 2 : 256;
    change **buckets = sqlite3_malloc64(sizeof(change *) * (sqlite3_uint64)count);
    if (!buckets) return SQLITE_NOMEM;
    memset(buckets, 0, sizeof(change *) * (size_t)count);
    for (int i = 0; i < r->bucketCount; i++) {
        change *c = r->buckets[i];
        while (c) {
            change *next = c->nextInBucket;
            int b = (int)(c->hash & (uint64_t)(count - 1));
            c->nextInBucket = buckets[b];
            buckets[b] = c;
            c = next;
        }
    }
    r->memory += (int64_t)sizeof(change *) * (count - r->bucketCount);
    sqlite3_free(r->buckets);
    r->buckets = buckets;
    r->bucketCount = count;
    return SQLITE_OK;
}

/// The change of the row with `key` (made, with `old` as its values before, if it is new).
static change *find(carnet_recorder *r, int tableIndex, buffer *key, const buffer *old, int indirect) {
    uint64_t h = hashBytes(key->bytes, key->size);
    if (r->bucketCount) {
        for (change *c = r->buckets[h & (uint64_t)(r->bucketCount - 1)]; c; c = c->nextInBucket) {
            if (c->hash == h && c->keySize == key->size && memcmp(c->key, key->bytes, (size_t)key->size) == 0) {
                if (!indirect) c->indirect = 0;
                return c;
            }
        }
    }
    // At most three changes for every four buckets.
    if (r->changeCount >= r->bucketCount - r->bucketCount / 4 && (r->error = grow(r)) != SQLITE_OK) return NULL;
    change *c = allocate(r, sizeof(change));
    if (!c) return NULL;
    memset(c, 0, sizeof *c);
    c->hash = h;
    c->indirect = indirect;
    c->key = copyOf(r, key, &c->keySize);
    if (old) c->old = copyOf(r, (buffer *)old, &c->oldSize);
    if (r->error) return NULL;  // what was cut for it goes with the arena
    int b = (int)(h & (uint64_t)(r->bucketCount - 1));
    c->nextInBucket = r->buckets[b];
    r->buckets[b] = c;
    table *t = &r->tables[tableIndex];
    if (t->last) t->last->nextInTable = c; else t->first = c;
    t->last = c;
    r->changeCount++;
    return c;
}

/// The row's values now: `row`, or none (deleted). A row changed again in the same transaction
/// reuses its bytes when the new values fit in them.
static void setNow(carnet_recorder *r, change *c, buffer *row) {
    if (!c) return;
    if (!row) {
        c->now = NULL;
        c->newSize = 0;
        return;
    }
    if (row->error) { r->error = row->error; return; }
    if (c->now && row->size <= c->newCapacity) {
        memcpy(c->now, row->bytes, (size_t)row->size);
        c->newSize = row->size;
        return;
    }
    c->now = copyOf(r, row, &c->newSize);
    c->newCapacity = c->now ? c->newSize : 0;
}

static int tableIndex(carnet_recorder *r, const char *name) {
    if (name == r->lastName) return r->lastTable;
    for (int i = 0; i < r->tableCount; i++) {
        if (strcmp(r->tables[i].name, name) == 0) {
            r->lastName = name;
            r->lastTable = i;
            return i;
        }
    }
    return -1;
}

static void preupdate(void *context, sqlite3 *db, int op, const char *database, const char *name, sqlite3_int64 rowid1, sqlite3_int64 rowid2) {
    (void)rowid1; (void)rowid2;
    carnet_recorder *r = context;
    if (r->error || strcmp(database, "main") != 0) return;
    int index = tableIndex(r, name);
    if (index < 0) return;
    table *t = &r->tables[index];
    int columns = sqlite3_preupdate_count(db);
    if (t->columns == 0 && columns <= MAX_COLUMNS) {
        for (int k = 0; k < t->keyCount; k++) {
            if (t->key[k] >= columns) { r->error = SQLITE_SCHEMA; return; }
        }
        t->keyOrdinal = sqlite3_malloc(columns);
        if (!t->keyOrdinal) { r->error = SQLITE_NOMEM; return; }
        memset(t->keyOrdinal, 0, (size_t)columns);
        for (int k = 0; k < t->keyCount; k++) t->keyOrdinal[t->key[k]] = (unsigned char)(k + 1);
        t->columns = columns;
    } else if (t->columns != columns || columns > MAX_COLUMNS) {
        r->error = SQLITE_SCHEMA;
        return;
    }
    int indirect = sqlite3_preupdate_depth(db) > 0;
    buffer *old = &r->old, *now = &r->now, *oldKey = &r->oldKey, *newKey = &r->newKey;
    if (op == SQLITE_INSERT) {
        readRow(r, columns, 0, now);
        readKey(t, index, now, newKey);
        if (!now->error && !newKey->error && !r->error) setNow(r, find(r, index, newKey, NULL, indirect), now);
    } else if (op == SQLITE_DELETE) {
        readRow(r, columns, 1, old);
        readKey(t, index, old, oldKey);
        if (!old->error && !oldKey->error && !r->error) setNow(r, find(r, index, oldKey, old, indirect), NULL);
    } else if (op == SQLITE_UPDATE) {
        readRow(r, columns, 1, old);
        readRow(r, columns, 0, now);
        readKey(t, index, old, oldKey);
        readKey(t, index, now, newKey);
        if (!old->error && !now->error && !oldKey->error && !newKey->error && !r->error) {
            if (oldKey->size == newKey->size && memcmp(oldKey->bytes, newKey->bytes, (size_t)oldKey->size) == 0) {
                setNow(r, find(r, index, oldKey, old, indirect), now);
            } else {
                // A new key: the row under the old key is gone, one under the new key is there.
                setNow(r, find(r, index, oldKey, old, indirect), NULL);
                if (!r->error) setNow(r, find(r, index, newKey, NULL, indirect), now);
            }
        }
    }
    int failed = old->error ? old->error : now->error ? now->error : oldKey->error ? oldKey->error : newKey->error;
    if (failed && !r->error) r->error = failed;
}

// MARK: - The recorder

int carnet_recorder_open(sqlite3 *db, const carnet_recorded_table *tables, int count, carnet_recorder **recorder) {
    *recorder = NULL;
    if (count <= 0 || count > 255) return SQLITE_MISUSE;
    carnet_recorder *r = sqlite3_malloc(sizeof *r);
    if (!r) return SQLITE_NOMEM;
    memset(r, 0, sizeof *r);
    r->db = db;
    r->tables = sqlite3_malloc64(sizeof(table) * (sqlite3_uint64)count);
    if (!r->tables) { sqlite3_free(r); return SQLITE_NOMEM; }
    memset(r->tables, 0, sizeof(table) * (size_t)count);
    r->tableCount = count;
    for (int i = 0; i < count; i++) {
        table *t = &r->tables[i];
        t->name = sqlite3_mprintf("%s", tables[i].name);
        t->keyCount = tables[i].keyCount;
        if (!t->name || t->keyCount < 1 || t->keyCount > CARNET_RECORDED_KEY_MAX) {
            carnet_recorder_close(r);
            return t->name ? SQLITE_MISUSE : SQLITE_NOMEM;
        }
        for (int k = 0; k < t->keyCount; k++) t->key[k] = tables[i].key[k];
    }
    void *previous = sqlite3_preupdate_hook(db, preupdate, r);
    if (previous) {
        // Another recorder is recording on this connection (the only pre-update hook Carnet
        // installs): give it the hook back, and refuse.
        sqlite3_preupdate_hook(db, preupdate, previous);
        r->db = NULL;
        carnet_recorder_close(r);
        return SQLITE_MISUSE;
    }
    *recorder = r;
    return SQLITE_OK;
}

int64_t carnet_recorder_memory(carnet_recorder *r) { return r ? r->memory : 0; }

void carnet_recorder_close(carnet_recorder *r) {
    if (!r) return;
    if (r->db) {
        void *current = sqlite3_preupdate_hook(r->db, NULL, NULL);
        // Not this one's (cannot happen: open refuses to share the hook): leave it as it was.
        if (current != (void *)r && current != NULL) sqlite3_preupdate_hook(r->db, preupdate, current);
    }
    for (int i = 0; i < r->tableCount; i++) {
        sqlite3_free(r->tables[i].name);
        sqlite3_free(r->tables[i].keyOrdinal);
    }
    for (block *b = r->blocks; b;) {
        block *next = b->next;
        sqlite3_free(b);
        b = next;
    }
    sqlite3_free(r->old.bytes);
    sqlite3_free(r->now.bytes);
    sqlite3_free(r->oldKey.bytes);
    sqlite3_free(r->newKey.bytes);
    sqlite3_free(r->tables);
    sqlite3_free(r->buckets);
    sqlite3_free(r);
}

/// An UPDATE of the changed columns; returns 0 (and appends nothing) when the row is as it was.
static int appendUpdate(buffer *out, const table *t, const change *c) {
    const unsigned char *before[MAX_COLUMNS], *after[MAX_COLUMNS];
    int sizeBefore[MAX_COLUMNS], sizeAfter[MAX_COLUMNS], differs[MAX_COLUMNS];
    int columns = t->columns;
    const unsigned char *p = c->old, *q = c->now;
    int changed = 0;
    for (int i = 0; i < columns; i++) {
        before[i] = p; after[i] = q;
        sizeBefore[i] = valueSize(p);
        sizeAfter[i] = valueSize(q);
        differs[i] = sizeBefore[i] != sizeAfter[i] || memcmp(p, q, (size_t)sizeBefore[i]) != 0;
        if (!t->keyOrdinal[i] && differs[i]) changed = 1;
        p += sizeBefore[i];
        q += sizeAfter[i];
    }
    if (!changed) return 0;
    appendByte(out, SQLITE_UPDATE);
    appendByte(out, (unsigned char)c->indirect);
    // Old: the key and the changed columns; new: the changed columns; 0 stands for "no value".
    for (int i = 0; i < columns; i++) {
        if (t->keyOrdinal[i] || differs[i]) append(out, before[i], sizeBefore[i]); else appendByte(out, 0);
    }
    for (int i = 0; i < columns; i++) {
        if (!t->keyOrdinal[i] && differs[i]) append(out, after[i], sizeAfter[i]); else appendByte(out, 0);
    }
    return 1;
}

/// An INSERT that names its row by key alone: the key's values, 0 ("no value") for every other
/// column.
static void appendInsertedKey(buffer *out, const table *t, const change *c) {
    appendByte(out, SQLITE_INSERT);
    appendByte(out, (unsigned char)c->indirect);
    const unsigned char *p = c->now;
    for (int i = 0; i < t->columns; i++) {
        int size = valueSize(p);
        if (t->keyOrdinal[i]) append(out, p, size); else appendByte(out, 0);
        p += size;
    }
}

int carnet_recorder_changeset(carnet_recorder *r, int insertsByKey, int *size, void **bytes) {
    *size = 0;
    *bytes = NULL;
    if (r->error) return r->error;
    buffer out = {0};
    for (int i = 0; i < r->tableCount && !out.error; i++) {
        const table *t = &r->tables[i];
        int wroteHeader = 0;
        for (const change *c = t->first; c && !out.error; c = c->nextInTable) {
            if (!c->old && !c->now) continue;  // inserted, then deleted
            int mark = out.size;
            // The table's header before its first change (a table whose rows all came back as
            // they were is not named).
            if (!wroteHeader) {
                appendByte(&out, 'T');
                appendVarint(&out, (uint64_t)t->columns);
                append(&out, t->keyOrdinal, t->columns);
                append(&out, t->name, (int)strlen(t->name) + 1);
            }
            int wrote = 1;
            if (!c->old && insertsByKey) {
                appendInsertedKey(&out, t, c);
            } else if (!c->old) {
                appendByte(&out, SQLITE_INSERT);
                appendByte(&out, (unsigned char)c->indirect);
                append(&out, c->now, c->newSize);
            } else if (!c->now) {
                appendByte(&out, SQLITE_DELETE);
                appendByte(&out, (unsigned char)c->indirect);
                append(&out, c->old, c->oldSize);
            } else {
                wrote = appendUpdate(&out, t, c);
            }
            if (wrote) wroteHeader = 1; else out.size = mark;
        }
    }
    if (out.error) { sqlite3_free(out.bytes); return out.error; }
    *size = out.size;
    *bytes = out.bytes;
    return SQLITE_OK;
}
