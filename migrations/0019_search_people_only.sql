-- Carnet schema, version 19: the search index holds people only.
-- Applied once, inside one transaction; never edited once released.
--
-- A search lists contacts, and a group card (kind = 'group', schema 14) is not one: until now
-- every search filtered the groups out again, row by row, from what the index matched. Now a
-- group card has no document in contact_search, so what the index matches is the answer.
-- Groups are found by name (`carnet group list`, `carnet query`), not through the index.
--
-- A file that holds group cards has them in its index: it is marked out of date here, and Carnet
-- rebuilds the index without them before it opens the file for anything else.
--
-- Example: the index and the people agree (as `carnet db check` asks):
--   SELECT count(*) FROM contacts WHERE kind = 'individual';

INSERT OR IGNORE INTO contact_search_outdated (id, since)
SELECT 1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE EXISTS (SELECT 1 FROM contacts WHERE kind = 'group');
