-- Carnet schema, version 15: what merging duplicates leaves behind.
-- Applied once, inside one transaction; never edited once released.
--
-- `carnet merge A B` keeps A and deletes B; B's UID is another program's name for the same person
-- (an old export, a phone, a CardDAV server), so it stays known as A's: importing a card with B's
-- UID updates A rather than bringing B back. `carnet merge --different A B` records that two
-- contacts are different people, and `carnet duplicates` never proposes them together again.
-- Both tables are recorded in the history: undoing a merge removes its aliases with the rest.
--
-- Read it with sqlite3:
--   SELECT a.uid AS merged_uid, c.id, c.name FROM contact_uid_aliases a JOIN contacts c ON c.id = a.contact_id;
--   SELECT a.name, b.name FROM different_people d JOIN contacts a ON a.id = d.contact_id JOIN contacts b ON b.id = d.other_id;

CREATE TABLE contact_uid_aliases (
    -- The UID of a contact merged into contact_id (never the UID of a contact in the file).
    uid        TEXT    NOT NULL PRIMARY KEY
                       CONSTRAINT uid_1_to_255_characters CHECK (typeof(uid) = 'text' AND length(uid) BETWEEN 1 AND 255 AND instr(CAST(uid AS BLOB), x'00') = 0),
    contact_id INTEGER NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
    merged_at  TEXT    NOT NULL
                       CONSTRAINT merged_at_as_carnet_writes_times CHECK (merged_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z')
) WITHOUT ROWID;
CREATE INDEX contact_uid_aliases_by_contact ON contact_uid_aliases (contact_id);

-- Two contacts the user said are different people, the smaller id first.
CREATE TABLE different_people (
    contact_id INTEGER NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
    other_id   INTEGER NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
    marked_at  TEXT    NOT NULL
                       CONSTRAINT marked_at_as_carnet_writes_times CHECK (marked_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'),
    PRIMARY KEY (contact_id, other_id),
    CONSTRAINT smaller_id_first CHECK (contact_id < other_id)
) WITHOUT ROWID;
CREATE INDEX different_people_by_other ON different_people (other_id);
