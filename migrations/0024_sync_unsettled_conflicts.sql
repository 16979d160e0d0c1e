-- Carnet schema, version 24: a conflict met when a book is linked to a collection that already
-- holds its cards, with no common base, stays unsettled until the user settles it.
-- Applied once, inside one transaction; never edited once released.
--
-- The same contact on both sides, never synced together (imported here and on a phone, or a
-- link an old undo lost): a field that differs has no earlier value to say which side changed
-- it. Neither side's value overwrites the other's: the contact keeps this file's, the server's
-- card keeps its own, the contact is not sent, and `carnet sync status` lists the conflict until
-- `carnet sync take N` (the server's values) or `carnet sync take N --mine` (this file's) settles
-- it; the next sync then sends the contact.
--
-- Read it with sqlite3:
--   SELECT id, name, fields FROM sync_conflicts WHERE unsettled = 1;

ALTER TABLE sync_conflicts ADD COLUMN unsettled INTEGER NOT NULL DEFAULT 0
    CONSTRAINT unsettled_zero_or_one CHECK (unsettled IN (0, 1));

-- Every upload asks whether a contact is held back: a partial index of the few unsettled rows.
CREATE INDEX sync_conflicts_unsettled ON sync_conflicts (account_id, uid) WHERE unsettled = 1;
