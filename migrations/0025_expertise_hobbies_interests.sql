-- Carnet schema, version 25: a person's expertise, hobbies and interests (vCard 4.0's EXPERTISE,
-- HOBBY and INTEREST, RFC 6715), each a list of labelled values like the URLs.
-- Applied once, inside one transaction; never edited once released.
--
-- The label is the entry's level: beginner, average or expert for an expertise, high, medium or
-- low for a hobby or an interest (the LEVEL parameter), or a free label; '' for none. A card's
-- `EXPERTISE;LEVEL=expert:Swift` is the row (label 'expert', value 'Swift').
--
-- Read it with sqlite3:
--   SELECT c.name, e.label, e.value FROM contacts c JOIN contact_expertise e ON e.contact_id = c.id
--   ORDER BY c.name, e.position;

CREATE TABLE contact_expertise (
    contact_id       INTEGER NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
    -- The person's order, 1 for the first.
    position         INTEGER NOT NULL CONSTRAINT position_a_whole_number_from_1 CHECK (typeof(position) = 'integer' AND position >= 1),
    label            TEXT    NOT NULL DEFAULT ''
                       CONSTRAINT label_one_line_trimmed_at_most_60 CHECK (typeof(label) = 'text' AND length(label) BETWEEN 0 AND 60 AND instr(CAST(label AS BLOB), x'00') = 0
                       AND ((label NOT GLOB '*[^ -~]*' AND label NOT GLOB ' *' AND label NOT GLOB '* ')
                            OR (label = trim(label, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND label NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    value            TEXT    NOT NULL
                       CONSTRAINT value_one_line_trimmed_at_most_200 CHECK (typeof(value) = 'text' AND length(value) BETWEEN 1 AND 200 AND instr(CAST(value AS BLOB), x'00') = 0
                       AND ((value NOT GLOB '*[^ -~]*' AND value NOT GLOB ' *' AND value NOT GLOB '* ')
                            OR (value = trim(value, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND value NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    preferred        INTEGER NOT NULL DEFAULT 0 CONSTRAINT preferred_0_or_1 CHECK (preferred IN (0, 1)),
    PRIMARY KEY (contact_id, position)
) WITHOUT ROWID;
CREATE UNIQUE INDEX contact_expertise_one_preferred ON contact_expertise (contact_id) WHERE preferred = 1;
CREATE TRIGGER contact_expertise_outdate_search_insert AFTER INSERT ON contact_expertise BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_expertise_outdate_search_update AFTER UPDATE ON contact_expertise BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_expertise_outdate_search_delete AFTER DELETE ON contact_expertise BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;

CREATE TABLE contact_hobbies (
    contact_id       INTEGER NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
    -- The person's order, 1 for the first.
    position         INTEGER NOT NULL CONSTRAINT position_a_whole_number_from_1 CHECK (typeof(position) = 'integer' AND position >= 1),
    label            TEXT    NOT NULL DEFAULT ''
                       CONSTRAINT label_one_line_trimmed_at_most_60 CHECK (typeof(label) = 'text' AND length(label) BETWEEN 0 AND 60 AND instr(CAST(label AS BLOB), x'00') = 0
                       AND ((label NOT GLOB '*[^ -~]*' AND label NOT GLOB ' *' AND label NOT GLOB '* ')
                            OR (label = trim(label, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND label NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    value            TEXT    NOT NULL
                       CONSTRAINT value_one_line_trimmed_at_most_200 CHECK (typeof(value) = 'text' AND length(value) BETWEEN 1 AND 200 AND instr(CAST(value AS BLOB), x'00') = 0
                       AND ((value NOT GLOB '*[^ -~]*' AND value NOT GLOB ' *' AND value NOT GLOB '* ')
                            OR (value = trim(value, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND value NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    preferred        INTEGER NOT NULL DEFAULT 0 CONSTRAINT preferred_0_or_1 CHECK (preferred IN (0, 1)),
    PRIMARY KEY (contact_id, position)
) WITHOUT ROWID;
CREATE UNIQUE INDEX contact_hobbies_one_preferred ON contact_hobbies (contact_id) WHERE preferred = 1;
CREATE TRIGGER contact_hobbies_outdate_search_insert AFTER INSERT ON contact_hobbies BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_hobbies_outdate_search_update AFTER UPDATE ON contact_hobbies BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_hobbies_outdate_search_delete AFTER DELETE ON contact_hobbies BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;

CREATE TABLE contact_interests (
    contact_id       INTEGER NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
    -- The person's order, 1 for the first.
    position         INTEGER NOT NULL CONSTRAINT position_a_whole_number_from_1 CHECK (typeof(position) = 'integer' AND position >= 1),
    label            TEXT    NOT NULL DEFAULT ''
                       CONSTRAINT label_one_line_trimmed_at_most_60 CHECK (typeof(label) = 'text' AND length(label) BETWEEN 0 AND 60 AND instr(CAST(label AS BLOB), x'00') = 0
                       AND ((label NOT GLOB '*[^ -~]*' AND label NOT GLOB ' *' AND label NOT GLOB '* ')
                            OR (label = trim(label, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND label NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    value            TEXT    NOT NULL
                       CONSTRAINT value_one_line_trimmed_at_most_200 CHECK (typeof(value) = 'text' AND length(value) BETWEEN 1 AND 200 AND instr(CAST(value AS BLOB), x'00') = 0
                       AND ((value NOT GLOB '*[^ -~]*' AND value NOT GLOB ' *' AND value NOT GLOB '* ')
                            OR (value = trim(value, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND value NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    preferred        INTEGER NOT NULL DEFAULT 0 CONSTRAINT preferred_0_or_1 CHECK (preferred IN (0, 1)),
    PRIMARY KEY (contact_id, position)
) WITHOUT ROWID;
CREATE UNIQUE INDEX contact_interests_one_preferred ON contact_interests (contact_id) WHERE preferred = 1;
CREATE TRIGGER contact_interests_outdate_search_insert AFTER INSERT ON contact_interests BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_interests_outdate_search_update AFTER UPDATE ON contact_interests BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
CREATE TRIGGER contact_interests_outdate_search_delete AFTER DELETE ON contact_interests BEGIN INSERT OR IGNORE INTO contact_search_outdated (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')); END;
