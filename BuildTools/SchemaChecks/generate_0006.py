#!/usr/bin/env python3
"""Writes migrations/0006_search.sql (run once, before the release that ships it; a released
migration is never edited). The search document of a contact is spelled once here, in the view
contact_search_source; CarnetModels' SearchDocument builds the same texts in Swift (what Carnet's
own writes index, and what a screen matches), and CarnetStorageTests checks, contact by contact,
that the two agree."""
import sys

# ITU-T E.164 country calling codes are a prefix code: 1 and 7 are one digit, these are two, every
# other code is three. The national number is what follows the code.
TWO_DIGIT = ["20", "27", "30", "31", "32", "33", "34", "36", "39", "40", "41", "43", "44", "45", "46",
             "47", "48", "49", "51", "52", "53", "54", "55", "56", "57", "58", "60", "61", "62", "63",
             "64", "65", "66", "81", "82", "84", "86", "90", "91", "92", "93", "94", "95", "98"]

# What the search columns hold, in the order of the FTS table's columns. The names come first:
# a query word found there ranks the contact first.
COLUMNS = ["names", "work", "emails", "phones", "addresses", "web", "categories", "note"]

def fold(expr):
    # unicode61 folds case and, with remove_diacritics 2, accents; it leaves ß alone, and people
    # type "strasse" for "Straße".
    return f"replace(replace({expr}, 'ß', 'ss'), 'ẞ', 'ss')"

def joined(select, table, where="contact_id = c.id"):
    return (f"ifnull((SELECT group_concat(v, ' ') FROM (SELECT {select} AS v FROM {table} "
            f"WHERE {where} ORDER BY position)), '')")

DIGITS = "replace(replace(replace(replace(replace(replace(value, ' ', ''), '+', ''), '(', ''), ')', ''), '.', ''), '-', '')"
CC_END = ("CASE WHEN d GLOB '[17]*' THEN 2 WHEN substr(d, 1, 2) IN ("
          + ", ".join(f"'{c}'" for c in TWO_DIGIT) + ") THEN 3 ELSE 4 END")
PHONES = ("ifnull((SELECT group_concat(v, ' ') FROM ("
          "SELECT value || ' ' || d || CASE WHEN value GLOB '+*' THEN ' ' || n || ' 0' || n ELSE '' END AS v"
          " FROM (SELECT value, position, d, substr(d, " + CC_END + ") AS n"
          f" FROM (SELECT value, position, {DIGITS} AS d FROM contact_phones WHERE contact_id = c.id)) ORDER BY position)), '')")

SOURCE = {
    "names": fold("c.name || ' ' || c.name_prefix || ' ' || c.given_name || ' ' || c.additional_names || ' ' "
                  "|| c.family_name || ' ' || c.name_suffix || ' ' || c.nickname"),
    "work": fold("c.organization || ' ' || c.department || ' ' || c.title || ' ' || c.role"),
    "emails": fold(joined("value", "contact_emails")),
    "phones": PHONES,
    "addresses": fold(joined("po_box || ' ' || extended || ' ' || street || ' ' || locality || ' ' || region "
                             "|| ' ' || postal_code || ' ' || country", "contact_addresses")),
    "web": fold(joined("value", "contact_urls") + " || ' ' || " + joined("value", "contact_handles")),
    "categories": fold(joined("name", "contact_categories")),
    "note": fold("c.note"),
}
assert list(SOURCE) == COLUMNS

CHILDREN = ["contact_emails", "contact_phones", "contact_addresses", "contact_urls", "contact_handles", "contact_categories"]
CONTACT_COLUMNS = ["id", "name", "name_prefix", "given_name", "additional_names", "family_name", "name_suffix",
                   "nickname", "organization", "department", "title", "role", "note"]

cols = ", ".join(COLUMNS)

def remove(ids, cols=cols):
    return (f"    INSERT INTO contact_search (contact_search, rowid, {cols})\n"
            f"    SELECT 'delete', id, {cols} FROM contact_search_source WHERE id IN ({ids});")

def add(ids, cols=cols):
    return (f"    INSERT INTO contact_search (rowid, {cols})\n"
            f"    SELECT id, {cols} FROM contact_search_source WHERE id IN ({ids});")

def trigger(name, when, event, table, body):
    return f"CREATE TRIGGER {name} {when} {event} ON {table} BEGIN\n{body}\nEND;\n"

def search_triggers(cols):
    """The triggers that keep contact_search (columns `cols`) in step (generate_0008.py too)."""
    triggers = []
    updated = ", ".join(CONTACT_COLUMNS)
    triggers.append(trigger("contacts_search_insert", "AFTER", "INSERT", "contacts", add("NEW.id", cols)))
    triggers.append(trigger("contacts_search_update_before", "BEFORE", f"UPDATE OF {updated}", "contacts", remove("OLD.id", cols)))
    triggers.append(trigger("contacts_search_update_after", "AFTER", f"UPDATE OF {updated}", "contacts", add("NEW.id", cols)))
    triggers.append(trigger("contacts_search_delete", "BEFORE", "DELETE", "contacts", remove("OLD.id", cols)))
    for table in CHILDREN:
        triggers.append(trigger(f"{table}_search_insert_before", "BEFORE", "INSERT", table, remove("NEW.contact_id", cols)))
        triggers.append(trigger(f"{table}_search_insert_after", "AFTER", "INSERT", table, add("NEW.contact_id", cols)))
        triggers.append(trigger(f"{table}_search_update_before", "BEFORE", "UPDATE", table, remove("OLD.contact_id, NEW.contact_id", cols)))
        triggers.append(trigger(f"{table}_search_update_after", "AFTER", "UPDATE", table, add("OLD.contact_id, NEW.contact_id", cols)))
        triggers.append(trigger(f"{table}_search_delete_before", "BEFORE", "DELETE", table, remove("OLD.contact_id", cols)))
        triggers.append(trigger(f"{table}_search_delete_after", "AFTER", "DELETE", table, add("OLD.contact_id", cols)))
    return triggers

def search_index(view_columns, cols, options=""):
    """The view of each contact's texts and the FTS5 index of it (generate_0008.py too, with its
    `options` lines before the tokenizer)."""
    return f"""CREATE VIEW contact_search_source AS
SELECT c.id AS id,
       {view_columns}
FROM contacts c;

CREATE VIRTUAL TABLE contact_search USING fts5(
    {cols},
    content = 'contact_search_source', content_rowid = 'id',
{options}    tokenize = 'unicode61 remove_diacritics 2'
);
"""

view_columns = ",\n       ".join(f"{SOURCE[c]} AS {c}" for c in COLUMNS)
triggers = search_triggers(cols)

sql = f"""-- Carnet schema, version 6: a full-text index of every text a contact holds (issue 16).
-- Applied once, inside one transaction; never edited once released. Generated by
-- BuildTools/SchemaChecks/generate_0006.py. (Version 5 is the change history; a file may reach 6
-- from 4 or from 5: this step reads only tables schema 4 made.)
--
-- contact_search_source is a view: one row per contact, its texts in eight columns (names, work,
-- emails, phones, addresses, web, categories, note). Phones are there as typed, as their digits,
-- and, when written with a country code, as the national number with and without a leading 0, so
-- "5551234567" finds "+1 555 123 4567". ß is written ss.
--
-- contact_search is an FTS5 index of that view (external content: the texts are not stored twice).
-- unicode61 with remove_diacritics 2 folds case and accents, so elodie finds Élodie. Triggers on
-- contacts and the child tables keep it in step in the same transaction as any change made with
-- them (sqlite3, another program, an undo applied as a changeset): before a change the contact's
-- document is taken out of the index, after it the new one is put in. Carnet's own connections
-- run with triggers off (SQLITE_DBCONFIG_ENABLE_TRIGGER) and write each contact's document once,
-- after its rows: a trigger on every child row, even one that does nothing, made an import
-- twice as long. A migration runs with triggers on.
--
-- Example: the contacts whose texts hold a word starting with "lov" and one starting with "ada":
--   SELECT c.id, c.name FROM contact_search s JOIN contacts c ON c.id = s.rowid
--   WHERE contact_search MATCH '"lov"* "ada"*';
-- If the index is ever in doubt: INSERT INTO contact_search(contact_search) VALUES ('rebuild');

{search_index(view_columns, cols)}
{"".join(triggers)}
INSERT INTO contact_search (contact_search) VALUES ('rebuild');
"""
if __name__ == "__main__":  # generate_0008.py imports the view's pieces from here
    open(sys.argv[1] if len(sys.argv) > 1 else 'migrations/0006_search.sql', 'w').write(sql)
