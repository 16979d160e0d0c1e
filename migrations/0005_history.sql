-- Carnet schema, version 5: undo, redo and a history that survives relaunch (issue 15).
-- Applied once, inside one transaction, with foreign keys off while contacts and favorites are
-- rebuilt; never edited once released.
--
-- Every write Carnet makes (add, edit, delete, favorite, unfavorite, reorder, quote add, edit,
-- delete and use, import, sample) records, in the same transaction, what it changed: one row of
-- history, and the changes themselves as SQLite session changesets in history_changesets (a
-- large import in several parts, so no part has to sit in memory whole). Undo applies a
-- changeset's inverse and redo applies it again, only if every row it touches is as the action
-- left it: a row changed outside the history since then is a conflict, and nothing is written.
--
-- Read it with sqlite3:
--   SELECT id, time, summary, CASE undone WHEN 1 THEN 'undone' ELSE '' END FROM history ORDER BY id DESC LIMIT 20;
--   SELECT keep FROM history_settings;   -- actions kept (carnet history --keep N)

-- The session extension records only tables with a PRIMARY KEY: favorites had none (its contact_id
-- was UNIQUE), so it is rebuilt with contact_id as its key. Same columns, same rows.
CREATE TABLE favorites_v5 (
    contact_id INTEGER PRIMARY KEY REFERENCES contacts (id) ON DELETE CASCADE,
    -- The user's order, 1 for the first. Deleting a contact may leave a gap; order is what counts.
    position   INTEGER NOT NULL CHECK (position >= 1),
    created_at TEXT    NOT NULL
);
INSERT INTO favorites_v5 (contact_id, position, created_at) SELECT contact_id, position, created_at FROM favorites;
DROP TABLE favorites;
ALTER TABLE favorites_v5 RENAME TO favorites;
CREATE INDEX favorites_by_position ON favorites (position, contact_id);

-- The session extension of the system's SQLite (3.40) cannot record a table with generated
-- columns, so contacts is rebuilt (the way SQLite's documentation rebuilds a table) with its two
-- sort columns as ordinary ones: the same names, values and indexes, every other column and CHECK
-- as schema 4 has them. Carnet writes them with every contact, and the two triggers below put them
-- right after a hand edit with sqlite3 (they do nothing when the values are already right).
CREATE TABLE contacts_v5 (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    uid              TEXT    NOT NULL UNIQUE
                       CONSTRAINT uid_1_to_255_characters_without_controls CHECK (typeof(uid) = 'text' AND length(uid) BETWEEN 1 AND 255 AND instr(CAST(uid AS BLOB), x'00') = 0
                       AND (uid NOT GLOB '*[^ -~]*' OR uid NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*')),
    -- The display name (vCard FN). NOCASE so the name-sorted list, its index and keyset paging
    -- agree on one order.
    name             TEXT    NOT NULL COLLATE NOCASE
                       CONSTRAINT name_required_one_line_trimmed_at_most_200 CHECK (typeof(name) = 'text' AND length(name) BETWEEN 1 AND 200 AND instr(CAST(name AS BLOB), x'00') = 0
                       AND ((name NOT GLOB '*[^ -~]*' AND name NOT GLOB ' *' AND name NOT GLOB '* ')
                            OR (name = trim(name, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND name NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    name_prefix      TEXT    NOT NULL DEFAULT ''
                       CONSTRAINT name_prefix_one_line_trimmed_at_most_100 CHECK (typeof(name_prefix) = 'text' AND length(name_prefix) BETWEEN 0 AND 100 AND instr(CAST(name_prefix AS BLOB), x'00') = 0
                       AND ((name_prefix NOT GLOB '*[^ -~]*' AND name_prefix NOT GLOB ' *' AND name_prefix NOT GLOB '* ')
                            OR (name_prefix = trim(name_prefix, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND name_prefix NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    given_name       TEXT    NOT NULL DEFAULT ''
                       CONSTRAINT given_name_one_line_trimmed_at_most_100 CHECK (typeof(given_name) = 'text' AND length(given_name) BETWEEN 0 AND 100 AND instr(CAST(given_name AS BLOB), x'00') = 0
                       AND ((given_name NOT GLOB '*[^ -~]*' AND given_name NOT GLOB ' *' AND given_name NOT GLOB '* ')
                            OR (given_name = trim(given_name, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND given_name NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    additional_names TEXT    NOT NULL DEFAULT ''
                       CONSTRAINT additional_names_one_line_trimmed_at_most_100 CHECK (typeof(additional_names) = 'text' AND length(additional_names) BETWEEN 0 AND 100 AND instr(CAST(additional_names AS BLOB), x'00') = 0
                       AND ((additional_names NOT GLOB '*[^ -~]*' AND additional_names NOT GLOB ' *' AND additional_names NOT GLOB '* ')
                            OR (additional_names = trim(additional_names, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND additional_names NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    family_name      TEXT    NOT NULL DEFAULT ''
                       CONSTRAINT family_name_one_line_trimmed_at_most_100 CHECK (typeof(family_name) = 'text' AND length(family_name) BETWEEN 0 AND 100 AND instr(CAST(family_name AS BLOB), x'00') = 0
                       AND ((family_name NOT GLOB '*[^ -~]*' AND family_name NOT GLOB ' *' AND family_name NOT GLOB '* ')
                            OR (family_name = trim(family_name, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND family_name NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    name_suffix      TEXT    NOT NULL DEFAULT ''
                       CONSTRAINT name_suffix_one_line_trimmed_at_most_100 CHECK (typeof(name_suffix) = 'text' AND length(name_suffix) BETWEEN 0 AND 100 AND instr(CAST(name_suffix AS BLOB), x'00') = 0
                       AND ((name_suffix NOT GLOB '*[^ -~]*' AND name_suffix NOT GLOB ' *' AND name_suffix NOT GLOB '* ')
                            OR (name_suffix = trim(name_suffix, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND name_suffix NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    nickname         TEXT    NOT NULL DEFAULT ''
                       CONSTRAINT nickname_one_line_trimmed_at_most_200 CHECK (typeof(nickname) = 'text' AND length(nickname) BETWEEN 0 AND 200 AND instr(CAST(nickname AS BLOB), x'00') = 0
                       AND ((nickname NOT GLOB '*[^ -~]*' AND nickname NOT GLOB ' *' AND nickname NOT GLOB '* ')
                            OR (nickname = trim(nickname, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND nickname NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    organization     TEXT    NOT NULL DEFAULT ''
                       CONSTRAINT organization_one_line_trimmed_at_most_200 CHECK (typeof(organization) = 'text' AND length(organization) BETWEEN 0 AND 200 AND instr(CAST(organization AS BLOB), x'00') = 0
                       AND ((organization NOT GLOB '*[^ -~]*' AND organization NOT GLOB ' *' AND organization NOT GLOB '* ')
                            OR (organization = trim(organization, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND organization NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    department       TEXT    NOT NULL DEFAULT ''
                       CONSTRAINT department_one_line_trimmed_at_most_200 CHECK (typeof(department) = 'text' AND length(department) BETWEEN 0 AND 200 AND instr(CAST(department AS BLOB), x'00') = 0
                       AND ((department NOT GLOB '*[^ -~]*' AND department NOT GLOB ' *' AND department NOT GLOB '* ')
                            OR (department = trim(department, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND department NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    title            TEXT    NOT NULL DEFAULT ''
                       CONSTRAINT title_one_line_trimmed_at_most_200 CHECK (typeof(title) = 'text' AND length(title) BETWEEN 0 AND 200 AND instr(CAST(title AS BLOB), x'00') = 0
                       AND ((title NOT GLOB '*[^ -~]*' AND title NOT GLOB ' *' AND title NOT GLOB '* ')
                            OR (title = trim(title, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND title NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    role             TEXT    NOT NULL DEFAULT ''
                       CONSTRAINT role_one_line_trimmed_at_most_200 CHECK (typeof(role) = 'text' AND length(role) BETWEEN 0 AND 200 AND instr(CAST(role AS BLOB), x'00') = 0
                       AND ((role NOT GLOB '*[^ -~]*' AND role NOT GLOB ' *' AND role NOT GLOB '* ')
                            OR (role = trim(role, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND role NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    -- Several lines allowed: line feeds, and no other control character.
    note             TEXT    NOT NULL DEFAULT ''
                       CONSTRAINT note_at_most_10000_no_controls_but_line_feeds CHECK (typeof(note) = 'text' AND length(note) BETWEEN 0 AND 10000 AND instr(CAST(note AS BLOB), x'00') = 0 AND note = trim(note, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF) || char(10))
                       AND (note NOT GLOB '*[^ -~' || char(10) || ']*' OR note NOT GLOB '*[' || char(1) || '-' || char(9) || char(11) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*')),
    photo            BLOB    CONSTRAINT photo_jpeg_png_gif_or_webp_at_most_1_mib CHECK (photo IS NULL OR (typeof(photo) = 'blob' AND length(photo) BETWEEN 1 AND 1048576
                       AND (substr(photo, 1, 3) = x'FFD8FF' OR substr(photo, 1, 8) = x'89504E470D0A1A0A'
                            OR substr(photo, 1, 6) IN (x'474946383761', x'474946383961')
                            OR (substr(photo, 1, 4) = x'52494646' AND substr(photo, 9, 4) = x'57454250')))),
    created_at       TEXT    NOT NULL CONSTRAINT created_at_as_carnet_writes_times CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'),
    updated_at       TEXT    NOT NULL CONSTRAINT updated_at_as_carnet_writes_times CHECK (updated_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'),
    -- Bumped by every save of the contact or any of its child rows; an edit based on an older
    -- version is a conflict, not an overwrite.
    version          INTEGER NOT NULL DEFAULT 1 CONSTRAINT version_a_whole_number_from_1 CHECK (typeof(version) = 'integer' AND version >= 1),
    -- What `carnet list --sort given` and `--sort family` order by: the structured name given-first
    -- or family-first, or the display name when that part is empty. Carnet writes them with every
    -- contact; the triggers below put them right after a hand edit with sqlite3.
    sort_given       TEXT    NOT NULL DEFAULT '' COLLATE NOCASE,
    sort_family      TEXT    NOT NULL DEFAULT '' COLLATE NOCASE
);
INSERT INTO contacts_v5 (id, uid, name, name_prefix, given_name, additional_names, family_name, name_suffix, nickname, organization, department, title, role, note, photo, created_at, updated_at, version, sort_given, sort_family)
SELECT id, uid, name, name_prefix, given_name, additional_names, family_name, name_suffix, nickname, organization, department, title, role, note, photo, created_at, updated_at, version, sort_given, sort_family FROM contacts;
DROP TABLE contacts;
ALTER TABLE contacts_v5 RENAME TO contacts;
CREATE INDEX contacts_by_name ON contacts (name, id);
CREATE INDEX contacts_by_given ON contacts (sort_given, id);
CREATE INDEX contacts_by_family ON contacts (sort_family, id);
CREATE TRIGGER contacts_sort_after_insert AFTER INSERT ON contacts
WHEN NEW.sort_given IS NOT (CASE WHEN NEW.given_name = '' THEN NEW.name ELSE NEW.given_name || CASE WHEN NEW.additional_names = '' THEN '' ELSE ' ' || NEW.additional_names END || CASE WHEN NEW.family_name = '' THEN '' ELSE ' ' || NEW.family_name END END)
  OR NEW.sort_family IS NOT (CASE WHEN NEW.family_name = '' THEN NEW.name ELSE NEW.family_name || CASE WHEN NEW.given_name = '' THEN '' ELSE ' ' || NEW.given_name END || CASE WHEN NEW.additional_names = '' THEN '' ELSE ' ' || NEW.additional_names END END)
BEGIN
    UPDATE contacts SET sort_given = CASE WHEN given_name = '' THEN name ELSE given_name || CASE WHEN additional_names = '' THEN '' ELSE ' ' || additional_names END || CASE WHEN family_name = '' THEN '' ELSE ' ' || family_name END END,
                        sort_family = CASE WHEN family_name = '' THEN name ELSE family_name || CASE WHEN given_name = '' THEN '' ELSE ' ' || given_name END || CASE WHEN additional_names = '' THEN '' ELSE ' ' || additional_names END END
    WHERE id = NEW.id;
END;
CREATE TRIGGER contacts_sort_after_update AFTER UPDATE OF name, given_name, additional_names, family_name, sort_given, sort_family ON contacts
WHEN NEW.sort_given IS NOT (CASE WHEN NEW.given_name = '' THEN NEW.name ELSE NEW.given_name || CASE WHEN NEW.additional_names = '' THEN '' ELSE ' ' || NEW.additional_names END || CASE WHEN NEW.family_name = '' THEN '' ELSE ' ' || NEW.family_name END END)
  OR NEW.sort_family IS NOT (CASE WHEN NEW.family_name = '' THEN NEW.name ELSE NEW.family_name || CASE WHEN NEW.given_name = '' THEN '' ELSE ' ' || NEW.given_name END || CASE WHEN NEW.additional_names = '' THEN '' ELSE ' ' || NEW.additional_names END END)
BEGIN
    UPDATE contacts SET sort_given = CASE WHEN given_name = '' THEN name ELSE given_name || CASE WHEN additional_names = '' THEN '' ELSE ' ' || additional_names END || CASE WHEN family_name = '' THEN '' ELSE ' ' || family_name END END,
                        sort_family = CASE WHEN family_name = '' THEN name ELSE family_name || CASE WHEN given_name = '' THEN '' ELSE ' ' || given_name END || CASE WHEN additional_names = '' THEN '' ELSE ' ' || additional_names END END
    WHERE id = NEW.id;
END;

-- One row per action, newest last. `undone` is 1 for an action undone and not redone: those
-- form the redo list, and the next new action clears it.
CREATE TABLE history (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    time    TEXT    NOT NULL CONSTRAINT time_as_carnet_writes_times CHECK (time GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'),
    -- What was done: add, edit, delete, favorite, unfavorite, move favorite, add quote, edit quote,
    -- delete quote, use quote, import, sample.
    kind    TEXT    NOT NULL CONSTRAINT kind_1_to_40_characters CHECK (typeof(kind) = 'text' AND length(kind) BETWEEN 1 AND 40),
    -- What it was done to, as shown then: a contact's name, a quote, a file.
    subject TEXT    NOT NULL DEFAULT '' CONSTRAINT subject_at_most_200_characters CHECK (typeof(subject) = 'text' AND length(subject) <= 200),
    -- The line `carnet history` shows: "edited Ada Lovelace: phone", "imported 1,204 contacts".
    summary TEXT    NOT NULL CONSTRAINT summary_1_to_1000_characters CHECK (typeof(summary) = 'text' AND length(summary) BETWEEN 1 AND 1000),
    undone  INTEGER NOT NULL DEFAULT 0 CONSTRAINT undone_0_or_1 CHECK (undone IN (0, 1)),
    -- The size of its changesets, in bytes.
    bytes   INTEGER NOT NULL DEFAULT 0 CONSTRAINT bytes_not_negative CHECK (typeof(bytes) = 'integer' AND bytes >= 0)
);
-- (No index on undone: the undone actions are always the newest, so every query on them reads
-- the end of the table; one index fewer is one page fewer written with every action.)

-- The changes of an action, in the order they were made (part 1 first). While the action is
-- done they turn the file from before it into after it; while it is undone, the other way.
CREATE TABLE history_changesets (
    action_id INTEGER NOT NULL REFERENCES history (id) ON DELETE CASCADE,
    part      INTEGER NOT NULL CONSTRAINT part_a_whole_number_from_1 CHECK (typeof(part) = 'integer' AND part >= 1),
    changeset BLOB    NOT NULL CONSTRAINT changeset_a_blob CHECK (typeof(changeset) = 'blob'),
    PRIMARY KEY (action_id, part)
);

-- How many actions the history keeps (the oldest go first, in the transaction that adds one); 0
-- records none.
CREATE TABLE history_settings (
    id   INTEGER PRIMARY KEY CONSTRAINT one_row CHECK (id = 1),
    keep INTEGER NOT NULL DEFAULT 1000 CONSTRAINT keep_0_to_1000000 CHECK (typeof(keep) = 'integer' AND keep BETWEEN 0 AND 1000000)
);
INSERT INTO history_settings (id, keep) VALUES (1, 1000);
