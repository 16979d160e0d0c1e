import Foundation
import TestNeeds
import Testing

/// `carnet list` writes through a byte buffer with a fast path for values that need no escaping:
/// what it prints must stay exactly what the rules say, character by character, and
/// for ordinary values exactly what `sqlite3` prints of the same rows.
@Suite struct ListOutputTests {
    let box = Sandbox()

    /// How a TSV field shows `scalars`: backslash, tab, line feed and carriage return as `\\`,
    /// `\t`, `\n`, `\r`; every other character a one-line field may not hold as `\u{HEX}`.
    static func tsv(_ scalars: [Unicode.Scalar]) -> String {
        var out = ""
        for scalar in scalars {
            let v = scalar.value
            switch scalar {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default:
                let forbidden = v < 0x20 || (0x7F...0x9F).contains(v) || (0x2028...0x202E).contains(v)
                    || (0x2066...0x2069).contains(v) || v == 0xFEFF
                out += forbidden ? "\\u{\(String(v, radix: 16, uppercase: true))}" : String(scalar)
            }
        }
        return out
    }

    /// Lines of `carnet list` by id, without the header.
    func listedByID() -> [Int: String] {
        let run = box.carnetInProcess(["list"])
        #expect(run.status == 0, "\(run.stderr)")
        var lines: [Int: String] = [:]
        for line in run.stdout.split(separator: "\n").dropFirst() {
            lines[Int(line.prefix { $0 != "\t" })!] = String(line)
        }
        return lines
    }

    @Test func everyCharacterIsShownAsTheRulesSay() {
        box.carnetInProcess(["add", "--name", "Seed"])
        // Alone (the characters next to the escaped ones share their first UTF-8 bytes), and
        // the whole of Unicode's first plane in runs of 64, in a file whose CHECKs were set aside.
        let alone = Array(0x01...0x2FF) + Array(0x2000...0x20FF) + Array(0xFE00...0xFFFF) + [0x1F600, 0xE0001, 0x10FFFF]
        let bmp = Array(0x01...0xFFFF).filter { !(0xD800...0xDFFF).contains($0) }
        let runs = stride(from: 0, to: bmp.count, by: 64).map { Array(bmp[$0..<min($0 + 64, bmp.count)]) }
        var sql = "PRAGMA ignore_check_constraints = 1; BEGIN;\n"
        var expected: [Int: String] = [1: "1\tSeed\t\t\t\t0"]
        var id = 1
        for (index, value) in alone.enumerated() {
            id += 1
            // The position column is the title (there is no organization here).
            sql += "INSERT INTO contacts (id, uid, name, title, created_at, updated_at) VALUES (\(id), 'a\(index)', 'alone \(value)', char(\(value)), '2026-11-23T10:00:00.000Z', '2026-11-23T10:00:00.000Z');\n"
            expected[id] = "\(id)\talone \(value)\t\(Self.tsv([Unicode.Scalar(UInt32(value))!]))\t\t\t0"
        }
        for (index, run) in runs.enumerated() {
            id += 1
            let codes = run.map(String.init).joined(separator: ",")
            sql += "INSERT INTO contacts (id, uid, name, created_at, updated_at) VALUES (\(id), 'r\(index)', 'run \(index)', '2026-11-23T10:00:00.000Z', '2026-11-23T10:00:00.000Z');\n"
            sql += "INSERT INTO contact_emails (contact_id, position, value, preferred) VALUES (\(id), 1, char(\(codes)), 1);\n"
            expected[id] = "\(id)\trun \(index)\t\t\(Self.tsv(run.map { Unicode.Scalar(UInt32($0))! }))\t\t0"
        }
        sql += "COMMIT;\n"
        let insert = box.run(TestTool.path("sqlite3"), [box.db], stdin: sql)
        #expect(insert.status == 0, "\(insert.stderr)")

        let listed = listedByID()
        #expect(listed.count == expected.count)
        let wrong = expected.filter { listed[$0.key] != $0.value }.keys.sorted()
        #expect(wrong.isEmpty, "\(wrong.count) rows differ, e.g. \(wrong.prefix(3).map { "\(listed[$0] ?? "missing") ≠ \(expected[$0]!)" })")
    }

    @Test func ordinaryRowsAreWhatSqlite3PrintsByteForByte() {
        box.carnetInProcess(["add", "--name", "Seed"])
        // Rows as a script would write them into the tables of schema 4: a title and maybe an
        // organization, an email or two (the second one preferred on every seventh), a phone.
        let insert = box.sqlite("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
            INSERT INTO contacts (uid, name, title, organization, created_at, updated_at)
            SELECT 'uid-' || i,
                   CASE i % 4 WHEN 0 THEN 'Zoë ' WHEN 1 THEN 'ada ' WHEN 2 THEN 'Łukasz ' ELSE 'Ада ' END || (i * 7919 % 3001),
                   CASE i % 3 WHEN 0 THEN 'Sales' WHEN 1 THEN '' ELSE 'R&D – 東京' END,
                   CASE i % 3 WHEN 0 THEN 'Gale Foods' ELSE '' END,
                   '2026-11-23T10:00:00.000Z', '2026-11-23T10:00:00.000Z'
            FROM n;
            INSERT INTO contact_emails (contact_id, position, label, value, preferred)
            SELECT id, 1, 'work', 'p' || substr(uid, 5) || '@example.com', substr(uid, 5) % 7 <> 0 FROM contacts WHERE uid LIKE 'uid-%';
            INSERT INTO contact_emails (contact_id, position, label, value, preferred)
            SELECT id, 2, 'home', 'h' || substr(uid, 5) || '@home.example', 1 FROM contacts WHERE uid LIKE 'uid-%' AND substr(uid, 5) % 7 = 0;
            INSERT INTO contact_phones (contact_id, position, value, preferred)
            SELECT id, 1, '+33 6 ' || substr(uid, 5), 0 FROM contacts WHERE uid LIKE 'uid-%' AND substr(uid, 5) % 5 <> 0;
            INSERT INTO favorites (contact_id, position, created_at)
            SELECT id, id, '2026-11-23T10:00:00.000Z' FROM contacts WHERE id % 97 = 0;
            """)
        #expect(insert.status == 0, "\(insert.stderr)")
        // The TSV's position is "title, organization" (or whichever there is); email and phone
        // are the preferred entries, else the first.
        let query = """
            SELECT c.id AS id, c.name AS name,
                   CASE WHEN c.title <> '' AND c.organization <> '' THEN c.title || ', ' || c.organization
                        ELSE c.title || c.organization END AS position,
                   coalesce((SELECT value FROM contact_emails e WHERE e.contact_id = c.id ORDER BY e.preferred DESC, e.position LIMIT 1), '') AS email,
                   coalesce((SELECT value FROM contact_phones p WHERE p.contact_id = c.id ORDER BY p.preferred DESC, p.position LIMIT 1), '') AS phone,
                   (f.contact_id IS NOT NULL) AS favorite
            FROM contacts c LEFT JOIN favorites f ON f.contact_id = c.id ORDER BY c.name, c.id
            """
        let reference = box.sqlite(query, ["-header", "-separator", "\t"]).stdout
        #expect(reference.utf8.count > 2 * 64 * 1024)  // more than one of the buffer's chunks

        let list = box.carnetInProcess(["list"])
        #expect(list.status == 0)
        #expect(list.stdout == reference)
        let firstLines = reference.split(separator: "\n", omittingEmptySubsequences: false).prefix(1_235)
        #expect(box.carnetInProcess(["list", "--limit", "1234"]).stdout == firstLines.joined(separator: "\n") + "\n")

        let json = box.json(box.carnetInProcess(["list", "--json"]).stdout) as? [[String: Any]]
        let ids = reference.split(separator: "\n").dropFirst().map { Int($0.prefix { $0 != "\t" })! }
        #expect(json?.compactMap { $0["id"] as? Int } == ids)
        #expect(json?.filter { $0["favorite"] as? Bool == true }.count == 3001 / 97)
    }
}
