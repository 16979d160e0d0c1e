-- Carnet schema, version 2: a place for values Carnet had to repair, kept verbatim.
-- Applied once, inside one transaction; never edited once released.
-- When a newer schema's rules are stricter than an older file's values (see 0003), Carnet brings
-- each such value within the rules and records here what it was, so nothing is ever lost:
--   sqlite3 carnet.sqlite 'SELECT table_name, row_id, column_name, quote(original), rule FROM repaired_values'

CREATE TABLE repaired_values (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    table_name  TEXT    NOT NULL,
    row_id      INTEGER NOT NULL,
    column_name TEXT    NOT NULL,
    -- The value as it was, verbatim (any type).
    original,
    rule        TEXT    NOT NULL,
    repaired_at TEXT    NOT NULL
);
