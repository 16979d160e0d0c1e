-- Carnet schema, version 13: several named address books in one file.
-- Applied once, inside one transaction; never edited once released.
--
-- Every contact belongs to one address book. The file has at least one, the default book
-- (made here, id 1): contacts of earlier files go into it, and a contact added or imported
-- without a book named goes into it. It can be renamed, not deleted. A book is what a sync links
-- to one CardDAV collection: sync_accounts gains the book it syncs (one collection per book),
-- and the collection an earlier file synced with is linked to the default book.
--
-- A UID stays unique in the whole file, not per book: a contact moved to another book keeps its
-- UID (the card moves between collections with it), and a copy is a new contact with a UID of
-- its own.
--
-- Read it with sqlite3:
--   SELECT b.name, count(c.id) FROM address_books b LEFT JOIN contacts c ON c.book_id = b.id GROUP BY b.id;
--   SELECT b.name, s.collection_url FROM sync_accounts s JOIN address_books b ON b.id = s.book_id;

CREATE TABLE address_books (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    -- Unique ignoring A-Z case, as the command line names books.
    name       TEXT    NOT NULL COLLATE NOCASE UNIQUE
                       CONSTRAINT name_one_line_trimmed_1_to_100 CHECK (typeof(name) = 'text' AND length(name) BETWEEN 1 AND 100
                       AND instr(CAST(name AS BLOB), x'00') = 0 AND name = trim(name)
                       AND name NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029) || ']*'),
    -- 1 for the one book that takes contacts added without a book named; it cannot be deleted.
    is_default INTEGER NOT NULL DEFAULT 0 CONSTRAINT is_default_0_or_1 CHECK (is_default IN (0, 1)),
    created_at TEXT    NOT NULL CONSTRAINT created_at_as_carnet_writes_times CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z')
);

-- Exactly one default book: at most one here, and the trigger below keeps it from going.
CREATE UNIQUE INDEX address_books_one_default ON address_books (is_default) WHERE is_default = 1;

CREATE TRIGGER address_books_keep_the_default BEFORE DELETE ON address_books WHEN OLD.is_default = 1
BEGIN
    SELECT RAISE(ABORT, 'the default address book cannot be deleted');
END;

INSERT INTO address_books (id, name, is_default, created_at)
VALUES (1, 'Contacts', 1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));

-- A book with contacts cannot be deleted from under them (Carnet deletes or moves them first).
ALTER TABLE contacts ADD COLUMN book_id INTEGER NOT NULL DEFAULT 1 REFERENCES address_books (id);

-- Written into every row: a row stored before the column existed reads as the default, but
-- SQLite's session extension (the history) sees NULL there as the row's old value, so an edit
-- would be recorded as setting book_id from NULL and its undo would break the NOT NULL.
UPDATE contacts SET book_id = 1;

-- Serves one book's name-sorted list and its keyset pages:
-- WHERE book_id = ? AND (name, id) > (?, ?) ORDER BY name, id.
CREATE INDEX contacts_by_book ON contacts (book_id, name, id);

-- The book a collection syncs with; deleting the book forgets its link (links, tombstones and
-- cards not synced go by their own ON DELETE CASCADE).
ALTER TABLE sync_accounts ADD COLUMN book_id INTEGER REFERENCES address_books (id) ON DELETE CASCADE;

-- An earlier file synced its one collection with all its contacts: now the default book's.
UPDATE sync_accounts SET book_id = 1 WHERE id = (SELECT min(id) FROM sync_accounts);

CREATE UNIQUE INDEX sync_accounts_one_per_book ON sync_accounts (book_id);
