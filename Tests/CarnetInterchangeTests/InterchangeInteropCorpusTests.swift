@testable import CarnetInterchange
import CarnetModels
import CarnetTestSupport
import Foundation
import TestNeeds
import Testing

/// Every card of the real exports (Tests/Fixtures/RealExports), imported and exported as 3.0
/// and 4.0 (one file, and one card per file as a vdir holds them), read by Python's vobject: it
/// reads every card, and sees each value Carnet meant to write, modelled fields and the
/// properties kept verbatim alike.
@Suite(.enabled(if: VObjectReader.isAvailable, "needs python3 with python3-vobject on PATH (make deps installs it)"))
struct InterchangeInteropCorpusTests {
    /// `NAME:values` of a property, to compare lists of them.
    static func key(_ name: String, _ values: [String]) -> String { name + ":" + values.joined(separator: "\u{1F};") }

    /// What Carnet means a card to say, as vobject reports it: the modelled fields checked here
    /// and every extra line's value, decoded and unescaped.
    static func expected(_ record: InterchangeRecord, version: VCardVersion) throws -> [String] {
        let draft = record.draft
        // A field read in a form Carnet keeps (VCardForms) is written in that form.
        var forms = try draft.extras.filter { $0.hasPrefix(VCardForms.prefix) }
            .map { try VCardProperty(Array($0.dropFirst(VCardForms.prefix.count).utf8), line: 1) }
        // (A text form keeps its own text, trailing spaces and all; N and ORG their parts.)
        func field(_ name: String, _ values: [String], _ says: (VCardProperty) -> Bool) -> String {
            guard let index = forms.firstIndex(where: { $0.name == name && says($0) }) else { return key(name, values) }
            let form = forms.remove(at: index)
            return key(name, name == "N" || name == "ORG" ? values : lineBreaks([form.text()]))
        }
        var keys: [String] = [field("FN", [draft.name]) { VCardForms.says($0, text: draft.name) }]
        let n = draft.nameParts
        let parts = [n.family, n.given, n.additional, n.prefix, n.suffix]
        keys.append(field("N", parts) { VCardForms.says($0, components: parts) })
        if !draft.organization.isEmpty || !draft.department.isEmpty {
            let units = draft.department.isEmpty ? [draft.organization] : [draft.organization, draft.department]
            keys.append(field("ORG", units) { VCardForms.says($0, components: units) })
        }
        keys += draft.emails.map { key("EMAIL", [$0.value]) }
        keys += draft.phones.map { key("TEL", [$0.value]) }
        keys += draft.addresses.map { key("ADR", [$0.poBox, $0.extended, $0.street, $0.locality, $0.region, $0.postalCode, $0.country]) }
        if !draft.note.isEmpty { keys.append(field("NOTE", [draft.note]) { VCardForms.says($0, text: draft.note) }) }
        if let uid = record.uid { keys.append(key("UID", [uid])) }
        for extra in draft.extras where !extra.hasPrefix(VCardForms.prefix) {
            let property = try VCardProperty(Array(extra.utf8), line: 1)
            if VCardWriter.isProfileLine(extra) { continue }  // not written back: see isProfileLine(_:)
            var values = meant(property)
            if version == .v4, !values.isEmpty, let encoding = property.encoding, encoding == "b" || encoding == "base64" {
                values = [dataURI]
            }
            if !values.isEmpty { keys.append(key(validName(property.name), values)) }
        }
        return keys
    }

    /// The name Carnet writes a kept line under: one no vCard version allows
    /// (`X-messaging/gadu-All`) as an `X-` name with every other character made `-`.
    static func validName(_ name: String) -> String {
        let mended = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : "-" })
        return mended == name || mended.hasPrefix("X-") ? mended : "X-" + mended
    }

    /// The value of a kept line as a reader of the version written should see it: decoded,
    /// unescaped, a 2.1 line break (CRLF, in quoted-printable) a line break.
    static func meant(_ property: VCardProperty) -> [String] {
        lineBreaks(rawMeant(property))
    }

    static func lineBreaks(_ values: [String]) -> [String] {
        values.map { $0.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n") }
    }

    static func rawMeant(_ property: VCardProperty) -> [String] {
        switch property.name {
        case "N", "ADR", "ORG":
            return property.components()
        default:
            if let encoding = property.encoding, encoding == "b" || encoding == "base64" {
                // Data Carnet's reader could not decode is carried as it came; not compared.
                return property.inlineData().map { [$0.base64EncodedString()] } ?? []
            }
            // vobject reads a text value up to its first unescaped `,` (a list separator in 3.0).
            return [rfcUnescape(VCardText.splitComponents(property.rawText(), at: ",")[0])]
        }
    }

    /// RFC 2426's text escapes resolved (`\\` `\;` `\,` `\n`), any other backslash left as it is,
    /// as vobject reads them (Apple's `X-ABUID:…\:ABPerson` keeps its backslash).
    static func rfcUnescape(_ text: String) -> String {
        var result = ""
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            guard character == "\\", let next = iterator.next() else {
                result.append(character)
                continue
            }
            switch next {
            case "n", "N": result.append("\n")
            case "\\", ";", ",": result.append(next)
            default: result += "\\" + String(next)
            }
        }
        return result
    }

    /// The properties every card is compared on exactly; for the others, every value Carnet
    /// meant to write must be among what vobject read.
    static let core: Set<String> = ["FN", "N", "ORG", "EMAIL", "TEL", "ADR", "NOTE", "UID"]

    /// The names `expected` speaks for, so the comparison leaves out what it does not check.
    static func names(_ keys: [String]) -> Set<String> { Set(keys.map { String($0.prefix { $0 != ":" }) }) }

    static let dataURI = "(a data: URI)"

    static func seen(_ card: VObjectReader.Card, names: Set<String>) -> [String] {
        card.filter { names.contains($0.name) }.map { property in
            // vobject cuts a 4.0 data: URI at its comma: only that it is one is compared.
            let values = property.values.map { $0.hasPrefix("data:") && $0.hasSuffix(";base64") ? dataURI : $0 }
            return key(property.name, values)
        }
    }

    static let versions: [VCardVersion] = [.v3, .v4]

    @Test(arguments: InterchangeCorpusTests.files) func vobjectReadsEveryExportedCardAsCarnetMeantIt(file: String) throws {
        let records = try InterchangeCorpusTests.records(file).map(InterchangeCorpusTests.saved)
        for version in Self.versions {
            let cards = records.map { VCardWriter.card($0, version: version) }
            // One file of every card, as `carnet export` writes it.
            let read: [VObjectReader.Card]
            do {
                read = try VObjectReader.cards(cards.joined())
            } catch {
                Issue.record("\(file) in \(version): \(error)")
                continue
            }
            #expect(read.count == records.count, "\(file) in \(version)")
            for (record, card) in zip(records, read) {
                let expected = try Self.expected(record, version: version)
                let seen = Self.seen(card, names: Self.names(expected))
                let seenCore = seen.filter { Self.core.contains(String($0.prefix { $0 != ":" })) }
                let expectedCore = expected.filter { Self.core.contains(String($0.prefix { $0 != ":" })) }
                #expect(seenCore.sorted() == expectedCore.sorted(), "\(file):\(record.line) in \(version)\n\(Self.difference(seenCore, expectedCore))")
                let missing = Self.missing(expected, from: seen)
                #expect(missing.isEmpty, "\(file):\(record.line) in \(version): vobject did not see \(missing.map { String($0.prefix(160)) })")
            }
            // One card per file, as a vdir holds them: each file reads on its own.
            for (record, card) in zip(records, cards) {
                do {
                    #expect(try VObjectReader.cards(card).count == 1)
                } catch {
                    Issue.record("\(file):\(record.line) in \(version) as a vdir file: \(error)")
                }
            }
        }
    }

    /// khard, which reads a vdir with vobject and stops at the first card it cannot parse, lists
    /// every card of the corpus written as a vdir of 3.0 cards and as one of 4.0 cards.
    @Test(.needs("khard"), arguments: versions)
    func khardListsTheCorpusAsAVdir(version: VCardVersion) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-khard-\(UUID().uuidString)")
        let vdir = root.appendingPathComponent("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        var count = 0
        for file in InterchangeCorpusTests.files {
            for var record in try InterchangeCorpusTests.records(file).map(InterchangeCorpusTests.saved) {
                count += 1
                // A saved contact always has a UID (khard leaves out a card without one).
                if record.uid == nil { record.uid = "corpus-\(count)" }
                let name = VDir.fileName(uid: record.uid!)
                try Data(VCardWriter.card(record, version: version).utf8).write(to: vdir.appendingPathComponent(name))
            }
        }
        let config = root.appendingPathComponent("khard.conf")
        try Data("[addressbooks]\n[[corpus]]\npath = \(vdir.path)\n[general]\ndefault_action = list\n".utf8).write(to: config)
        let run = try ChildProcess.run(
            TestTool.path("khard"), ["-c", config.path, "list", "--parsable"],
            environment: ["HOME": root.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        let listed = run.stdout
        let errors = String(decoding: run.stderr, as: UTF8.self)
        #expect(run.status == 0, "\(errors)")
        #expect(!errors.contains("Error"), "\(errors)")
        let lines = String(decoding: listed, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == count, "khard listed \(lines.count) of \(count) cards: \(errors)")
    }

    /// The keys of `expected` not in `seen`, each counted once per occurrence.
    static func missing(_ expected: [String], from seen: [String]) -> [String] {
        var left = seen
        var missing: [String] = []
        for key in expected {
            if let index = left.firstIndex(of: key) { left.remove(at: index) } else { missing.append(key) }
        }
        return missing
    }

    static func difference(_ seen: [String], _ expected: [String]) -> String {
        var missing = expected
        var extra: [String] = []
        for key in seen {
            if let index = missing.firstIndex(of: key) { missing.remove(at: index) } else { extra.append(key) }
        }
        func show(_ keys: [String]) -> String { keys.map { String($0.prefix(120)) }.joined(separator: " | ") }
        return "carnet meant: \(show(missing))\nvobject saw: \(show(extra))"
    }
}
