-- Carnet schema, version 22: each action of the history names the process that last wrote it.
-- Applied once, inside one transaction; never edited once released.
--
-- A program that shows the address book is told of every commit to the file, whoever made it
-- (StorageController.changes()): the actions of the history say which contacts changed, and this
-- column says whether the program's own process did it (its process id when it did, undid or
-- redid the action last). Actions recorded before this version have NULL.
--
-- Read it with sqlite3:
--   SELECT id, time, summary, pid FROM history ORDER BY id DESC LIMIT 20;

ALTER TABLE history ADD COLUMN pid INTEGER
    CONSTRAINT pid_positive CHECK (pid IS NULL OR (typeof(pid) = 'integer' AND pid > 0));
