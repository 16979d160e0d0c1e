-- Marks the file as Carnet's in its header (`PRAGMA application_id`, "Carn" in ASCII), as
-- file(1) and other programs read it. A file whose user_version is past what a Carnet knows is
-- a newer Carnet's only if it carries this mark; another application's SQLite file with a high
-- user_version is told apart from it. Applied to files made before, too.
PRAGMA application_id = 1130459758;
