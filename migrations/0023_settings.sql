-- Carnet schema, version 23: the file's own settings, starting with the phone region.
-- Applied once, inside one transaction; never edited once released.
--
-- A phone number written without a country code (`020 7946 0000`) is one number only within a
-- region. Carnet compares numbers in their E.164 form (`+442079460000`) to find duplicates,
-- unite a merge's entries and match a sync's reformatted numbers; the region that completes a
-- national number is the file's, so every process and every sync of the file agree on it. NULL
-- until `carnet db phone-region` sets it: each process then takes its locale's (LC_ALL, else
-- LANG), and a number whose region is unknown is never united with another.
--
-- Read it with sqlite3:
--   SELECT phone_region FROM settings;

CREATE TABLE settings (
    id           INTEGER PRIMARY KEY CONSTRAINT one_row CHECK (id = 1),
    -- An ISO 3166-1 alpha-2 code libphonenumber knows (`GB`, `US`), upper case; NULL: the locale's.
    phone_region TEXT    CONSTRAINT phone_region_two_capitals
                           CHECK (phone_region IS NULL OR (typeof(phone_region) = 'text' AND length(phone_region) = 2 AND phone_region GLOB '[A-Z][A-Z]'))
);
INSERT INTO settings (id) VALUES (1);
