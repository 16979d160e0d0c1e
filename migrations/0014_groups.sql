-- Carnet schema, version 14: groups, as vCard 4.0 and Apple Contacts keep them.
-- Applied once, inside one transaction; never edited once released. Adds two columns to
-- contacts and one table; no table is rebuilt.
--
-- A group is a card of its own (vCard 4.0 `KIND:group` with `MEMBER` lines, or Apple's
-- `X-ADDRESSBOOKSERVER-KIND:group` with `X-ADDRESSBOOKSERVER-MEMBER` lines), so it is a row of
-- contacts like any card: it has a UID, a version, a history, a place on a sync server and in an
-- export. `kind` tells it from a person; every list of people (list, favorites, birthdays,
-- search, counts) reads only kind = 'individual'.
--
-- group_members holds a group's members by UID, in the group's order: a member whose card is not
-- (yet) in the file is kept, not dropped, and shows up once the card arrives. A category stays
-- what it was: a tag on one contact (contact_categories).
--
-- Read it with sqlite3:
--   SELECT g.name, m.member_uid, c.name FROM contacts g JOIN group_members m ON m.contact_id = g.id
--   LEFT JOIN contacts c ON c.uid = m.member_uid WHERE g.kind = 'group' ORDER BY g.name, m.position;

-- 'individual' (a person or an organization: every contact before this step) or 'group'.
ALTER TABLE contacts ADD COLUMN kind TEXT NOT NULL DEFAULT 'individual'
    CONSTRAINT kind_individual_or_group CHECK (kind IN ('individual', 'group'));

-- The form a group card came in, written back the same way: 'vcard4' (KIND:group, MEMBER) or
-- 'apple' (X-ADDRESSBOOKSERVER-KIND:group, X-ADDRESSBOOKSERVER-MEMBER). NULL for a person, and
-- for a group made in Carnet: it takes the form of the file or server it goes to.
ALTER TABLE contacts ADD COLUMN group_form TEXT
    CONSTRAINT group_form_of_a_group CHECK (group_form IS NULL OR (kind = 'group' AND group_form IN ('vcard4', 'apple')));

-- Every row written once with its kind: a row from before this step holds no value for the new
-- columns, and SQLite's pre-update hook (which the history records from) reads such a column as
-- NULL, not as its default. Without this, the first edit of each older contact would be recorded
-- as kind NULL → 'individual', and undoing it would break the NOT NULL rule.
UPDATE contacts SET kind = 'individual';

CREATE TABLE group_members (
    -- The group (a contacts row whose kind is 'group').
    contact_id INTEGER NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
    -- 1 for the first member.
    position   INTEGER NOT NULL CONSTRAINT position_from_1 CHECK (typeof(position) = 'integer' AND position >= 1),
    -- The member's UID as the card says it (`urn:uuid:` taken off), whether or not that card is here.
    member_uid TEXT    NOT NULL
                 CONSTRAINT member_uid_1_to_255_characters CHECK (typeof(member_uid) = 'text' AND length(member_uid) BETWEEN 1 AND 255 AND instr(CAST(member_uid AS BLOB), x'00') = 0),
    PRIMARY KEY (contact_id, position),
    UNIQUE (contact_id, member_uid)
) WITHOUT ROWID;

-- The groups a contact is in (`carnet show`), by its UID.
CREATE INDEX group_members_by_member ON group_members (member_uid);
-- The groups, by name, apart from the people.
CREATE INDEX contacts_groups_by_name ON contacts (name) WHERE kind = 'group';
