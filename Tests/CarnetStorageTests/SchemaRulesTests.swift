import SeededRandom
import CarnetModels
import Foundation
import GRDB
import Testing
@testable import CarnetStorage

/// Issue 11, part 2: the schema's CHECKs are as strict as the validation, value for value, and an
/// older file whose values break the stricter rules still opens, with every original kept.
@Suite struct SchemaRulesTests {
    let dir = TempDirectory()

    static let alphabet: [String] = [
        "a", "Z", "0", "7", "@", ".", " ", "+", "-", "(", ")", "!", "\t", "\n", "\u{0}", "\u{1B}", "\u{7}", "\u{7F}",
        "é", "e\u{301}", "\u{A0}", "\u{85}", "\u{9F}", "\u{AD}", "\u{200B}", "\u{200D}", "\u{200E}", "\u{202E}", "\u{2066}",
        "\u{2028}", "\u{2029}", "\u{2060}", "\u{3000}", "\u{FEFF}", "\u{E0041}", "漢", "🙂",
    ]

    /// Strings from a fixed seed, a third of them shaped like email addresses.
    struct Strings: Sequence, IteratorProtocol {
        var generator = SplitMix64(seed: 0x2545_F491_4F6C_DD1D)
        var remaining: Int
        mutating func next() -> String? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            func random(_ bound: Int) -> Int { generator.below(bound) }
            let plain = random(2) == 0
            let pool = plain ? Array(SchemaRulesTests.alphabet.prefix(12)) : SchemaRulesTests.alphabet
            func piece(_ length: Int) -> String { (0..<random(length)).map { _ in pool[random(pool.count)] }.joined() }
            return random(3) == 0 ? piece(4) + "@" + piece(4) + "." + piece(3) : piece(10)
        }
    }

    /// Whether SQLite accepts `value` in `column` (inserted raw, no Carnet code in between).
    func schemaAccepts(_ db: Database, _ column: String, _ value: DatabaseValueConvertible?) throws -> Bool {
        let stamp = "2026-01-02T03:04:05.678Z"
        var values: [String: DatabaseValueConvertible?] = [
            "uid": "u", "name": "Ada", "position": "", "email": "", "phone": "", "photo": nil,
            "created_at": stamp, "updated_at": stamp, "version": 1,
        ]
        var table = "contacts"
        if column == "text" || column == "author" {
            table = "quotes"
            values = ["text": "To be", "author": "", "is_current": 0, "created_at": stamp, "updated_at": stamp, "version": 1]
        }
        values[column] = value
        let columns = values.keys.sorted()
        // GRDB binds a String up to its first NUL; text goes in as UTF-8 bytes cast to TEXT, so
        // SQLite sees every byte, as it would from sqlite3.
        let placeholders = columns.map { values[$0]! is String ? "CAST(? AS TEXT)" : "?" }
        let arguments = columns.map { key -> DatabaseValueConvertible? in
            guard let text = values[key]! as? String else { return values[key]! }
            return Data(text.utf8)
        }
        do {
            try db.inSavepoint {
                try db.execute(
                    sql: "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders.joined(separator: ", ")))",
                    arguments: StatementArguments(arguments))
                return .rollback
            }
            return true
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            return false
        }
    }

    /// What the validation says of a value stored as it is (storage only ever stores normalized values).
    func rulesAccept(_ column: String, _ value: String) -> Bool {
        switch column {
        case "name", "position", "email", "phone":
            var draft = ContactDraft(name: "Ada")
            switch column {
            case "name": draft.name = value
            case "position": draft.position = value
            case "email": draft.email = value
            default: draft.phone = value
            }
            return draft.normalized() == draft && draft.issues().isEmpty
        case "uid":
            return UIDRule.issues(value).isEmpty
        case "text", "author":
            let draft = column == "text" ? QuoteDraft(text: value) : QuoteDraft(text: "To be", author: value)
            return draft.normalized() == draft && draft.issues().isEmpty
        default:
            fatalError(column)
        }
    }

    @Test func everyCheckAgreesWithTheValidation() throws {
        let storage = try StorageController.inMemory()
        var disagreements: [String] = []
        var accepted: [String: Int] = [:]
        try storage.writer.write { db in
            for value in Strings(remaining: 4000) {
                for column in ["name", "position", "email", "phone", "uid", "text", "author"] {
                    let rules = rulesAccept(column, value)
                    if try schemaAccepts(db, column, value) != rules {
                        disagreements.append("\(column) \(value.debugDescription): rules \(rules ? "accept" : "refuse")")
                    }
                    if rules { accepted[column, default: 0] += 1 }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
        // The generator reaches both answers for every column, or the comparison proves little.
        for column in ["name", "position", "email", "phone", "uid", "text", "author"] {
            #expect((200..<4000).contains(accepted[column] ?? 0), "\(column): \(accepted[column] ?? 0) accepted")
        }
    }

    @Test func lengthsPhotosTimestampsAndTypesAreCheckedToo() throws {
        let storage = try StorageController.inMemory()
        try storage.writer.write { db in try checkLengthsPhotosTimestampsAndTypes(db) }
    }

    func checkLengthsPhotosTimestampsAndTypes(_ db: Database) throws {
        do {
            let longest = String(repeating: "🙂", count: Limits.nameLength)
            #expect(try schemaAccepts(db, "name", longest))
            #expect(try !schemaAccepts(db, "name", longest + "a"))
            #expect(try !schemaAccepts(db, "name", Data("Ada".utf8)))  // a blob is not text
            #expect(try !schemaAccepts(db, "name", "Ada\u{0}\u{1B}[31m"))  // NUL cannot hide what follows
            #expect(try !schemaAccepts(db, "email", String(repeating: "a", count: 250) + "@b.cd"))
            #expect(try !schemaAccepts(db, "phone", String(repeating: "1", count: 41)))
            for (photo, ok) in [(pngBytes, true), (Data([0xFF, 0xD8, 0xFF, 0xE0]), true), (Data("GIF89a..".utf8), true),
                                (Data("RIFF\0\0\0\0WEBPVP8 ".utf8), true), (Data("junk".utf8), false), (Data(), false),
                                (pngBytes + Data(count: Limits.photoBytes), false)] {
                #expect(try schemaAccepts(db, "photo", photo) == ok, "\(photo.prefix(8).map { $0 })")
                #expect((ContactDraft(name: "Ada", photo: photo).issues().isEmpty) == ok || photo.isEmpty)
            }
            #expect(try !schemaAccepts(db, "photo", "not a blob"))
            #expect(try !schemaAccepts(db, "created_at", "yesterday"))
            #expect(try !schemaAccepts(db, "updated_at", "2026-01-02 03:04:05"))
            #expect(try !schemaAccepts(db, "version", "abc"))
            #expect(try !schemaAccepts(db, "version", 0))
            #expect(try !schemaAccepts(db, "text", String(repeating: "x", count: Limits.quoteTextLength + 1)))
            #expect(try schemaAccepts(db, "text", "Two\nlines"))
        }
    }

    /// A file from before schema 3 that holds what the new rules refuse: written with sqlite3 by
    /// hand, or by an older Carnet (a direction override in a name was allowed then).
    @Test func anOldFileWithValuesTheRulesNowRefuseOpensAndKeepsEveryOriginal() throws {
        let path = dir.path("old.sqlite")
        let old = try StorageController(path: path, options: StorageOptions(), migrations: Array(Migration.embedded.prefix(1)))
        let junk = Data("junk".utf8)
        try old.writer.write { db in
            let stamp = "2026-01-02T03:04:05.678Z"
            func add(_ id: Int, _ name: String, email: String = "", phone: String = "", photo: Data? = nil, created: String = stamp) throws {
                try db.execute(
                    sql: "INSERT INTO contacts (id, uid, name, email, phone, photo, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    arguments: [id, "uid-\(id)", name, email, phone, photo, created, stamp])
            }
            try add(1, "Mallory\u{1B}[2J\u{7}", email: "a b@c.de", phone: "!!!", photo: junk)
            try add(2, "\u{FEFF}Eve \u{202E}gnp.exe")
            try add(3, "\u{200B}\u{200B}")
            try add(4, "Fine Person", email: "fine@example.com", phone: "+1 555 0100", photo: pngBytes, created: "2026-01-02 03:04")
            try db.execute(sql: "INSERT INTO favorites (contact_id, position, created_at) VALUES (1, 1, ?)", arguments: [stamp])
            try db.execute(sql: "INSERT INTO quotes (text, author, created_at, updated_at) VALUES (CAST(? AS TEXT), 'A\u{2028}B', ?, ?)",
                           arguments: [Data("Line\u{2028}separated\u{0}".utf8), stamp, stamp])
        }
        try old.close()

        let storage = try StorageController(path: path)
        let contacts = Dictionary(uniqueKeysWithValues: try storage.allContacts().map { ($0.id, $0) })
        #expect(contacts.count == 4)
        #expect(contacts[1]?.name == "Mallory [2J")
        #expect(contacts[1].map { [$0.email, $0.phone] } == ["", ""])
        #expect(contacts[1]?.photo == nil)
        #expect(contacts[2]?.name == "Eve  gnp.exe")
        #expect(contacts[3]?.name == "Unnamed contact 3")
        #expect(contacts[4]?.draft == ContactDraft(name: "Fine Person", email: "fine@example.com", phone: "+1 555 0100", photo: pngBytes))
        #expect(contacts[4].map { Timestamp.string($0.createdAt) } == "2026-01-02T03:04:00.000Z")
        #expect(try storage.favorites().map(\.contact.id) == [1])
        let quote = try #require(try storage.quotes().last)
        #expect(quote.text == "Line\nseparated" && quote.author == "A B")
        for contact in contacts.values { #expect(contact.draft.issues().isEmpty) }
        try storage.close()

        // Every changed value, byte for byte, with what rule it broke.
        let queue = try DatabaseQueue(path: path)
        let kept = try queue.read { db in
            // CAST: GRDB reads text only up to a NUL, and the originals are compared byte for byte.
            try Row.fetchAll(db, sql: "SELECT table_name, row_id, column_name, CAST(original AS BLOB) AS original, rule FROM repaired_values ORDER BY id")
        }
        func original(_ table: String, _ id: Int, _ column: String) -> DatabaseValue? {
            kept.first { $0["table_name"] == table && $0["row_id"] == id && $0["column_name"] == column }?["original"]
        }
        #expect(original("contacts", 1, "name") == Data("Mallory\u{1B}[2J\u{7}".utf8).databaseValue)
        #expect(original("contacts", 1, "email") == Data("a b@c.de".utf8).databaseValue)
        #expect(original("contacts", 1, "phone") == Data("!!!".utf8).databaseValue)
        #expect(original("contacts", 1, "photo") == junk.databaseValue)
        #expect(original("contacts", 2, "name") == Data("\u{FEFF}Eve \u{202E}gnp.exe".utf8).databaseValue)
        #expect(original("contacts", 3, "name") == Data("\u{200B}\u{200B}".utf8).databaseValue)
        #expect(original("contacts", 4, "created_at") == Data("2026-01-02 03:04".utf8).databaseValue)
        #expect(original("quotes", 2, "text") == Data("Line\u{2028}separated\u{0}".utf8).databaseValue)
        #expect(kept.allSatisfy { !($0["rule"] as String).isEmpty })
        #expect(kept.count == 9)
    }
}

