-- Carnet schema, version 20: a deleted book's sync link comes back with an undo.
-- Applied once, inside one transaction; never edited once released.
--
-- Deleting a synced book deleted its sync_accounts row (ON DELETE CASCADE), and with it every
-- link of its contacts to their cards: `carnet undo` brought the book and its contacts back,
-- but not the link, so the book silently stopped syncing, and linking it again had no card as
-- last synced to merge against. Now the account is set aside instead (book_id NULL,
-- deleted_book_id the book's id, which is never reused): an undo that brings the book back
-- links it again. Each deleted contact's tombstone keeps its card as last synced, the base a
-- sync merges against when an undo brings the contact back.
--
-- Read it with sqlite3:
--   SELECT collection_url, deleted_book_id FROM sync_accounts WHERE book_id IS NULL;
--   SELECT uid, href, card IS NOT NULL AS has_base FROM sync_tombstones;

ALTER TABLE sync_accounts ADD COLUMN deleted_book_id INTEGER
    CONSTRAINT deleted_book_id_only_when_set_aside CHECK (deleted_book_id IS NULL OR (typeof(deleted_book_id) = 'integer' AND book_id IS NULL));

-- NULL in a tombstone left before this version.
ALTER TABLE sync_tombstones ADD COLUMN card TEXT
    CONSTRAINT card_a_vcard CHECK (card IS NULL OR (typeof(card) = 'text' AND card GLOB 'BEGIN:VCARD*'));

DROP TRIGGER contacts_leave_sync_tombstones;

-- However a contact goes (carnet delete, an undo, sqlite3), a synced one leaves its tombstone,
-- with the card as last synced.
CREATE TRIGGER contacts_leave_sync_tombstones BEFORE DELETE ON contacts
BEGIN
    INSERT OR REPLACE INTO sync_tombstones (account_id, href, etag, uid, deleted_at, card)
    SELECT account_id, href, etag, OLD.uid, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), card FROM sync_contacts WHERE contact_id = OLD.id;
END;
