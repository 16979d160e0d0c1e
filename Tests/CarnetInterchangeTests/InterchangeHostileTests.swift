import CarnetInterchange
import CarnetModels
import Foundation
import Testing

/// Files made to hurt a reader: parameters by the ten thousand, endless lines, JSON that
/// never closes, text in an encoding Carnet does not read. Each is read in time and memory in
/// proportion to what is kept, and refused with its line when it must be.
@Suite struct InterchangeHostileTests {
    /// A TEL with `count` TYPE values, all different.
    static func card(types count: Int) -> String {
        let types = (0..<count).map { "X\($0)" }.joined(separator: ",")
        return "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Many\r\nTEL;TYPE=\(types):+1 555 0101\r\nCATEGORIES:"
            + (0..<count).map { "c\($0)" }.joined(separator: ",") + "\r\nEND:VCARD\r\n"
    }

    /// Tens of thousands of TYPE values (and as many categories) were each looked up in the
    /// list so far, quadratic in their number. Reading is linear in the card: ten times the
    /// values costs about ten times the work, where the quadratic reader cost a hundred. Work is
    /// this thread's CPU time, which a loaded machine running other tests does not inflate the
    /// way it inflates a wall clock.
    @Test func tensOfThousandsOfParametersAreReadInLinearTime() throws {
        func work(_ count: Int) throws -> Double {
            let card = Self.card(types: count)
            let start = Self.threadCPUSeconds()
            let records = try VCardReader.parse(card)
            let spent = Self.threadCPUSeconds() - start
            #expect(records.count == 1)
            #expect(records.first?.draft.categories.count == count)
            return spent
        }
        _ = try work(1_000)
        // The smaller size is read three times and the cheapest kept, so that one stray page
        // fault does not make it look cheap enough to fail the ratio.
        let small = try (0..<3).map { _ in try work(10_000) }.min() ?? 0
        let large = try work(100_000)
        #expect(large < small * 40, "10k values: \(small) s of CPU, 100k: \(large) s")
    }

    static func threadCPUSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// What `/dev/zero` gives: no line break, ever. The reader refuses the line once it passes
    /// the limit, and holds no more than that.
    @Test func anEndlessLineIsRefusedAsItArrives() {
        let zeros = Data(count: 1 << 20)
        for make in [{ VCardReader() as any ChunkReader }, { CSVReader() }, { ContactJSONReader() }] {
            var reader = make()
            var errors: [InterchangeError] = []
            for _ in 0..<10 {
                for result in reader.feed(zeros) {
                    if case let .failure(error) = result { errors.append(error) }
                }
                if !errors.isEmpty { break }
            }
            #expect(errors.first?.line == 1, "\(type(of: reader)): \(errors)")
        }
    }

    /// An unclosed JSON string or array is refused after at most the limit.
    @Test func jsonThatNeverClosesIsRefusedAtTheLimit() {
        var reader = ContactJSONReader()
        var results = reader.feed(text: "[\n{\"name\": \"A\", \"note\": [")
        let brackets = Data(repeating: UInt8(ascii: "["), count: 1 << 20)
        for _ in 0..<10 where results.isEmpty { results += reader.feed(brackets) }
        guard case let .failure(error) = results.first else {
            Issue.record("no error: \(results)")
            return
        }
        #expect(error.line == 2)
        #expect(error.message.contains("longer than"))
    }

    /// The streaming JSON reader gives what the whole-file decoder gives, line for line.
    @Test func jsonReadAsItArrivesMatchesTheWholeFile() throws {
        let text = """
            [
              {"name": "Ada", "uid": "a", "emails": [{"value": "ada@example.com", "label": "work"}]},
              {"name": "Bob", "uid": "b"}
            ]
            """
        var reader = ContactJSONReader()
        var records: [InterchangeRecord] = []
        for byte in text.utf8 {
            for result in reader.feed(Data([byte])) { records.append(try result.get()) }
        }
        records += try reader.finishAll()
        #expect(records == (try ContactJSONCoding.decode(Data(text.utf8))))
        #expect(records.map(\.line) == [2, 3])
    }

    /// A number where an integer belongs said only "The given data was not valid JSON.".
    @Test func aJSONTypeErrorNamesTheRecordTheKeyAndTheExpectation() {
        var reader = ContactJSONReader()
        let results = reader.feed(text: "[\n{\"name\":\"E\",\"id\":1},\n{\"name\":\"F\",\"id\":1.5}]")
        guard results.count == 2, case let .failure(error) = results[1] else {
            Issue.record("\(results)")
            return
        }
        #expect(error.line == 3)
        #expect(error.message.contains("\"id\""), "\(error)")
        #expect(error.message.contains("an integer"), "\(error)")
        #expect(error.message.contains("1.5"), "\(error)")
        #expect(error.message.contains("contact 2"), "\(error)")
    }

    /// A UTF-16 file was refused without a word about its encoding.
    @Test func aUTF16FileIsRefusedNamingItsEncoding() {
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada\r\nEND:VCARD\r\n"
        var little = Data([0xFF, 0xFE])
        for unit in text.utf16 { little.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
        var big = Data([0xFE, 0xFF])
        for unit in text.utf16 { big.append(contentsOf: [UInt8(unit >> 8), UInt8(unit & 0xFF)]) }
        let cases: [(any ChunkReader, Data, String)] = [
            (VCardReader(), little, "UTF-16LE"), (VCardReader(), big, "UTF-16BE"), (CSVReader(), little, "UTF-16LE"),
            (ContactJSONReader(), little, "UTF-16LE"), (VCardReader(), little.dropFirst(2), "UTF-16LE"),
        ]
        for (reader, data, name) in cases {
            var reader = reader
            var results = reader.feed(data)
            do { results += try reader.finishAll().map { .success($0) } } catch { results.append(.failure(error)) }
            guard case let .failure(error) = results.first else {
                Issue.record("\(type(of: reader)) read \(name): \(results)")
                continue
            }
            #expect(error.message.contains(name), "\(type(of: reader)): \(error)")
        }
    }
}
