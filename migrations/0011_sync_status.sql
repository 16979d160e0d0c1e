-- Carnet schema, version 11: what a sync could not take, and a certificate authority per account.
-- Applied once, inside one transaction; never edited once released. (Version 7 made the sync
-- tables; this step adds one table and one column to them.)
--
-- A card on the server that this file cannot take (larger than Carnet's limits, not a vCard)
-- was named once, by the sync that first saw it; the next sync's token had moved past it, and
-- it was never named again. Now it has a row here until it syncs, is gone from the server, or
-- the user says to skip it (`carnet sync skip`): every sync fetches the rows not skipped again,
-- and `carnet sync status` lists them.
--
-- A home server with a certificate of its own signing is trusted through the CA given to
-- `carnet sync setup --ca-file`, for that account only: its PEM text is kept in the account's
-- row, so it holds when the file it came from moves or goes.
--
-- Read it with sqlite3:
--   SELECT id, href, reason, first_seen, last_seen, skipped FROM sync_cards_not_synced;
--   SELECT collection_url, ca_certificate IS NOT NULL AS pinned_ca FROM sync_accounts;

CREATE TABLE sync_cards_not_synced (
    -- The number `carnet sync status` shows and `carnet sync skip` takes.
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES sync_accounts (id) ON DELETE CASCADE,
    -- The card's path on the server, percent-escapes decoded (as sync_contacts.href).
    href       TEXT    NOT NULL CONSTRAINT href_1_to_2000_characters CHECK (typeof(href) = 'text' AND length(href) BETWEEN 1 AND 2000),
    -- Why it was not taken, as the last sync that tried said it.
    reason     TEXT    NOT NULL CONSTRAINT reason_1_to_2000_characters CHECK (typeof(reason) = 'text' AND length(reason) BETWEEN 1 AND 2000),
    first_seen TEXT    NOT NULL CONSTRAINT first_seen_as_carnet_writes_times CHECK (first_seen GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'),
    last_seen  TEXT    NOT NULL CONSTRAINT last_seen_as_carnet_writes_times CHECK (last_seen GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'),
    -- 1: the user said to skip it: it is no longer fetched again or named (a change there that
    -- makes it readable still syncs it, and the row goes).
    skipped    INTEGER NOT NULL DEFAULT 0 CONSTRAINT skipped_0_or_1 CHECK (skipped IN (0, 1)),
    UNIQUE (account_id, href)
);

-- The CA certificate(s) (PEM) this account's server is verified against instead of the
-- system's; NULL: the system's.
ALTER TABLE sync_accounts ADD COLUMN ca_certificate TEXT
    CONSTRAINT ca_certificate_pem CHECK (ca_certificate IS NULL OR (typeof(ca_certificate) = 'text'
    AND length(ca_certificate) <= 1000000 AND ca_certificate GLOB '*-----BEGIN CERTIFICATE-----*'));
