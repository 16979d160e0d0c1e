#define SQLITE_ENABLE_SESSION 1
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "CSQLiteSession.h"

/// A session recording `tables` (only carnet_session_diff uses one: Carnet records its history
/// with recorder.c).
static int carnet_session_open(sqlite3 *db, const char *const *tables, int count, sqlite3_session **session) {
    sqlite3_session *s = NULL;
    int rc = sqlite3session_create(db, "main", &s);
    for (int i = 0; rc == SQLITE_OK && i < count; i++) rc = sqlite3session_attach(s, tables[i]);
    if (rc != SQLITE_OK) {
        if (s) sqlite3session_delete(s);
        *session = NULL;
        return rc;
    }
    *session = s;
    return SQLITE_OK;
}

void carnet_free(void *pointer) { sqlite3_free(pointer); }

int carnet_changeset_invert(int size, const void *bytes, int *invertedSize, void **inverted) {
    return sqlite3changeset_invert(size, bytes, invertedSize, inverted);
}

/// Grows `*array` (of `size`-byte items, `count` used) so one more fits.
static int make_room(void **array, int *capacity, int count, size_t size) {
    if (count < *capacity) return SQLITE_OK;
    int grown = *capacity ? *capacity * 2 : 16;
    void *bigger = sqlite3_realloc64(*array, (sqlite3_uint64)grown * size);
    if (!bigger) return SQLITE_NOMEM;
    *array = bigger;
    *capacity = grown;
    return SQLITE_OK;
}

/// Calls `visit` with each change of the changeset (its table, column count and operation),
/// until the end or until `visit` returns an error; the iterator is finalized either way.
typedef int (*change_visitor)(sqlite3_changeset_iter *iter, const char *table, int columns, int op, void *context);

static int each_change(int size, const void *bytes, change_visitor visit, void *context) {
    sqlite3_changeset_iter *iter = NULL;
    int rc = sqlite3changeset_start(&iter, size, (void *)bytes);
    if (rc != SQLITE_OK) return rc;
    while (sqlite3changeset_next(iter) == SQLITE_ROW) {
        const char *name;
        int columns, op, indirect;
        rc = sqlite3changeset_op(iter, &name, &columns, &op, &indirect);
        if (rc != SQLITE_OK) break;
        if ((rc = visit(iter, name, columns, op, context)) != SQLITE_OK) break;
    }
    int finalized = sqlite3changeset_finalize(iter);
    return rc == SQLITE_OK ? finalized : rc;
}

typedef struct {
    const char *table;
    int versionColumn;
    carnet_versioned_row **rows;
    int *count;
    int capacity;
} versioned_rows;

static int visit_versioned_row(sqlite3_changeset_iter *iter, const char *name, int columns, int op, void *context) {
    versioned_rows *found = context;
    if (strcmp(name, found->table) != 0 || found->versionColumn >= columns) return SQLITE_OK;
    sqlite3_value *key = NULL, *version = NULL;
    if (op == SQLITE_INSERT) {
        sqlite3changeset_new(iter, 0, &key);
        sqlite3changeset_new(iter, found->versionColumn, &version);
    } else if (op == SQLITE_UPDATE) {
        sqlite3_value *changed = NULL;
        sqlite3changeset_new(iter, found->versionColumn, &changed);
        if (changed == NULL) return SQLITE_OK;  // an update that leaves the version alone
        sqlite3changeset_old(iter, 0, &key);
        sqlite3changeset_old(iter, found->versionColumn, &version);
    } else {
        return SQLITE_OK;
    }
    if (key == NULL || version == NULL) return SQLITE_OK;
    int rc = make_room((void **)found->rows, &found->capacity, *found->count, sizeof **found->rows);
    if (rc != SQLITE_OK) return rc;
    (*found->rows)[*found->count].id = sqlite3_value_int64(key);
    (*found->rows)[*found->count].version = sqlite3_value_int64(version);
    (*found->count)++;
    return SQLITE_OK;
}

int carnet_changeset_versioned_rows(
    int size, const void *bytes, const char *table, int versionColumn, carnet_versioned_row **rows, int *count) {
    *rows = NULL;
    *count = 0;
    versioned_rows found = {table, versionColumn, rows, count, 0};
    int rc = each_change(size, bytes, visit_versioned_row, &found);
    if (rc != SQLITE_OK) {
        sqlite3_free(*rows);
        *rows = NULL;
        *count = 0;
    }
    return rc;
}

typedef struct {
    const char *const *tables;
    int tableCount;
    int64_t **keys;
    int *count;
    int capacity;
} table_keys;

static int visit_key(sqlite3_changeset_iter *iter, const char *name, int columns, int op, void *context) {
    (void)columns;
    table_keys *found = context;
    int wanted = 0;
    for (int i = 0; i < found->tableCount && !wanted; i++) wanted = strcmp(name, found->tables[i]) == 0;
    if (!wanted) return SQLITE_OK;
    sqlite3_value *key = NULL;
    if (op == SQLITE_INSERT) sqlite3changeset_new(iter, 0, &key);
    else sqlite3changeset_old(iter, 0, &key);
    if (key == NULL || sqlite3_value_type(key) != SQLITE_INTEGER) return SQLITE_OK;
    int rc = make_room((void **)found->keys, &found->capacity, *found->count, sizeof **found->keys);
    if (rc != SQLITE_OK) return rc;
    (*found->keys)[(*found->count)++] = sqlite3_value_int64(key);
    return SQLITE_OK;
}

int carnet_changeset_keys(
    int size, const void *bytes, const char *const *tables, int tableCount, int64_t **keys, int *count) {
    *keys = NULL;
    *count = 0;
    table_keys found = {tables, tableCount, keys, count, 0};
    int rc = each_change(size, bytes, visit_key, &found);
    if (rc != SQLITE_OK) {
        sqlite3_free(*keys);
        *keys = NULL;
        *count = 0;
    }
    return rc;
}

// MARK: - Reading a changeset change by change (Carnet applies it itself: see Changeset.swift)

static void read_value(sqlite3_value *value, carnet_value *out) {
    memset(out, 0, sizeof *out);
    if (value == NULL) return;  // no value: a column an UPDATE leaves alone
    out->type = sqlite3_value_type(value);
    switch (out->type) {
    case SQLITE_INTEGER: out->integer = sqlite3_value_int64(value); break;
    case SQLITE_FLOAT: out->real = sqlite3_value_double(value); break;
    case SQLITE_TEXT: out->bytes = sqlite3_value_text(value); out->size = sqlite3_value_bytes(value); break;
    case SQLITE_BLOB: out->bytes = sqlite3_value_blob(value); out->size = sqlite3_value_bytes(value); break;
    default: break;
    }
}

int carnet_changes_start(int size, const void *bytes, carnet_changes **changes) {
    return sqlite3changeset_start((sqlite3_changeset_iter **)changes, size, (void *)bytes);
}

int carnet_changes_next(
    carnet_changes *changes, const char **table, int *op, int *columns, const unsigned char **primaryKey,
    carnet_value *old, carnet_value *new, int capacity) {
    sqlite3_changeset_iter *iter = (sqlite3_changeset_iter *)changes;
    int rc = sqlite3changeset_next(iter);
    if (rc != SQLITE_ROW) return rc;
    int indirect, keyColumns;
    if ((rc = sqlite3changeset_op(iter, table, columns, op, &indirect)) != SQLITE_OK) return rc;
    if ((rc = sqlite3changeset_pk(iter, (unsigned char **)primaryKey, &keyColumns)) != SQLITE_OK) return rc;
    if (*columns > capacity) return SQLITE_TOOBIG;
    for (int i = 0; i < *columns; i++) {
        sqlite3_value *value = NULL;
        if (*op != SQLITE_INSERT && (rc = sqlite3changeset_old(iter, i, &value)) != SQLITE_OK) return rc;
        read_value(*op != SQLITE_INSERT ? value : NULL, &old[i]);
        value = NULL;
        if (*op != SQLITE_DELETE && (rc = sqlite3changeset_new(iter, i, &value)) != SQLITE_OK) return rc;
        read_value(*op != SQLITE_DELETE ? value : NULL, &new[i]);
    }
    return SQLITE_ROW;
}

int carnet_changes_finish(carnet_changes *changes) {
    return changes ? sqlite3changeset_finalize((sqlite3_changeset_iter *)changes) : SQLITE_OK;
}

// MARK: - For tests: what a changeset says, and what it should say

static void describe_full(sqlite3_str *out, sqlite3_value *value) {
    if (value == NULL) { sqlite3_str_appendall(out, "-"); return; }
    switch (sqlite3_value_type(value)) {
    case SQLITE_INTEGER: sqlite3_str_appendf(out, "%lld", (long long)sqlite3_value_int64(value)); break;
    case SQLITE_FLOAT: sqlite3_str_appendf(out, "%!.17g", sqlite3_value_double(value)); break;
    case SQLITE_TEXT: sqlite3_str_appendf(out, "'%q'", (const char *)sqlite3_value_text(value)); break;
    case SQLITE_BLOB: {
        const unsigned char *blob = sqlite3_value_blob(value);
        int n = sqlite3_value_bytes(value);
        sqlite3_str_appendall(out, "x'");
        for (int i = 0; i < n; i++) sqlite3_str_appendf(out, "%02x", blob[i]);
        sqlite3_str_appendall(out, "'");
        break;
    }
    default: sqlite3_str_appendall(out, "NULL"); break;
    }
}

int carnet_changeset_text(int size, const void *bytes, char **text) {
    *text = NULL;
    sqlite3_str *out = sqlite3_str_new(NULL);
    sqlite3_changeset_iter *iter = NULL;
    int rc = size > 0 ? sqlite3changeset_start(&iter, size, (void *)bytes) : SQLITE_OK;
    while (rc == SQLITE_OK && iter && sqlite3changeset_next(iter) == SQLITE_ROW) {
        const char *table;
        int columns, op, indirect;
        if ((rc = sqlite3changeset_op(iter, &table, &columns, &op, &indirect)) != SQLITE_OK) break;
        unsigned char *primaryKey = NULL;
        int keyColumns = 0;
        sqlite3changeset_pk(iter, &primaryKey, &keyColumns);
        sqlite3_str_appendf(out, "%s %s", table, op == SQLITE_INSERT ? "INSERT" : op == SQLITE_DELETE ? "DELETE" : "UPDATE");
        for (int pass = 0; pass < 2; pass++) {
            if ((pass == 0 && op == SQLITE_INSERT) || (pass == 1 && op == SQLITE_DELETE)) continue;
            sqlite3_str_appendall(out, pass == 0 ? " old(" : " new(");
            for (int i = 0; i < columns; i++) {
                sqlite3_value *value = NULL;
                if (pass == 0) sqlite3changeset_old(iter, i, &value); else sqlite3changeset_new(iter, i, &value);
                if (i) sqlite3_str_appendall(out, ", ");
                if (primaryKey[i]) sqlite3_str_appendf(out, "#%d:", primaryKey[i]);
                describe_full(out, value);
            }
            sqlite3_str_appendall(out, ")");
        }
        sqlite3_str_appendall(out, "\n");
    }
    if (iter) {
        int finalized = sqlite3changeset_finalize(iter);
        if (rc == SQLITE_OK) rc = finalized;
    }
    char *result = sqlite3_str_finish(out);
    if (rc != SQLITE_OK) { sqlite3_free(result); return rc; }
    *text = result;
    return SQLITE_OK;
}

int carnet_session_diff(sqlite3 *db, const char *from, const char *const *tables, int count, int *size, void **bytes) {
    *size = 0;
    *bytes = NULL;
    sqlite3_session *session = NULL;
    int rc = carnet_session_open(db, tables, count, &session);
    for (int i = 0; rc == SQLITE_OK && i < count; i++) {
        char *error = NULL;
        rc = sqlite3session_diff(session, from, tables[i], &error);
        sqlite3_free(error);
    }
    if (rc == SQLITE_OK) rc = sqlite3session_changeset(session, size, bytes);
    if (session) sqlite3session_delete(session);
    return rc;
}
