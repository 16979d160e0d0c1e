import Foundation
import TestNeeds
import Testing

/// The migrations whose SQL is too long to write by hand (CHECK rules made from the models'
/// character sets, forty search triggers) are written by the Python generators in
/// BuildTools/SchemaChecks. A released migration is never edited, so the generators must go on
/// writing exactly what shipped: otherwise a reader who changes a generator to understand a
/// migration is reading something that never ran.
private let python = TestTool.path("python3")

@Suite(.needs("python3"))
struct SchemaGeneratorTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: [
        ("generate_0004.py", "0004_rich_contacts.sql"),
        ("generate_0006.py", "0006_search.sql"),
        ("generate_0008.py", "0008_search_two_columns.sql"),
        ("generate_0010.py", "0010_search_national_number_once.sql"),
    ])
    func generatorWritesTheReleasedMigration(generator: String, migration: String) throws {
        let tools = Self.root.appendingPathComponent("BuildTools/SchemaChecks")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-\(UUID().uuidString)-\(migration)")
        defer { try? FileManager.default.removeItem(at: output) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [tools.appendingPathComponent(generator).path, output.path]
        process.currentDirectoryURL = tools
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(generator): \(message)")

        let written = try Data(contentsOf: output)
        let released = try Data(contentsOf: Self.root.appendingPathComponent("migrations").appendingPathComponent(migration))
        #expect(written == released, "\(generator) no longer writes migrations/\(migration) as released")
    }
}
