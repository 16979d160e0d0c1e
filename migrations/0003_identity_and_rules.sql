-- Carnet schema, version 3: identities are never reused, and the file holds only what the rules allow.
-- Applied once, inside one transaction, with foreign keys off while the two tables are rebuilt (the
-- way SQLite's documentation rebuilds a table); never edited once released.
--
-- 1. contacts.id and quotes.id are AUTOINCREMENT: an id, once issued, never names another row, even
--    after the row is deleted, so an edit or delete based on a deleted record cannot land on a
--    newcomer. The ids already issued stay as they are.
-- 2. Every CHECK is as strict as Carnet's validation (CarnetModels: Rules, TextRules, EmailRule,
--    PhoneRule, ImageKind, UIDRule), so a file edited by hand with sqlite3 cannot hold what Carnet
--    would refuse: no control characters, line separators, direction overrides or inner byte-order
--    marks in one-line fields; values trimmed of white space and zero-width characters; emails of the
--    shape name@domain.tld without spaces or invisible characters; phones of digits, space and
--    + - ( ) . with a digit; photos that start like a JPEG, PNG, GIF or WebP; timestamps as Carnet
--    writes them. (CarnetStorageTests checks, value by value, that the CHECKs and the validation
--    agree.) Before this file runs, Carnet repairs rows an earlier file held that break these rules
--    and keeps each original value, byte for byte, in repaired_values (schema 2).

CREATE TABLE contacts_v2 (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    uid        TEXT    NOT NULL UNIQUE
                       CONSTRAINT uid_1_to_255_characters_without_controls CHECK (typeof(uid) = 'text' AND length(uid) BETWEEN 1 AND 255 AND instr(CAST(uid AS BLOB), x'00') = 0
                       AND (uid NOT GLOB '*[^ -~]*' OR uid NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*')),
    -- NOCASE so the name-sorted list, its index and keyset paging agree on one order.
    name       TEXT    NOT NULL COLLATE NOCASE
                       CONSTRAINT name_required_one_line_trimmed_at_most_200 CHECK (typeof(name) = 'text' AND length(name) BETWEEN 1 AND 200 AND instr(CAST(name AS BLOB), x'00') = 0
                       AND ((name NOT GLOB '*[^ -~]*' AND name NOT GLOB ' *' AND name NOT GLOB '* ')
                            OR (name = trim(name, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND name NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    position   TEXT    NOT NULL DEFAULT ''
                       CONSTRAINT position_one_line_trimmed_at_most_200 CHECK (typeof(position) = 'text' AND length(position) BETWEEN 0 AND 200 AND instr(CAST(position AS BLOB), x'00') = 0
                       AND ((position NOT GLOB '*[^ -~]*' AND position NOT GLOB ' *' AND position NOT GLOB '* ')
                            OR (position = trim(position, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND position NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    -- Printable ASCII without spaces needs only the shape test; other text is also checked for
    -- control, white-space and invisible (format) characters.
    email      TEXT    NOT NULL DEFAULT ''
                       CONSTRAINT email_like_name_at_example_com_without_spaces_or_invisible_characters CHECK (typeof(email) = 'text' AND length(email) BETWEEN 0 AND 254 AND instr(CAST(email AS BLOB), x'00') = 0
                       AND (email NOT GLOB '*[^!-~]*'
                            OR (email NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'
                                AND email NOT GLOB '*[' || ' ' || char(0xA0, 0x1680, 0x2000) || '-' || char(0x200A, 0x202F, 0x205F, 0x3000, 0xAD, 0x600) || '-' || char(0x605, 0x61C, 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x180E, 0x200B) || '-' || char(0x200F, 0x202A) || '-' || char(0x202E, 0x2060) || '-' || char(0x2064, 0x2066) || '-' || char(0x206F, 0xFEFF, 0xFFF9) || '-' || char(0xFFFB, 0x110BD, 0x110CD, 0x13430) || '-' || char(0x1343F, 0x1BCA0) || '-' || char(0x1BCA3, 0x1D173) || '-' || char(0x1D17A, 0xE0001, 0xE0020) || '-' || char(0xE007F) || ']*'))
                       AND (email = '' OR (email GLOB '?*@?*.?*' AND email NOT GLOB '*@*@*' AND email NOT GLOB '*@.*'
                                           AND email NOT GLOB '*.' AND email NOT GLOB '*@*..*'))),
    phone      TEXT    NOT NULL DEFAULT ''
                       CONSTRAINT phone_digits_spaces_plus_minus_parentheses_dots_at_most_40 CHECK (typeof(phone) = 'text' AND length(phone) BETWEEN 0 AND 40 AND instr(CAST(phone AS BLOB), x'00') = 0 AND phone NOT GLOB ' *' AND phone NOT GLOB '* '
                       AND (phone = '' OR (phone GLOB '*[0-9]*' AND phone NOT GLOB '*[^0-9 +().-]*'))),
    photo      BLOB    CONSTRAINT photo_jpeg_png_gif_or_webp_at_most_1_mib CHECK (photo IS NULL OR (typeof(photo) = 'blob' AND length(photo) BETWEEN 1 AND 1048576
                       AND (substr(photo, 1, 3) = x'FFD8FF' OR substr(photo, 1, 8) = x'89504E470D0A1A0A'
                            OR substr(photo, 1, 6) IN (x'474946383761', x'474946383961')
                            OR (substr(photo, 1, 4) = x'52494646' AND substr(photo, 9, 4) = x'57454250')))),
    created_at TEXT    NOT NULL CONSTRAINT created_at_as_carnet_writes_times CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'),
    updated_at TEXT    NOT NULL CONSTRAINT updated_at_as_carnet_writes_times CHECK (updated_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'),
    -- Bumped by every update; an edit based on an older version is a conflict, not an overwrite.
    version    INTEGER NOT NULL DEFAULT 1 CONSTRAINT version_a_whole_number_from_1 CHECK (typeof(version) = 'integer' AND version >= 1)
);

INSERT INTO contacts_v2 (id, uid, name, position, email, phone, photo, created_at, updated_at, version)
SELECT id, uid, name, position, email, phone, photo, created_at, updated_at, version FROM contacts;
DROP TABLE contacts;
ALTER TABLE contacts_v2 RENAME TO contacts;

-- Serves the name-sorted list and its keyset pages: WHERE (name, id) > (?, ?) ORDER BY name, id.
CREATE INDEX contacts_by_name ON contacts (name, id);

CREATE TABLE quotes_v2 (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    -- A quote may span lines: its text may hold line feeds, and no other control character.
    text       TEXT    NOT NULL
                       CONSTRAINT text_required_at_most_2000_no_controls_but_line_feeds CHECK (typeof(text) = 'text' AND length(text) BETWEEN 1 AND 2000 AND instr(CAST(text AS BLOB), x'00') = 0 AND text = trim(text, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF) || char(10))
                       AND (text NOT GLOB '*[^ -~' || char(10) || ']*' OR text NOT GLOB '*[' || char(1) || '-' || char(9) || char(11) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*')),
    author     TEXT    NOT NULL DEFAULT ''
                       CONSTRAINT author_one_line_trimmed_at_most_200 CHECK (typeof(author) = 'text' AND length(author) BETWEEN 0 AND 200 AND instr(CAST(author AS BLOB), x'00') = 0
                       AND ((author NOT GLOB '*[^ -~]*' AND author NOT GLOB ' *' AND author NOT GLOB '* ')
                            OR (author = trim(author, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND author NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))),
    is_current INTEGER NOT NULL DEFAULT 0 CHECK (is_current IN (0, 1)),
    created_at TEXT    NOT NULL CONSTRAINT created_at_as_carnet_writes_times CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'),
    updated_at TEXT    NOT NULL CONSTRAINT updated_at_as_carnet_writes_times CHECK (updated_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'),
    version    INTEGER NOT NULL DEFAULT 1 CONSTRAINT version_a_whole_number_from_1 CHECK (typeof(version) = 'integer' AND version >= 1)
);

INSERT INTO quotes_v2 (id, text, author, is_current, created_at, updated_at, version)
SELECT id, text, author, is_current, created_at, updated_at, version FROM quotes;
DROP TABLE quotes;
ALTER TABLE quotes_v2 RENAME TO quotes;

-- At most one current quote; the storage controller keeps it exactly one.
CREATE UNIQUE INDEX quotes_one_current ON quotes (is_current) WHERE is_current = 1;
