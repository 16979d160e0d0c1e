import Foundation
import TestNeeds
import Testing

/// Broken and hostile input: each gets a clear error, a non-zero exit, and leaves the database
/// byte for byte as it was.
@Suite struct HostileInputTests {
    let box = Sandbox()

    init() {
        box.carnetInProcess(["add", "--name", "Madison Thompson", "--email", "madison@example.com"])
        box.carnetInProcess(["favorite", "1"])
    }

    @Test func hugeFields() {
        // Linux caps one argument at 128 KiB, so the largest possible flag value is just under it…
        let large = String(repeating: "x", count: 131_000)
        box.expectRefused(["add", "--name", large], 65, mentioning: "name: must be at most 200")
        // --position is title and organization in one: the part too long is named.
        box.expectRefused(["edit", "1", "--position", large], 65, mentioning: "title: must be at most 200")
        box.expectRefused(["edit", "1", "--note", large], 65, mentioning: "note: must be at most 10000")
        box.expectRefused(["edit", "1", "--category", large], 65, mentioning: "category: 1 (xxxx")
        box.expectRefused(["edit", "1", "--address", "home:" + large], 65, mentioning: "address: 1 (")
        box.expectRefused(["edit", "1", "--email", large + "@example.com"], 65, mentioning: "email")
        box.expectRefused(["quote", "edit", "--text", large], 65, mentioning: "text: must be at most 2000")
        // …and 1 MB fields arrive through the prompts (or the editor): refused, nothing saved.
        let before = box.snapshot()
        let megabyte = String(repeating: "y", count: 1_048_576)
        let run = box.carnetInProcess(["edit", "1", "--prompt"], stdin: "\(megabyte)\n")
        #expect(run.status == 1)
        #expect(run.stderr.contains("name must be at most 200 characters (got 1048576)"))
        #expect(box.snapshot() == before)
    }

    @Test func controlCharactersAndInvalidUTF8() throws {
        box.expectRefused(["add", "--name", "Tab\there"], 65, mentioning: "control characters")
        box.expectRefused(["edit", "1", "--phone", "555\u{7F}"], 65, mentioning: "phone")
        // Invalid UTF-8 cannot be written as a Swift string: pass raw bytes through the shell.
        let before = box.snapshot()
        let run = box.run("/bin/sh", ["-c", "\"\(Sandbox.binary)\" add --name \"$(printf 'Bad\\377Name')\" --db \"\(box.db)\""])
        #expect(run.status == 64)
        #expect(run.stderr.contains("not valid UTF-8"))
        #expect(box.snapshot() == before)
    }

    @Test func badNumbers() {
        box.expectRefused(["list", "--limit=-5"], 64, mentioning: "--limit")
        box.expectRefused(["list", "--limit", "-5"], 64, mentioning: "--limit must be 1 or more (got -5)")
        box.expectRefused(["list", "--limit", "99999999999999999999999"], 64, mentioning: "limit")
        box.expectRefused(["favorite", "1", "--at=-1"], 64, mentioning: "--at")
        box.expectRefused(["favorite", "1", "--at", "-1"], 64, mentioning: "--at must be 1 or more (got -1)")
        box.expectRefused(["favorite", "1", "--at", "1000000"], 65, mentioning: "between 1 and 1")
        box.expectRefused(["show", "99999999999999999999"], 64, mentioning: "id")
        box.expectRefused(["show", "-3"], 64, mentioning: "argument")
        box.expectRefused(["quote", "use", "0"], 64, mentioning: "positive")
    }

    @Test func overlongSearchIsAUsageErrorNotADamagedDatabase() {
        let huge = String(repeating: "x", count: 50_000)
        box.expectRefused(["list", "--search", huge], 64, mentioning: "carnet: search text must be at most 1000 characters (got 50000)")
        box.expectRefused(["list", "--favorites", "--search", huge], 64, mentioning: "at most 1000 characters")
        // In the interactive session it is an error line; the session and its list carry on.
        let run = box.carnetInProcess(["interactive"], stdin: "search \(huge)\nlist\nsearch madison\nquit\n")
        #expect(run.status == 0, "\(run.stderr.prefix(300))")
        #expect(run.stdout.contains("error: search text must be at most 1000 characters (got 50000)\n"), "\(run.stdout.prefix(2000))")
        #expect(!run.stdout.contains("database"), "\(run.stdout.prefix(2000))")
        #expect(run.stdout.components(separatedBy: "search: madison").count == 2)
        // Empty is still "no filter".
        #expect(box.carnetInProcess(["list", "--search", ""]).lines.count == 2)
    }

    @Test func photosThatAreNotSmallImages() {
        let text = box.path("notes.txt")
        _ = FileManager.default.createFile(atPath: text, contents: Data("hello".utf8))
        box.expectRefused(["edit", "1", "--photo", text], 65, mentioning: "photo: must be a JPEG, PNG, GIF or WebP")
        let big = box.path("big.png")
        _ = FileManager.default.createFile(atPath: big, contents: tinyPNG + Data(count: 1_048_576))
        box.expectRefused(["edit", "1", "--photo", big], 65, mentioning: "photo: must be at most 1048576 bytes")
        box.expectRefused(["edit", "1", "--photo", box.path("missing.jpg")], 65, mentioning: "no such file")
        box.expectRefused(["edit", "1", "--photo", box.dir.path], 65, mentioning: "photo")
    }

    @Test func damagedDatabases() throws {
        let good = try #require(FileManager.default.contents(atPath: box.db))
        // Truncated to a header's worth.
        let truncated = box.path("truncated.sqlite")
        _ = FileManager.default.createFile(atPath: truncated, contents: good.prefix(50))
        let run = box.carnetInProcess(["list", "--db", truncated], useDB: false)
        #expect(run.status == 69 && run.stderr.contains("truncated"), "\(run)")
        // Garbage written over the pages after the header.
        var garbage = good
        garbage.replaceSubrange(200..<good.count, with: Data(repeating: 0xA5, count: good.count - 200))
        let corrupted = box.path("corrupted.sqlite")
        _ = FileManager.default.createFile(atPath: corrupted, contents: garbage)
        let corrupt = box.carnetInProcess(["list", "--db", corrupted], useDB: false)
        #expect(corrupt.status == 69, "\(corrupt)")
        #expect(corrupt.stderr.contains("damaged") || corrupt.stderr.contains("not an SQLite"), "\(corrupt)")
        #expect(FileManager.default.contents(atPath: corrupted) == garbage)
    }

    @Test(.enabled(if: getuid() == 0, "needs root to switch to an unprivileged user"))
    func readOnlyFileAndDirectory() throws {
        // Root ignores file modes, so run carnet as `nobody`, who may read but not write.
        let shared = box.path("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let db = shared + "/book.sqlite"
        box.carnet(["add", "--name", "Ada", "--db", db], useDB: false)
        for item in [box.dir.path, shared] { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: item) }
        for file in try FileManager.default.contentsOfDirectory(atPath: shared) {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: shared + "/" + file)
        }
        let binary = box.path("carnet")
        try FileManager.default.copyItem(atPath: Sandbox.binary, toPath: binary)
        func asNobody(_ arguments: [String]) -> Run {
            box.run(TestTool.path("setpriv"), ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + arguments)
        }
        let before = [db, db + "-wal"].map { FileManager.default.contents(atPath: $0) }
        let write = asNobody(["add", "--name", "Grace", "--db", db])
        #expect(write.status == 69, "\(write)")
        #expect(write.stderr.contains("cannot be written"), "\(write)")
        let read = asNobody(["list", "--db", db])
        #expect(read.status == 0 && read.stdout.contains("Ada"), "\(read)")  // reading still works
        let create = asNobody(["add", "--name", "Grace", "--db", shared + "/new.sqlite"])
        #expect(create.status == 69 && create.stderr.contains("cannot be written"), "\(create)")
        #expect([db, db + "-wal"].map { FileManager.default.contents(atPath: $0) } == before)
    }

    @Test(.enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
    func fullDiskDuringAWrite() throws {
        let mountPoint = box.path("small")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        // Room for a new book (the file is about 350 KiB, and the log of its migrations about
        // 1 MiB before it is folded in) and a few photos, not for sixteen.
        let mount = box.run("/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", mountPoint])
        try #require(mount.status == 0, "cannot mount a tmpfs: \(mount.stderr)")
        defer { _ = box.run("/bin/umount", [mountPoint]) }
        let db = mountPoint + "/book.sqlite"
        #expect(box.carnet(["add", "--name", "Ada", "--db", db], useDB: false).status == 0)
        let photo = box.path("big.png")
        _ = FileManager.default.createFile(atPath: photo, contents: tinyPNG + Data(count: 300_000))
        var full: Run?
        for i in 0..<16 {
            let run = box.carnet(["add", "--name", "Big \(i)", "--photo", photo, "--db", db], useDB: false)
            if run.status != 0 { full = run; break }
        }
        let refused = try #require(full, "the disk never filled")
        #expect(refused.status == 74, "\(refused)")
        #expect(refused.stderr.contains("disk") && refused.stderr.contains("full"))
        #expect(box.carnet(["db", "check", "--db", db], useDB: false).stdout == "ok\n")
        #expect(box.carnet(["list", "--db", db], useDB: false).stdout.contains("Ada"))
    }
}
