import CarnetInterchange
import CarnetModels
import Foundation
import SeededRandom
import TestNeeds
import Testing
@testable import CarnetStorage

/// Mutations of the real exports in Tests/Fixtures (and of a JSON export of what they hold),
/// imported through the readers into a real file: whatever the bytes, no crash, no hang, and an
/// import that fails leaves every contact as it was. The seed is fixed, so a failure repeats.
@Suite struct ImportFuzzTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/RealExports")

    /// What a hostile file is made of: separators, line breaks, quotes, NUL, byte order marks,
    /// card boundaries, and long runs.
    static let tokens: [[UInt8]] = [
        "\r", "\n", "\r\n", "\0", ":", ";", "=", "\"", ",", "\\", " ", "\t", "=\r\n", "BEGIN:VCARD\r\n", "END:VCARD\r\n",
        "TEL;TYPE=", "item1.", "ENCODING=QUOTED-PRINTABLE:", "CHARSET=SHIFT_JIS:", "PHOTO;ENCODING=b:", "{", "}", "[", "]",
        "\"id\":", "9223372036854775807", "1.5", "null", "\u{1B}[2J", "\u{202E}",
    ].map { Array($0.utf8) } + [[0xFF, 0xFE], [0xEF, 0xBB, 0xBF], [0xC3], [0x80, 0x80]]

    static func mutate(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var out = bytes
        for _ in 0...random.below(3) {
            let at = out.isEmpty ? 0 : random.below(out.count)
            switch random.below(7) {
            case 0 where !out.isEmpty: out[at] = UInt8(random.below(256))
            case 1: out.insert(contentsOf: tokens[random.below(tokens.count)], at: at)
            case 2 where !out.isEmpty: out.removeSubrange(at..<min(out.count, at + 1 + random.below(64)))
            case 3 where !out.isEmpty:
                let piece = Array(out[at..<min(out.count, at + 1 + random.below(400))])
                out.insert(contentsOf: piece, at: random.below(out.count))
            case 4: out.removeSubrange(at...)
            case 5:
                let token = tokens[random.below(tokens.count)]
                out.insert(contentsOf: Array((0..<(1 + random.below(2000))).map { _ in token }.joined()), at: at)
            default:
                var lines = out.split(separator: 10, omittingEmptySubsequences: false)
                if lines.count > 2 { lines.swapAt(random.below(lines.count), random.below(lines.count)) }
                out = Array(lines.joined(separator: [10]))
            }
        }
        return out
    }

    static func reader(for name: String) -> any ChunkReader {
        if name.hasSuffix(".csv") { return CSVReader() }
        if name.hasSuffix(".json") { return ContactJSONReader() }
        return VCardReader()
    }

    /// Every result a reader gives for `bytes` fed in chunks of random sizes, then its end.
    static func read(_ bytes: [UInt8], name: String, _ random: inout SplitMix64) -> [Result<InterchangeRecord, InterchangeError>] {
        var reader = reader(for: name)
        var results: [Result<InterchangeRecord, InterchangeError>] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + 1 + random.below(8192))
            results += reader.feed(Data(bytes[start..<end]))
            start = end
        }
        do {
            results += try reader.finishAll().map { .success($0) }
        } catch {
            results.append(.failure(error))
        }
        return results
    }

    @Test(.timeLimit(.minutes(2)), .exhaustive) func mutatedExportsNeverCrashOrHangAndAFailedImportChangesNothing() throws {
        let dir = TempDirectory()
        let storage = try StorageController(path: dir.database)
        var random = SplitMix64(seed: 26)
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path)
            .filter { $0.hasSuffix(".vcf") || $0.hasSuffix(".csv") }.sorted()
        var files = try names.map { ($0, [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent($0)))) }
        // The originals first, so the mutations find contacts to update.
        for (name, bytes) in files {
            var results = Self.read(bytes, name: name, &random)[...]
            _ = try? storage.importContacts(source: name, options: ImportOptions(skipInvalid: true)) { () throws(InterchangeError) in
                try results.popFirst()?.get()
            }
        }
        let stored = try storage.allContacts()
        #expect(stored.count > 20)
        files.append(("export.json", [UInt8](try ContactJSONCoding.encode(stored.prefix(30).map { ContactJSON(contact: $0, favorite: false) }))))

        var (failed, imported) = (0, 0)
        for index in 0..<400 {
            let (name, original) = files[random.below(files.count)]
            let bytes = Self.mutate(original, &random)
            let skipInvalid = random.below(4) == 0
            var results = Self.read(bytes, name: name, &random)[...]
            let before = try storage.allContacts()
            do {
                _ = try storage.importContacts(source: name, options: ImportOptions(skipInvalid: skipInvalid)) { () throws(InterchangeError) in
                    try results.popFirst()?.get()
                }
                imported += 1
            } catch {
                failed += 1
                let after = try storage.allContacts()
                #expect(after == before, "case \(index) (\(name)): a failed import changed the contacts: \(error)")
            }
        }
        // Both ways out were taken (the mix depends only on the seed).
        #expect(failed > 50 && imported > 50, "failed \(failed), imported \(imported)")
        #expect(try storage.integrityCheck() == ["ok"])
    }
}
