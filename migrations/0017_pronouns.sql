-- Carnet schema, version 17: a contact's pronouns (vCard PRONOUNS, RFC 9554), one line of
-- free text such as "she/her" or "they/them", empty when not given.
-- Applied once, inside one transaction; never edited once released.
--
-- Example: who has said which pronouns?
--   SELECT name, pronouns FROM contacts WHERE pronouns <> '' ORDER BY name;

ALTER TABLE contacts ADD COLUMN pronouns TEXT NOT NULL DEFAULT ''
                       CONSTRAINT pronouns_one_line_trimmed_at_most_100 CHECK (typeof(pronouns) = 'text' AND length(pronouns) BETWEEN 0 AND 100 AND instr(CAST(pronouns AS BLOB), x'00') = 0
                       AND ((pronouns NOT GLOB '*[^ -~]*' AND pronouns NOT GLOB ' *' AND pronouns NOT GLOB '* ')
                            OR (pronouns = trim(pronouns, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND pronouns NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*')));

-- Written into every row: a row stored before the column existed reads as the default, but the
-- history's session sees NULL there as the row's old value, and the undo of a later edit would
-- write that NULL back. (The write marks the search index out of date; Carnet rebuilds it once.)
UPDATE contacts SET pronouns = '';
