import Foundation
import TestNeeds
import Testing

/// What `--db` and `CARNET_DB` may point at: a mistyped path is an error, not a new empty book;
/// a file someone else could have planted, a FIFO or a device is refused at once.
@Suite struct DatabasePathTests {
    let box = Sandbox()

    /// What is in the sandbox directory (the files each run uses for its streams are gone by then).
    func entries() -> Set<String> {
        let enumerator = FileManager.default.enumerator(atPath: box.dir.path)
        return Set((enumerator?.allObjects as? [String]) ?? [])
    }

    func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? NSNumber)?.intValue ?? -1
    }

    @Test func readingCommandsRefuseAMissingBookAndCreateNothing() {
        let cards = box.path("cards.vcf")
        _ = FileManager.default.createFile(
            atPath: cards, contents: Data("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada Lovelace\r\nEND:VCARD\r\n".utf8))
        let before = entries()
        let reading: [[String]] = [
            [], ["list"], ["show", "1"], ["favorites"], ["quote"], ["quote", "list"], ["export"],
            ["export", "--format", "json", "--output", box.path("out.json")], ["import", cards, "--dry-run"],
            ["db", "check"], ["db", "info"], ["db", "backup", box.path("backup.sqlite")],
        ]
        for missing in [box.path("typo.sqlite"), box.path("nodir/sub/x.sqlite")] {
            for arguments in reading {
                let run = box.carnetInProcess(arguments + ["--db", missing], useDB: false)
                #expect(run.status == 66, "\(arguments): \(run)")
                #expect(run.stderr.hasPrefix("carnet: no address book at \(missing);"), "\(arguments): \(run)")
                #expect(run.stderr.split(separator: "\n").count == 1)
                #expect(run.stdout.isEmpty, "\(arguments): \(run)")
            }
            let fromEnvironment = box.carnetInProcess(["list"], environment: ["CARNET_DB": missing], useDB: false)
            #expect(fromEnvironment.status == 66 && fromEnvironment.stderr.contains("no address book at \(missing)"), "\(fromEnvironment)")
        }
        #expect(entries() == before)
        // `db path` never opens the file, so it still just prints it.
        #expect(box.carnetInProcess(["db", "path"]).stdout == box.db + "\n")
        #expect(box.carnetInProcess(["--help"], useDB: false).stdout.contains("no address book at the path"))
    }

    @Test func writingCommandsCreateAMissingBook() throws {
        let cards = box.path("cards.vcf")
        _ = FileManager.default.createFile(
            atPath: cards, contents: Data("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada Lovelace\r\nEND:VCARD\r\n".utf8))
        let writing: [([String], String)] = [
            (["add", "--name", "Ada"], "new/add.sqlite"),
            (["sample"], "new/sample.sqlite"),
            (["import", cards], "deeper/still/import.sqlite"),
            (["quote", "add", "--text", "Less is more."], "quote.sqlite"),
        ]
        for (arguments, name) in writing {
            let path = box.path(name)
            let run = box.carnetInProcess(arguments + ["--db", path], useDB: false)
            #expect(run.status == 0, "\(arguments): \(run)")
            #expect(FileManager.default.fileExists(atPath: path), "\(arguments) did not create \(path)")
            #expect(box.carnetInProcess(["db", "check", "--db", path], useDB: false).stdout == "ok\n")
        }
        let viaEnvironment = box.path("env.sqlite")
        #expect(box.carnetInProcess(["add", "--name", "Grace"], environment: ["CARNET_DB": viaEnvironment], useDB: false).status == 0)
        #expect(box.carnetInProcess(["list"], environment: ["CARNET_DB": viaEnvironment], useDB: false).stdout.contains("Grace"))
    }

    /// An import whose input is missing fails before the book is opened: a typo in the file's
    /// name does not leave an empty address book at a new --db path.
    @Test func anImportOfAMissingFileCreatesNoBook() {
        for arguments in [["import", box.path("missing.vcf")], ["import", box.path("missing-dir"), "--format", "vdir"]] {
            let path = box.path("new/import.sqlite")
            let run = box.carnetInProcess(arguments + ["--db", path], useDB: false)
            #expect(run.status == 66, "\(arguments): \(run)")
            #expect(run.stderr.contains("no such file") || run.stderr.contains("cannot read"), "\(run)")
            #expect(!FileManager.default.fileExists(atPath: path), "\(arguments) created \(path)")
            #expect(!FileManager.default.fileExists(atPath: box.path("new")), "\(arguments) made the folder")
        }
    }

    @Test func theDefaultBookIsCreatedOnFirstUseByAnyCommand() {
        // The sandbox's HOME is its directory and XDG_DATA_HOME is unset.
        let home = box.carnetInProcess([], useDB: false)
        #expect(home.status == 0, "\(home)")
        #expect(home.stdout.contains("Two things are infinite") && home.stdout.contains("0 contacts"), "\(home)")
        #expect(FileManager.default.fileExists(atPath: box.path(".local/share/carnet/carnet.sqlite")))
        let data = box.path("xdg")
        let list = box.carnetInProcess(["list"], environment: ["XDG_DATA_HOME": data], useDB: false)
        #expect(list.status == 0, "\(list)")
        #expect(FileManager.default.fileExists(atPath: data + "/carnet/carnet.sqlite"))
    }

    @Test func aNewBookIsPrivateEvenWithUmaskZero() {
        // Through a shell, so only that process has umask 0 (tests run in parallel in this one).
        let run = box.run("/bin/sh", ["-c", "umask 0 && exec \"$0\" add --name Ada", Sandbox.binary])
        #expect(run.status == 0, "\(run)")
        let book = box.path(".local/share/carnet/carnet.sqlite")
        for file in [book, book + "-wal", book + "-shm"] {
            #expect(mode(file) == 0o600, "\(file): \(String(mode(file), radix: 8))")
        }
        for directory in [".local", ".local/share", ".local/share/carnet"] {
            #expect(mode(box.path(directory)) == 0o700, "\(directory): \(String(mode(box.path(directory)), radix: 8))")
        }
    }

    @Test func filesOthersMayWriteAreRefusedUntouched() throws {
        #expect(box.carnetInProcess(["add", "--name", "Ada"]).status == 0)
        for planted in [box.db, box.db + "-wal", box.db + "-shm"] {
            #expect(FileManager.default.fileExists(atPath: planted))
            try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: planted)
            let before = [box.db, box.db + "-wal", box.db + "-shm"].map { FileManager.default.contents(atPath: $0) }
            for arguments in [["list"], ["add", "--name", "Grace"]] {
                let run = box.carnetInProcess(arguments)
                #expect(run.status == 69, "\(planted): \(run)")
                #expect(run.stderr.hasPrefix("carnet: refusing \(planted): group or others may write it (mode 0666)"), "\(run)")
                #expect(run.stderr.contains("chmod go-w"), "\(run)")
                #expect(run.stderr.split(separator: "\n").count == 1)
            }
            #expect([box.db, box.db + "-wal", box.db + "-shm"].map { FileManager.default.contents(atPath: $0) } == before)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: planted)
        }
        #expect(box.carnetInProcess(["list"]).stdout.contains("Ada"))
        // A log planted before the book exists stops its creation.
        let fresh = box.path("w.sqlite")
        _ = FileManager.default.createFile(atPath: fresh + "-wal", contents: nil, attributes: [.posixPermissions: 0o666])
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: fresh + "-wal")
        let run = box.carnetInProcess(["add", "--name", "Ada", "--db", fresh], useDB: false)
        #expect(run.status == 69 && run.stderr.contains("refusing \(fresh)-wal"), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: fresh))
    }

    @Test(.enabled(if: getuid() == 0, "needs root to give a file to another user"))
    func filesOfAnotherUserAreRefused() throws {
        #expect(box.carnet(["add", "--name", "Ada"]).status == 0)
        #expect(chown(box.db, 65534, 65534) == 0)
        let run = box.carnet(["list"])
        #expect(run.status == 69, "\(run)")
        #expect(run.stderr.hasPrefix("carnet: refusing \(box.db): it belongs to another user (uid 65534)"), "\(run)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test func specialFilesFailAtOnceAndNothingIsCreatedBesideThem() throws {
        let fifo = box.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [(fifo, "FIFO"), ("/dev/null", "device")] {
            for arguments in [["list"], ["add", "--name", "Ada"]] {
                let start = Date()
                // `timeout` kills a carnet that hangs, so a regression fails instead of hanging (KILL: the
                // test runner hands its children a signal mask that blocks TERM).
                let run = box.run(TestTool.path("timeout"), ["-s", "KILL", "10", Sandbox.binary] + arguments + ["--db", path])
                let seconds = Date().timeIntervalSince(start)
                #expect(run.status == 69, "\(path) \(arguments): \(run)")
                #expect(run.stderr.hasPrefix("carnet: cannot open \(path): it is a \(kind)"), "\(run)")
                #expect(run.stderr.split(separator: "\n").count == 1)
                #expect(seconds < 5, "\(path) \(arguments) took \(seconds) s")
            }
            for suffix in ["-wal", "-shm", "-journal"] {
                #expect(!FileManager.default.fileExists(atPath: path + suffix), "\(path + suffix) was created")
            }
        }
    }
}
