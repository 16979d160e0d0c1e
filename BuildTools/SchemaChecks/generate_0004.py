#!/usr/bin/env python3
"""Writes migrations/0004_rich_contacts.sql (run once, before the release that ships it; a
released migration is never edited). The CHECK expressions are the ones 0003 uses, generated from
the same character sets as CarnetModels' Rules and TextRules; CarnetStorageTests checks, value by
value, that the CHECKs and the validation agree."""
import sys

LINE = "char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF)"
TEXT = "char(1) || '-' || char(9) || char(11) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF)"
TRIM = "' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF)"
EMAILBAD = ("' ' || char(0xA0, 0x1680, 0x2000) || '-' || char(0x200A, 0x202F, 0x205F, 0x3000, 0xAD, 0x600) || '-' || char(0x605, 0x61C, 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x180E, 0x200B) || '-' || char(0x200F, 0x202A) || '-' || "
            "char(0x202E, 0x2060) || '-' || char(0x2064, 0x2066) || '-' || char(0x206F, 0xFEFF, 0xFFF9) || '-' || char(0xFFFB, 0x110BD, 0x110CD, 0x13430) || '-' || char(0x1343F, 0x1BCA0) || '-' || char(0x1BCA3, 0x1D173) || '-' || char(0x1D17A, 0xE0001, 0xE0020) || '-' || char(0xE007F)")
STAMP = "'[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'"
I = "                       "

def head(col, lo, hi):
    return f"typeof({col}) = 'text' AND length({col}) BETWEEN {lo} AND {hi} AND instr(CAST({col} AS BLOB), x'00') = 0"

def line(col, hi, required=False):
    return (head(col, 1 if required else 0, hi) + "\n"
            f"{I}AND (({col} NOT GLOB '*[^ -~]*' AND {col} NOT GLOB ' *' AND {col} NOT GLOB '* ')\n"
            f"{I}     OR ({col} = trim({col}, {TRIM})\n"
            f"{I}         AND {col} NOT GLOB '*[' || {LINE} || ']*'))")

def text(col, hi):
    return (head(col, 0, hi) + f" AND {col} = trim({col}, {TRIM} || char(10))\n"
            f"{I}AND ({col} NOT GLOB '*[^ -~' || char(10) || ']*' OR {col} NOT GLOB '*[' || {TEXT} || ']*')")

def email(col):
    return (head(col, 1, 254) + "\n"
            f"{I}AND ({col} NOT GLOB '*[^!-~]*'\n"
            f"{I}     OR ({col} NOT GLOB '*[' || {LINE} || ']*'\n"
            f"{I}         AND {col} NOT GLOB '*[' || {EMAILBAD} || ']*'))\n"
            f"{I}AND {col} GLOB '?*@?*.?*' AND {col} NOT GLOB '*@*@*' AND {col} NOT GLOB '*@.*'\n"
            f"{I}AND {col} NOT GLOB '*.' AND {col} NOT GLOB '*@*..*'")

def phone(col):
    return (head(col, 1, 40) + f" AND {col} NOT GLOB ' *' AND {col} NOT GLOB '* '\n"
            f"{I}AND {col} GLOB '*[0-9]*' AND {col} NOT GLOB '*[^0-9 +().-]*'")

def col(name, width=16):
    return name.ljust(width)

def scalar(name, check_name, expr):
    return f"    {col(name)} TEXT    NOT NULL DEFAULT ''\n{I}CONSTRAINT {check_name} CHECK ({expr})"

def one_line_columns(columns):
    """Optional one-line text columns, each (name, maximum length), one definition a line."""
    return ",\n".join(scalar(name, f"{name}_one_line_trimmed_at_most_{hi}", line(name, hi)) for name, hi in columns)

# The parts of the structured name (vCard N) and the one-line fields after them, in table order.
NAME_AND_ORGANIZATION = [('name_prefix', 100), ('given_name', 100), ('additional_names', 100), ('family_name', 100),
                         ('name_suffix', 100), ('nickname', 200), ('organization', 200), ('department', 200),
                         ('title', 200), ('role', 200)]
# vCard ADR's seven parts, in table order.
ADDRESS_PARTS = ['po_box', 'extended', 'street', 'locality', 'region', 'postal_code', 'country']

CHILD_HEAD = """    contact_id       INTEGER NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
    -- The person's order, 1 for the first.
    position         INTEGER NOT NULL CONSTRAINT position_a_whole_number_from_1 CHECK (typeof(position) = 'integer' AND position >= 1),"""
LABEL = f"    label            TEXT    NOT NULL DEFAULT ''\n{I}CONSTRAINT label_one_line_trimmed_at_most_60 CHECK ({line('label', 60)}),"
PREFERRED = "    preferred        INTEGER NOT NULL DEFAULT 0 CONSTRAINT preferred_0_or_1 CHECK (preferred IN (0, 1)),"

def labeled_table(table, value_check_name, value_expr, comment):
    return f"""-- {comment}
CREATE TABLE {table} (
{CHILD_HEAD}
{LABEL}
    value            TEXT    NOT NULL
{I}CONSTRAINT {value_check_name} CHECK ({value_expr}),
{PREFERRED}
    PRIMARY KEY (contact_id, position)
) WITHOUT ROWID;
CREATE UNIQUE INDEX {table}_one_preferred ON {table} (contact_id) WHERE preferred = 1;
"""

SORT_GIVEN = ("CASE WHEN given_name = '' THEN name ELSE given_name"
              " || CASE WHEN additional_names = '' THEN '' ELSE ' ' || additional_names END"
              " || CASE WHEN family_name = '' THEN '' ELSE ' ' || family_name END END")
SORT_FAMILY = ("CASE WHEN family_name = '' THEN name ELSE family_name"
               " || CASE WHEN given_name = '' THEN '' ELSE ' ' || given_name END"
               " || CASE WHEN additional_names = '' THEN '' ELSE ' ' || additional_names END END")

sql = f"""-- Carnet schema, version 4: a contact holds what a real address book holds.
-- Applied once, inside one transaction, with foreign keys off while contacts is rebuilt (the way
-- SQLite's documentation rebuilds a table); never edited once released. Generated by
-- BuildTools/SchemaChecks/generate_0004.py from the character sets of CarnetModels' rules.
--
-- contacts keeps one row per person: the display name, the structured name (vCard N), nickname,
-- organization, department, title, role, note and photo. Everything a person has several of lives
-- in a child table, ordered by position, at most one preferred, deleted with its contact:
--   contact_emails, contact_phones, contact_urls, contact_handles (label, value, preferred)
--   contact_addresses (label, po_box, extended, street, locality, region, postal_code, country, preferred)
--   contact_dates (label: birthday, anniversary or free; date: YYYY-MM-DD, or --MM-DD without a year)
--   contact_categories (name: the person's groups)
--   contact_extras (line: a vCard property Carnet does not model, kept verbatim)
-- A save writes the contact row and its child rows in one transaction with one new version.
--
-- Upgrading keeps every value: each old email and phone becomes the contact's one preferred entry,
-- and position becomes title and organization, split at its first ", " when both sides are
-- non-empty and unpadded (as Carnet's vCard export split it), else all title. The structured name
-- is then read from the display name where it can be without guessing (a Swift step, see
-- SchemaRepairs.after).
--
-- Example: every email of every favorite, in the user's order:
--   SELECT c.name, e.label, e.value FROM favorites f JOIN contacts c ON c.id = f.contact_id
--   JOIN contact_emails e ON e.contact_id = c.id ORDER BY f.position, e.position;

CREATE TABLE contacts_v4 (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    uid              TEXT    NOT NULL UNIQUE
{I}CONSTRAINT uid_1_to_255_characters_without_controls CHECK ({head('uid', 1, 255)}
{I}AND (uid NOT GLOB '*[^ -~]*' OR uid NOT GLOB '*[' || {LINE} || ']*')),
    -- The display name (vCard FN). NOCASE so the name-sorted list, its index and keyset paging
    -- agree on one order.
    name             TEXT    NOT NULL COLLATE NOCASE
{I}CONSTRAINT name_required_one_line_trimmed_at_most_200 CHECK ({line('name', 200, True)}),
{one_line_columns(NAME_AND_ORGANIZATION)},
    -- Several lines allowed: line feeds, and no other control character.
{scalar('note', 'note_at_most_10000_no_controls_but_line_feeds', text('note', 10000))},
    photo            BLOB    CONSTRAINT photo_jpeg_png_gif_or_webp_at_most_1_mib CHECK (photo IS NULL OR (typeof(photo) = 'blob' AND length(photo) BETWEEN 1 AND 1048576
{I}AND (substr(photo, 1, 3) = x'FFD8FF' OR substr(photo, 1, 8) = x'89504E470D0A1A0A'
{I}     OR substr(photo, 1, 6) IN (x'474946383761', x'474946383961')
{I}     OR (substr(photo, 1, 4) = x'52494646' AND substr(photo, 9, 4) = x'57454250')))),
    created_at       TEXT    NOT NULL CONSTRAINT created_at_as_carnet_writes_times CHECK (created_at GLOB {STAMP}),
    updated_at       TEXT    NOT NULL CONSTRAINT updated_at_as_carnet_writes_times CHECK (updated_at GLOB {STAMP}),
    -- Bumped by every save of the contact or any of its child rows; an edit based on an older
    -- version is a conflict, not an overwrite.
    version          INTEGER NOT NULL DEFAULT 1 CONSTRAINT version_a_whole_number_from_1 CHECK (typeof(version) = 'integer' AND version >= 1),
    -- What `carnet list --sort given` and `--sort family` order by (computed, never stored):
    -- the structured name given-first or family-first, or the display name when that part is empty.
    sort_given       TEXT    COLLATE NOCASE GENERATED ALWAYS AS ({SORT_GIVEN}) VIRTUAL,
    sort_family      TEXT    COLLATE NOCASE GENERATED ALWAYS AS ({SORT_FAMILY}) VIRTUAL
);

INSERT INTO contacts_v4 (id, uid, name, title, organization, photo, created_at, updated_at, version)
SELECT id, uid, name,
       CASE WHEN splits THEN head ELSE position END,
       CASE WHEN splits THEN tail ELSE '' END,
       photo, created_at, updated_at, version
FROM (SELECT *, instr(position, ', ') > 0 AND head <> '' AND tail <> ''
                AND head = trim(head, {TRIM}) AND tail = trim(tail, {TRIM}) AS splits
      FROM (SELECT *, substr(position, 1, instr(position, ', ') - 1) AS head,
                      substr(position, instr(position, ', ') + 2) AS tail
            FROM contacts));

{labeled_table('contact_emails', 'value_like_name_at_example_com_without_spaces_or_invisible_characters', email('value'), "A contact's email addresses.")}
INSERT INTO contact_emails (contact_id, position, label, value, preferred)
SELECT id, 1, '', email, 1 FROM contacts WHERE email <> '';

{labeled_table('contact_phones', 'value_digits_spaces_plus_minus_parentheses_dots_at_most_40', phone('value'), "A contact's phone numbers; label cell, home, work, fax, pager, other or free.")}
INSERT INTO contact_phones (contact_id, position, label, value, preferred)
SELECT id, 1, '', phone, 1 FROM contacts WHERE phone <> '';

DROP TABLE contacts;
ALTER TABLE contacts_v4 RENAME TO contacts;

-- Serve the sorted lists and their keyset pages: WHERE (name, id) > (?, ?) ORDER BY name, id.
CREATE INDEX contacts_by_name ON contacts (name, id);
CREATE INDEX contacts_by_given ON contacts (sort_given, id);
CREATE INDEX contacts_by_family ON contacts (sort_family, id);

{labeled_table('contact_urls', 'value_one_line_trimmed_at_most_2000', line('value', 2000, True), "A contact's web addresses.")}
{labeled_table('contact_handles', 'value_one_line_trimmed_at_most_500', line('value', 500, True), "Instant-messaging and social handles; the label names the service (skype, mastodon).")}
-- A contact's postal addresses, with vCard ADR's seven parts; at least one part is filled in.
CREATE TABLE contact_addresses (
{CHILD_HEAD}
{LABEL}
{one_line_columns((part, 200) for part in ADDRESS_PARTS)},
{PREFERRED}
    CONSTRAINT address_not_empty CHECK ({' || '.join(ADDRESS_PARTS)} <> ''),
    PRIMARY KEY (contact_id, position)
) WITHOUT ROWID;
CREATE UNIQUE INDEX contact_addresses_one_preferred ON contact_addresses (contact_id) WHERE preferred = 1;

-- Birthdays, anniversaries and other dates: YYYY-MM-DD, or --MM-DD when the year is unknown; always
-- a real calendar date (29 February only in a leap year, or without a year).
CREATE TABLE contact_dates (
{CHILD_HEAD}
{LABEL}
    date             TEXT    NOT NULL
{I}CONSTRAINT date_a_real_calendar_date CHECK (typeof(date) = 'text' AND instr(CAST(date AS BLOB), x'00') = 0
{I}AND ((date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND substr(date, 1, 4) <> '0000' AND date(date, '+0 days') IS date)
{I}     OR (date GLOB '--[0-9][0-9]-[0-9][0-9]' AND date('2000' || substr(date, 2), '+0 days') IS '2000' || substr(date, 2)))),
    PRIMARY KEY (contact_id, position)
) WITHOUT ROWID;

-- The person's groups (`carnet list --category friends`); no two the same in one contact.
CREATE TABLE contact_categories (
{CHILD_HEAD}
    name             TEXT    NOT NULL COLLATE NOCASE
{I}CONSTRAINT name_required_one_line_trimmed_at_most_100 CHECK ({line('name', 100, True)}),
    PRIMARY KEY (contact_id, position),
    UNIQUE (contact_id, name)
) WITHOUT ROWID;
CREATE INDEX contact_categories_by_name ON contact_categories (name, contact_id);

-- Properties Carnet does not model, kept verbatim as unfolded vCard content lines, so an import
-- followed by an export loses nothing.
CREATE TABLE contact_extras (
{CHILD_HEAD}
    line             TEXT    NOT NULL
{I}CONSTRAINT line_one_line_without_nul_at_most_4_mib CHECK (typeof(line) = 'text' AND length(line) BETWEEN 1 AND 4194304
{I}AND instr(CAST(line AS BLOB), x'00') = 0 AND instr(line, char(10)) = 0 AND instr(line, char(13)) = 0),
    PRIMARY KEY (contact_id, position)
) WITHOUT ROWID;
"""
open(sys.argv[1] if len(sys.argv) > 1 else 'migrations/0004_rich_contacts.sql', 'w').write(sql)
