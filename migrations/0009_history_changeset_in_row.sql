-- Carnet schema, version 9: an action of one part keeps its changeset in its own history row
-- (issue 15's edit target). Applied once, inside one transaction; never edited once released.
--
-- Version 5 kept every changeset in history_changesets, keyed (action_id, part): a table and its
-- index, so every action wrote two more pages than its history row, and trimming the oldest
-- action two more again. Most actions (an add, an edit, a favorite) are one part, so their
-- changeset now sits in the row: an edit with the history writes four pages fewer. A long action
-- (an import recorded in several parts of at most 32 MiB of recorder memory each) keeps its parts
-- in history_changesets as before, and its row's changeset is NULL.
--
-- Read it with sqlite3 (name the columns: a changeset is binary):
--   SELECT id, time, summary, CASE undone WHEN 1 THEN 'undone' ELSE '' END FROM history ORDER BY id DESC LIMIT 20;
--   SELECT id, length(changeset) FROM history WHERE changeset IS NOT NULL;   -- one part, in the row
--   SELECT action_id, part, length(changeset) FROM history_changesets;       -- several parts

ALTER TABLE history ADD COLUMN changeset BLOB
    CONSTRAINT changeset_a_blob_or_null CHECK (changeset IS NULL OR typeof(changeset) = 'blob');

-- Actions of one part move into their rows; nothing else changes.
UPDATE history SET changeset = (SELECT c.changeset FROM history_changesets c WHERE c.action_id = history.id)
 WHERE (SELECT count(*) FROM history_changesets c WHERE c.action_id = history.id) = 1;
DELETE FROM history_changesets WHERE action_id IN (SELECT id FROM history WHERE changeset IS NOT NULL);
