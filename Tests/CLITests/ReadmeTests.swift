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

        box.carnetInProcess([
            "add", "--name", "Madison Thompson", "--title", "Sales", "--organization", "Gale Foods",
            "--email", "work,pref:madison@example.com", "--email", "home:madison@home.example", "--phone", "cell:555 0101",
            "--address", "work:200 Harbor Way; Seattle; WA; 98104; USA", "--date", "birthday:1988-03-14", "--category", "work",
        ])
        box.carnetInProcess(["favorite", "1"])
        let printed = box.carnetInProcess(["list", "--json"]).stdout.trimmingCharacters(in: .newlines)
        // The same lines, once the values that differ on every run are masked.
        let mask = { (json: String) in
            json.replacingOccurrences(of: #""(createdAt|updatedAt|uid)":"[^"]*""#, with: "\"$1\":\"…\"", options: .regularExpression)
        }
        #expect(mask(example) == mask(printed), "README:\n\(example)\ncarnet:\n\(printed)")
    }
}
