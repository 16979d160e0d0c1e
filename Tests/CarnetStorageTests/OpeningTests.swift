import CarnetModels
import Foundation
import GRDB
import Synchronization
import Testing
@testable import CarnetStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What happens when the file is not what Carnet expects: each refusal leaves it byte for byte.
@Suite struct OpeningTests {
    let dir = TempDirectory()

    /// How the `carnet` command opens a file. A pool opened on a file without a write-ahead log
    /// writes GRDB's empty set-up transaction into it before Carnet can look at the schema, so
    /// the byte-for-byte checks of refusals found only after opening use one connection.
    static let oneConnection = StorageOptions(connections: .single)

    /// A Carnet file at the current schema, closed (checkpointed), ready to be tampered with.
    func makeDatabase(_ name: String = "book.sqlite", contacts: Int = 3) throws -> String {
        let path = dir.path(name)
        let storage = try StorageController(path: path)
        for i in 0..<contacts { try storage.insertContact(ContactDraft(name: "Person \(i)")) }
        try storage.close()
        return path
    }

    /// A Carnet file (see ``makeDatabase(_:contacts:)``) into which `tamper` then writes through a
    /// plain connection, as another program would, closed again.
    func makeDatabase(tamperedWith tamper: (Database) throws -> Void) throws -> String {
        let path = try makeDatabase()
        let queue = try DatabaseQueue(path: path)
        try queue.write(tamper)
        try queue.close()
        return path
    }

    @Test func newerSchemaIsRefusedAndLeftUntouched() throws {
        let path = try makeDatabase { db in
            try db.execute(sql: "INSERT INTO schema_migrations VALUES (99, '0099_future', 'x')")
            try db.execute(sql: "PRAGMA user_version = 99")
        }
        let before = bytes(path)
        let error = carnetError { try StorageController(path: path) }
        #expect(error == .newerSchema(path: path, found: 99, supported: StorageController.supportedSchemaVersion))
        #expect(error.map { "\($0)" }?.contains("newer Carnet") == true)
        #expect(bytes(path) == before)
    }

    /// Another application's SQLite file with a high `user_version` was reported as "written by
    /// a newer Carnet… upgrade Carnet". Carnet marks its files with `PRAGMA application_id`
    /// (schema 12, also on files made before), so the two are told apart.
    @Test func anotherApplicationsFileWithAHighUserVersionIsNotANewerCarnet() throws {
        let path = dir.path("other.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE notes (body TEXT)")
            try db.execute(sql: "PRAGMA user_version = 42")
        }
        try queue.close()
        let before = bytes(path)
        let error = carnetError { try StorageController(path: path) }
        #expect(error == .notCarnetDatabase(path: path))
        #expect(bytes(path) == before)
        // Another application's mark, whatever its user_version.
        let marked = dir.path("marked.sqlite")
        let other = try DatabaseQueue(path: marked)
        try other.write { db in
            try db.execute(sql: "CREATE TABLE notes (body TEXT)")
            try db.execute(sql: "PRAGMA application_id = 1234")
        }
        try other.close()
        #expect(carnetError { try StorageController(path: marked) } == .notCarnetDatabase(path: marked))
        // Carnet's own files carry the mark.
        let own = try makeDatabase("own.sqlite")
        let check = try DatabaseQueue(path: own)
        #expect(try check.read { db in try Int.fetchOne(db, sql: "PRAGMA application_id") } == Int(StorageController.applicationID))
        try check.close()
    }

    @Test func unknownMigrationAloneAlsoMeansNewer() throws {
        let next = StorageController.supportedSchemaVersion + 1
        let path = try makeDatabase { db in
            try db.execute(sql: "INSERT INTO schema_migrations VALUES (?, ?, 'x')", arguments: [next, String(format: "%04d_from_a_fork", next)])
        }
        let before = bytes(path)
        #expect(carnetError { try StorageController(path: path, options: Self.oneConnection) } == .newerSchema(path: path, found: next, supported: next - 1))
        #expect(bytes(path) == before)
    }

    @Test func aRenamedMigrationRowIsReportedAsChangedOutsideCarnet() throws {
        let path = try makeDatabase { db in try db.execute(sql: "UPDATE schema_migrations SET name = '0001_renamed' WHERE version = 1") }
        let before = bytes(path)
        let error = carnetError { try StorageController(path: path, options: Self.oneConnection) }
        #expect(error == .schemaRecordChanged(path: path, version: 1, found: "0001_renamed", expected: "0001_initial"))
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains("changed outside Carnet") && !message.contains("newer"), "\(message)")
        #expect(bytes(path) == before)
    }

    @Test func aMigrationRowAtAVersionCarnetNeverHadIsReportedToo() throws {
        let path = try makeDatabase { db in try db.execute(sql: "INSERT INTO schema_migrations VALUES (0, '0000_by_hand', 'x')") }
        let before = bytes(path)
        #expect(carnetError { try StorageController(path: path, options: Self.oneConnection) } == .schemaRecordChanged(path: path, version: 0, found: "0000_by_hand", expected: nil))
        #expect(bytes(path) == before)
    }

    @Test func nonSQLiteFileIsRefusedAndLeftUntouched() throws {
        let path = dir.path("notes.txt")
        let text = Data(String(repeating: "Dear diary, this is not a database.\n", count: 50).utf8)
        #expect(FileManager.default.createFile(atPath: path, contents: text))
        #expect(carnetError { try StorageController(path: path) } == .notADatabase(path: path))
        #expect(bytes(path).data == text)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func foreignSQLiteDatabaseIsRefusedAndLeftUntouched() throws {
        let path = dir.path("other.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('soup')") }
        try queue.close()
        let before = bytes(path)
        #expect(carnetError { try StorageController(path: path) } == .notCarnetDatabase(path: path))
        #expect(bytes(path) == before)
    }

    @Test func directoryIsRefused() throws {
        guard case .cannotOpen = carnetError({ try StorageController(path: dir.url.path) }) else {
            Issue.record("expected cannotOpen")
            return
        }
    }

    @Test func truncatedDatabaseIsRefused() throws {
        let path = try makeDatabase(contacts: 500)
        let full = bytes(path).data
        try full.prefix(60).write(to: URL(fileURLWithPath: path))
        #expect(carnetError { try StorageController(path: path) } == .corrupt(path: path, detail: "the file is truncated"))
        try full.prefix(full.count / 2).write(to: URL(fileURLWithPath: path))
        let error = carnetError { () throws -> Int in
            let storage = try StorageController(path: path)
            return try storage.allContacts().count
        }
        guard case .corrupt = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
    }

    @Test func failingMigrationLeavesTheFileExactlyAsItWas() throws {
        let path = try makeDatabase()
        let before = bytes(path)
        let broken = Migration.embedded + [
            Migration(version: 99, name: "0099_broken", sql: """
                CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
                ALTER TABLE contacts ADD COLUMN pager TEXT;
                INSERT INTO no_such_table VALUES (1);
                """)
        ]
        let error = carnetError { try StorageController(path: path, options: StorageOptions(), migrations: broken) }
        guard case let .migrationFailed(_, migration, detail) = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(migration == "0099_broken")
        #expect(detail.contains("no_such_table"))
        #expect(bytes(path) == before)
        let storage = try StorageController(path: path)
        #expect(try storage.info().migrations == Migration.embedded.map(\.name))
        #expect(try storage.contactCount() == 3)
    }

    @Test func failingFirstMigrationLeavesANewFileEmpty() throws {
        let path = dir.path("new.sqlite")
        let broken = [Migration(version: 1, name: "0001_broken", sql: "CREATE TABLE a (x); SELECT * FROM nowhere;")]
        #expect(carnetError { try StorageController(path: path, options: StorageOptions(), migrations: broken) } != nil)
        let queue = try DatabaseQueue(path: path)
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") } == 0)
    }

    /// A write-ahead log deleted while a program had the book open (a clean-up script, a
    /// person tidying the folder): the next reader meets SQLite's bare "disk I/O error", which
    /// says nothing of the cause. The message names the log and what to do.
    @Test func aLogDeletedUnderAnOpenBookIsNamed() throws {
        let path = try makeDatabase()
        let open = try StorageController(path: path, options: Self.oneConnection)
        try open.insertContact(ContactDraft(name: "Written after the checkpoint"))
        try FileManager.default.removeItem(atPath: path + "-wal")
        let error = carnetError { _ = try StorageController(path: path, options: Self.oneConnection).allContacts() }
        guard case let .database(message)? = error else {
            Issue.record("expected the log named, got \(String(describing: error))")
            return
        }
        #expect(message.contains(path + "-wal") && message.contains("deleted"), "\(message)")
        #expect(message.contains("close"), "\(message)")
        // As the message says: once the program that had it open closes, nothing is lost.
        try open.close()
        #expect(try StorageController(path: path, options: Self.oneConnection).allContacts().count == 4)
    }

    @Test func readOnlyDatabaseRefusesWritesClearly() throws {
        guard getuid() != 0 else { return }  // root ignores file modes; the CLI tests cover this as a user
        let path = try makeDatabase()
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: path)
        let storage = try StorageController(path: path)
        #expect(carnetError { try storage.insertContact(ContactDraft(name: "X")) } == .readOnly(path: path))
    }

    // MARK: - Paths that are not a usable file

    @Test func missingFileIsNotCreatedWhenAskedNotTo() throws {
        for name in ["typo.sqlite", "nodir/sub/book.sqlite"] {
            let path = dir.path(name)
            let error = carnetError { try StorageController(path: path, options: StorageOptions(createIfMissing: false)) }
            #expect(error == .noDatabase(path: path))
            #expect(error.map { "\($0)" }?.hasPrefix("no address book at \(path)") == true)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == [])
        // The same option opens an existing book as usual.
        let path = try makeDatabase()
        #expect(try StorageController(path: path, options: StorageOptions(createIfMissing: false)).contactCount() == 3)
    }

    @Test func specialFilesAreRefusedAtOnceAndNothingIsCreatedBesideThem() throws {
        let fifo = dir.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let socket = dir.path("socket")
        let socketFD = try bindUnixSocket(socket)
        defer { close(socketFD) }
        let cases: [(String, String)] = [
            (fifo, "FIFO"), ("/dev/null", "device"), (socket, "socket"), (dir.url.path, "directory"),
        ]
        for (path, kind) in cases {
            for create in [true, false] {
                let (error, seconds) = openingError(path, options: StorageOptions(createIfMissing: create))
                guard case let .cannotOpen(_, reason)? = error else {
                    Issue.record("\(path): expected cannotOpen, got \(String(describing: error))")
                    continue
                }
                #expect(reason.contains(kind), "\(reason)")
                #expect(seconds < 2, "\(path) took \(seconds) s")
            }
            for suffix in ["-wal", "-shm", "-journal"] {
                #expect(!FileManager.default.fileExists(atPath: path + suffix), "\(path + suffix) was created")
            }
        }
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.url.path)) == ["fifo", "socket"])
    }

    // MARK: - Files someone else could have planted

    @Test func filesOthersMayWriteAreRefusedUntouched() throws {
        let path = try makeDatabase()
        for planted in [path, path + "-wal", path + "-shm"] {
            if planted != path { #expect(FileManager.default.createFile(atPath: planted, contents: nil)) }
            #expect(chmod(planted, 0o666) == 0)
            let before = [path, path + "-wal", path + "-shm"].map(bytes)
            for create in [true, false] {
                let error = carnetError { try StorageController(path: path, options: StorageOptions(createIfMissing: create)) }
                #expect(error == .unsafeFile(path: planted, reason: .writableByOthers(mode: 0o666)), "\(planted)")
                #expect(error.map { "\($0)" }?.contains("chmod go-w") == true)
            }
            #expect([path, path + "-wal", path + "-shm"].map(bytes) == before)
            if planted == path { #expect(chmod(path, 0o600) == 0) } else { try? FileManager.default.removeItem(atPath: planted) }
        }
        #expect(try StorageController(path: path).contactCount() == 3)
    }

    @Test func aPlantedLogBesideAMissingFileStopsItsCreation() throws {
        let path = dir.path("w.sqlite")
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data("planted".utf8)))
        #expect(chmod(path + "-wal", 0o666) == 0)
        #expect(carnetError { try StorageController(path: path) } == .unsafeFile(path: path + "-wal", reason: .writableByOthers(mode: 0o666)))
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }

    @Test func symbolicLinksAreFineForTheFileButNotForItsLog() throws {
        let path = try makeDatabase()
        let link = dir.path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        #expect(try StorageController(path: link, options: StorageOptions(connections: .single)).contactCount() == 3)
        try? FileManager.default.removeItem(atPath: path + "-shm")  // a single connection leaves it, empty
        let elsewhere = dir.path("elsewhere")
        #expect(FileManager.default.createFile(atPath: elsewhere, contents: Data("mine".utf8), attributes: [.posixPermissions: 0o600]))
        try FileManager.default.createSymbolicLink(atPath: path + "-shm", withDestinationPath: elsewhere)
        #expect(carnetError { try StorageController(path: link) } == .unsafeFile(path: path + "-shm", reason: .symbolicLink))
        #expect(bytes(elsewhere).data == Data("mine".utf8))
        let dangling = dir.path("dangling.sqlite")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: dir.path("nowhere/x.sqlite"))
        guard case .cannotOpen = carnetError({ try StorageController(path: dangling) }) else {
            Issue.record("expected cannotOpen for a dangling symbolic link")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("nowhere")))
    }

    @Test(.enabled(if: getuid() == 0, "needs root to give a file to another user"))
    func filesOfAnotherUserAreRefused() throws {
        let path = try makeDatabase()
        for planted in [path, path + "-wal", path + "-shm"] {
            if planted != path { #expect(FileManager.default.createFile(atPath: planted, contents: nil, attributes: [.posixPermissions: 0o600])) }
            #expect(chown(planted, 65534, 65534) == 0)
            let before = bytes(planted)
            #expect(carnetError { try StorageController(path: path) } == .unsafeFile(path: planted, reason: .ownedByAnotherUser(uid: 65534)))
            #expect(bytes(planted) == before)
            if planted == path { #expect(chown(path, 0, 0) == 0) } else { try? FileManager.default.removeItem(atPath: planted) }
        }
        #expect(try StorageController(path: path).contactCount() == 3)
    }

    @Test func aNewBookAndItsLogAreReadableByItsOwnerOnly() throws {
        for connections in [StorageOptions.Connections.single, .pool] {
            let path = dir.path("new-\(connections).sqlite")
            let storage = try StorageController(path: path, options: StorageOptions(connections: connections))
            try storage.insertContact(ContactDraft(name: "Ada"))
            for file in [path, path + "-wal", path + "-shm"] {
                var info = stat()
                #expect(stat(file, &info) == 0, "\(file) is missing")
                #expect(info.st_mode & 0o777 == 0o600, "\(file): \(String(info.st_mode & 0o777, radix: 8))")
            }
            try storage.close()
        }
    }

    /// `mappedBytes` (what `carnet query` opens with) has SQLite read the file through a memory
    /// map, and reads the same contacts; the default copies every page into SQLite's cache.
    @Test func aMappedOpeningReadsThroughAMap() throws {
        let path = try makeDatabase()
        let mapped = try StorageController(path: path, options: StorageOptions(connections: .single, mappedBytes: 1 << 20))
        #expect(try mapped.read { db in try Int.fetchOne(db, sql: "PRAGMA mmap_size") } == 1 << 20)
        #expect(try mapped.contactCount() == 3)
        try mapped.close()
        let copied = try StorageController(path: path, options: Self.oneConnection)
        #expect(try copied.read { db in try Int.fetchOne(db, sql: "PRAGMA mmap_size") } == 0)
        try copied.close()
    }

    /// Opens `path` on another thread and waits at most a few seconds: a FIFO blocks whoever
    /// opens it for reading, and a test that hangs reports nothing.
    func openingError(_ path: String, options: StorageOptions) -> (CarnetError?, Double) {
        let outcome = Mutex<CarnetError??>(nil)
        let done = DispatchSemaphore(value: 0)
        let start = Date()
        Thread.detachNewThread {
            let error = carnetError { try StorageController(path: path, options: options) }
            outcome.withLock { $0 = .some(error) }
            done.signal()
        }
        guard done.wait(timeout: .now() + 5) == .success else {
            return (.database("still opening \(path) after 5 s"), 5)
        }
        return (outcome.withLock { $0 } ?? nil, Date().timeIntervalSince(start))
    }

    /// A listening Unix domain socket at `path` (its descriptor; close it when done).
    func bindUnixSocket(_ path: String) throws -> Int32 {
        #if canImport(Glibc)
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = Darwin.socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        try #require(fd >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0, "bind: \(String(cString: strerror(errno)))")
        return fd
    }
}
