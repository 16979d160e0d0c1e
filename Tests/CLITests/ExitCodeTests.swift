import Foundation
import Testing

/// Every documented exit code, each with one clear line on stderr and no change to the file.
@Suite struct ExitCodeTests {
    let box = Sandbox()

    init() {
        box.carnet(["add", "--name", "Gary Edwards", "--email", "gary@example.com"])
    }

    @Test func aMissingOrUnreadableImportFileIs66WithTheReason() throws {
        let before = box.snapshot()
        let missing = box.carnet(["import", box.path("missing.vcf")])
        #expect(missing.status == 66, "\(missing)")
        #expect(missing.stderr == "carnet: cannot read \(box.path("missing.vcf")): no such file\n", "\(missing)")
        // Without a known extension too: the file is missing, not of an unknown format.
        let noExtension = box.carnet(["import", box.path("contacts")])
        #expect(noExtension.status == 66 && noExtension.stderr == "carnet: cannot read \(box.path("contacts")): no such file\n", "\(noExtension)")
        let folder = box.path("cards.vcf")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let directory = box.carnet(["import", folder])
        #expect(directory.status == 66, "\(directory)")
        #expect(directory.stderr == "carnet: cannot read \(folder): it is a directory without .vcf files (a vdir holds one card per .vcf file)\n", "\(directory)")
        if getuid() != 0 {  // root reads anything
            let locked = box.path("locked.vcf")
            _ = FileManager.default.createFile(atPath: locked, contents: Data(), attributes: [.posixPermissions: 0])
            let unreadable = box.carnet(["import", locked])
            #expect(unreadable.status == 66, "\(unreadable)")
            #expect(unreadable.stderr == "carnet: cannot read \(locked): Permission denied\n", "\(unreadable)")
        }
        #expect(box.snapshot() == before)
    }

    @Test func usageIs64() {
        let before = box.snapshot()
        for arguments in [["add"], ["list", "--limit", "0"], ["favorite", "1", "--at", "0"], ["show"], ["frobnicate"], ["edit", "1"], ["list", "--bogus"], ["show", "0"]] {
            let run = box.carnet(arguments)
            #expect(run.status == 64, "\(arguments): \(run)")
            #expect(!run.stderr.isEmpty)
        }
        #expect(box.snapshot() == before)
    }

    @Test func invalidDataIs65AndNamesTheField() {
        let before = box.snapshot()
        let cases: [([String], String)] = [
            (["add", "--name", "   "], "name"),
            (["add", "--name", "X", "--email", "nope"], "email"),
            (["add", "--name", "X", "--phone", "call me"], "phone"),
            (["edit", "1", "--email", "a@b"], "email"),
            (["add", "--name", String(repeating: "x", count: 201)], "name"),
            (["add", "--name", "Nul\u{1}Byte"], "name"),
        ]
        for (arguments, field) in cases {
            let run = box.carnet(arguments)
            #expect(run.status == 65, "\(arguments): \(run)")
            #expect(run.stderr.hasPrefix("carnet: invalid \(field):"), "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1)
        }
        let notImage = box.path("photo.txt")
        _ = FileManager.default.createFile(atPath: notImage, contents: Data("not an image".utf8))
        #expect(box.carnet(["edit", "1", "--photo", notImage]).status == 65)
        let huge = box.path("huge.png")
        _ = FileManager.default.createFile(atPath: huge, contents: tinyPNG + Data(count: 2_000_000))
        #expect(box.carnet(["edit", "1", "--photo", huge]).stderr.contains("photo"))
        #expect(box.snapshot() == before)
    }

    @Test func notFoundIs66() {
        let before = box.snapshot()
        for arguments in [["show", "42"], ["edit", "42", "--name", "X"], ["delete", "42", "--yes"], ["favorite", "42"], ["unfavorite", "42"], ["quote", "use", "42"]] {
            let run = box.carnet(arguments)
            #expect(run.status == 66, "\(arguments): \(run)")
            #expect(run.stderr.contains("42"))
        }
        #expect(box.snapshot() == before)
    }

    @Test func databaseUnusableIs69AndLeftUntouched() throws {
        let text = box.path("notes.txt")
        let notes = Data(String(repeating: "not a database\n", count: 100).utf8)
        _ = FileManager.default.createFile(atPath: text, contents: notes)
        let run = box.carnet(["list", "--db", text], useDB: false)
        #expect(run.status == 69)
        #expect(run.stderr.contains("not an SQLite database"))
        #expect(FileManager.default.contents(atPath: text) == notes)
        let directory = box.carnet(["list", "--db", box.dir.path], useDB: false)
        #expect(directory.status == 69)
        #expect(directory.stderr.contains("directory"))
    }

    @Test func newerDatabaseIsRefusedUntouched() throws {
        box.sqlite("INSERT INTO schema_migrations VALUES (99, '0099_future', 'x'); PRAGMA user_version = 99;")
        let before = box.snapshot()
        let run = box.carnet(["list"])
        #expect(run.status == 69)
        #expect(run.stderr.contains("newer Carnet"))
        #expect(box.snapshot() == before)
    }

    @Test func aRenamedMigrationRowIsNotCalledNewer() throws {
        box.sqlite("UPDATE schema_migrations SET name = '0001_renamed' WHERE version = 1;")
        let before = FileManager.default.contents(atPath: box.db)
        let run = box.carnet(["list"])
        #expect(run.status == 69, "\(run)")
        #expect(run.stderr.hasPrefix("carnet: ") && run.stderr.split(separator: "\n").count == 1, "\(run)")
        #expect(run.stderr.contains("0001_renamed") && run.stderr.contains("0001_initial"), "\(run)")
        #expect(run.stderr.contains("changed outside Carnet") && !run.stderr.contains("newer Carnet"), "\(run)")
        // The file is as sqlite3 left it; opening it to look leaves only SQLite's empty log beside it.
        #expect(FileManager.default.contents(atPath: box.db) == before)
        #expect(FileManager.default.contents(atPath: box.db + "-wal").map(\.isEmpty) ?? true)
    }

    @Test func sqlTextIsStoredVerbatim() {
        let name = "Robert'); DROP TABLE contacts;--"
        #expect(box.carnet(["add", "--name", name]).status == 0)
        #expect(box.carnet(["list"]).stdout.contains(name))
        #expect(box.carnet(["db", "check"]).stdout == "ok\n")
    }
}
