-- Carnet schema, version 26: the search index holds its `other` column first.
-- Applied once, inside one transaction; never edited once released.
--
-- FTS5 writes, for each word of a document in any column but the first, the column's number
-- before the word's positions: two bytes more for every word found outside column 0. Most of a
-- contact's words are in `other` (organization, title, emails, phones, addresses...), a few in
-- `names`, so with `names` first nearly every word paid them: a quarter of the index. The
-- columns are the same, and so are their names, the words and how they are found; only their
-- order in the table changes. Queries name the columns (`{names} : ...`), never their places.
--
-- The index is contentless (it keeps no copy of the text, schema 16), so it cannot be copied
-- into the new table: a file with contacts is marked out of date here, and Carnet rebuilds the
-- index from the contacts before it opens the file for anything else.

DROP TABLE contact_search;
CREATE VIRTUAL TABLE contact_search USING fts5(
    other, names,
    content = '',
    columnsize = 0,
    tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO contact_search (contact_search, rank) VALUES ('hashsize', 4194304);

INSERT OR IGNORE INTO contact_search_outdated (id, since)
SELECT 1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE EXISTS (SELECT 1 FROM contacts WHERE kind = 'individual');
