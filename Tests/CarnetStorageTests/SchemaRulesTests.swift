import SeededRandom
import CarnetModels
import Foundation
import GRDB
import TestNeeds
import Testing
@testable import CarnetStorage

/// The schema's CHECKs are as strict as the validation, value for value, and an older file whose
/// values break the stricter rules still opens, with every original kept; the same for schema
/// 4's new columns and child tables (labels, emails, phones, URLs,
/// handles, address parts, dates, categories, unmodelled properties) and for the rules that span
/// rows (one preferred entry, a category once per contact).
@Suite struct SchemaRulesTests {
    let dir = TempDirectory()

    static let alphabet: [String] = [
        "a", "Z", "0", "7", "@", ".", " ", "+", "-", "(", ")", "!", "\t", "\n", "\u{0}", "\u{1B}", "\u{7}", "\u{7F}",
        "é", "e\u{301}", "\u{A0}", "\u{85}", "\u{9F}", "\u{AD}", "\u{200B}", "\u{200D}", "\u{200E}", "\u{202E}", "\u{2066}",
        "\u{2028}", "\u{2029}", "\u{2060}", "\u{3000}", "\u{FEFF}", "\u{E0041}", "漢", "🙂",
    ]

    /// Strings from a fixed seed, a third of them shaped like email addresses. `allPlain`: only
    /// printable ASCII (half the strings are, otherwise): emails and phones that pass.
    static func strings(seed: UInt64 = 0x2545_F491_4F6C_DD1D, count: Int, allPlain: Bool = false) -> SeededValues<String> {
        SeededValues(seed: seed, count: count) { generator in
            func random(_ bound: Int) -> Int { generator.below(bound) }
            let plain = allPlain || random(2) == 0
            let pool = plain ? Array(SchemaRulesTests.alphabet.prefix(12)) : SchemaRulesTests.alphabet
            func piece(_ length: Int) -> String { (0..<random(length)).map { _ in pool[random(pool.count)] }.joined() }
            return random(3) == 0 ? piece(4) + "@" + piece(4) + "." + piece(3) : piece(10)
        }
    }

    static let stamp = "2026-01-02T03:04:05.678Z"

    /// A row each table accepts, into which one column's value is put. Child rows belong to the
    /// contact with id 1 (``withFixture(_:)`` makes it).
    nonisolated(unsafe) static let baseRows: [String: [String: DatabaseValueConvertible?]] = described.reduce(into: [
        "contacts": ["uid": "u", "name": "Ada", "photo": nil, "created_at": stamp, "updated_at": stamp, "version": 1],
        "quotes": ["text": "To be", "author": "", "is_current": 0, "created_at": stamp, "updated_at": stamp, "version": 1],
        "contact_emails": ["contact_id": 1, "position": 1, "label": "", "value": "ada@example.com", "preferred": 0],
        "contact_phones": ["contact_id": 1, "position": 1, "label": "", "value": "555 0100", "preferred": 0],
        "contact_urls": ["contact_id": 1, "position": 1, "label": "", "value": "https://example.com", "preferred": 0],
        "contact_handles": ["contact_id": 1, "position": 1, "label": "", "value": "@ada", "preferred": 0],
        "contact_addresses": ["contact_id": 1, "position": 1, "label": "", "street": "1 Main St", "locality": "Springfield", "preferred": 0],
        "contact_dates": ["contact_id": 1, "position": 1, "label": "birthday", "date": "1815-12-10"],
        "contact_categories": ["contact_id": 1, "position": 1, "name": "friends"],
        "contact_extras": ["contact_id": 1, "position": 1, "line": "X-ABLabel:Work"],
    ]) { rows, spec in rows[spec.table] = ["contact_id": 1, "position": 1, "label": "", "value": "x", "preferred": 0] }

    /// The lists of labelled values whose tables are made from their entries alone.
    nonisolated(unsafe) static let described: [(table: String, keyPath: WritableKeyPath<ContactDraft, [LabeledValue]>, max: Int)] =
        ContactChildTable.described.compactMap { table in
            ContactFields.spec(table.field).flatMap { spec in spec.labeledValues.map { (table.name, $0, spec.maxLength) } }
        }

    /// Every text column a person's values go in, by table: what the validation and the CHECKs
    /// must agree on.
    static let textColumns: [(table: String, column: String)] = {
        var columns: [(table: String, column: String)] = [("contacts", "uid")]
        columns += ContactRecord.textColumns.map { ("contacts", $0.column.rawValue) }
        columns += [("quotes", "text"), ("quotes", "author")]
        for table in ["contact_emails", "contact_phones", "contact_urls", "contact_handles"] + described.map(\.table) {
            columns += [(table, "label"), (table, "value")]
        }
        for part in ["label", "po_box", "extended", "street", "locality", "region", "postal_code", "country"] {
            columns.append(("contact_addresses", part))
        }
        columns += [("contact_dates", "label"), ("contact_categories", "name"), ("contact_extras", "line")]
        return columns
    }()

    /// An in-memory book whose contact 1 the child rows of ``schemaAccepts(_:_:_:_:)`` belong to.
    func withFixture(_ body: (Database) throws -> Void) throws {
        let storage = try StorageController.inMemory()
        #expect(try storage.insertContact(ContactDraft(name: "Fixture"), uid: "fixture").id == 1)
        try storage.writer.write(body)
    }

    /// Whether SQLite accepts `value` in `table.column` (inserted raw, no Carnet code in between,
    /// rolled back).
    func schemaAccepts(_ db: Database, _ table: String, _ column: String, _ value: DatabaseValueConvertible?) throws -> Bool {
        var values = try #require(Self.baseRows[table], "\(table)")
        values[column] = value
        return try schemaAccepts(db, table, values)
    }

    func schemaAccepts(_ db: Database, _ table: String, _ values: [String: DatabaseValueConvertible?]) throws -> Bool {
        try schemaAccepts(db, [(table, values)])
    }

    /// Whether SQLite accepts all of these rows, inserted in order (then rolled back).
    func schemaAccepts(_ db: Database, _ rows: [(table: String, values: [String: DatabaseValueConvertible?])]) throws -> Bool {
        do {
            try db.inSavepoint {
                for (table, values) in rows {
                    let columns = values.keys.sorted()
                    // GRDB binds a String up to its first NUL; text goes in as UTF-8 bytes cast to TEXT, so
                    // SQLite sees every byte, as it would from sqlite3.
                    let placeholders = columns.map { values[$0]! is String ? "CAST(? AS TEXT)" : "?" }
                    let arguments = columns.map { key -> DatabaseValueConvertible? in
                        guard let text = values[key]! as? String else { return values[key]! }
                        return Data(text.utf8)
                    }
                    // Cached: compiling an INSERT compiles every CHECK of the table, which costs
                    // more than running it, and these tests run the same few statements 100,000 times.
                    try db.cachedStatement(
                        sql: "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders.joined(separator: ", ")))"
                    ).execute(arguments: StatementArguments(arguments))
                }
                return .rollback
            }
            return true
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            return false
        }
    }

    /// A draft that is already as it would be saved, with every name part set, so that emptying
    /// one part or the display name does not make normalization derive it again.
    static let baseDraft = ContactDraft(name: "Ada", nameParts: PersonName(prefix: "Dr.", given: "Ada", family: "King"))

    nonisolated(unsafe) static let listKeyPaths: [String: WritableKeyPath<ContactDraft, [LabeledValue]>] = described.reduce(into: [
        "contact_emails": \.emails, "contact_phones": \.phones, "contact_urls": \.urls, "contact_handles": \.handles,
    ]) { paths, list in paths[list.table] = list.keyPath }

    /// What the validation says of a value stored as it is (storage only ever stores normalized
    /// values): the draft holding it saves unchanged and breaks no rule. A label is judged by the
    /// rules and by trimming only: normalization also writes a known type in lower case (`Work` →
    /// `work`), which a file may hold either way.
    func rulesAccept(_ table: String, _ column: String, _ value: String) -> Bool {
        func saves(_ draft: ContactDraft) -> Bool { draft.normalized() == draft && draft.issues().isEmpty }
        func label(_ draft: ContactDraft) -> Bool { TextRules.trimmed(value) == value && draft.issues().isEmpty }
        var draft = Self.baseDraft
        switch table {
        case "contacts":
            if column == "uid" { return UIDRule.issues(value).isEmpty }
            guard let keyPath = ContactRecord.textColumns.first(where: { $0.column.rawValue == column })?.keyPath else { fatalError(column) }
            draft[keyPath: keyPath] = value
            return saves(draft)
        case "quotes":
            let draft = column == "text" ? QuoteDraft(text: value) : QuoteDraft(text: "To be", author: value)
            return draft.normalized() == draft && draft.issues().isEmpty
        case _ where Self.listKeyPaths[table] != nil:
            var entry = LabeledValue(Self.baseRows[table]!["value"]! as! String)
            if column == "label" { entry.label = value } else { entry.value = value }
            draft[keyPath: Self.listKeyPaths[table]!] = [entry]
            return column == "label" ? label(draft) : saves(draft)
        case "contact_addresses":
            var address = PostalAddress(street: "1 Main St", locality: "Springfield")
            let parts: [String: WritableKeyPath<PostalAddress, String>] = [
                "label": \.label, "po_box": \.poBox, "extended": \.extended, "street": \.street, "locality": \.locality,
                "region": \.region, "postal_code": \.postalCode, "country": \.country,
            ]
            address[keyPath: parts[column]!] = value
            draft.addresses = [address]
            return column == "label" ? label(draft) : saves(draft)
        case "contact_dates":
            if column == "label" {
                draft.dates = [ContactDate(label: value, year: 1815, month: 12, day: 10)]
                return label(draft)
            }
            // A stored date is in the form Carnet writes (`dateText`), and a real calendar date.
            guard let parsed = ContactDate.parseDate(value) else { return false }
            let date = ContactDate(label: "birthday", year: parsed.year, month: parsed.month, day: parsed.day)
            draft.dates = [date]
            return date.dateText == value && saves(draft)
        case "contact_categories":
            draft.categories = [value]
            return saves(draft)
        case "contact_extras":
            draft.extras = [value]
            return saves(draft)
        default:
            fatalError(table)
        }
    }

    @Test func theFixtureRowsAreAcceptedByBoth() throws {
        try withFixture { db in
            for (table, values) in Self.baseRows {
                let accepted = try schemaAccepts(db, table, values)
                #expect(accepted, "\(table)")
            }
            for (table, column) in Self.textColumns {
                let value = Self.baseRows[table]![column] as? String ?? ""
                let schema = try schemaAccepts(db, table, column, value)
                #expect(rulesAccept(table, column, value) && schema, "\(table).\(column)")
            }
        }
    }

    @Test(.exhaustive) func everyCheckAgreesWithTheValidation() throws {
        var disagreements: [String] = []
        var accepted: [String: Int] = [:]
        let count = 2500
        // Emails and phones pass less often: they get more strings, and strings more like them.
        let plain = Array(Self.strings(seed: 0x9E37_79B9, count: 1500, allPlain: true))
        let pickier = [("contact_emails", "value"), ("contact_phones", "value")]
        try withFixture { db in
            for (index, value) in (Array(Self.strings(count: count)) + plain).enumerated() {
                for (table, column) in index < count ? Self.textColumns : pickier {
                    let rules = rulesAccept(table, column, value)
                    if try schemaAccepts(db, table, column, value) != rules {
                        disagreements.append("\(table).\(column) \(value.debugDescription): rules \(rules ? "accept" : "refuse")")
                    }
                    if rules { accepted["\(table).\(column)", default: 0] += 1 }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(20))")
        // The generator reaches both answers for every column, or the comparison proves little.
        for (table, column) in Self.textColumns {
            let n = accepted["\(table).\(column)"] ?? 0
            #expect((100..<(count - 100)).contains(n), "\(table).\(column): \(n) of \(count) accepted")
        }
    }

    /// Dates, YYYY-MM-DD or --MM-DD, from a fixed seed: mostly of the right shape, with months and
    /// days a little past the calendar's, the other forms a reader takes, and padding.
    static func dateTexts(count: Int) -> SeededValues<String> {
        SeededValues(seed: 0xDA7E_5EED, count: count) { generator in
            func random(_ bound: Int) -> Int { generator.below(bound) }
            let years = [0, 1, 999, 1600, 1700, 1815, 1900, 1999, 2000, 2023, 2024, 2100, 2400, 9999]
            let year = random(3) == 0 ? random(10_000) : years[random(years.count)]
            let month = random(14)
            let day = month == 2 && random(2) == 0 ? 28 + random(3) : random(33)
            var text: String
            switch random(10) {
            case 0...4: text = String(format: "%04d-%02d-%02d", year, month, day)
            case 5...6: text = String(format: "--%02d-%02d", month, day)
            case 7: text = String(format: "%04d%02d%02d", year, month, day)
            case 8: text = String(format: "--%02d%02d", month, day)
            default: text = String(format: "%d-%d-%d", year, month, day)
            }
            if random(20) == 0 { text = [" ", "\u{FEFF}", "T00:00", "\u{0}", "Z"][random(5)] + text }
            if random(20) == 0 { text += [" ", "T00:00", "\u{0}x", "Z"][random(4)] }
            return text
        }
    }

    @Test func datesAgreeTooAndAreRealCalendarDates() throws {
        var disagreements: [String] = []
        var accepted = 0
        let count = 4000
        try withFixture { db in
            for value in Self.dateTexts(count: count) {
                let rules = rulesAccept("contact_dates", "date", value)
                if try schemaAccepts(db, "contact_dates", "date", value) != rules {
                    disagreements.append("\(value.debugDescription): rules \(rules ? "accept" : "refuse")")
                }
                if rules { accepted += 1 }
            }
            for (date, real) in [
                ("2023-02-29", false), ("2024-02-29", true), ("1900-02-29", false), ("2000-02-29", true), ("2100-02-29", false),
                ("--02-29", true), ("--02-30", false), ("--04-31", false), ("--13-01", false), ("--00-10", false), ("--12-00", false),
                ("2023-04-31", false), ("2023-04-30", true), ("0000-01-01", false), ("0001-01-01", true), ("9999-12-31", true),
                ("1815-12-10", true), ("18151210", false), ("--1210", false), ("1815-12-1", false), ("", false),
            ] {
                #expect(try schemaAccepts(db, "contact_dates", "date", date) == real, "schema: \(date)")
                #expect(rulesAccept("contact_dates", "date", date) == real, "rules: \(date)")
            }
        }
        // SQLite's substr() and GLOB read text up to its first NUL, so the date's CHECK also
        // refuses a NUL with instr(CAST(… AS BLOB), x'00') = 0, as every other text column's does.
        let nulHidden = disagreements.filter { $0.hasPrefix("\"--") && $0.contains("\\0") }
        #expect(disagreements.count == nulHidden.count, "\(disagreements.count): \(disagreements.prefix(20))")
        #expect(nulHidden.isEmpty, "\(nulHidden.count): \(nulHidden.prefix(5))")
        #expect((400..<(count - 400)).contains(accepted), "\(accepted) of \(count) accepted")
        // The validation names the field, and the entry, of a date that does not exist.
        var draft = Self.baseDraft
        draft.dates = [ContactDate(label: "birthday", year: 2023, month: 2, day: 29)]
        #expect(draft.issues().map(\.field) == [.date])
        draft.dates = [ContactDate(label: "birthday", month: 2, day: 29)]
        #expect(draft.issues().isEmpty)
    }

    /// One preferred entry per list, categories unique per contact (ignoring ASCII case, as NOCASE
    /// compares), an address with at least one part, and an extra property on one line: rules
    /// that span rows or columns.
    @Test func rulesAcrossRowsAgree() throws {
        try withFixture { db in
            func row(_ table: String, _ position: Int, _ changes: [String: DatabaseValueConvertible?]) -> (String, [String: DatabaseValueConvertible?]) {
                var values = Self.baseRows[table]!
                values["position"] = position
                for (key, value) in changes { values[key] = value }
                return (table, values)
            }
            for (table, keyPath) in Self.listKeyPaths.sorted(by: { $0.key < $1.key }) {
                let value = Self.baseRows[table]!["value"]! as! String
                for (first, second) in [(true, true), (true, false), (false, false)] {
                    let schema = try schemaAccepts(db, [row(table, 1, ["preferred": first]), row(table, 2, ["preferred": second])])
                    var draft = Self.baseDraft
                    draft[keyPath: keyPath] = [LabeledValue(value, preferred: first), LabeledValue(value, preferred: second)]
                    let rules = draft.issues().isEmpty
                    #expect(schema == rules && rules == !(first && second), "\(table) preferred \(first), \(second)")
                }
            }
            for (first, second) in [(true, true), (true, false)] {
                let schema = try schemaAccepts(db, [
                    row("contact_addresses", 1, ["preferred": first]), row("contact_addresses", 2, ["preferred": second]),
                ])
                var draft = Self.baseDraft
                draft.addresses = [PostalAddress(street: "1 Main St", preferred: first), PostalAddress(street: "1 Main St", preferred: second)]
                #expect(schema == draft.issues().isEmpty && schema == !(first && second), "addresses preferred \(first), \(second)")
            }
            // An address with every part empty: the schema refuses it, a save drops it.
            let empty = ["street": "", "locality": ""] as [String: DatabaseValueConvertible?]
            #expect(try !schemaAccepts(db, [row("contact_addresses", 1, empty)]))
            var blank = Self.baseDraft
            blank.addresses = [PostalAddress(label: "home")]
            #expect(blank.normalized().addresses.isEmpty)

            // Categories: one name once per contact, compared as NOCASE compares (ASCII letters only).
            for (first, second) in [("friends", "friends"), ("friends", "Friends"), ("FRIENDS", "friends"), ("Émile", "émile"), ("work", "friends")] {
                let schema = try schemaAccepts(db, [row("contact_categories", 1, ["name": first]), row("contact_categories", 2, ["name": second])])
                var draft = Self.baseDraft
                draft.categories = [first, second]
                let rules = draft.issues().isEmpty && draft.normalized() == draft
                let duplicate = first.asciiLowercased == second.asciiLowercased
                #expect(schema == !duplicate, "schema: categories \(first), \(second)")
                if duplicate {
                    // Normalizing keeps the first spelling of a category given twice, so a save
                    // never reaches the UNIQUE constraint with one.
                    #expect(!rules, "rules: categories \(first), \(second)")
                    #expect(draft.normalized().categories == [first], "normalized: categories \(first), \(second)")
                } else {
                    #expect(rules, "rules: categories \(first), \(second)")
                }
            }
            // One contact's category is another's too.
            try db.execute(sql: "INSERT INTO contacts (uid, name, created_at, updated_at) VALUES ('other', 'Other', ?, ?)", arguments: [Self.stamp, Self.stamp])
            let other = db.lastInsertedRowID
            #expect(try schemaAccepts(db, [row("contact_categories", 1, [:]), ("contact_categories", ["contact_id": other, "position": 1, "name": "friends"])]))

            // An unmodelled property line: anything but NUL, CR and LF (kept verbatim, not trimmed).
            for (line, ok) in [("X-A:b", true), (" X-A:b ", true), ("X-A:b\nEND:VCARD", false), ("X-A:b\r", false), ("X-A:\u{0}b", false),
                               ("X-A:\u{1B}[31m", true), ("X-\u{202E}:b", true), ("", false)] {
                #expect(try schemaAccepts(db, "contact_extras", "line", line) == ok, "schema: \(line.debugDescription)")
                #expect(rulesAccept("contact_extras", "line", line) == ok, "rules: \(line.debugDescription)")
            }
        }
    }

    @Test func lengthsPhotosTimestampsAndTypesAreCheckedToo() throws {
        try withFixture { db in try checkLengthsPhotosTimestampsAndTypes(db) }
    }

    func checkLengthsPhotosTimestampsAndTypes(_ db: Database) throws {
        do {
            let longest = String(repeating: "🙂", count: Limits.nameLength)
            #expect(try schemaAccepts(db, "contacts", "name", longest))
            #expect(try !schemaAccepts(db, "contacts", "name", longest + "a"))
            #expect(try !schemaAccepts(db, "contacts", "name", Data("Ada".utf8)))  // a blob is not text
            #expect(try !schemaAccepts(db, "contacts", "name", "Ada\u{0}\u{1B}[31m"))  // NUL cannot hide what follows
            #expect(try !schemaAccepts(db, "contact_emails", "value", String(repeating: "a", count: 250) + "@b.cd"))
            #expect(try !schemaAccepts(db, "contact_phones", "value", String(repeating: "1", count: 41)))
            for (photo, ok) in [(pngBytes, true), (Data([0xFF, 0xD8, 0xFF, 0xE0]), true), (Data("GIF89a..".utf8), true),
                                (Data("RIFF\0\0\0\0WEBPVP8 ".utf8), true), (Data("junk".utf8), false), (Data(), false),
                                (pngBytes + Data(count: Limits.photoBytes), false)] {
                #expect(try schemaAccepts(db, "contacts", "photo", photo) == ok, "\(photo.prefix(8).map { $0 })")
                #expect((ContactDraft(name: "Ada", photo: photo).issues().isEmpty) == ok || photo.isEmpty)
            }
            #expect(try !schemaAccepts(db, "contacts", "photo", "not a blob"))
            #expect(try !schemaAccepts(db, "contacts", "created_at", "yesterday"))
            #expect(try !schemaAccepts(db, "contacts", "updated_at", "2026-01-02 03:04:05"))
            #expect(try !schemaAccepts(db, "contacts", "version", "abc"))
            #expect(try !schemaAccepts(db, "contacts", "version", 0))
            #expect(try !schemaAccepts(db, "quotes", "text", String(repeating: "x", count: Limits.quoteTextLength + 1)))
            #expect(try schemaAccepts(db, "quotes", "text", "Two\nlines"))
            #expect(try schemaAccepts(db, "contacts", "note", "Two\nlines"))
            #expect(try !schemaAccepts(db, "contacts", "note", "Two\r\nlines"))
            // Child rows: a position from 1, a contact that exists, a preferred flag of 0 or 1.
            #expect(try !schemaAccepts(db, "contact_emails", "position", 0))
            #expect(try !schemaAccepts(db, "contact_emails", "position", "first"))
            #expect(try !schemaAccepts(db, "contact_emails", "contact_id", 999))
            #expect(try !schemaAccepts(db, "contact_emails", "preferred", 2))
        }
        // Every length limit, at the limit and one past it, on both sides (ASCII and non-ASCII:
        // both count Unicode scalars).
        let limits: [(String, String, Int)] = [
            ("contacts", "name_prefix", Limits.namePartLength), ("contacts", "given_name", Limits.namePartLength),
            ("contacts", "additional_names", Limits.namePartLength), ("contacts", "family_name", Limits.namePartLength),
            ("contacts", "name_suffix", Limits.namePartLength), ("contacts", "nickname", Limits.nameLength),
            ("contacts", "organization", Limits.positionLength), ("contacts", "department", Limits.positionLength),
            ("contacts", "title", Limits.positionLength), ("contacts", "role", Limits.positionLength),
            ("contacts", "note", Limits.noteLength),
            ("contact_emails", "label", Limits.labelLength), ("contact_phones", "label", Limits.labelLength),
            ("contact_urls", "value", Limits.urlLength), ("contact_handles", "value", Limits.handleLength),
            ("contact_addresses", "street", Limits.addressPartLength), ("contact_addresses", "country", Limits.addressPartLength),
            ("contact_dates", "label", Limits.labelLength), ("contact_categories", "name", Limits.categoryLength),
        ] + Self.described.flatMap { [($0.table, "label", Limits.labelLength), ($0.table, "value", $0.max)] }
        for (table, column, limit) in limits {
            for letter in ["x", "é"] {
                for (length, ok) in [(limit, true), (limit + 1, false)] {
                    let value = String(repeating: letter, count: length)
                    #expect(try schemaAccepts(db, table, column, value) == ok, "schema: \(table).\(column) × \(length)")
                    #expect(rulesAccept(table, column, value) == ok, "rules: \(table).\(column) × \(length)")
                }
            }
        }
        let email = String(repeating: "a", count: Limits.emailLength - 5) + "@b.cd"
        #expect(try schemaAccepts(db, "contact_emails", "value", email) && rulesAccept("contact_emails", "value", email))
        #expect(try !schemaAccepts(db, "contact_emails", "value", "a" + email) && !rulesAccept("contact_emails", "value", "a" + email))
        let phone = String(repeating: "1", count: Limits.phoneLength)
        #expect(try schemaAccepts(db, "contact_phones", "value", phone) && rulesAccept("contact_phones", "value", phone))
        let extra = "X-LOGO:" + String(repeating: "A", count: Limits.extraLength - 7)
        #expect(try schemaAccepts(db, "contact_extras", "line", extra) && rulesAccept("contact_extras", "line", extra))
        #expect(try !schemaAccepts(db, "contact_extras", "line", extra + "=") && !rulesAccept("contact_extras", "line", extra + "="))
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
        var fine = ContactDraft(name: "Fine Person", email: "fine@example.com", phone: "+1 555 0100", photo: pngBytes)
        fine.nameParts = PersonName(given: "Fine", family: "Person")  // read from the name by schema 4's upgrade
        #expect(contacts[4]?.draft == fine)
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

