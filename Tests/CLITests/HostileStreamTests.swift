import Foundation
import Testing

/// What a hostile file, an endless stream or a full disk does to Carnet: a clear error, nothing
/// lost, nothing half-written, nothing raw on a terminal.
@Suite struct HostileStreamTests {
    let box = Sandbox()

    // MARK: The id space

    /// An imported id at the top of the id space would leave no id for the next contact: every
    /// later add and import failed with "disk full", even after an undo.
    @Test func anImportedIdNeverExhaustsTheIdSpace() {
        let file = box.write("j.json", #"[{"name":"Huge","id":9223372036854775807,"uid":"huge"}]"#)
        let imported = box.carnetInProcess(["import", file])
        #expect(imported.status == 0, "\(imported)")
        let added = box.carnetInProcess(["add", "--name", "After"])
        #expect(added.status == 0, "\(added)")
        #expect(box.carnetInProcess(["undo"]).status == 0)
        #expect(box.carnetInProcess(["undo"]).status == 0)
        #expect(box.carnetInProcess(["add", "--name", "Again"]).status == 0)
        #expect(box.carnetInProcess(["db", "check"]).stdout == "ok\n")
    }

    /// A file already in that state (written by an earlier Carnet): `db check` names it, and
    /// `db repair` gives the contact with the id a fresh one and brings the counter back.
    @Test func aFileWhoseIdsRanOutIsNamedAndRepaired() {
        box.carnetInProcess(["add", "--name", "Ada", "--email", "ada@example.com"])
        box.carnetInProcess(["add", "--name", "Bob"])
        box.carnetInProcess(["favorite", "2"])
        let edit = box.sqlite("""
            PRAGMA foreign_keys = ON;
            BEGIN;
            PRAGMA defer_foreign_keys = ON;
            UPDATE contacts SET id = 9223372036854775807 WHERE id = 2;
            UPDATE favorites SET contact_id = 9223372036854775807 WHERE contact_id = 2;
            UPDATE sqlite_sequence SET seq = 9223372036854775807 WHERE name = 'contacts';
            COMMIT;
            """)
        #expect(edit.status == 0, "\(edit)")
        #expect(box.carnetInProcess(["add", "--name", "Stuck"]).status == 74)
        let check = box.carnetInProcess(["db", "check"])
        #expect(check.status == 69, "\(check)")
        #expect(check.stdout.contains("carnet db repair"), "\(check)")
        #expect(check.stdout.contains("9223372036854775807"), "\(check)")
        let repair = box.carnetInProcess(["db", "repair"])
        #expect(repair.status == 0, "\(repair)")
        #expect(box.carnetInProcess(["db", "check"]).stdout == "ok\n")
        let added = box.carnetInProcess(["add", "--name", "Cleo"])
        #expect(added.status == 0, "\(added)")
        let list = box.carnetInProcess(["list"]).stdout
        #expect(list.contains("Bob") && list.contains("Cleo") && !list.contains("9223372036854775807"), "\(list)")
        #expect(box.carnetInProcess(["favorites"]).stdout.contains("Bob"))
    }

    /// After an undo of such an import, only the counter is left too high; the repair lowers it.
    @Test func aCounterLeftTooHighAfterAnUndoIsRepaired() {
        box.carnetInProcess(["add", "--name", "Ada"])
        #expect(box.sqlite("UPDATE sqlite_sequence SET seq = 9223372036854775807 WHERE name = 'contacts'").status == 0)
        #expect(box.carnetInProcess(["db", "check"]).status == 69)
        #expect(box.carnetInProcess(["db", "repair"]).status == 0)
        let added = box.carnetInProcess(["add", "--name", "Bob"])
        #expect(added.status == 0 && added.stdout.contains("2"), "\(added)")
    }

    // MARK: Endless input

    /// `/dev/zero` on standard input grew without bound (vCard: an allocation failure, exit
    /// 134; JSON: gigabytes). The line limit applies while reading: exit 65 naming the line, in
    /// well under the 1 GB of address space the run is given.
    @Test(arguments: ["vcf", "csv", "json"])
    func endlessStandardInputIsRefusedAsItIsRead(format: String) {
        box.carnetInProcess(["add", "--name", "Ada"])
        let script = box.script("zero-\(format).sh", """
            ulimit -v 1000000
            exec timeout 300 "\(Sandbox.binary)" import - --format \(format) --db "\(box.db)" < /dev/zero
            """)
        let run = box.run(script, [])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr.hasPrefix("carnet: stdin:1: "), "\(run)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run)")
        #expect(box.carnetInProcess(["list"]).lines.count == 2)
    }

    /// A vdir whose card file is a FIFO made the import wait forever; one that is a symlink to
    /// `/dev/zero` read without end. Both are skipped, and named.
    @Test func aVdirsFIFOAndDeviceAreSkippedAndNamed() throws {
        let dir = box.path("vdir")
        box.write("vdir/a.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada\r\nUID:ada\r\nEND:VCARD\r\n")
        #expect(mkfifo(dir + "/x.vcf", 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: dir + "/z.vcf", withDestinationPath: "/dev/zero")
        let script = box.script("vdir.sh", """
            ulimit -v 1000000
            exec timeout 300 "\(Sandbox.binary)" import "\(dir)" --db "\(box.db)"
            """)
        let run = box.run(script, [])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("x.vcf: skipped, it is a FIFO"), "\(run)")
        #expect(run.stderr.contains("z.vcf: skipped, it is a device"), "\(run)")
        #expect(box.carnetInProcess(["list"]).stdout.contains("Ada"))
    }

    /// A card file of a vdir with an endless line: refused as it is read, naming the file.
    @Test func aVdirCardWithAnEndlessLineIsRefusedNamingItsFile() {
        box.carnetInProcess(["add", "--name", "Ada"])
        var text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bob\r\nNOTE:"
        text += String(repeating: "x", count: 9 << 20)
        box.write("vdir/b.vcf", text)
        let run = box.carnetInProcess(["import", box.path("vdir")])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr.contains("b.vcf:4: this line is longer than"), "\(run)")
        #expect(box.carnetInProcess(["list"]).lines.count == 2)
    }

    // MARK: A full disk

    /// A small tmpfs with `free` bytes left, or nil where this process may not mount one.
    func fullDisk(leaving free: Int) -> String? {
        let dir = box.path("full")
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        guard box.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]).status == 0 else { return nil }
        let filler = box.run("/bin/sh", ["-c", "head -c \(64 * 1024 - free) /dev/zero > '\(dir)/filler'"])
        _ = filler
        return dir
    }

    func unmount(_ dir: String) { _ = box.run("/bin/umount", [dir]) }

    /// A contact whose card is about 40 kB: more than the full disk holds.
    func addLargeContact() {
        box.carnetInProcess(["sample"])
        let note = String(repeating: "A long note that fills the disk. ", count: 300)
        #expect(box.carnetInProcess(["add", "--name", "Large", "--note", note]).status == 0)
    }

    /// Export to a full disk said "database unusable" (exit 69) or printed NSCocoaErrorDomain
    /// Code=640. It is exit 74 with one sentence, and nothing half-written stays.
    /// `--output` naming a device, a FIFO or a link is written through, never replaced: the
    /// export's temporary file is renamed over a regular file only (once over /dev/full). The
    /// device is reached through a link in the sandbox, so a regression replaces the link, not
    /// the machine's device.
    @Test func exportToADeviceAFIFOOrALinkWritesThroughIt() throws {
        addLargeContact()
        var info = stat()
        let device = box.path("full-device")
        #expect(symlink("/dev/full", device) == 0)
        let full = box.carnetInProcess(["export", "--output", device])
        #expect(full.status == 74, "\(full)")
        #expect(full.stderr.hasPrefix("carnet: cannot write \(device): the disk is full"), "\(full)")
        #expect(lstat(device, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK, "the link to /dev/full was replaced")

        let fifo = box.path("out.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = box.run("/bin/sh", ["-c", "timeout 20 cat '\(fifo)' > '\(box.path("from-fifo.vcf"))' & \"\(Sandbox.binary)\" export --db '\(box.db)' --output '\(fifo)'; wait"])
        #expect(reader.status == 0, "\(reader)")
        #expect(stat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        let through = try String(contentsOfFile: box.path("from-fifo.vcf"), encoding: .utf8)
        #expect(through.hasPrefix("BEGIN:VCARD") && through.hasSuffix("END:VCARD\r\n"))

        let real = box.write("dotfiles/contacts.vcf", "old\n")
        let link = box.path("contacts.vcf")
        #expect(symlink(real, link) == 0)
        #expect(box.carnetInProcess(["export", "--output", link]).status == 0)
        #expect(lstat(link, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK, "the link was replaced")
        #expect(try String(contentsOfFile: real, encoding: .utf8).hasPrefix("BEGIN:VCARD"))
    }

    @Test func exportToAFullDiskIsExit74AndLeavesNothingHalfWritten() throws {
        addLargeContact()
        // Standard output into /dev/full.
        let script = box.script("full.sh", "exec \"\(Sandbox.binary)\" export --format csv --db \"\(box.db)\" > /dev/full\n")
        let stdout = box.run(script, [])
        #expect(stdout.status == 74, "\(stdout)")
        #expect(stdout.stderr == "carnet: cannot write standard output: the disk is full; the export stopped part way. Free some space and try again\n", "\(stdout)")
        guard let dir = fullDisk(leaving: 8 * 1024) else {
            // Not root: the file and vdir cases need a small file system of their own.
            #expect(getuid() != 0, "root could not mount a tmpfs")
            return
        }
        defer { unmount(dir) }
        for format in ["vcf", "csv", "json"] {
            let run = box.carnetInProcess(["export", "--format", format, "--output", dir + "/out." + format])
            #expect(run.status == 74, "\(format): \(run)")
            #expect(run.stderr == "carnet: cannot write \(dir)/out.\(format): the disk is full; nothing was written. Free some space and try again\n", "\(run)")
            #expect(!run.stderr.contains("Cocoa") && !run.stderr.contains("CLIError"))
        }
        let vdir = box.carnetInProcess(["export", "--format", "vdir", dir + "/vdir"])
        #expect(vdir.status == 74, "\(vdir)")
        #expect(vdir.stderr.contains("the disk is full"), "\(vdir)")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(left == ["filler", "vdir"], "\(left)")
        // Whatever cards made it are whole; no temporary file stays.
        for name in try FileManager.default.contentsOfDirectory(atPath: dir + "/vdir") {
            #expect(!name.hasPrefix("."), "\(name)")
            let text = try String(contentsOfFile: dir + "/vdir/" + name, encoding: .utf8)
            #expect(text.hasSuffix("END:VCARD\r\n"), "\(name)")
        }
    }

    // MARK: Export on a terminal

    /// An unmodelled property holding an escape sequence was printed raw by `export` on a
    /// terminal: the screen cleared, the title changed. On a terminal export is as safe as
    /// `show`; into a pipe or file it stays byte-exact.
    @Test func exportOnATerminalShowsEscapesAndIntoAPipeStaysExact() {
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J"
        let card = box.write("evil.vcf", "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Evil\r\nUID:evil\r\nX-EVIL:\(hostile)\r\nEND:VCARD\r\n")
        #expect(box.carnetInProcess(["import", card]).status == 0)
        for format in ["vcf", "csv"] {
            let shown = box.carnetOnTerminal(["export", "--format", format])
            #expect(shown.status == 0, "\(shown)")
            #expect(!shown.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(format): \(shown)")
            #expect(shown.stdout.contains("X-EVIL:\\u{1B}]0;pwned\\u{7}\\u{1B}[2J"), "\(format): \(shown)")
            // Line breaks stay line breaks.
            let lines = String(String.UnicodeScalarView(shown.stdout.unicodeScalars.filter { $0 != "\r" }))
            #expect(lines.hasPrefix(format == "vcf" ? "BEGIN:VCARD\nVERSION:4.0\n" : "uid,name,"), "\(format): \(shown)")
            let piped = box.carnetInProcess(["export", "--format", format])
            #expect(piped.stdout.contains("X-EVIL:" + hostile), "\(format): \(piped)")
        }
        let file = box.path("out.vcf")
        #expect(box.carnetOnTerminal(["export", "--output", file]).status == 0)
        #expect((try? String(contentsOfFile: file, encoding: .utf8))?.contains("X-EVIL:" + hostile) == true)
    }

    // MARK: Messages that send people the right way

    /// A From: address over 1,000 characters said "search text must be at most 1000
    /// characters" (exit 64), a search the user never made. It is invalid data: exit 65.
    @Test func anOverlongSenderIsInvalidDataNotAnOverlongSearch() {
        box.carnetInProcess(["add", "--name", "Ada"])
        let address = String(repeating: "a", count: 1100) + "@example.com"
        let longName = String(repeating: "Ada ", count: 300)
        for (from, arguments) in [
            (address, ["add-email", "--yes"]), (address, ["add-email", "--to-contact", "1"]), ("\(longName) <\(address)>", ["add-email", "--yes"]),
        ] {
            let run = box.carnetInProcess(arguments, stdin: "From: \(from)\nSubject: hi\n\nbody\n")
            #expect(run.status == 65, "\(arguments): \(run.stderr.prefix(300))")
            #expect(!run.stderr.contains("search"), "\(run.stderr.prefix(300))")
            #expect(run.stderr.contains("email"), "\(run.stderr.prefix(300))")
        }
        // A long display name with a fair address still offers the address, without a search error.
        let fair = box.carnetInProcess(["add-email", "--yes"], stdin: "From: \(longName) <ada@example.com>\n\nbody\n")
        #expect(fair.status == 65 || fair.status == 0, "\(fair)")
        #expect(!fair.stderr.contains("search"), "\(fair)")
    }

    /// A 0-byte file given with --db to a reading command was silently made an address book.
    @Test func anEmptyFileGivenToAReadingCommandIsNotMadeAnAddressBook() {
        let empty = box.path("empty.sqlite")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        for arguments in [["list"], ["show", "1"], ["db", "info"], ["export"], ["favorites"]] {
            let run = box.carnetInProcess(arguments + ["--db", empty], useDB: false)
            #expect(run.status == 66, "\(arguments): \(run)")
            #expect(run.stderr.contains("empty"), "\(arguments): \(run)")
            #expect(FileManager.default.contents(atPath: empty)?.isEmpty == true, "\(arguments) wrote into the file")
        }
        // A writing command may still make the address book in it.
        #expect(box.carnetInProcess(["add", "--name", "Ada", "--db", empty], useDB: false).status == 0)
    }
}
