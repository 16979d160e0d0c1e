import Foundation
import TestNeeds
import Testing

/// What the README and the guides in docs/ show is what carnet prints, and every link in them
/// leads somewhere.
@Suite struct GuideTests {
    let box = Sandbox()
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var guides: [URL] {
        let docs = root.appendingPathComponent("docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return [root.appendingPathComponent("README.md")]
            + names.filter { $0.hasSuffix(".md") }.sorted().map { docs.appendingPathComponent($0) }
    }

    @Test func theListJSONExampleHasTheShapeCarnetPrints() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/cli.md"), encoding: .utf8)
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
        #expect(mask(example) == mask(printed), "docs/cli.md:\n\(example)\ncarnet:\n\(printed)")
    }

    /// `make build` runs `deps`. Where there is no apt-get (macOS, other Linuxes) it installs
    /// nothing: it looks for the headers the build needs where the C compiler looks, stops naming
    /// the one it cannot find, and otherwise only names the programs the tests would start. This
    /// is the path a Mac takes, run here by emptying `APT_GET` as `make` would find it there.
    @Test func makeDepsWithoutAptGetInstallsNothingAndNamesAMissingHeader() {
        let make = TestTool.path("make"), root = Self.root.path
        let found = box.run(make, ["-s", "deps", "APT_GET="], cwd: root)
        #expect(found.status == 0 && !found.stdout.contains("Installing"), "\(found)")
        let missing = box.run(make, ["-s", "deps", "APT_GET=", "CC=cc -nostdinc"], cwd: root)
        #expect(missing.status != 0, "\(missing)")
        #expect(missing.stdout.contains("make deps: <sqlite3.h> not found: install SQLite's and libedit's headers"), "\(missing)")
    }

    /// The embedding guide and the DocC article show lines of Examples/EmbedCarnet, which `make
    /// test` builds and runs: each Swift block (but a Package.swift excerpt) is a run of that
    /// program's lines, so the guide's code compiles as written.
    @Test func theEmbeddingGuidesCodeIsTheExamplesCode() throws {
        let program = try String(contentsOf: Self.root.appendingPathComponent("Examples/EmbedCarnet/Sources/EmbedCarnet/main.swift"), encoding: .utf8)
        func lines(_ text: Substring) -> [String] {
            text.split(separator: "\n").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let source = lines(Substring(program))
        for guide in ["docs/embedding.md", "Sources/CarnetState/CarnetState.docc/Embedding.md"] {
            let text = try String(contentsOf: Self.root.appendingPathComponent(guide), encoding: .utf8)
            let blocks: [String] = text.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
            #expect(blocks.count >= 5, "\(guide)")
            for block in blocks where !block.hasPrefix("// Package.swift") && !block.hasPrefix("dependencies:") {
                let shown = lines(Substring(block))
                var found = false
                for start in source.indices where start + shown.count <= source.count {
                    if Array(source[start..<(start + shown.count)]) == shown { found = true }
                }
                #expect(found, "\(guide): this block is not lines of Examples/EmbedCarnet:\n\(block)")
            }
        }
    }

    /// The README's tour works when a newcomer types it in its own order, in an empty directory
    /// with a new address book (the two sync lines need a server: SyncCommandTests has one).
    @Test func theReadmeTourRunsInItsOwnOrder() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(text.range(of: "## A tour in ten commands\n\n```sh\n"))
        let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
        let block = text[start.upperBound..<end.lowerBound].replacingOccurrences(of: "\\\n", with: " ")
        var ran = 0
        for line in block.split(separator: "\n") {
            let words = Self.shellWords(String(line))
            #expect(words.first == "carnet", "\(line)")
            guard words.count > 1, words[1] != "sync" else { continue }
            let run = box.carnet(Array(words.dropFirst()), cwd: box.dir.path)
            #expect(run.status == 0, "README: \(line)\n\(run)")
            ran += 1
        }
        #expect(ran == 8)
        #expect(box.carnetInProcess(["show", "1"]).stdout.contains("Analyst"))
    }

    /// A command line as sh splits it: quotes kept together, a `#` after a space starts a comment.
    static func shellWords(_ line: String) -> [String] {
        var words: [String] = [], word = "", quote: Character?, inWord = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character; inWord = true
            } else if character == " " {
                if inWord { words.append(word); word = ""; inWord = false }
            } else if character == "#" && !inWord {
                break
            } else {
                word.append(character); inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// A newcomer reads the README first: it stays a short guide, and sends them on to docs/.
    @Test func theReadmeIsShortAndStartsWithTheTwoCommands() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count < 200)
        let lines = text.split(separator: "\n").map(String.init)
        let fence = try #require(lines.firstIndex(of: "```sh"))
        #expect(lines[fence + 1].hasPrefix("make run"))
        #expect(lines[fence + 2].hasPrefix("make test"))
    }

    /// Every relative link (and the heading it points at) exists.
    @Test(arguments: guides.map(\.lastPathComponent)) func everyLinkResolves(_ name: String) throws {
        let file = try #require(Self.guides.first { $0.lastPathComponent == name })
        let text = try String(contentsOf: file, encoding: .utf8)
        let links = try Regex(#"\]\(([^)\s]+)\)"#)
        for match in text.matches(of: links) {
            let target = String(text[match.range]).dropFirst(2).dropLast()
            guard !target.hasPrefix("http://"), !target.hasPrefix("https://"), !target.hasPrefix("mailto:") else { continue }
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let path = parts[0].isEmpty ? file : file.deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
            #expect(FileManager.default.fileExists(atPath: path.path), "\(name): \(target) does not exist")
            if parts.count == 2, path.pathExtension == "md", let linked = try? String(contentsOf: path, encoding: .utf8) {
                #expect(Self.anchors(of: linked).contains(parts[1]), "\(name): \(target) names no heading there")
            }
        }
    }

    /// GitHub's anchors: a heading lowercased, punctuation dropped, spaces made hyphens.
    static func anchors(of markdown: String) -> Set<String> {
        var anchors: Set<String> = []
        var inFence = false
        for line in markdown.split(separator: "\n") {
            if line.hasPrefix("```") { inFence.toggle() }
            guard !inFence, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            let anchor = String(title.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
            })
            anchors.insert(anchor)
        }
        return anchors
    }
}
