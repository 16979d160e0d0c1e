-- Carnet schema, version 18: a contact's gender as vCard's GENDER (RFC 6350) has it: a sex
-- letter (M, F, O other, N none or not applicable, U unknown) or nothing, then, when given, ';'
-- and a free gender identity text: 'F', 'O;non-binary', ';agender'. Empty when not given.
-- Applied once, inside one transaction; never edited once released.
--
-- Examples:
--   SELECT name, gender FROM contacts WHERE gender <> '';
--   -- the sex letter and the identity apart:
--   SELECT name, substr(gender, 1, instr(gender || ';', ';') - 1) AS sex,
--          CASE WHEN instr(gender, ';') > 0 THEN substr(gender, instr(gender, ';') + 1) ELSE '' END AS identity
--   FROM contacts WHERE gender <> '';

ALTER TABLE contacts ADD COLUMN gender TEXT NOT NULL DEFAULT ''
                       CONSTRAINT gender_sex_then_identity_one_line_trimmed_at_most_200 CHECK (typeof(gender) = 'text' AND length(gender) BETWEEN 0 AND 200 AND instr(CAST(gender AS BLOB), x'00') = 0
                       AND ((gender NOT GLOB '*[^ -~]*' AND gender NOT GLOB ' *' AND gender NOT GLOB '* ')
                            OR (gender = trim(gender, ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF))
                                AND gender NOT GLOB '*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159) || char(0x2028, 0x2029, 0x202A) || '-' || char(0x202E) || char(0x2066) || '-' || char(0x2069) || char(0xFEFF) || ']*'))
                       AND (gender IN ('', 'M', 'F', 'O', 'N', 'U')
                            OR ((substr(gender, 1, 1) = ';' OR (substr(gender, 1, 1) IN ('M', 'F', 'O', 'N', 'U') AND substr(gender, 2, 1) = ';'))
                                AND CASE WHEN substr(gender, 1, 1) = ';' THEN substr(gender, 2) ELSE substr(gender, 3) END <> ''
                                AND CASE WHEN substr(gender, 1, 1) = ';' THEN substr(gender, 2) ELSE substr(gender, 3) END = trim(CASE WHEN substr(gender, 1, 1) = ';' THEN substr(gender, 2) ELSE substr(gender, 3) END,
                                    ' ' || char(0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF)))));

-- Written into every row, as 0017 writes pronouns: the history's session would see NULL in a
-- row stored before the column existed.
UPDATE contacts SET gender = '';
