import Foundation
import Testing

/// What the README shows is what carnet prints.
@Suite struct ReadmeTests {
    let box = Sandbox()
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    @Test func theListJSONExampleHasTheShapeCarnetPrints() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let start = try #require(text.range(of: "$ carnet list --json\n"))
        let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
        let example = String(text[start.upperBound..<end.lowerBound])

        box.carnetInProcess(["add", "--name", "Madison Thompson", "--position", "Sales, Gale Foods",
                    "--email", "madison@example.com", "--phone", "555 0101"])
        box.carnetInProcess(["favorite", "1"])
        let printed = box.carnetInProcess(["list", "--json"]).stdout.trimmingCharacters(in: .newlines)
        // The same lines, once the values that differ on every run are masked.
        let mask = { (json: String) in
            json.replacingOccurrences(of: #""(createdAt|updatedAt|uid)":"[^"]*""#, with: "\"$1\":\"…\"", options: .regularExpression)
        }
        #expect(mask(example) == mask(printed), "README:\n\(example)\ncarnet:\n\(printed)")
    }
}
