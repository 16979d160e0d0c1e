-- Carnet schema, version 16: the search index's text has one definition, Carnet's own.
-- Applied once, inside one transaction; never edited once released.
--
-- Until now the text of each contact's search document was defined twice: in SQL, by the view
-- contact_search_source and forty triggers that kept the index in step for writers such as
-- sqlite3, and in Swift (SearchDocument), which Carnet's own connections use because the
-- triggers cost an import as much as the import itself. The two had to agree.
--
-- Now SearchDocument is the only definition. The index keeps no copy of the text
-- (content = '', as before it read its text from the view), and the view and its triggers are
-- gone. A write by another program (sqlite3) to a contact or one of its searched lists marks the
-- index out of date in contact_search_outdated; the next carnet that searches or writes rebuilds
-- the index from the contacts first, and `carnet db reindex` does so on demand.
--
-- Example: has someone written with sqlite3 since Carnet last indexed?
--   SELECT since FROM contact_search_outdated;

CREATE VIRTUAL TABLE contact_search_contentless USING fts5(
    names, other,
    content = '',
    columnsize = 0,
    tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO contact_search_contentless (contact_search_contentless, rank) VALUES ('hashsize', 4194304);
INSERT INTO contact_search_contentless (rowid, names, other) SELECT id, names, other FROM contact_search_source;

DROP TRIGGER IF EXISTS contacts_search_insert;
DROP TRIGGER IF EXISTS contacts_search_update_before;
DROP TRIGGER IF EXISTS contacts_search_update_after;
DROP TRIGGER IF EXISTS contacts_search_delete;
DROP TRIGGER IF EXISTS contact_emails_search_insert_before;
DROP TRIGGER IF EXISTS contact_emails_search_insert_after;
DROP TRIGGER IF EXISTS contact_emails_search_update_before;
DROP TRIGGER IF EXISTS contact_emails_search_update_after;
DROP TRIGGER IF EXISTS contact_emails_search_delete_before;
DROP TRIGGER IF EXISTS contact_emails_search_delete_after;
DROP TRIGGER IF EXISTS contact_phones_search_insert_before;
DROP TRIGGER IF EXISTS contact_phones_search_insert_after;
DROP TRIGGER IF EXISTS contact_phones_search_update_before;
DROP TRIGGER IF EXISTS contact_phones_search_update_after;
DROP TRIGGER IF EXISTS contact_phones_search_delete_before;
DROP TRIGGER IF EXISTS contact_phones_search_delete_after;
DROP TRIGGER IF EXISTS contact_addresses_search_insert_before;
DROP TRIGGER IF EXISTS contact_addresses_search_insert_after;
DROP TRIGGER IF EXISTS contact_addresses_search_update_before;
DROP TRIGGER IF EXISTS contact_addresses_search_update_after;
DROP TRIGGER IF EXISTS contact_addresses_search_delete_before;
DROP TRIGGER IF EXISTS contact_addresses_search_delete_after;
DROP TRIGGER IF EXISTS contact_urls_search_insert_before;
DROP TRIGGER IF EXISTS contact_urls_search_insert_after;
DROP TRIGGER IF EXISTS contact_urls_search_update_before;
DROP TRIGGER IF EXISTS contact_urls_search_update_after;
DROP TRIGGER IF EXISTS contact_urls_search_delete_before;
DROP TRIGGER IF EXISTS contact_urls_search_delete_after;
DROP TRIGGER IF EXISTS contact_handles_search_insert_before;
DROP TRIGGER IF EXISTS contact_handles_search_insert_after;
DROP TRIGGER IF EXISTS contact_handles_search_update_before;
DROP TRIGGER IF EXISTS contact_handles_search_update_after;
DROP TRIGGER IF EXISTS contact_handles_search_delete_before;
DROP TRIGGER IF EXISTS contact_handles_search_delete_after;
DROP TRIGGER IF EXISTS contact_categories_search_insert_before;
DROP TRIGGER IF EXISTS contact_categories_search_insert_after;
DROP TRIGGER IF EXISTS contact_categories_search_update_before;
DROP TRIGGER IF EXISTS contact_categories_search_update_after;
DROP TRIGGER IF EXISTS contact_categories_search_delete_before;
DROP TRIGGER IF EXISTS contact_categories_search_delete_after;
DROP TABLE contact_search;
DROP VIEW contact_search_source;
ALTER TABLE contact_search_contentless RENAME TO contact_search;

-- One row while the index is out of date: written by the triggers below (which Carnet's own
-- connections, indexing as they write, run without), removed when Carnet has rebuilt the index.
CREATE TABLE contact_search_outdated (
    id    INTEGER PRIMARY KEY CONSTRAINT one_row CHECK (id = 1),
    since TEXT    NOT NULL
);

CREATE TRIGGER contacts_outdate_search_insert AFTER INSERT ON contacts BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contacts_outdate_search_update AFTER UPDATE ON contacts BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contacts_outdate_search_delete AFTER DELETE ON contacts BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_emails_outdate_search_insert AFTER INSERT ON contact_emails BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_emails_outdate_search_update AFTER UPDATE ON contact_emails BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_emails_outdate_search_delete AFTER DELETE ON contact_emails BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_phones_outdate_search_insert AFTER INSERT ON contact_phones BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_phones_outdate_search_update AFTER UPDATE ON contact_phones BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_phones_outdate_search_delete AFTER DELETE ON contact_phones BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_addresses_outdate_search_insert AFTER INSERT ON contact_addresses BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_addresses_outdate_search_update AFTER UPDATE ON contact_addresses BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_addresses_outdate_search_delete AFTER DELETE ON contact_addresses BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_urls_outdate_search_insert AFTER INSERT ON contact_urls BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_urls_outdate_search_update AFTER UPDATE ON contact_urls BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_urls_outdate_search_delete AFTER DELETE ON contact_urls BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_handles_outdate_search_insert AFTER INSERT ON contact_handles BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_handles_outdate_search_update AFTER UPDATE ON contact_handles BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_handles_outdate_search_delete AFTER DELETE ON contact_handles BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_categories_outdate_search_insert AFTER INSERT ON contact_categories BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_categories_outdate_search_update AFTER UPDATE ON contact_categories BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_categories_outdate_search_delete AFTER DELETE ON contact_categories BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
