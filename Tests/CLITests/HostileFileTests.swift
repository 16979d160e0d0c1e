import Foundation
import Testing

/// Ids and the schema's rules as a hostile tester tried them: stale edits and deletes across
/// processes, and a file edited with sqlite3 to hold what Carnet's rules refuse.
@Suite struct HostileFileTests {
    let box = Sandbox()

    // MARK: 1. A stale edit or delete never lands on another contact

    /// The reproduction: while the edit of contact 5 is open in $EDITOR, another process
    /// deletes 5 and adds a contact. Before schema 3 the save wrote Rebecca's fields over the
    /// newcomer (which had been given id 5) and said "saved contact 5".
    @Test func aStaleEditorSaveSaysDeletedAndTheNewcomerIsIntact() {
        box.carnetInProcess(["sample"])
        let editor = box.script("ed.sh", """
            "\(Sandbox.binary)" delete 5 --yes --db "\(box.db)" >/dev/null
            "\(Sandbox.binary)" add --name "Newcomer" --email new@example.com --db "\(box.db)" >/dev/null
            sed -i 's/^nickname:.*/nickname: Becky/' "$1"
            """)
        let run = box.carnet(["edit", "5", "--editor"], environment: ["EDITOR": editor, "VISUAL": ""])
        #expect(run.status == 66, "\(run)")
        #expect(run.stderr.contains("contact 5 was deleted since it was read"), "\(run)")
        #expect(!run.stdout.contains("saved"))
        let list = box.carnetInProcess(["list"]).lines
        #expect(list.count == 6)  // header, four sample contacts, the newcomer
        #expect(list.contains { $0.hasPrefix("6\tNewcomer\t\tnew@example.com\t\t0") }, "\(list)")
        #expect(!list.contains { $0.contains("Rebecca") })
        #expect(box.carnetInProcess(["show", "5"]).status == 66)
    }

    /// The same in `carnet interactive`: open 5, edit; another process deletes 5 and adds; save.
    /// Then a delete on a stale detail screen must not delete the newcomer.
    @Test func interactiveStaleSaveAndStaleDeleteTouchNoOneElse() {
        box.carnetInProcess(["sample"])
        let other = box.script("other.sh", """
            "\(Sandbox.binary)" delete 5 --yes --db "\(box.db)" >/dev/null
            "\(Sandbox.binary)" add --name "Newcomer" --db "\(box.db)" >/dev/null
            """)
        let feeder = box.script("feed.sh", """
            echo 'open 5'; echo edit; echo 'phone 555 0199'; sleep 0.3; "\(other)"; echo save; echo cancel; echo quit
            """)
        let run = box.run("/bin/sh", ["-c", "\"\(feeder)\" | \"\(Sandbox.binary)\" interactive --db \"\(box.db)\""])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("error: contact 5 was deleted since it was read"), "\(run.stdout)")
        #expect(!run.stdout.contains("saved contact"))
        #expect(box.carnetInProcess(["show", "6"]).stdout.contains("Newcomer"))

        // A detail screen opened on 4; meanwhile 4 is deleted and another contact added.
        let other2 = box.script("other2.sh", """
            "\(Sandbox.binary)" delete 4 --yes --db "\(box.db)" >/dev/null
            "\(Sandbox.binary)" add --name "Second Newcomer" --db "\(box.db)" >/dev/null
            """)
        let feeder2 = box.script("feed2.sh", "echo 'open 4'; sleep 0.3; \"\(other2)\"; echo delete --yes; echo quit\n")
        let run2 = box.run("/bin/sh", ["-c", "\"\(feeder2)\" | \"\(Sandbox.binary)\" interactive --db \"\(box.db)\""])
        #expect(run2.stdout.contains("contact 4 was deleted since it was read"), "\(run2.stdout)")
        let names = box.carnetInProcess(["list"]).lines.dropFirst().map { $0.split(separator: "\t")[1] }
        #expect(names.sorted() == ["Katherine Price", "Madison Thompson", "Newcomer", "Second Newcomer", "Tyler Porter"])
    }

    @Test func idsAreNeverReusedAcrossProcesses() {
        box.carnet(["add", "--name", "One"])
        box.carnet(["add", "--name", "Two"])
        box.carnet(["delete", "2", "--yes"])
        #expect(box.carnet(["add", "--name", "Three"]).stdout == "saved contact 3\n")
        box.carnet(["quote", "add", "--text", "Second"])
        box.carnet(["quote", "delete", "2"])
        #expect(box.carnet(["quote", "add", "--text", "Third"]).stdout.contains("3"))
    }

    // MARK: 2. What a file holds is held to the rules, and never reaches a terminal raw

    @Test func plainSqlite3CannotStoreWhatTheRulesRefuse() {
        box.carnetInProcess(["add", "--name", "Madison Thompson", "--email", "madison@example.com", "--phone", "555 0101",
                             "--date", "birthday:1988-03-14"])
        for sql in [
            "UPDATE contacts SET name = 'Evil' || char(27) || '[2J' || char(7)",
            "UPDATE contact_emails SET value = 'a b@c.de'",
            "UPDATE contact_phones SET value = '!!!'",
            "UPDATE contact_dates SET date = '2023-02-29'",
            "UPDATE contacts SET note = 'Bell' || char(7)",
            "UPDATE contacts SET photo = x'00010203'",
            "UPDATE contacts SET name = char(0x202E) || 'gnp.exe'",
            "UPDATE contacts SET name = char(0x200B, 0x200B)",
            "UPDATE quotes SET text = 'Bell' || char(7)",
            "INSERT INTO contacts (uid, name, created_at, updated_at) VALUES ('x', 'X', 'yesterday', 'today')",
        ] {
            let run = box.sqlite(sql)
            #expect(run.status != 0 && run.stderr.contains("CHECK constraint failed"), "\(sql): \(run)")
        }
        // The constraint's name says which rule, for a person at the sqlite3 prompt.
        #expect(box.sqlite("UPDATE contact_emails SET value = 'a b@c.de'").stderr.contains(
            "CHECK constraint failed: value_like_name_at_example_com_without_spaces_or_invisible_characters"))
        #expect(box.carnetInProcess(["db", "check"]).stdout == "ok\n")
    }

    /// A file whose CHECKs were switched off by hand: `db check` names every broken value, and
    /// nothing Carnet prints lets the file's bytes reach the terminal raw.
    @Test func aHandEditedFileIsReportedAndShownEscaped() throws {
        box.carnetInProcess(["add", "--name", "Madison Thompson", "--email", "madison@example.com", "--phone", "555 0101",
                             "--category", "work"])
        box.carnetInProcess(["favorite", "1"])
        let edit = box.sqlite("""
            PRAGMA ignore_check_constraints = 1;
            UPDATE contacts SET name = 'Evil' || char(27) || '[2J' || char(7) || char(10) || 'Second line',
                photo = x'00010203', title = char(0x202E) || 'reversed', note = 'Bell' || char(7) WHERE id = 1;
            UPDATE contact_emails SET value = 'a b@c.de';
            UPDATE contact_phones SET value = '!!!';
            UPDATE contact_categories SET name = 'Esc' || char(27) || '[31m';
            UPDATE quotes SET author = 'Bell' || char(7);
            """)
        #expect(edit.status == 0, "\(edit)")
        let check = box.carnetInProcess(["db", "check"])
        #expect(check.status == 69, "\(check)")
        for field in ["name", "title", "note", "photo"] {
            #expect(check.stdout.contains("contacts row 1, \(field):"), "\(field): \(check.stdout)")
        }
        for table in ["contact_emails", "contact_phones", "contact_categories"] {
            #expect(check.stdout.contains(table), "\(table): \(check.stdout)")
        }
        #expect(check.stdout.contains("quotes row 1, author:"))
        #expect(check.stdout.contains("must not contain control characters"))

        let outputs = [
            box.carnetInProcess([]), box.carnetInProcess(["list"]), box.carnetInProcess(["show", "1"]), box.carnetInProcess(["favorites"]),
            box.carnetInProcess(["quote"]), box.carnetInProcess(["list", "--json"]), box.carnetInProcess(["show", "1", "--json"]),
            box.carnetInProcess(["interactive"], stdin: "1\nedit\nback\nfavorites\nquote\nquit\n"),
        ]
        for run in outputs {
            let raw = (run.stdout + run.stderr).unicodeScalars
            #expect(!raw.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E }, "raw control in \(run)")
        }
        let shown = box.carnetInProcess(["show", "1"]).stdout
        #expect(shown.contains("Evil\\u{1B}[2J\\u{7}\\u{A}Second line"), "\(shown)")
        #expect(shown.contains("  Title            \\u{202E}reversed\n"), "\(shown)")
        #expect(shown.contains("  Emails           a b@c.de\n") && shown.contains("  Phones           !!!\n"), "\(shown)")
        #expect(shown.contains("Note\n  Bell\\u{7}\n") && shown.contains("Categories\n  Esc\\u{1B}[31m\n"), "\(shown)")
        // Tab-separated output keeps one row per contact, whatever a value holds.
        let tsv = box.carnetInProcess(["list"])
        #expect(tsv.lines.count == 2, "\(tsv)")
        #expect(tsv.lines[1].split(separator: "\t", omittingEmptySubsequences: false).count == 6)
        #expect(tsv.lines[1].contains("Evil\\u{1B}[2J\\u{7}\\nSecond line"))
        // JSON stays JSON, with the same values.
        let json = try #require(box.json(box.carnetInProcess(["show", "1", "--json"]).stdout) as? [String: Any])
        #expect(json["name"] as? String == "Evil\u{1B}[2J\u{7}\nSecond line")
        #expect(json["title"] as? String == "\u{202E}reversed")
        #expect(json["categories"] as? [String] == ["Esc\u{1B}[31m"])
    }

    @Test func dbCheckNamesADroppedIndexAChangedTableAndAWrongUserVersion() {
        box.carnetInProcess(["add", "--name", "Madison Thompson"])
        let schema = (box.json(box.carnetInProcess(["db", "info", "--json"]).stdout) as? [String: Any])?["schemaVersion"] as? Int ?? 0
        box.sqlite("DROP INDEX contacts_by_name; PRAGMA user_version = 2;")
        let check = box.carnetInProcess(["db", "check"])
        #expect(check.status == 69)
        #expect(check.stdout.contains("index contacts_by_name is missing; recreate it with: CREATE INDEX contacts_by_name ON contacts (name, id)"), "\(check)")
        #expect(check.stdout.contains("user_version is 2 but the migrations applied reach \(schema)"), "\(check)")
        box.sqlite("CREATE INDEX contacts_by_name ON contacts (name, id); PRAGMA user_version = \(schema);")
        #expect(box.carnetInProcess(["db", "check"]).stdout == "ok\n")
        // A table whose CHECKs were edited away.
        box.sqlite("""
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master SET sql = replace(sql, 'AND version >= 1', '') WHERE name = 'quotes';
            """)
        let changed = box.carnetInProcess(["db", "check"])
        #expect(changed.status == 69)
        #expect(changed.stdout.contains("table quotes is not defined as this schema defines it"), "\(changed)")
    }

    @Test func theRulesRefuseSpoofingCharactersAndNormaliseABOM() {
        #expect(box.carnetInProcess(["add", "--name", "\u{202E}gnp.exe"]).status == 65)
        #expect(box.carnetInProcess(["add", "--name", "Line\u{2028}Separator"]).status == 65)
        #expect(box.carnetInProcess(["add", "--name", "\u{200B}\u{200B}"]).stderr.contains("name: is required"))
        #expect(box.carnetInProcess(["add", "--name", "Ada", "--email", "ada\u{200B}@example.com"]).status == 65)
        #expect(box.carnetInProcess(["add", "--name", "\u{FEFF}Ada Lovelace"]).status == 0)
        #expect(box.carnetInProcess(["list"]).lines[1].hasPrefix("1\tAda Lovelace\t"))
    }
}
