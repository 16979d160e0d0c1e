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

int carnet_changeset_versioned_rows(
    int size, const void *bytes, const char *table, int versionColumn, carnet_versioned_row **rows, int *count) {
    *rows = NULL;
    *count = 0;
    sqlite3_changeset_iter *iter = NULL;
    int rc = sqlite3changeset_start(&iter, size, (void *)bytes);
    if (rc != SQLITE_OK) return rc;
    int capacity = 0;
    while (sqlite3changeset_next(iter) == SQLITE_ROW) {
        const char *name;
        int columns, op, indirect;
        rc = sqlite3changeset_op(iter, &name, &columns, &op, &indirect);
        if (rc != SQLITE_OK) break;
        if (strcmp(name, table) != 0 || versionColumn >= columns) continue;
        sqlite3_value *key = NULL, *version = NULL;
        if (op == SQLITE_INSERT) {
            sqlite3changeset_new(iter, 0, &key);
            sqlite3changeset_new(iter, versionColumn, &version);
        } else if (op == SQLITE_UPDATE) {
            sqlite3_value *changed = NULL;
            sqlite3changeset_new(iter, versionColumn, &changed);
            if (changed == NULL) continue;  // an update that leaves the version alone
            sqlite3changeset_old(iter, 0, &key);
            sqlite3changeset_old(iter, versionColumn, &version);
        } else {
            continue;
        }
        if (key == NULL || version == NULL) continue;
        if ((rc = make_room((void **)rows, &capacity, *count, sizeof **rows)) != SQLITE_OK) break;
        (*rows)[*count].id = sqlite3_value_int64(key);
        (*rows)[*count].version = sqlite3_value_int64(version);
        (*count)++;
    }
    int finalized = sqlite3changeset_finalize(iter);
    if (rc == SQLITE_OK) rc = finalized;
    if (rc != SQLITE_OK) {
        sqlite3_free(*rows);
        *rows = NULL;
        *count = 0;
    }
    return rc;
}

int carnet_changeset_keys(
    int size, const void *bytes, const char *const *tables, int tableCount, int64_t **keys, int *count) {
    *keys = NULL;
    *count = 0;
    sqlite3_changeset_iter *iter = NULL;
    int rc = sqlite3changeset_start(&iter, size, (void *)bytes);
    if (rc != SQLITE_OK) return rc;
    int capacity = 0;
    while (sqlite3changeset_next(iter) == SQLITE_ROW) {
        const char *name;
        int columns, op, indirect;
        rc = sqlite3changeset_op(iter, &name, &columns, &op, &indirect);
        if (rc != SQLITE_OK) break;
        int wanted = 0;
        for (int i = 0; i < tableCount && !wanted; i++) wanted = strcmp(name, tables[i]) == 0;
        if (!wanted) continue;
        sqlite3_value *key = NULL;
        if (op == SQLITE_INSERT) sqlite3changeset_new(iter, 0, &key);
        else sqlite3changeset_old(iter, 0, &key);
        if (key == NULL || sqlite3_value_type(key) != SQLITE_INTEGER) continue;
        if ((rc = make_room((void **)keys, &capacity, *count, sizeof **keys)) != SQLITE_OK) break;
        (*keys)[(*count)++] = sqlite3_value_int64(key);
    }
    int finalized = sqlite3changeset_finalize(iter);
    if (rc == SQLITE_OK) rc = finalized;
    if (rc != SQLITE_OK) {
        sqlite3_free(*keys);
        *keys = NULL;
        *count = 0;
    }
    return rc;
}

/// What the conflict handler needs, and what it saw first.
typedef struct {
    const carnet_unchecked_columns *unchecked;
    int uncheckedCount;
    char *description;
} conflict_context;

static int same_value(sqlite3_value *a, sqlite3_value *b) {
    int type = sqlite3_value_type(a);
    if (type != sqlite3_value_type(b)) return 0;
    switch (type) {
    case SQLITE_NULL: return 1;
    case SQLITE_INTEGER: return sqlite3_value_int64(a) == sqlite3_value_int64(b);
    case SQLITE_FLOAT: return sqlite3_value_double(a) == sqlite3_value_double(b);
    default: {
        int n = sqlite3_value_bytes(a);
        if (n != sqlite3_value_bytes(b)) return 0;
        const void *pa = type == SQLITE_TEXT ? (const void *)sqlite3_value_text(a) : sqlite3_value_blob(a);
        const void *pb = type == SQLITE_TEXT ? (const void *)sqlite3_value_text(b) : sqlite3_value_blob(b);
        return n == 0 || memcmp(pa, pb, (size_t)n) == 0;
    }
    }
}

/// Whether the row found differs from the one expected only in unchecked columns.
static int differs_only_in_unchecked(conflict_context *context, sqlite3_changeset_iter *iter) {
    const char *table;
    int columns, op, indirect;
    if (sqlite3changeset_op(iter, &table, &columns, &op, &indirect) != SQLITE_OK) return 0;
    if (op != SQLITE_UPDATE && op != SQLITE_DELETE) return 0;
    const carnet_unchecked_columns *unchecked = NULL;
    for (int i = 0; i < context->uncheckedCount; i++) {
        if (strcmp(context->unchecked[i].table, table) == 0) unchecked = &context->unchecked[i];
    }
    if (!unchecked) return 0;
    for (int i = 0; i < columns; i++) {
        if (i == unchecked->columns[0] || i == unchecked->columns[1]) continue;
        sqlite3_value *expected = NULL, *found = NULL;
        sqlite3changeset_old(iter, i, &expected);
        if (expected == NULL) continue;  // an update that does not change this column
        if (sqlite3changeset_conflict(iter, i, &found) != SQLITE_OK || found == NULL) return 0;
        if (!same_value(expected, found)) return 0;
    }
    return 1;
}

static void describe_value(char *out, size_t capacity, sqlite3_value *value) {
    if (value == NULL) { snprintf(out, capacity, "?"); return; }
    switch (sqlite3_value_type(value)) {
    case SQLITE_INTEGER: snprintf(out, capacity, "%lld", (long long)sqlite3_value_int64(value)); break;
    case SQLITE_TEXT: snprintf(out, capacity, "%.60s", (const char *)sqlite3_value_text(value)); break;
    default: snprintf(out, capacity, "?"); break;
    }
}

static int abort_on_conflict(void *context, int kind, sqlite3_changeset_iter *iter) {
    conflict_context *found = context;
    if (found->description) return SQLITE_CHANGESET_ABORT;
    if (kind == SQLITE_CHANGESET_DATA && differs_only_in_unchecked(found, iter)) return SQLITE_CHANGESET_REPLACE;
    const char *kindName = "changed";
    switch (kind) {
    case SQLITE_CHANGESET_DATA: kindName = "changed"; break;
    case SQLITE_CHANGESET_NOTFOUND: kindName = "missing"; break;
    case SQLITE_CHANGESET_CONFLICT: kindName = "present"; break;
    case SQLITE_CHANGESET_CONSTRAINT: kindName = "constraint"; break;
    case SQLITE_CHANGESET_FOREIGN_KEY: kindName = "foreign key"; break;
    }
    char keys[160] = "";
    const char *table = "";
    if (kind != SQLITE_CHANGESET_FOREIGN_KEY) {
        int columns, op, indirect;
        sqlite3changeset_op(iter, &table, &columns, &op, &indirect);
        unsigned char *primaryKey = NULL;
        int keyColumns = 0;
        sqlite3changeset_pk(iter, &primaryKey, &keyColumns);
        size_t used = 0;
        for (int i = 0; i < keyColumns && used < sizeof keys - 1; i++) {
            if (!primaryKey[i]) continue;
            sqlite3_value *value = NULL;
            if (op == SQLITE_INSERT) sqlite3changeset_new(iter, i, &value);
            else sqlite3changeset_old(iter, i, &value);
            char part[72];
            describe_value(part, sizeof part, value);
            used += (size_t)snprintf(keys + used, sizeof keys - used, "%s%s", used ? "," : "", part);
        }
    }
    found->description = sqlite3_mprintf("%s\t%s\t%s", table, kindName, keys);
    return SQLITE_CHANGESET_ABORT;
}

int carnet_changeset_apply(
    sqlite3 *db, int size, const void *bytes, const carnet_unchecked_columns *unchecked, int uncheckedCount,
    char **conflict) {
    conflict_context context = { unchecked, uncheckedCount, NULL };
    int rc = sqlite3changeset_apply(db, size, (void *)bytes, NULL, abort_on_conflict, &context);
    *conflict = context.description;
    if (context.description && rc == SQLITE_OK) rc = SQLITE_ABORT;
    return rc;
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
