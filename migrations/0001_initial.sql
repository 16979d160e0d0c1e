-- Carnet schema, version 1: contacts, favorites and quotes.
-- Applied once, inside one transaction, by Carnet's StorageController; never edited once released.
-- Every rule the app validates is also declared here, so a file edited by hand with sqlite3
-- cannot hold what Carnet would refuse. Timestamps are UTC text, 'YYYY-MM-DDTHH:MM:SS.SSSZ'.

CREATE TABLE contacts (
    id         INTEGER PRIMARY KEY,
    uid        TEXT    NOT NULL UNIQUE CHECK (length(uid) BETWEEN 1 AND 255),
    -- NOCASE so the name-sorted list, its index and keyset paging agree on one order.
    name       TEXT    NOT NULL COLLATE NOCASE
                       CHECK (length(trim(name)) > 0 AND length(name) <= 200),
    position   TEXT    NOT NULL DEFAULT '' CHECK (length(position) <= 200),
    email      TEXT    NOT NULL DEFAULT ''
                       CHECK (length(email) <= 254 AND (email = '' OR email GLOB '?*@?*.?*')),
    phone      TEXT    NOT NULL DEFAULT ''
                       CHECK (length(phone) <= 40 AND phone NOT GLOB '*[A-Za-z]*'),
    photo      BLOB    CHECK (photo IS NULL OR (typeof(photo) = 'blob' AND length(photo) BETWEEN 1 AND 1048576)),
    created_at TEXT    NOT NULL,
    updated_at TEXT    NOT NULL,
    -- Bumped by every update; an edit based on an older version is a conflict, not an overwrite.
    version    INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1)
);

-- Serves the name-sorted list and its keyset pages: WHERE (name, id) > (?, ?) ORDER BY name, id.
CREATE INDEX contacts_by_name ON contacts (name, id);

CREATE TABLE favorites (
    contact_id INTEGER NOT NULL UNIQUE REFERENCES contacts (id) ON DELETE CASCADE,
    -- The user's order, 1 for the first. Deleting a contact may leave a gap; order is what counts.
    position   INTEGER NOT NULL CHECK (position >= 1),
    created_at TEXT    NOT NULL
);

CREATE INDEX favorites_by_position ON favorites (position, contact_id);

CREATE TABLE quotes (
    id         INTEGER PRIMARY KEY,
    text       TEXT    NOT NULL CHECK (length(trim(text)) > 0 AND length(text) <= 2000),
    author     TEXT    NOT NULL DEFAULT '' CHECK (length(author) <= 200),
    is_current INTEGER NOT NULL DEFAULT 0 CHECK (is_current IN (0, 1)),
    created_at TEXT    NOT NULL,
    updated_at TEXT    NOT NULL,
    version    INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1)
);

-- At most one current quote; the storage controller keeps it exactly one.
CREATE UNIQUE INDEX quotes_one_current ON quotes (is_current) WHERE is_current = 1;

-- A new address book opens on a quote, never on an empty screen.
INSERT INTO quotes (text, author, is_current, created_at, updated_at)
VALUES ('Two things are infinite: the universe and human stupidity; and I''m not sure about the universe.',
        'Albert Einstein', 1,
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
