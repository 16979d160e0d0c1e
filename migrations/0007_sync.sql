-- Carnet schema, version 7: two-way sync with a CardDAV address book (issue 17).
-- Applied once, inside one transaction; never edited once released. (Version 6 is the search
-- index of issue 16; the two are independent and apply in either order of arrival.)
--
-- What a sync needs to remember between runs, and nothing else: which collection, how to log in
-- (the user name and the command that prints the password, never the password), the server's
-- sync-token, and for every contact the card as it was last synced, which a three-way merge
-- compares both sides against. A contact deleted here leaves a tombstone until the server has
-- deleted it too.
--
-- Read it with sqlite3:
--   SELECT collection_url, username, last_sync_at FROM sync_accounts;
--   SELECT c.name, s.href, s.etag FROM sync_contacts s JOIN contacts c ON c.id = s.contact_id;
--   SELECT time, name, fields, kept FROM sync_conflicts ORDER BY id DESC;

CREATE TABLE sync_accounts (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    -- The address book collection (ends in /), found by `carnet sync setup` from what was given.
    collection_url   TEXT    NOT NULL UNIQUE
                       CONSTRAINT collection_url_http_or_https CHECK (typeof(collection_url) = 'text' AND length(collection_url) <= 2000
                       AND (collection_url GLOB 'http://?*' OR collection_url GLOB 'https://?*')),
    -- Empty: the server asks for no login.
    username         TEXT    NOT NULL DEFAULT '' CONSTRAINT username_at_most_200_characters CHECK (typeof(username) = 'text' AND length(username) <= 200),
    -- Run with /bin/sh; the first line it prints is the password. Empty: CARNET_SYNC_PASSWORD.
    password_command TEXT    NOT NULL DEFAULT '' CONSTRAINT password_command_at_most_2000_characters CHECK (typeof(password_command) = 'text' AND length(password_command) <= 2000),
    -- RFC 6578's token of the last complete sync; NULL before the first, or when the server has none.
    sync_token       TEXT    CONSTRAINT sync_token_text CHECK (sync_token IS NULL OR (typeof(sync_token) = 'text' AND length(sync_token) <= 2000)),
    last_sync_at     TEXT    CONSTRAINT last_sync_at_as_carnet_writes_times CHECK (last_sync_at IS NULL OR last_sync_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'),
    created_at       TEXT    NOT NULL
);

-- One row per contact that is on the server: where, which version of it (the ETag), the card as
-- it was when the two last agreed, and the contact's version then (a higher version now means a
-- local change to send). Deleting the contact deletes the row (after the trigger below has made
-- its tombstone).
CREATE TABLE sync_contacts (
    account_id     INTEGER NOT NULL REFERENCES sync_accounts (id) ON DELETE CASCADE,
    contact_id     INTEGER NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
    href           TEXT    NOT NULL CONSTRAINT href_1_to_2000_characters CHECK (typeof(href) = 'text' AND length(href) BETWEEN 1 AND 2000),
    etag           TEXT    NOT NULL CONSTRAINT etag_text CHECK (typeof(etag) = 'text' AND length(etag) <= 1000),
    card           TEXT    NOT NULL CONSTRAINT card_a_vcard CHECK (typeof(card) = 'text' AND card GLOB 'BEGIN:VCARD*'),
    synced_version INTEGER NOT NULL CONSTRAINT synced_version_a_whole_number CHECK (typeof(synced_version) = 'integer'),
    PRIMARY KEY (account_id, contact_id),
    UNIQUE (account_id, href)
);
CREATE INDEX sync_contacts_by_contact ON sync_contacts (contact_id);

-- A contact deleted here whose card is still on the server: the next sync deletes it there
-- (If-Match its ETag) and then this row.
CREATE TABLE sync_tombstones (
    account_id INTEGER NOT NULL REFERENCES sync_accounts (id) ON DELETE CASCADE,
    href       TEXT    NOT NULL CONSTRAINT href_1_to_2000_characters CHECK (typeof(href) = 'text' AND length(href) BETWEEN 1 AND 2000),
    etag       TEXT    NOT NULL CONSTRAINT etag_text CHECK (typeof(etag) = 'text' AND length(etag) <= 1000),
    uid        TEXT    NOT NULL,
    deleted_at TEXT    NOT NULL,
    PRIMARY KEY (account_id, href)
);

-- However a contact goes (carnet delete, an undo, sqlite3), a synced one leaves its tombstone.
CREATE TRIGGER contacts_leave_sync_tombstones BEFORE DELETE ON contacts
BEGIN
    INSERT OR REPLACE INTO sync_tombstones (account_id, href, etag, uid, deleted_at)
    SELECT account_id, href, etag, OLD.uid, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM sync_contacts WHERE contact_id = OLD.id;
END;

-- Where both sides changed the same field of a contact, one value wins (this file's unless
-- `carnet sync --prefer remote`); the other is kept here, as the whole card it came in, so it can
-- be read back (`carnet sync status`) or imported again. Never deleted by Carnet.
CREATE TABLE sync_conflicts (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER REFERENCES sync_accounts (id) ON DELETE SET NULL,
    time       TEXT    NOT NULL,
    uid        TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    -- The fields both sides changed, e.g. "phone, note".
    fields     TEXT    NOT NULL,
    -- Which side's values were kept: 'local' or 'remote'.
    kept       TEXT    NOT NULL CONSTRAINT kept_local_or_remote CHECK (kept IN ('local', 'remote')),
    -- The losing side's card, whole.
    lost_card  TEXT    NOT NULL
);
