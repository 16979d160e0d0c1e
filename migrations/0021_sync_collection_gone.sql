-- Carnet schema, version 21: a collection gone from the server stays named.
-- Applied once, inside one transaction; never edited once released.
--
-- A collection gone from the server (deleted by another client while its book was deleted
-- here, say) makes every sync of its book fail; the account remembers when a sync last found it
-- gone, so `carnet sync status` says so too, without asking the server.
--
-- Read it with sqlite3:
--   SELECT collection_url, collection_gone_at FROM sync_accounts WHERE collection_gone_at IS NOT NULL;

-- When a sync last found the collection gone (404); NULL once a sync reaches it again.
ALTER TABLE sync_accounts ADD COLUMN collection_gone_at TEXT
    CONSTRAINT collection_gone_at_as_carnet_writes_times CHECK (collection_gone_at IS NULL OR collection_gone_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z');
